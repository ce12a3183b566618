package risingtide

import (
	"slices"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

func config(t testing.TB, nonadjacent bool) rules.Config {
	t.Helper()
	g, err := rules.Lookup("rising-tide")
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]string{}
	if nonadjacent {
		vals["nonadjacent_moves"] = "true"
	}
	cfg, err := g.Configure(vals)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func newGame(t testing.TB, nonadjacent bool) *State { return New(config(t, nonadjacent)) }

// drawsFor returns the U draws that make R8's canonical shuffle of the seats in
// order (sorted ascending) produce order.
func drawsFor(order ...int) []int {
	cur := slices.Clone(order)
	slices.Sort(cur)
	var draws []int
	for i := len(cur) - 1; i >= 1; i-- {
		j := slices.Index(cur, order[i])
		draws = append(draws, j)
		cur[i], cur[j] = cur[j], cur[i]
	}
	return draws
}

// shuffledOrder is the execution order Step will draw from rng (a copy is
// consumed, rng is not).
func shuffledOrder(s *State, rng *rules.RNG) []int {
	r := *rng
	var seats []int8
	for seat := 0; seat < Seats; seat++ {
		if s.Alive(seat) {
			seats = append(seats, int8(seat))
		}
	}
	r.Shuffle(seats)
	out := make([]int, len(seats))
	for i, v := range seats {
		out[i] = int(v)
	}
	return out
}

// ref is a naive model of the rules, written from the rules file with plain
// loops, to check the bitboard engine against.
type ref struct {
	h      [Size][Size]int
	round  int
	alive  [Seats]bool
	elim   [Seats]int
	nonadj bool
}

func refOf(s *State) ref {
	var r ref
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			r.h[i][j] = s.Height(i, j)
		}
	}
	r.round, r.nonadj = s.Round(), s.Nonadjacent()
	for seat := range Seats {
		r.alive[seat] = s.Alive(seat)
		r.elim[seat] = s.EliminationRound(seat)
	}
	return r
}

func refSettlement(i, j int) bool {
	for _, p := range settlements {
		if p == [2]int{i, j} {
			return true
		}
	}
	return false
}

// legal is R10 word for word.
func (r *ref) legal(i1, j1, i2, j2 int) bool {
	in := func(i, j int) bool { return i >= 0 && i < Size && j >= 0 && j < Size }
	if !in(i1, j1) || !in(i2, j2) { // a
		return false
	}
	adi, adj := i1-i2, j1-j2
	if adi < 0 {
		adi = -adi
	}
	if adj < 0 {
		adj = -adj
	}
	if !r.nonadj && max(adi, adj) != 1 { // b
		return false
	}
	if r.h[i1][j1] < 1 { // c (flooded is −1)
		return false
	}
	if r.h[i2][j2] < 0 || r.h[i2][j2] > 7 { // d
		return false
	}
	return !refSettlement(i1, j1) && !refSettlement(i2, j2) // e
}

func refMove(m rules.Move) (i1, j1, i2, j2 int, ok bool) {
	if m.Kind != KindMove || m.N != 2 || m.Arg[0] < 0 || m.Arg[0] >= Cells || m.Arg[1] < 0 || m.Arg[1] >= Cells {
		return 0, 0, 0, 0, false
	}
	return int(m.Arg[0]) / Size, int(m.Arg[0]) % Size, int(m.Arg[1]) / Size, int(m.Arg[1]) % Size, true
}

// step plays one round of R7 with the given execution order. It returns the
// board after the moves (before the flood) and the number of executed moves.
func (r *ref) step(moves []rules.Move, order []int) (afterMoves [Size][Size]int, executed int) {
	var submitted [Seats]bool
	for seat := range Seats {
		if r.alive[seat] && seat < len(moves) {
			if i1, j1, i2, j2, ok := refMove(moves[seat]); ok && r.legal(i1, j1, i2, j2) {
				submitted[seat] = true
			}
		}
	}
	for _, seat := range order {
		if !submitted[seat] {
			continue
		}
		i1, j1, i2, j2, _ := refMove(moves[seat])
		if r.legal(i1, j1, i2, j2) {
			r.h[i1][j1]--
			r.h[i2][j2]++
			executed++
		}
	}
	afterMoves = r.h
	b := r.h
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			if b[i][j] < 0 || 100*b[i][j] >= r.round {
				continue
			}
			wet := i == 0 || j == 0 || i == Size-1 || j == Size-1
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					a, c := i+di, j+dj
					if a >= 0 && a < Size && c >= 0 && c < Size && b[a][c] < 0 {
						wet = true
					}
				}
			}
			if wet {
				r.h[i][j] = -1
			}
		}
	}
	for seat, p := range settlements {
		if r.alive[seat] && r.h[p[0]][p[1]] < 0 {
			r.alive[seat] = false
			r.elim[seat] = r.round
		}
	}
	r.round++
	return afterMoves, executed
}

// randomMoves draws one move per seat: mostly RandomMove, some far or
// garbage moves.
func randomMoves(s *State, rng *rules.RNG, moves []rules.Move) {
	for seat := range moves {
		switch rng.U(8) {
		case 0:
			moves[seat] = rules.Move{Kind: rules.MoveKind(rng.U(4)), N: uint8(rng.U(4)), Arg: [8]int16{int16(rng.U(700) - 200), int16(rng.U(700) - 200)}}
		case 1:
			moves[seat] = MakeMove(rng.U(Size), rng.U(Size), rng.U(Size), rng.U(Size))
		default:
			moves[seat] = s.RandomMove(seat, rng)
		}
	}
}
