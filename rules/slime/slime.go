package slime

import (
	"fmt"
	"io"
	"math/bits"

	"github.com/gridgym/gridgym/rules"
)

// Seats is the number of players (R2).
const Seats = 4

// KindMove is the one move kind of Slime: Arg[0] source cell, Arg[1] target
// cell, both r*N + c (see the package doc).
const KindMove rules.MoveKind = 1

// noCapSteps is Spec.MaxSteps when max_turns = 0 (no cap).
const noCapSteps = 1 << 30

// Read-only tables built once at init, on the 8×8 grid (bit r*8+c).
var (
	ring1 [64]uint64 // cells at Chebyshev distance exactly 1 (spread and merge targets)
	ring2 [64]uint64 // cells at Chebyshev distance exactly 2 (jump targets, R10)
	block [64]uint64 // ring1 plus the cell itself: the 3×3 block of R9 and R11, clipped
	// bitOf[n][r*n+c] = r*8+c: from the Move encoding to the bitboard bit.
	bitOf [9][64]uint8
	// cellOf[n][r*8+c] = r*n+c: from the bitboard bit to the Move encoding.
	cellOf [9][64]int16
	// boardMask[n] is the n×n corner of the 8-bit-stride board.
	boardMask [9]uint64
)

func init() {
	for b := 0; b < 64; b++ {
		r, c := b>>3, b&7
		for rr := 0; rr < 8; rr++ {
			for cc := 0; cc < 8; cc++ {
				switch max(abs(rr-r), abs(cc-c)) {
				case 1:
					ring1[b] |= 1 << uint(rr*8+cc)
				case 2:
					ring2[b] |= 1 << uint(rr*8+cc)
				}
			}
		}
		block[b] = ring1[b] | 1<<uint(b)
	}
	for n := 1; n <= 8; n++ {
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				bitOf[n][r*n+c] = uint8(r*8 + c)
				cellOf[n][r*8+c] = int16(r*n + c)
				boardMask[n] |= 1 << uint(r*8+c)
			}
		}
	}
}

// Ring1 returns the cells at Chebyshev distance exactly 1 from bit b of the
// 8-stride board (b = r*8+c): the spread and merge targets. Bots share the
// rules' tables instead of building their own.
func Ring1(b uint) uint64 { return ring1[b&63] }

// Ring2 returns the cells at Chebyshev distance exactly 2 from bit b: the
// jump targets (R10).
func Ring2(b uint) uint64 { return ring2[b&63] }

// Block returns Ring1(b) plus b: the 3×3 block of R9 and R11, clipped.
func Block(b uint) uint64 { return block[b&63] }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// State is a Slime game in progress. A pointer to it implements rules.State
// and rules.Checker.
type State struct {
	// slime[s] holds the cells of player s+1: bit r*8+c is cell (r, c) (R2).
	// The four sets are disjoint and inside mask; empty is mask minus them.
	slime    [Seats]uint64
	turn     int         // turns played; seat turn%4 moves next (R4)
	n        int         // board size N (R1)
	mask     uint64      // the N×N cells
	maxTurns int         // max_turns, 0 = no cap (R5)
	spec     *rules.Spec // shared, read-only
}

// New returns a game at its start position (R3) for a validated config.
func New(cfg rules.Config) *State {
	return newState(cfg.Int("board_size"), cfg.Int("max_turns"))
}

func newState(n, maxTurns int) *State {
	steps := maxTurns
	if steps == 0 {
		steps = noCapSteps
	}
	s := &State{
		n:        n,
		mask:     boardMask[n],
		maxTurns: maxTurns,
		spec: &rules.Spec{
			Game: "slime", Seats: Seats, Sequential: true, Deterministic: true, Rows: n, Cols: n,
			MaxSteps: steps, ScoreName: "cells", Tournament: rules.MeanScore,
		},
	}
	s.Reset()
	return s
}

// Spec implements rules.State.
func (s *State) Spec() *rules.Spec { return s.spec }

// Reset puts the four slimes in their corners (R3), turn 1 to move.
func (s *State) Reset() {
	n := s.n
	s.slime = [Seats]uint64{
		1 << 0,                 // player 1 at (0, 0)
		1 << uint(n-1),         // player 2 at (0, N−1)
		1 << uint((n-1)*8),     // player 3 at (N−1, 0)
		1 << uint((n-1)*8+n-1), // player 4 at (N−1, N−1)
	}
	s.turn = 0
}

// N is the board size.
func (s *State) N() int { return s.n }

// MaxTurns is the max_turns parameter (0 = no cap).
func (s *State) MaxTurns() int { return s.maxTurns }

// Turn is the number of turns played so far (R4 numbers the next one Turn()+1).
func (s *State) Turn() int { return s.turn }

// ToMove is the seat whose turn is next (R4), also once the game has ended.
func (s *State) ToMove() int { return s.turn & 3 }

// Slime returns the cells of seat (player seat+1) as a bitboard, bit r*8+c.
func (s *State) Slime(seat int) uint64 { return s.slime[seat] }

// EmptyCells returns the empty cells of the board, bit r*8+c.
func (s *State) EmptyCells() uint64 { return s.mask &^ s.occupied() }

// Count returns the number of cells of seat (its score, R12).
func (s *State) Count(seat int) int { return bits.OnesCount64(s.slime[seat]) }

// Cell returns the content of cell (r, c) as R2 writes it: 0 for empty, else
// the player digit 1..4 (seat+1).
func (s *State) Cell(r, c int) int {
	b := uint64(1) << uint(r*8+c)
	for p := 0; p < Seats; p++ {
		if s.slime[p]&b != 0 {
			return p + 1
		}
	}
	return 0
}

// SetCell puts player (1..4, or 0 for empty) on cell (r, c); for tests and
// custom states. It panics on arguments outside the board.
func (s *State) SetCell(r, c, player int) {
	if r < 0 || r >= s.n || c < 0 || c >= s.n || player < 0 || player > Seats {
		panic(fmt.Sprintf("slime: SetCell(%d, %d, %d) outside a %d×%d board with players 0..4", r, c, player, s.n, s.n))
	}
	b := uint64(1) << uint(r*8+c)
	for p := range s.slime {
		s.slime[p] &^= b
	}
	if player > 0 {
		s.slime[player-1] |= b
	}
}

// SetRows replaces the board by rows written as in R14 ('.', '1'..'4'), top
// row first; missing rows and columns are empty. For tests and custom states.
func (s *State) SetRows(rows ...string) error {
	if len(rows) > s.n {
		return fmt.Errorf("slime: %d rows for a %d×%d board", len(rows), s.n, s.n)
	}
	var b [Seats]uint64
	for r, row := range rows {
		if len(row) > s.n {
			return fmt.Errorf("slime: row %d %q longer than %d", r, row, s.n)
		}
		for c := 0; c < len(row); c++ {
			switch ch := row[c]; {
			case ch == '.':
			case ch >= '1' && ch <= '4':
				b[ch-'1'] |= 1 << uint(r*8+c)
			default:
				return fmt.Errorf("slime: row %d %q: cell %d is %q, want . or 1..4", r, row, c, ch)
			}
		}
	}
	s.slime = b
	return nil
}

// SetTurn sets the number of turns played (so seat t mod 4 moves next); for
// tests and custom states. It panics on a negative t.
func (s *State) SetTurn(t int) {
	if t < 0 {
		panic(fmt.Sprintf("slime: SetTurn(%d)", t))
	}
	s.turn = t
}

func (s *State) occupied() uint64 {
	return s.slime[0] | s.slime[1] | s.slime[2] | s.slime[3]
}

// Done reports whether the game has ended (R5): the board is full or
// max_turns turns have been played.
func (s *State) Done() bool {
	return s.occupied() == s.mask || (s.maxTurns > 0 && s.turn >= s.maxTurns)
}

// Steps is the number of Step calls played: the turns played.
func (s *State) Steps() int { return s.turn }

// Active reports whether seat moves next (R4): only the seat to move, and no
// one once the game has ended.
func (s *State) Active(seat int) bool { return seat == s.turn&3 && !s.Done() }

// Step plays one turn (R4): the move of the seat to move, moves[ToMove()], is
// applied if it is valid (R8–R11) and is a pass otherwise (R7); the other
// entries are ignored. rng is not used (R6). Step on a finished game does
// nothing.
func (s *State) Step(moves []rules.Move, _ *rules.RNG) {
	if s.Done() {
		return
	}
	seat := s.turn & 3
	if seat < len(moves) {
		s.apply(seat, &moves[seat])
	}
	s.turn++
}

// decode returns the source and target bits of a well-formed KindMove, or
// ok = false.
func (s *State) decode(m *rules.Move) (src, tgt uint, ok bool) {
	if m.Kind != KindMove || m.N != 2 {
		return 0, 0, false
	}
	a, b, nn := uint(int(m.Arg[0])), uint(int(m.Arg[1])), uint(s.n*s.n)
	if a >= nn || b >= nn { // R8: all four coordinates in bounds
		return 0, 0, false
	}
	return uint(bitOf[s.n][a]), uint(bitOf[s.n][b]), true
}

// apply plays m for seat if it is valid (R8) and does nothing otherwise (R7).
func (s *State) apply(seat int, m *rules.Move) {
	src, tgt, ok := s.decode(m)
	if !ok {
		return
	}
	own := s.slime[seat]
	if own>>src&1 == 0 { // R8: the source holds the mover's slime
		return
	}
	tb := uint64(1) << tgt
	occ := s.occupied()
	switch {
	case occ&tb == 0: // target empty: spread (d = 1, R9) or jump (d = 2, R10)
		jump := ring2[src]&tb != 0
		if !jump && ring1[src]&tb == 0 { // R8: d ∈ {1, 2}
			return
		}
		// The target and every non-empty cell of its block become the mover's.
		conv := occ&block[tgt] | tb
		s.slime[0] &^= conv
		s.slime[1] &^= conv
		s.slime[2] &^= conv
		s.slime[3] &^= conv
		own |= conv
		if jump { // R10: the source (outside the block) empties
			own &^= 1 << src
		}
		s.slime[seat] = own
	case own&tb != 0 && ring1[src]&tb != 0: // merge (R11): own target at d = 1
		s.slime[seat] = (own | block[tgt]&s.mask&^occ) &^ (1 << src)
	}
	// Otherwise the target is an enemy's, or its own at d ≠ 1 (R8): a pass.
}

// targets returns the R8-valid targets from source bit src for a player with
// cells own on a board with empty cells empty: empty cells at distance 1 or 2
// and own cells at distance 1.
func targets(src uint, own, empty uint64) uint64 {
	return ring1[src]&(empty|own) | ring2[src]&empty
}

// Legal reports whether m is the zero Move (a pass, always allowed) or an
// R8-valid move of seat, which must be the seat to move. Like Step, it ignores
// the unused Arg entries.
func (s *State) Legal(seat int, m rules.Move) bool {
	if m == (rules.Move{}) {
		return true
	}
	if !s.Active(seat) {
		return false
	}
	src, tgt, ok := s.decode(&m)
	if !ok {
		return false
	}
	own := s.slime[seat]
	return own>>src&1 != 0 && targets(src, own, s.EmptyCells())>>tgt&1 != 0
}

// LegalMoves appends Pass, then for the seat to move every R8-valid move by
// source, then target, in ascending cell order. Other seats can only pass.
func (s *State) LegalMoves(seat int, dst []rules.Move) []rules.Move {
	dst = append(dst, rules.Move{})
	if !s.Active(seat) {
		return dst
	}
	own, empty := s.slime[seat], s.EmptyCells()
	for src := own; src != 0; src &= src - 1 {
		sb := uint(bits.TrailingZeros64(src))
		for t := targets(sb, own, empty); t != 0; t &= t - 1 {
			dst = append(dst, s.move(sb, uint(bits.TrailingZeros64(t))))
		}
	}
	return dst
}

// move builds the KindMove from source bit src to target bit tgt.
func (s *State) move(src, tgt uint) rules.Move {
	return rules.Move{Kind: KindMove, N: 2, Arg: [8]int16{cellOf[s.n][src], cellOf[s.n][tgt]}}
}

// RandomMove returns a move drawn uniformly from LegalMoves with one U(k)
// draw, k being the number of legal moves (no draw when Pass is the only one).
func (s *State) RandomMove(seat int, rng *rules.RNG) rules.Move {
	if !s.Active(seat) {
		return rules.Move{}
	}
	own, empty := s.slime[seat], s.EmptyCells()
	k := 1
	for src := own; src != 0; src &= src - 1 {
		k += bits.OnesCount64(targets(uint(bits.TrailingZeros64(src)), own, empty))
	}
	if k == 1 {
		return rules.Move{}
	}
	i := rng.U(k)
	if i == 0 {
		return rules.Move{}
	}
	i--
	for src := own; src != 0; src &= src - 1 {
		sb := uint(bits.TrailingZeros64(src))
		t := targets(sb, own, empty)
		if c := bits.OnesCount64(t); i >= c {
			i -= c
			continue
		}
		for ; i > 0; i-- {
			t &= t - 1
		}
		return s.move(sb, uint(bits.TrailingZeros64(t)))
	}
	return rules.Move{} // unreachable: i < k−1 moves
}

// Outcome fills o: Score is each player's cell count (R12), and Points and
// Win rank the seats by it.
func (s *State) Outcome(o *rules.Outcome) {
	for p := 0; p < Seats; p++ {
		o.Score[p] = float64(bits.OnesCount64(s.slime[p]))
	}
	rules.PointsFromKeys(o.Score[:Seats], o)
}

// wordsLen is the length of the compact state (see the package doc).
const wordsLen = Seats + 1

// AppendWords appends the four players' bitboards and the turn count.
func (s *State) AppendWords(dst []uint64) []uint64 {
	return append(dst, s.slime[0], s.slime[1], s.slime[2], s.slime[3], uint64(s.turn))
}

// SetWords restores a state written by AppendWords, after checking it.
func (s *State) SetWords(w []uint64) error {
	if len(w) != wordsLen {
		return fmt.Errorf("slime: SetWords: %d words, want %d", len(w), wordsLen)
	}
	if w[4] > uint64(s.spec.MaxSteps) {
		return fmt.Errorf("slime: SetWords: turn %d beyond the %d-turn cap", w[4], s.spec.MaxSteps)
	}
	t := *s
	copy(t.slime[:], w[:Seats])
	t.turn = int(w[4])
	if err := t.Check(); err != nil {
		return fmt.Errorf("slime: SetWords: %w", err)
	}
	*s = t
	return nil
}

// Check verifies the invariants of every position: each player's cells lie on
// the N×N board and no cell has two owners (so I1 holds: empty plus the four
// counts is N²), and the turn count is within the cap (I4).
func (s *State) Check() error {
	var seen uint64
	for p := 0; p < Seats; p++ {
		if out := s.slime[p] &^ s.mask; out != 0 {
			return fmt.Errorf("I1: player %d has cells off the %d×%d board (bits %#x)", p+1, s.n, s.n, out)
		}
		if both := seen & s.slime[p]; both != 0 {
			return fmt.Errorf("I1: player %d shares cells with another player (bits %#x)", p+1, both)
		}
		seen |= s.slime[p]
	}
	if s.turn < 0 || s.turn > s.spec.MaxSteps {
		return fmt.Errorf("I4: %d turns played, cap %d", s.turn, s.spec.MaxSteps)
	}
	return nil
}

// CopyFrom makes s a copy of src, which must be a *State.
func (s *State) CopyFrom(src rules.State) { *s = *src.(*State) }

// Clone returns an independent copy.
func (s *State) Clone() rules.State {
	c := *s
	return &c
}

// ansi colours the player digits 1..4 when rendering in colour.
var ansi = [Seats]string{"\x1b[1;31m", "\x1b[1;34m", "\x1b[1;32m", "\x1b[1;33m"}

// Render draws the board as R14's rows, one per line, then a status line:
// turns played and cap, the player to move (or "game over") and the counts.
func (s *State) Render(w io.Writer, color bool) {
	buf := make([]byte, 0, 256)
	for r := 0; r < s.n; r++ {
		for c := 0; c < s.n; c++ {
			p := s.Cell(r, c)
			switch {
			case p == 0:
				buf = append(buf, '.')
			case color:
				buf = append(buf, ansi[p-1]...)
				buf = append(buf, byte('0'+p))
				buf = append(buf, "\x1b[0m"...)
			default:
				buf = append(buf, byte('0'+p))
			}
		}
		buf = append(buf, '\n')
	}
	if s.maxTurns > 0 {
		buf = fmt.Appendf(buf, "turn %d/%d", s.turn, s.maxTurns)
	} else {
		buf = fmt.Appendf(buf, "turn %d", s.turn)
	}
	if s.Done() {
		buf = append(buf, "  game over"...)
	} else {
		buf = fmt.Appendf(buf, "  to move: %d", s.ToMove()+1)
	}
	buf = fmt.Appendf(buf, "  cells 1:%d 2:%d 3:%d 4:%d .:%d\n",
		s.Count(0), s.Count(1), s.Count(2), s.Count(3), bits.OnesCount64(s.EmptyCells()))
	w.Write(buf)
}
