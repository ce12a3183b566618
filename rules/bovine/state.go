package bovine

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bitboard"
)

// Board geometry and limits (R1, R3, R5).
const (
	Size      = 20     // rows and columns
	Cells     = 400    // Size²
	Seats     = 4      // farmers
	MaxRounds = 10_000 // R5, R14
	Empty     = -1     // Cell's value for an empty cell
	NumWords  = 82     // length of AppendWords' output (see the package doc)
)

// Move kinds (package doc, "Move encoding").
const (
	// Full is a full move: Arg[0] = source cell, Arg[1] = destination cell.
	Full rules.MoveKind = 1
	// Dst is a destination-only move: Arg[0] = destination cell (R8).
	Dst rules.MoveKind = 2
)

const (
	rowMask  = 1<<Size - 1 // the 20 column bits of a row word
	allAlive = 1<<Seats - 1
)

// barnRow and barnCol hold each seat's barn (R3), clockwise from the top left.
var (
	barnRow = [Seats]int{0, 0, Size - 1, Size - 1}
	barnCol = [Seats]int{0, Size - 1, Size - 1, 0}
)

// board is one cell set: one word per row, bit c of word r = cell (r, c).
type board = [Size]uint64

// grids[h] is the geometry of h rows of the board, for fills over row ranges.
var grids [Size + 1]bitboard.Grid

func init() {
	for h := 1; h <= Size; h++ {
		grids[h] = bitboard.New(h, Size)
	}
}

// State is a Bovine Borders game. A pointer to it implements rules.State and
// rules.Checker.
type State struct {
	spec   rules.Spec
	nonadj bool // variant nonadjacent_moves (§6)

	own     [Seats]board // R2: cows of each seat
	round   int          // rounds played (R5: the last round number)
	alive   uint8        // bit s: seat s alive
	elim    [Seats]int   // elimination round, 0 while alive (R12)
	elimSeq [Seats]uint8 // 1-based order of elimination, 0 while alive (R17)
	nElim   uint8        // seats eliminated so far

	// conn[s] is seat s's connected set (R4) when bit s of connOK is set: a
	// cache kept exact by cheap local updates and refilled lazily otherwise.
	conn   [Seats]board
	connOK uint8

	// Per-round scratch of Step (kept here so Step allocates nothing).
	src, dst [Seats]int16 // submitted move per seat, src < 0 = pass
	order    [Seats]int8  // execution order (R9)
}

// New returns a game at its start position for a validated config of
// "bovine-borders".
func New(cfg rules.Config) *State {
	return newState(cfg.Bool(ParamNonadjacent))
}

func newState(nonadj bool) *State {
	s := &State{
		spec: rules.Spec{
			Game: Name, Seats: Seats, Rows: Size, Cols: Size,
			MaxSteps: MaxRounds, ScoreName: "points", Tournament: rules.MeanPoints,
		},
		nonadj: nonadj,
	}
	s.Reset()
	return s
}

// Spec implements rules.State.
func (s *State) Spec() *rules.Spec { return &s.spec }

// Nonadjacent reports whether the nonadjacent_moves variant is on (§6).
func (s *State) Nonadjacent() bool { return s.nonadj }

// Reset implements rules.State: each barn holds its seat's cow, every other
// cell is empty, all seats are alive (R3).
func (s *State) Reset() {
	s.own = [Seats]board{}
	s.conn = [Seats]board{}
	for seat := 0; seat < Seats; seat++ {
		s.own[seat][barnRow[seat]] = 1 << uint(barnCol[seat])
		s.conn[seat] = s.own[seat]
	}
	s.connOK = allAlive
	s.round = 0
	s.alive = allAlive
	s.elim = [Seats]int{}
	s.elimSeq = [Seats]uint8{}
	s.nElim = 0
}

// Done implements rules.State: at most one seat alive, or round 10 000 played (R14).
func (s *State) Done() bool {
	return bits.OnesCount8(s.alive) <= 1 || s.round >= MaxRounds
}

// Steps implements rules.State: the number of rounds played.
func (s *State) Steps() int { return s.round }

// Round is the number of the last round played (R5: rounds are 1-based; 0
// before the first).
func (s *State) Round() int { return s.round }

// Active implements rules.State: seat is alive and the game goes on (R6.1).
func (s *State) Active(seat int) bool { return s.Alive(seat) && !s.Done() }

// Alive reports whether seat is still in the game (R12, R13).
func (s *State) Alive(seat int) bool {
	return seat >= 0 && seat < Seats && s.alive>>uint(seat)&1 != 0
}

// AliveCount is the number of live seats.
func (s *State) AliveCount() int { return bits.OnesCount8(s.alive) }

// EliminatedRound is the round in which seat was eliminated, 0 while it is alive (R12).
func (s *State) EliminatedRound(seat int) int {
	if seat < 0 || seat >= Seats {
		return 0
	}
	return s.elim[seat]
}

// Territory is the number of cells seat owns (R2).
func (s *State) Territory(seat int) int {
	if seat < 0 || seat >= Seats {
		return 0
	}
	return bitboard.Count(s.own[seat][:])
}

// Cell returns the seat owning (r, c), or Empty (also for cells off the board).
func (s *State) Cell(r, c int) int {
	if uint(r) >= Size || uint(c) >= Size {
		return Empty
	}
	return s.owner(r, c)
}

func (s *State) owner(r, c int) int {
	b := uint64(1) << uint(c)
	for seat := 0; seat < Seats; seat++ {
		if s.own[seat][r]&b != 0 {
			return seat
		}
	}
	return Empty
}

// Bits returns seat's cows as one word per row (bit c of word r = cell (r, c)),
// for encoders and bots that work on bitboards.
func (s *State) Bits(seat int) [Size]uint64 { return s.own[seat] }

// Connected returns seat's connected cells (R4): those joined to its barn by a
// side-adjacent path of its own cows. It does not change s.
func (s *State) Connected(seat int) [Size]uint64 {
	if s.connOK>>uint(seat)&1 != 0 {
		return s.conn[seat]
	}
	var c board
	s.fill(seat, &c)
	return c
}

// Barn returns seat's barn cell (R3).
func Barn(seat int) (r, c int) { return barnRow[seat], barnCol[seat] }

// SetCell makes (r, c) empty (owner = Empty) or a cow of owner, for building
// custom states in tests (README "custom states"). It applies no rule: no
// elimination happens, and the caller keeps barns owned by live seats (Check
// says when not).
func (s *State) SetCell(r, c, owner int) {
	b := uint64(1) << uint(c)
	for seat := 0; seat < Seats; seat++ {
		s.own[seat][r] &^= b
	}
	if owner >= 0 {
		s.own[owner][r] |= b
	}
	s.connOK = 0
}

// SetRound sets the number of rounds played, for custom states.
func (s *State) SetRound(t int) { s.round = t }

// SetEliminated marks seat as eliminated in round t and clears its cows, for
// custom states; seats eliminated by successive calls count as eliminated in
// that order (R17).
func (s *State) SetEliminated(seat, t int) {
	s.alive &^= 1 << uint(seat)
	s.own[seat] = board{}
	s.conn[seat] = board{}
	s.elim[seat] = t
	s.nElim++
	s.elimSeq[seat] = s.nElim
}

// CopyFrom implements rules.State; src must be a *State.
func (s *State) CopyFrom(src rules.State) { *s = *src.(*State) }

// Clone implements rules.State.
func (s *State) Clone() rules.State {
	c := *s
	return &c
}

// AppendWords implements rules.State with the layout of the package doc.
func (s *State) AppendWords(dst []uint64) []uint64 {
	for seat := 0; seat < Seats; seat++ {
		dst = append(dst, s.own[seat][:]...)
	}
	w := uint64(s.round) | uint64(s.alive)<<16
	var e uint64
	for seat := 0; seat < Seats; seat++ {
		w |= uint64(s.elimSeq[seat]) << uint(20+3*seat)
		e |= uint64(s.elim[seat]) << uint(16*seat)
	}
	return append(dst, w, e)
}

// SetWords implements rules.State. It rejects words of the wrong length and
// any content that breaks an invariant (Check), leaving s unchanged then.
func (s *State) SetWords(w []uint64) error {
	if len(w) != NumWords {
		return fmt.Errorf("bovine: SetWords: got %d words, want %d", len(w), NumWords)
	}
	if w[80]>>32 != 0 {
		return fmt.Errorf("bovine: SetWords: word 80 has unused bits set (%#x)", w[80])
	}
	t := *s
	for seat := 0; seat < Seats; seat++ {
		copy(t.own[seat][:], w[20*seat:20*seat+20])
	}
	t.round = int(w[80] & 0xffff)
	t.alive = uint8(w[80] >> 16 & 0xf)
	t.nElim = 0
	for seat := 0; seat < Seats; seat++ {
		t.elimSeq[seat] = uint8(w[80] >> uint(20+3*seat) & 7)
		t.elim[seat] = int(w[81] >> uint(16*seat) & 0xffff)
		if t.elimSeq[seat] > t.nElim {
			t.nElim = t.elimSeq[seat]
		}
	}
	t.connOK = 0
	if err := t.Check(); err != nil {
		return fmt.Errorf("bovine: SetWords: %w", err)
	}
	*s = t
	return nil
}

// Check implements rules.Checker: the invariants of §8 that hold in every
// position (I1, I2, I4) and the consistency of the connectivity cache.
func (s *State) Check() error {
	if s.round < 0 || s.round > MaxRounds {
		return fmt.Errorf("I4: round %d outside 0..%d", s.round, MaxRounds)
	}
	if s.alive > allAlive {
		return fmt.Errorf("alive mask %#x has bits beyond seat 3", s.alive)
	}
	if !s.nonadj && s.alive == 0 {
		return errors.New("I2: no seat alive under the default rules")
	}
	for r := 0; r < Size; r++ {
		var seen uint64
		for seat := 0; seat < Seats; seat++ {
			w := s.own[seat][r]
			if w&^rowMask != 0 {
				return fmt.Errorf("I1: seat %d row %d has bits beyond column 19 (%#x)", seat, r, w)
			}
			if w&seen != 0 {
				return fmt.Errorf("I1: a cell of row %d is owned by two seats (seat %d and another)", r, seat)
			}
			seen |= w
		}
	}
	seqs := uint8(0)
	for seat := 0; seat < Seats; seat++ {
		if s.Alive(seat) {
			if s.elim[seat] != 0 || s.elimSeq[seat] != 0 {
				return fmt.Errorf("I1: live seat %d has elimination round %d, sequence %d", seat, s.elim[seat], s.elimSeq[seat])
			}
			if !bitboard.Has(s.own[seat][:], barnRow[seat], barnCol[seat]) {
				return fmt.Errorf("I1: live seat %d does not own its barn (%d,%d)", seat, barnRow[seat], barnCol[seat])
			}
			if s.connOK>>uint(seat)&1 != 0 {
				var c board
				s.fill(seat, &c)
				if c != s.conn[seat] {
					return fmt.Errorf("R4: seat %d's cached connected set is stale", seat)
				}
			}
			continue
		}
		if !bitboard.Empty(s.own[seat][:]) {
			return fmt.Errorf("I1: eliminated seat %d owns %d cells", seat, s.Territory(seat))
		}
		if s.elim[seat] < 1 || s.elim[seat] > s.round {
			return fmt.Errorf("R12: eliminated seat %d has elimination round %d, not in 1..%d", seat, s.elim[seat], s.round)
		}
		q := s.elimSeq[seat]
		if q < 1 || q > Seats || seqs>>(q-1)&1 != 0 {
			return fmt.Errorf("R17: eliminated seat %d has bad or repeated elimination sequence %d", seat, q)
		}
		seqs |= 1 << (q - 1)
	}
	if int(s.nElim) != bits.OnesCount8(seqs) || seqs != 1<<s.nElim-1 {
		return fmt.Errorf("R17: elimination sequence numbers %b are not 1..%d", seqs, s.nElim)
	}
	return nil
}

// Outcome implements rules.State. The ranking is R15 (live seats by territory,
// then eliminated seats by elimination round, later better; equal keys tie);
// Points and Win follow R16, and Score is the points (the tournament score).
func (s *State) Outcome(o *rules.Outcome) {
	var keys [Seats]float64
	for seat := 0; seat < Seats; seat++ {
		if s.Alive(seat) {
			keys[seat] = float64(2*MaxRounds + s.Territory(seat))
		} else {
			keys[seat] = float64(s.elim[seat])
		}
	}
	rules.PointsFromKeys(keys[:], o)
	copy(o.Score, o.Points)
}

// ControllerList returns the seat list the official controller's Board.run()
// returns (R17): live seats by (territory, seat index) descending, then
// eliminated seats by elimination round descending, same-round eliminations
// in the order they happened. gridgym ranks by R15 instead, with ties.
func (s *State) ControllerList() [Seats]int {
	var out [Seats]int
	n := 0
	for seat := Seats - 1; seat >= 0; seat-- { // insertion sort, stable on seat order
		if !s.Alive(seat) {
			continue
		}
		i := n
		for i > 0 && s.Territory(out[i-1]) < s.Territory(seat) {
			out[i] = out[i-1]
			i--
		}
		out[i] = seat
		n++
	}
	live := n
	for q := uint8(1); q <= s.nElim; q++ { // in elimination order
		for seat := 0; seat < Seats; seat++ {
			if s.Alive(seat) || s.elimSeq[seat] != q {
				continue
			}
			i := n
			for i > live && s.elim[out[i-1]] < s.elim[seat] {
				out[i] = out[i-1]
				i--
			}
			out[i] = seat
			n++
		}
	}
	return out
}
