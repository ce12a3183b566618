// Package foursquare is a test-only game that proves docs/adding-a-game.md:
// declared entirely in its own folder (engine, codec, encoder, viewer,
// registration, competition, template and NumPy twin) and linked into the
// games package's tests by one import line. It is not linked into gridgym.
//
// The rules (R-numbers as the test game's own):
//
//	R1  Two seats, X (seat 0) and O (seat 1), on an empty 4×4 board.
//	R2  The seats move in turn, X first: a move places one stone of the
//	    seat's own on an empty cell, or passes.
//	R3  A move on an occupied or off-board cell, or a malformed answer, is a pass.
//	R4  The game ends when the board is full or after 32 steps.
//	R5  A seat's score is the size of its largest group of stones joined by
//	    sides; the larger score wins, equal scores tie.
//	R6  The competition calls bot(board) with the seat's view: 4 lists of 4
//	    ints, 0 empty, 1 own, 2 the other seat's; the answer is (r, c) or
//	    None (a pass), within 0.1 s.
package foursquare

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"

	"github.com/gridgym/gridgym/rules"
)

// Name is the registry name of the game.
const Name = "four-square"

// Size is the board's side; Cells its number of cells.
const (
	Size     = 4
	Cells    = Size * Size
	MaxSteps = 32 // R4
)

// KindPlace is the move that places a stone on Arg[0] (R2).
const KindPlace rules.MoveKind = 1

// Place returns the move that places a stone on cell.
func Place(cell int) rules.Move {
	return rules.Move{Kind: KindPlace, N: 1, Arg: [8]int16{int16(cell)}}
}

// State is a game in progress.
type State struct {
	spec   *rules.Spec
	stones [2]uint16 // bit cell = r*Size+c
	steps  int
}

var spec = rules.Spec{Game: Name, Seats: 2, Sequential: true, Deterministic: true, Rows: Size, Cols: Size, MaxSteps: MaxSteps,
	ScoreName: "largest group", Tournament: rules.MeanScore}

// New returns the start position.
func New() *State { return &State{spec: &spec} }

// Spec describes the game.
func (s *State) Spec() *rules.Spec { return s.spec }

// Reset puts the game at its start position.
func (s *State) Reset() { s.stones, s.steps = [2]uint16{}, 0 }

func (s *State) empty() uint16 { return ^(s.stones[0] | s.stones[1]) }

// Done reports whether the game has ended (R4).
func (s *State) Done() bool { return s.steps >= MaxSteps || s.empty() == 0 }

// Steps is the number of steps played.
func (s *State) Steps() int { return s.steps }

// Active reports whether seat moves next (R2).
func (s *State) Active(seat int) bool { return !s.Done() && seat == s.steps%2 }

// Legal reports whether m is a pass or a placement on an empty cell (R2, R3).
func (s *State) Legal(seat int, m rules.Move) bool {
	if !s.Active(seat) {
		return false
	}
	if m == (rules.Move{}) {
		return true
	}
	return m.Kind == KindPlace && m.N == 1 && m.Arg[0] >= 0 && m.Arg[0] < Cells && m.Arg[1] == 0 && s.empty()>>uint(m.Arg[0])&1 == 1 && m == Place(int(m.Arg[0]))
}

// LegalMoves appends seat's legal moves: every empty cell, then the pass.
func (s *State) LegalMoves(seat int, dst []rules.Move) []rules.Move {
	if !s.Active(seat) {
		return dst
	}
	for e := s.empty(); e != 0; e &= e - 1 {
		dst = append(dst, Place(bits.TrailingZeros16(e)))
	}
	return append(dst, rules.Move{})
}

// RandomMove returns a uniformly random legal move of seat.
func (s *State) RandomMove(seat int, rng *rules.RNG) rules.Move {
	if !s.Active(seat) {
		return rules.Move{}
	}
	e := s.empty()
	k := rng.U(bits.OnesCount16(e) + 1)
	for ; e != 0; e &= e - 1 {
		if k == 0 {
			return Place(bits.TrailingZeros16(e))
		}
		k--
	}
	return rules.Move{}
}

// Step plays the active seat's move (R2, R3).
func (s *State) Step(moves []rules.Move, _ *rules.RNG) {
	if s.Done() {
		return
	}
	seat := s.steps % 2
	if m := moves[seat]; m.Kind == KindPlace && s.Legal(seat, m) {
		s.stones[seat] |= 1 << uint(m.Arg[0])
	}
	s.steps++
}

// group returns the size of the largest side-joined group in b (R5).
func group(b uint16) int {
	best := 0
	for b != 0 {
		g := b & -b
		for {
			n := g | (g<<1)&0xeeee | (g>>1)&0x7777 | g<<Size | g>>Size
			n &= b
			if n == g {
				break
			}
			g = n
		}
		best = max(best, bits.OnesCount16(g))
		b &^= g
	}
	return best
}

// Outcome scores the position (R5).
func (s *State) Outcome(o *rules.Outcome) {
	for seat := range 2 {
		o.Score[seat] = float64(group(s.stones[seat]))
	}
	rules.PointsFromKeys(o.Score, o)
}

// AppendWords appends the state as one word.
func (s *State) AppendWords(dst []uint64) []uint64 {
	return append(dst, uint64(s.stones[0])|uint64(s.stones[1])<<16|uint64(s.steps)<<32)
}

// SetWords restores AppendWords' word.
func (s *State) SetWords(w []uint64) error {
	if len(w) != 1 {
		return fmt.Errorf("four-square: %d words, want 1", len(w))
	}
	x, o, steps := uint16(w[0]), uint16(w[0]>>16), int(w[0]>>32)
	if x&o != 0 || steps > MaxSteps {
		return fmt.Errorf("four-square: bad word %#x", w[0])
	}
	s.stones, s.steps = [2]uint16{x, o}, steps
	return nil
}

// Check verifies the invariants: no cell holds two stones, a seat has at
// most one stone more than its turns.
func (s *State) Check() error {
	if s.stones[0]&s.stones[1] != 0 || s.steps > MaxSteps {
		return errors.New("four-square: overlapping stones or too many steps")
	}
	if bits.OnesCount16(s.stones[0]) > (s.steps+1)/2 || bits.OnesCount16(s.stones[1]) > s.steps/2 {
		return errors.New("four-square: more stones than turns")
	}
	return nil
}

// CopyFrom makes s a copy of src.
func (s *State) CopyFrom(src rules.State) { *s = *src.(*State) }

// Clone returns a copy.
func (s *State) Clone() rules.State { c := *s; return &c }

// at returns 0 for an empty cell, 1 + the seat of its stone otherwise.
func (s *State) at(cell int) int {
	switch {
	case s.stones[0]>>uint(cell)&1 == 1:
		return 1
	case s.stones[1]>>uint(cell)&1 == 1:
		return 2
	}
	return 0
}

// Render draws the board and the step.
func (s *State) Render(w io.Writer, _ bool) {
	var b []byte
	for r := range Size {
		for c := range Size {
			b = append(b, ".01"[s.at(r*Size+c)])
		}
		b = append(b, '\n')
	}
	b = fmt.Appendf(b, "step %d/%d\n", s.steps, MaxSteps)
	w.Write(b)
}

// Cells implements rules.Viewer.
func (s *State) Cells(dst []rules.CellView) []rules.CellView {
	for cell := range Cells {
		v := s.at(cell)
		dst = append(dst, rules.CellView{Fill: int8(v - 1), Piece: -1, Num: -1, Glyph: ".01"[v]})
	}
	return dst
}

// MoveText implements rules.Viewer.
func (s *State) MoveText(_ int, m rules.Move) string {
	if m.Kind != KindPlace {
		return "pass"
	}
	return "(" + strconv.Itoa(int(m.Arg[0])/Size) + "," + strconv.Itoa(int(m.Arg[0])%Size) + ")"
}
