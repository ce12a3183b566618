package rectangle

import (
	"fmt"
	"sort"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// ref is a direct, per-cell reading of R7–R15 with a brute-force candidate
// search over every rectangle, written independently of the bitboard engine
// to cross-check it.
type ref struct {
	n, p, b, k, m int
	cell          [][]int // −2 unpaintable, −1 unpainted, player
	rr, rc        [][]int
	score         []int
	steps, idle   int
	done          bool
	onlyNew       bool // consider only rectangles with a newly painted boundary cell (I5)
	claims        []Claim
}

func newRef(s *State) *ref {
	f := &ref{n: s.n, p: s.p, b: s.b, k: s.idleK, m: s.maxMoves, steps: int(s.steps), idle: int(s.idle), done: s.done}
	f.cell = make([][]int, s.n)
	for r := range f.cell {
		f.cell[r] = make([]int, s.n)
		for c := range f.cell[r] {
			f.cell[r][c] = s.Cell(r, c)
		}
	}
	f.rr, f.rc, f.score = make([][]int, s.p), make([][]int, s.p), make([]int, s.p)
	for i := 0; i < s.p; i++ {
		f.score[i] = s.Score(i)
		f.rr[i], f.rc[i] = make([]int, s.b), make([]int, s.b)
		for k := 0; k < s.b; k++ {
			f.rr[i][k], f.rc[i][k] = s.Robot(i, k)
		}
	}
	return f
}

func (f *ref) step(moves []rules.Move) {
	if f.done {
		return
	}
	arrived := make([][]bool, f.p)
	for i := 0; i < f.p; i++ {
		arrived[i] = make([]bool, f.b)
		m := moves[i]
		if f.steps == 0 {
			ok := m.Kind == 1 && int(m.N) == f.b
			for k := 0; k < f.b && ok; k++ {
				ok = m.Arg[k] >= 0 && int(m.Arg[k]) < f.n*f.n
			}
			for k := 0; k < f.b; k++ {
				f.rr[i][k], f.rc[i][k] = 0, 0
				if ok {
					f.rr[i][k], f.rc[i][k] = int(m.Arg[k])/f.n, int(m.Arg[k])%f.n
				}
				arrived[i][k] = true
			}
			continue
		}
		ok := m.Kind == 2 && int(m.N) == f.b
		for k := 0; k < f.b && ok; k++ {
			ok = m.Arg[k] >= 0 && m.Arg[k] <= 4
		}
		if !ok {
			continue
		}
		for k := 0; k < f.b; k++ {
			r, c := f.rr[i][k], f.rc[i][k]
			switch m.Arg[k] {
			case 0:
				r--
			case 1:
				c++
			case 2:
				r++
			case 3:
				c--
			}
			if r >= 0 && r < f.n && c >= 0 && c < f.n && (r != f.rr[i][k] || c != f.rc[i][k]) {
				f.rr[i][k], f.rc[i][k] = r, c
				arrived[i][k] = true
			}
		}
	}
	// R10
	count := map[[2]int]int{}
	for i := 0; i < f.p; i++ {
		for k := 0; k < f.b; k++ {
			count[[2]int{f.rr[i][k], f.rc[i][k]}]++
		}
	}
	isNew := map[[3]int]bool{}
	for i := 0; i < f.p; i++ {
		for k := 0; k < f.b; k++ {
			r, c := f.rr[i][k], f.rc[i][k]
			switch {
			case count[[2]int{r, c}] >= 2:
				if f.cell[r][c] >= 0 {
					f.cell[r][c] = -1
				}
			case arrived[i][k] && f.cell[r][c] != -2:
				if f.cell[r][c] != i {
					isNew[[3]int{i, r, c}] = true
				}
				f.cell[r][c] = i
			}
		}
	}
	// R11
	type cand struct{ gain, i, r1, c1, r2, c2 int }
	var cands []cand
	for i := 0; i < f.p; i++ {
		for r1 := 0; r1 < f.n; r1++ {
			for r2 := r1 + 2; r2 < f.n; r2++ {
				for c1 := 0; c1 < f.n; c1++ {
					for c2 := c1 + 2; c2 < f.n; c2++ {
						if !f.complete(i, r1, c1, r2, c2) {
							continue
						}
						if f.onlyNew && !f.hasNew(isNew, i, r1, c1, r2, c2) {
							continue
						}
						if g := f.gain(r1, c1, r2, c2); g >= 1 {
							cands = append(cands, cand{g, i, r1, c1, r2, c2})
						}
					}
				}
			}
		}
	}
	// R12
	sort.Slice(cands, func(a, b int) bool {
		x, y := cands[a], cands[b]
		if x.gain != y.gain {
			return x.gain > y.gain
		}
		if x.i != y.i {
			return x.i < y.i
		}
		if x.r1 != y.r1 {
			return x.r1 < y.r1
		}
		if x.c1 != y.c1 {
			return x.c1 < y.c1
		}
		if x.r2 != y.r2 {
			return x.r2 < y.r2
		}
		return x.c2 < y.c2
	})
	f.claims = f.claims[:0]
	for _, x := range cands {
		if !f.complete(x.i, x.r1, x.c1, x.r2, x.c2) {
			continue
		}
		g := f.gain(x.r1, x.c1, x.r2, x.c2)
		if g < 1 {
			continue
		}
		f.score[x.i] += g
		for r := x.r1 + 1; r < x.r2; r++ {
			for c := x.c1 + 1; c < x.c2; c++ {
				f.cell[r][c] = -2
			}
		}
		f.claims = append(f.claims, Claim{x.i, x.r1, x.c1, x.r2, x.c2, g})
	}
	// R14, R15
	t := f.steps
	f.steps++
	if t == 0 || len(f.claims) > 0 {
		f.idle = 0
	} else {
		f.idle++
	}
	f.done = t >= 1 && (f.idle >= f.k || t >= f.m)
}

func (f *ref) complete(i, r1, c1, r2, c2 int) bool {
	for c := c1; c <= c2; c++ {
		if f.cell[r1][c] != i || f.cell[r2][c] != i {
			return false
		}
	}
	for r := r1; r <= r2; r++ {
		if f.cell[r][c1] != i || f.cell[r][c2] != i {
			return false
		}
	}
	return true
}

func (f *ref) hasNew(isNew map[[3]int]bool, i, r1, c1, r2, c2 int) bool {
	for r := r1; r <= r2; r++ {
		for c := c1; c <= c2; c++ {
			if (r == r1 || r == r2 || c == c1 || c == c2) && isNew[[3]int{i, r, c}] {
				return true
			}
		}
	}
	return false
}

func (f *ref) gain(r1, c1, r2, c2 int) int {
	g := 0
	for r := r1 + 1; r < r2; r++ {
		for c := c1 + 1; c < c2; c++ {
			if f.cell[r][c] != -2 {
				g++
			}
		}
	}
	return g
}

// diff describes the first difference between the engine and the reference.
func (f *ref) diff(s *State) string {
	if f.steps != s.Steps() || f.idle != s.Idle() || f.done != s.Done() {
		return fmt.Sprintf("counters: ref steps %d idle %d done %v, engine %d %d %v", f.steps, f.idle, f.done, s.Steps(), s.Idle(), s.Done())
	}
	for i := 0; i < f.p; i++ {
		if f.score[i] != s.Score(i) {
			return fmt.Sprintf("score of player %d: ref %d, engine %d", i, f.score[i], s.Score(i))
		}
		for k := 0; k < f.b; k++ {
			if r, c := s.Robot(i, k); r != f.rr[i][k] || c != f.rc[i][k] {
				return fmt.Sprintf("robot %d of player %d: ref (%d,%d), engine (%d,%d)", k, i, f.rr[i][k], f.rc[i][k], r, c)
			}
		}
	}
	for r := 0; r < f.n; r++ {
		for c := 0; c < f.n; c++ {
			if f.cell[r][c] != s.Cell(r, c) {
				return fmt.Sprintf("cell (%d,%d): ref %d, engine %d", r, c, f.cell[r][c], s.Cell(r, c))
			}
		}
	}
	if s.ClaimCount() != len(f.claims) {
		return fmt.Sprintf("claims: ref %v, engine %v", f.claims, s.LastClaims())
	}
	for k, c := range s.LastClaims() {
		if c != f.claims[k] {
			return fmt.Sprintf("claim %d: ref %+v, engine %+v", k, f.claims[k], c)
		}
	}
	return ""
}

// looper makes moves that close many rectangles: each robot walks the
// perimeter of its own square (side 3..6) and now and then does something
// random, so claims, nested and overlapping candidates and equal gains occur.
type looper struct {
	side, phase [maxSeats][MaxRobots]int
	noise       int // out of 256
}

func (l *looper) moves(s *State, rng *rules.RNG, dst []rules.Move) {
	for i := 0; i < s.p; i++ {
		if s.Placement() {
			dst[i] = s.RandomMove(i, rng)
			for k := 0; k < s.b; k++ {
				l.side[i][k], l.phase[i][k] = 2+rng.U(4), rng.U(4)
			}
			continue
		}
		if rng.U(256) < 4 {
			dst[i] = garbageFor(rng)
			continue
		}
		m := rules.Move{Kind: KindMove, N: uint8(s.b)}
		for k := 0; k < s.b; k++ {
			// phase counts steps along the perimeter: side steps per edge.
			e := l.phase[i][k] / l.side[i][k] % 4
			m.Arg[k] = [4]Dir{East, South, West, North}[e]
			l.phase[i][k]++
			if rng.U(256) < l.noise {
				m.Arg[k] = Dir(rng.U(5))
				l.side[i][k] = 2 + rng.U(4)
			}
		}
		dst[i] = m
	}
}

func garbageFor(rng *rules.RNG) rules.Move {
	m := rules.Move{Kind: rules.MoveKind(rng.U(4)), N: uint8(rng.U(10))}
	for k := range m.Arg {
		m.Arg[k] = int16(rng.U(20) - 5)
	}
	return m
}

// TestReference plays many small games with loopers and random moves and
// compares the engine with the reference after every step: same robots,
// board, scores, counters and claims (R7–R15). It also runs the engine with a
// two-key candidate buffer, which forces the batched claim path.
func TestReference(t *testing.T) {
	games := 120
	if testing.Short() {
		games = 30
	}
	totalClaims, multi := 0, 0
	for g := 0; g < games; g++ {
		rng := rules.NewRNG(uint64(1000 + g))
		n, p, b := 8+rng.U(5), 2+rng.U(3), 1+rng.U(8)
		s := NewSized(n, p, b, 30, 300)
		small := NewSized(n, p, b, 30, 300)
		small.sc.candLimit = 2
		f := newRef(s)
		l := &looper{noise: rng.U(40)}
		moves := make([]rules.Move, p)
		for !s.Done() {
			l.moves(s, rng, moves)
			s.Step(moves, nil)
			small.Step(moves, nil)
			f.step(moves)
			if d := f.diff(s); d != "" {
				t.Fatalf("game %d (n=%d p=%d b=%d) step %d: %s", g, n, p, b, s.Steps(), d)
			}
			if d := f.diff(small); d != "" {
				t.Fatalf("game %d (n=%d p=%d b=%d) step %d, batched claims: %s", g, n, p, b, s.Steps(), d)
			}
			mustCheck(t, s)
			totalClaims += s.ClaimCount()
			if s.sc.nCand > 1 {
				multi++
			}
		}
	}
	if totalClaims < 100 || multi < 20 {
		t.Fatalf("the test games made only %d claims and %d steps with several candidates", totalClaims, multi)
	}
	t.Logf("%d claims, %d steps with several candidates", totalClaims, multi)
}

// TestManyCandidatesBatched builds a step with thousands of candidates, more
// than the buffer holds, and compares the batched claim path with the
// reference restricted to rectangles through the new cell (I5's search).
func TestManyCandidatesBatched(t *testing.T) {
	rows := make([]string, 20)
	for r := range rows {
		b := make([]byte, 20)
		for c := range b {
			b[c] = '0'
		}
		rows[r] = string(b)
	}
	rows[10] = rows[10][:10] + "." + rows[10][11:]
	for _, limit := range []int{candCap, 7, 2} {
		s := build(t, 2, 1, rows)
		robots(s, [4]int{0, 0, 9, 10})
		s.sc.candLimit = limit
		f := newRef(s)
		f.onlyNew = true
		moves := dirs(s, "S")
		s.Step(moves, nil)
		f.step(moves)
		if d := f.diff(s); d != "" {
			t.Fatalf("limit %d: %s", limit, d)
		}
		if s.sc.nCand < 1000 {
			t.Fatalf("only %d candidates", s.sc.nCand)
		}
		if s.ClaimCount() < 2 {
			t.Fatalf("only %d claims: %v", s.ClaimCount(), s.LastClaims())
		}
	}
}
