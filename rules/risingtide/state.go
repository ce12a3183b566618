package risingtide

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bitboard"
)

// Board and game constants (R1, R4, R6).
const (
	Size      = 18          // rows and columns (R1)
	Cells     = Size * Size // 324 cells, c = i*18+j
	Seats     = 4           // seats 0..3, clockwise from the top left (R4)
	MaxRounds = 800         // rounds 0..799 (R6, R15)
	MaxHeight = 8           // heights are 0..8 (R2)
	Flooded   = -1          // the cell value of a flooded cell, as in the bot's terrain (R20)

	// KindMove is the move kind: Arg[0] = source cell, Arg[1] = destination cell.
	KindMove rules.MoveKind = 1

	numWords = 22 // compact words, see the package doc
)

// settlements lists the settlement cells (i, j) of seats 0..3 (R4).
var settlements = [Seats][2]int{{5, 5}, {5, 12}, {12, 12}, {12, 5}}

// Settlement returns the real cell (i, j) of seat's settlement, clockwise from
// the top left: (5,5), (5,12), (12,12), (12,5) (R4).
func Settlement(seat int) (i, j int) {
	p := settlements[seat&3]
	return p[0], p[1]
}

// Read-only tables built at init.
var (
	grid        = bitboard.New(Size, Size)
	settleCell  [Seats]int   // settlement cell index per seat
	isSettle    [Cells]bool  // R4: the four settlement cells
	settleBB    [Size]uint64 // the same as a bitboard
	borderBB    [Size]uint64 // the border ring, d = 0 (R3, R12)
	rowOf       [Cells]int8  // i of cell c
	colOf       [Cells]int8  // j of cell c
	startHeight [Cells]int8  // R3 with R4's overrides
	dirs        = [8][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}
	startState  State // the start position for nonadjacent_moves=false
)

func init() {
	for c := 0; c < Cells; c++ {
		i, j := c/Size, c%Size
		rowOf[c], colOf[c] = int8(i), int8(j)
		d := min(i, j, Size-1-i, Size-1-j)
		startHeight[c] = int8(min(d, 5) + 1)
		if d == 0 {
			bitboard.Set(borderBB[:], i, j)
		}
	}
	for s, p := range settlements {
		c := p[0]*Size + p[1]
		settleCell[s] = c
		isSettle[c] = true
		bitboard.Set(settleBB[:], p[0], p[1])
		startHeight[c] = 0
	}
	startState.spec = spec
	startState.h = startHeight
	startState.rebuild()
}

var spec = rules.Spec{
	Game: "rising-tide", Seats: Seats, Rows: Size, Cols: Size,
	MaxSteps: MaxRounds, ScoreName: "rounds survived", Tournament: rules.MeanScore,
}

// State is a Rising Tide position. The heights are bytes; the flooded set and
// the per-height sets the flood step needs are row-per-word bitboards derived
// from them (rebuild) and kept in step by every change.
//
//	h[c]     height 0..8 of cell c = i*18+j, or Flooded (−1)
//	flooded  cells under water (R13: never shrinks)
//	wet      border ring ∪ 8-dilation of flooded: where water can reach (R12)
//	le[k]    land cells of height ≤ k, k = 0..7 (R12's "100·h < r" is h ≤ (r−1)/100)
type State struct {
	spec    rules.Spec
	nonadj  bool // variant nonadjacent_moves: R10b dropped (§6)
	h       [Cells]int8
	flooded [Size]uint64
	wet     [Size]uint64
	le      [MaxHeight][Size]uint64
	round   int        // the next round r (= rounds played, R6)
	alive   uint8      // bit s: seat s alive (R5)
	elim    [Seats]int // elimination round of seat s, 0 while alive (R14, R16)
}

// New returns a game at the start position (R3, R4) for a validated config.
func New(cfg rules.Config) *State {
	s := &State{}
	s.nonadj = cfg.Bool("nonadjacent_moves")
	s.Reset()
	return s
}

// Reset implements rules.State: the start position of R3 and R4, round 0.
func (s *State) Reset() {
	nonadj := s.nonadj
	*s = startState
	s.nonadj = nonadj
}

// rebuild derives the bitboards and the alive set from the heights (R5).
func (s *State) rebuild() {
	s.flooded = [Size]uint64{}
	s.le = [MaxHeight][Size]uint64{}
	for c, h := range s.h {
		i, j := c/Size, c%Size
		if h < 0 {
			bitboard.Set(s.flooded[:], i, j)
			continue
		}
		for k := int(h); k < MaxHeight; k++ {
			bitboard.Set(s.le[k][:], i, j)
		}
	}
	s.wet = wetOf(&s.flooded)
	s.alive = 0
	for seat, c := range settleCell {
		if s.h[c] >= 0 {
			s.alive |= 1 << seat
		}
	}
}

func wetOf(flooded *[Size]uint64) [Size]uint64 {
	var w [Size]uint64
	grid.Dilate8(w[:], flooded[:])
	for r := range w {
		w[r] |= borderBB[r]
	}
	return w
}

// Spec implements rules.State.
func (s *State) Spec() *rules.Spec { return &s.spec }

// Nonadjacent reports whether the variant nonadjacent_moves is on (§6).
func (s *State) Nonadjacent() bool { return s.nonadj }

// Done implements rules.State: at most one seat alive, or 800 rounds played (R15).
func (s *State) Done() bool { return bits.OnesCount8(s.alive) <= 1 || s.round >= MaxRounds }

// Steps implements rules.State; it equals Round.
func (s *State) Steps() int { return s.round }

// Round is the 0-based number r of the next round to play, which is also the
// number of rounds played; the bots receive it as round_num (R21).
func (s *State) Round() int { return s.round }

// Active implements rules.State: seat is alive and the game goes on (R7.1).
func (s *State) Active(seat int) bool {
	return seat >= 0 && seat < Seats && s.alive>>seat&1 != 0 && !s.Done()
}

// Alive reports whether seat's settlement is land (R5).
func (s *State) Alive(seat int) bool { return seat >= 0 && seat < Seats && s.alive>>seat&1 != 0 }

// AliveMask has bit s set for every alive seat s.
func (s *State) AliveMask() uint8 { return s.alive }

// Height returns the height of real cell (i, j), or Flooded (−1). Out of
// bounds it returns Flooded too.
func (s *State) Height(i, j int) int {
	if uint(i) >= Size || uint(j) >= Size {
		return Flooded
	}
	return int(s.h[i*Size+j])
}

// Heights returns a copy of the board, h[i][j] = height or Flooded.
func (s *State) Heights() (h [Size][Size]int8) {
	for c, v := range s.h {
		h[c/Size][c%Size] = v
	}
	return h
}

// FloodedSet returns the flooded cells as a row-per-word bitboard (bit j of
// word i is cell (i, j)).
func (s *State) FloodedSet() [Size]uint64 { return s.flooded }

// TotalHeight sums the heights of the land cells (1060 at the start, I2).
func (s *State) TotalHeight() int {
	t := 0
	for _, v := range s.h {
		if v > 0 {
			t += int(v)
		}
	}
	return t
}

// Score is seat's score under R16 for the current position: its elimination
// round once eliminated; 800 for a seat alive when the game is over; during the
// game, for an alive seat, the rounds played so far (a lower bound that keeps
// alive seats ranked above eliminated ones).
func (s *State) Score(seat int) int {
	switch {
	case seat < 0 || seat >= Seats:
		return 0
	case s.alive>>seat&1 == 0:
		return s.elim[seat]
	case s.Done():
		return MaxRounds
	default:
		return s.round
	}
}

// EliminationRound is the round in which seat's settlement flooded, or 0 while
// it is alive (R14).
func (s *State) EliminationRound(seat int) int {
	if seat < 0 || seat >= Seats {
		return 0
	}
	return s.elim[seat]
}

// Outcome implements rules.State: Score per R16 (see Score), Points and Win
// from ranking the scores, higher better, equal scores tied (R17).
func (s *State) Outcome(o *rules.Outcome) {
	var keys [Seats]float64
	for seat := range keys {
		keys[seat] = float64(s.Score(seat))
		o.Score[seat] = keys[seat]
	}
	rules.PointsFromKeys(keys[:], o)
}

// PassScores returns every seat's score (R16) if every seat passed from now
// on. It is exact: the flood of R12 is replayed round by round on the
// bitboards (skipping rounds in which nothing changes), with R14's
// eliminations and R15's end check. Eliminated seats keep their score; on a
// finished game it is Score.
func (s *State) PassScores() [Seats]int {
	var sc [Seats]int
	for seat := range sc {
		sc[seat] = s.Score(seat)
	}
	if s.Done() {
		return sc
	}
	fl, wet, alive := s.flooded, s.wet, s.alive
	for r := max(s.round, 1); r < MaxRounds; {
		below := &s.le[(r-1)/100] // land with 100·h < r (R12), before this replay's floods
		var newly [Size]uint64
		grew := uint64(0)
		for i := range newly {
			newly[i] = below[i] & wet[i] &^ fl[i]
			grew |= newly[i]
		}
		if grew == 0 { // nothing changes until the water rises again
			r = ((r-1)/100+1)*100 + 1
			continue
		}
		for i := range fl {
			fl[i] |= newly[i]
		}
		wet = wetOf(&fl)
		for k, p := range settlements {
			if alive>>k&1 != 0 && fl[p[0]]>>p[1]&1 != 0 {
				alive &^= 1 << k // R14
				sc[k] = r
			}
		}
		if bits.OnesCount8(alive) <= 1 { // R15: the last seat standing scores 800
			break
		}
		r++
	}
	for k := range sc {
		if alive>>k&1 != 0 {
			sc[k] = MaxRounds
		}
	}
	return sc
}

// Forecast implements rules.Forecaster: the outcome if every seat passed from
// now on (PassScores), ranked as Outcome ranks the final scores. A search
// that scores its rollouts with it (search setting leaf=forecast) sees a
// seat's wall weaken long before the water reaches it.
func (s *State) Forecast(o *rules.Outcome) {
	var keys [Seats]float64
	for seat, sc := range s.PassScores() {
		keys[seat] = float64(sc)
		o.Score[seat] = keys[seat]
	}
	rules.PointsFromKeys(keys[:], o)
}

// SetCell sets real cell (i, j) to height h (0..8) or Flooded, for tests that
// build custom states (README "custom states"). It keeps the derived sets in
// step and applies R5: a seat whose settlement it floods counts as eliminated
// in the previous round (Round()−1), a settlement it makes land revives its
// seat. Out-of-range arguments are ignored; Check reports unreachable states.
func (s *State) SetCell(i, j, h int) {
	if uint(i) >= Size || uint(j) >= Size || h < Flooded || h > MaxHeight {
		return
	}
	s.h[i*Size+j] = int8(h)
	before := s.alive
	s.rebuild()
	for seat := range Seats {
		bit := uint8(1) << seat
		switch {
		case before&bit != 0 && s.alive&bit == 0:
			s.elim[seat] = s.round - 1
		case s.alive&bit != 0:
			s.elim[seat] = 0
		}
	}
}

// SetRound sets the number r of the next round (0..800), for custom states.
func (s *State) SetRound(r int) {
	if r >= 0 && r <= MaxRounds {
		s.round = r
	}
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
	var w [numWords]uint64
	for c, v := range s.h {
		n := uint64(v)
		if v < 0 {
			n = 15
		}
		w[c/16] |= n << (4 * uint(c%16))
	}
	w[21] = uint64(s.round)
	for seat, r := range s.elim {
		w[21] |= uint64(r) << (16 + 12*uint(seat))
	}
	return append(dst, w[:]...)
}

// SetWords implements rules.State: it restores words written by AppendWords
// and rejects a wrong length, a bad nibble or counter, or a state that breaks
// an invariant (Check).
func (s *State) SetWords(w []uint64) error {
	if len(w) != numWords {
		return fmt.Errorf("risingtide: SetWords: %d words, want %d", len(w), numWords)
	}
	var t State
	t.spec, t.nonadj = s.spec, s.nonadj
	for c := range t.h {
		n := w[c/16] >> (4 * uint(c%16)) & 15
		switch {
		case n == 15:
			t.h[c] = Flooded
		case n <= MaxHeight:
			t.h[c] = int8(n)
		default:
			return fmt.Errorf("risingtide: SetWords: cell (%d,%d) has code %d, want 0..8 or 15", c/Size, c%Size, n)
		}
	}
	if rest := w[20] >> (4 * (Cells % 16)); rest != 0 {
		return errors.New("risingtide: SetWords: bits set past the last cell")
	}
	t.round = int(w[21] & 0xffff)
	for seat := range t.elim {
		t.elim[seat] = int(w[21] >> (16 + 12*uint(seat)) & 0xfff)
	}
	t.rebuild()
	if err := t.Check(); err != nil {
		return fmt.Errorf("risingtide: SetWords: %w", err)
	}
	*s = t
	return nil
}

// Check implements rules.Checker: the invariants of every position (I1, I5,
// I6) and the agreement of the derived bitboards with the heights.
func (s *State) Check() error {
	for c, v := range s.h {
		if v < Flooded || v > MaxHeight {
			return fmt.Errorf("I1: cell (%d,%d) has height %d, want 0..8 or flooded", c/Size, c%Size, v)
		}
	}
	for seat, c := range settleCell {
		if v := s.h[c]; v != 0 && v != Flooded {
			return fmt.Errorf("I1: settlement of seat %d has height %d, want 0 or flooded", seat, v)
		}
	}
	if s.round < 0 || s.round > MaxRounds {
		return fmt.Errorf("I6: round %d outside 0..%d", s.round, MaxRounds)
	}
	for seat, c := range settleCell {
		alive := s.alive>>seat&1 != 0
		if alive != (s.h[c] != Flooded) {
			return fmt.Errorf("I5: seat %d alive=%v but its settlement has height %d", seat, alive, s.h[c])
		}
		if r := s.elim[seat]; alive && r != 0 || !alive && (r < 1 || r >= s.round || r >= MaxRounds) {
			return fmt.Errorf("I6: seat %d (alive=%v) has elimination round %d at round %d", seat, alive, r, s.round)
		}
	}
	if s.alive>>Seats != 0 {
		return fmt.Errorf("alive mask %#x names a seat past %d", s.alive, Seats-1)
	}
	var t State
	t.h = s.h
	t.rebuild()
	switch {
	case t.flooded != s.flooded:
		return errors.New("flooded set disagrees with the heights")
	case t.le != s.le:
		return errors.New("per-height sets disagree with the heights")
	case t.wet != s.wet:
		return errors.New("wet set is not border ∪ Dilate8(flooded)")
	}
	return nil
}
