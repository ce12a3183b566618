package nuggets

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bitboard"
)

// Board geometry and seats (R1, R2).
const (
	Size  = 20          // squares per side
	Cells = Size * Size // squares on the board
	Seats = 4           // seats 0..3
)

// KindQuery is the kind of a query move: N = 1, Arg[0] = y*20+x.
const KindQuery rules.MoveKind = 1

// Decay draws U(DecayDenom) and decays a square iff the draw is below
// base·(P+100) (R8, R12).
const DecayDenom = 110000

// Board is a cell set: word y holds row y, bit x is the square (x, y).
type Board [Size]uint64

var grid = bitboard.New(Size, Size)

// State is a game of Nuggets in progress. own[s] are seat s's squares; the
// seats' sets are pairwise disjoint (R2). t is the number of moves played,
// which is also the index of the next move (R5).
type State struct {
	cfg *config
	own [Seats]Board
	t   int
}

// Query returns the move that queries the square (x, y); x and y must be in
// 0..19 (see State.Answer for unchecked answers).
func Query(x, y int) rules.Move {
	return rules.Move{Kind: KindQuery, N: 1, Arg: [8]int16{int16(y*Size + x)}}
}

// QueryXY reports the square m queries, ok=false if m is not a well-formed
// query (and so gets R6's treatment).
func QueryXY(m rules.Move) (x, y int, ok bool) {
	c, ok := queryCell(m)
	return c % Size, c / Size, ok
}

func queryCell(m rules.Move) (int, bool) {
	if m.Kind != KindQuery || m.N != 1 || m.Arg[0] < 0 || m.Arg[0] >= Cells {
		return 0, false
	}
	return int(m.Arg[0]), true
}

// Spec implements rules.State.
func (s *State) Spec() *rules.Spec { return &s.cfg.spec }

// Reset implements rules.State: the empty board before move 0 (R3).
func (s *State) Reset() {
	s.own = [Seats]Board{}
	s.t = 0
}

// Done implements rules.State: the game ends after move total−1 (R14).
func (s *State) Done() bool { return s.t >= s.cfg.total }

// Steps implements rules.State.
func (s *State) Steps() int { return s.t }

// Active implements rules.State: every seat queries every move (R5, R6).
func (s *State) Active(seat int) bool { return seat >= 0 && seat < Seats && !s.Done() }

// Legal implements rules.State: a well-formed query (any square, R5), or under
// invalid_query=pass the zero Move.
func (s *State) Legal(seat int, m rules.Move) bool {
	if !s.Active(seat) {
		return false
	}
	if _, ok := queryCell(m); ok {
		return true
	}
	return s.cfg.invalidPass && m == rules.Move{}
}

// LegalMoves implements rules.State: the 400 queries in cell order, then Pass
// under invalid_query=pass.
func (s *State) LegalMoves(seat int, dst []rules.Move) []rules.Move {
	if !s.Active(seat) {
		return dst
	}
	for c := 0; c < Cells; c++ {
		dst = append(dst, Query(c%Size, c/Size))
	}
	if s.cfg.invalidPass {
		dst = append(dst, rules.Move{})
	}
	return dst
}

// RandomMove implements rules.State: uniform over LegalMoves with one draw.
func (s *State) RandomMove(seat int, rng *rules.RNG) rules.Move {
	if !s.Active(seat) {
		return rules.Move{}
	}
	n := Cells
	if s.cfg.invalidPass {
		n++
	}
	c := rng.U(n)
	if c == Cells {
		return rules.Move{}
	}
	return Query(c%Size, c/Size)
}

// Invalid returns the move that gets R6's treatment of an invalid or missing
// answer under this config: the query (0,0), or Pass under invalid_query=pass.
func (s *State) Invalid() rules.Move {
	if s.cfg.invalidPass {
		return rules.Move{}
	}
	return Query(0, 0)
}

// Answer maps an answer (x, y) to the move Step plays for it: the query if
// both are in 0..19 (R20), otherwise R6's treatment (Invalid).
func (s *State) Answer(x, y int) rules.Move {
	if x < 0 || x >= Size || y < 0 || y >= Size {
		return s.Invalid()
	}
	return Query(x, y)
}

// target is the square seat's move queries after R6's treatment, −1 for none.
func (s *State) target(moves []rules.Move, seat int) int {
	if seat < len(moves) {
		if c, ok := queryCell(moves[seat]); ok {
			return c
		}
	}
	if s.cfg.invalidPass {
		return -1
	}
	return 0 // R6: (0,0)
}

// Step implements rules.State: the queries (R7–R10), then in the build phase
// decay (R11–R13), with the draws of R8.
func (s *State) Step(moves []rules.Move, rng *rules.RNG) { s.step(moves, chance{rng: rng}) }

// StepKeyed implements rules.KeyedStepper: Step, with each random event of
// R8 decided by its own draw rules.KeyedU(key, event) instead of the next
// draw in R8's order. The events are a queried square's recolouring and its
// winner, and a coloured square's decay, each named by the move, the square
// and the kind, so two positions stepped with one key share the outcome of
// every such event they both have (the same square decays in both if its
// threshold is met in both). Each event keeps the probability R9–R12 give it.
func (s *State) StepKeyed(moves []rules.Move, key uint64) { s.step(moves, chance{key: key}) }

// step is Step and StepKeyed, drawing from c.
func (s *State) step(moves []rules.Move, c chance) {
	if s.Done() {
		return
	}
	var q [Seats]int
	for seat := range q {
		q[seat] = s.target(moves, seat)
	}
	s.act(&q, c)
	if s.t >= s.cfg.setup {
		s.decay(c)
	}
	s.t++
}

// chance is where a step's random events come from: the rules' generator in
// R8's draw order (Step), or, with no generator, a world key with one draw
// per event (StepKeyed).
type chance struct {
	rng *rules.RNG
	key uint64
}

// The kinds of random event at a square, for chance.u's event names.
const (
	eventRecolour = iota
	eventWinner
	eventDecay
)

// u draws U(n) for the event kind at cell on move t: the next draw of the
// generator, or the event's own keyed draw.
func (c chance) u(n, t, cell, kind int) int {
	if c.rng != nil {
		return c.rng.U(n)
	}
	return rules.KeyedU(c.key, event(t, cell, kind), n)
}

// event names the event kind at cell on move t for rules.KeyedU.
func event(t, cell, kind int) uint64 { return uint64(t)<<16 | uint64(cell)<<2 | uint64(kind) }

// act resolves the queries q (cell or −1 per seat) of move t against the
// board before the move (R7): distinct squares in row-major order (R8.1).
func (s *State) act(q *[Seats]int, ch chance) {
	var cells [Seats]int
	var who [Seats]uint8 // bit set of the seats querying cells[i]: C in seat order
	n := 0
	for seat, c := range q {
		if c < 0 {
			continue
		}
		i := 0
		for i < n && cells[i] < c {
			i++
		}
		if i < n && cells[i] == c {
			who[i] |= 1 << seat
			continue
		}
		copy(cells[i+1:n+1], cells[i:n])
		copy(who[i+1:n+1], who[i:n])
		cells[i], who[i] = c, 1<<seat
		n++
	}
	build := s.t >= s.cfg.setup
	for i := 0; i < n; i++ {
		y, bit := cells[i]/Size, uint64(1)<<uint(cells[i]%Size)
		k := bits.OnesCount8(who[i])
		o := s.ownerBit(y, bit)
		if o < 0 { // R9: an empty square goes to one contester
			w := winner(who[i], k, ch, s.t, cells[i])
			s.own[w][y] |= bit
			continue
		}
		if !build { // R10 setup: coloured squares are fixed
			continue
		}
		if k < 3 && ch.u(5, s.t, cells[i], eventRecolour) >= 2*k { // R10: recolour with probability min(1, 0.4k)
			continue
		}
		w := winner(who[i], k, ch, s.t, cells[i])
		s.own[o][y] &^= bit
		if w != o { // the owner winning empties the square
			s.own[w][y] |= bit
		}
	}
}

// winner draws C[U(k)] from the seat set who of size k querying cell on
// move t (no draw for k = 1).
func winner(who uint8, k int, ch chance, t, cell int) int {
	j := 0
	if k > 1 {
		j = ch.u(k, t, cell, eventWinner)
	}
	for ; j > 0; j-- {
		who &= who - 1
	}
	return bits.TrailingZeros8(who)
}

func (s *State) ownerBit(y int, bit uint64) int {
	for seat := range s.own {
		if s.own[seat][y]&bit != 0 {
			return seat
		}
	}
	return -1
}

// neighbours sets n0, n1, n2 to the bit-sliced count N (R12) of same-colour
// side-neighbours of every coloured square of row y: N = n0 + 2·n1 + 4·n2.
func (s *State) neighbours(y int) (n0, n1, n2 uint64) {
	for seat := range s.own {
		b := &s.own[seat]
		w := b[y]
		if w == 0 {
			continue
		}
		e, west := w&(w>>1), w&(w<<1) // same colour at x+1, at x−1
		var north, south uint64
		if y > 0 {
			north = w & b[y-1]
		}
		if y < Size-1 {
			south = w & b[y+1]
		}
		// Add the four one-bit counts: c1 and c2 are the pairs' carries, c3
		// the carry of their sums (c3 = 1 implies c1 = c2 = 0).
		s1, c1 := e^west, e&west
		s2, c2 := north^south, north&south
		c3 := s1 & s2
		n0 |= s1 ^ s2
		n1 |= c1 ^ c2 ^ c3
		n2 |= c1 & c2
	}
	return
}

// thresholds returns thr[N] = base(m, N)·(P+100) for the decay of move t on
// the current board (R11, R12), and ok=false where move t has no decay (R13).
func (s *State) thresholds() (thr [5]int, ok bool) {
	if s.t < s.cfg.setup || s.t >= s.cfg.total {
		return thr, false
	}
	p := s.Colored()
	base := &s.cfg.base[s.cfg.total-s.t]
	for n := range thr {
		thr[n] = int(base[n]) * (p + 100)
	}
	return thr, true
}

// decay runs R12 on the board after the actions: every coloured square s with
// base > 0 decays iff U(110000) < base·(P+100), all at once, in row-major draw
// order (R8.2).
func (s *State) decay(ch chance) {
	thr, ok := s.thresholds()
	if !ok {
		return
	}
	var gone Board
	r := ch.rng
	for y := 0; y < Size; y++ {
		occ := s.own[0][y] | s.own[1][y] | s.own[2][y] | s.own[3][y]
		if occ == 0 {
			continue
		}
		n0, n1, n2 := s.neighbours(y)
		for occ != 0 {
			x := uint(bits.TrailingZeros64(occ))
			occ &= occ - 1
			th := thr[n0>>x&1|(n1>>x&1)<<1|(n2>>x&1)<<2]
			// chance.u written out: this loop is the engine's hottest.
			if r != nil {
				if th > 0 && r.U(DecayDenom) < th {
					gone[y] |= 1 << x
				}
			} else if th > 0 && rules.KeyedU(ch.key, event(s.t, y*Size+int(x), eventDecay), DecayDenom) < th {
				gone[y] |= 1 << x
			}
		}
	}
	for seat := range s.own {
		for y := range gone {
			s.own[seat][y] &^= gone[y]
		}
	}
}

// Colored returns P, the number of coloured squares (R11).
func (s *State) Colored() int {
	p := 0
	for seat := range s.own {
		p += bitboard.Count(s.own[seat][:])
	}
	return p
}

// Owner returns the seat that coloured the square (x, y), −1 if it is empty
// or off the board.
func (s *State) Owner(x, y int) int {
	if x < 0 || x >= Size || y < 0 || y >= Size {
		return -1
	}
	return s.ownerBit(y, 1<<uint(x))
}

// SetCell makes the square (x, y) seat owner's (−1: empty), for tests and
// custom states (README "custom states"). It panics on a square off the board
// or a seat outside −1..3.
func (s *State) SetCell(x, y, owner int) {
	if x < 0 || x >= Size || y < 0 || y >= Size || owner < -1 || owner >= Seats {
		panic(fmt.Sprintf("nuggets: SetCell(%d, %d, %d) out of range", x, y, owner))
	}
	bit := uint64(1) << uint(x)
	for seat := range s.own {
		s.own[seat][y] &^= bit
	}
	if owner >= 0 {
		s.own[owner][y] |= bit
	}
}

// SetMoveNum sets the number of moves played, the index t of the next move
// (custom states). It panics outside 0..total.
func (s *State) SetMoveNum(t int) {
	if t < 0 || t > s.cfg.total {
		panic(fmt.Sprintf("nuggets: SetMoveNum(%d) outside 0..%d", t, s.cfg.total))
	}
	s.t = t
}

// MoveNum returns t, the 0-based index of the next move (R19), which is also
// the number of moves played.
func (s *State) MoveNum() int { return s.t }

// SetupMoves returns the number of setup moves; moves t ≥ SetupMoves are the
// build phase (R5).
func (s *State) SetupMoves() int { return s.cfg.setup }

// TotalMoves returns setup_moves + build_moves (260 under the written rules).
func (s *State) TotalMoves() int { return s.cfg.total }

// BuildPhase reports whether the next move is in the build phase.
func (s *State) BuildPhase() bool { return s.t >= s.cfg.setup && !s.Done() }

// Bits returns seat's squares as a bitboard (a copy).
func (s *State) Bits(seat int) Board { return s.own[seat] }

// DecayThreshold returns the integer T of R12 for the square (x, y) if the
// decay of move t ran on the current board: it decays iff U(110000) < T, so
// its probability is T/110000. It is 0 for an empty square and where move t
// has no decay step (setup phase, R13, or a finished game).
func (s *State) DecayThreshold(x, y int) int {
	thr, ok := s.thresholds()
	if !ok || s.Owner(x, y) < 0 {
		return 0
	}
	n0, n1, n2 := s.neighbours(y)
	return thr[n0>>uint(x)&1|(n1>>uint(x)&1)<<1|(n2>>uint(x)&1)<<2]
}

// SameNeighbours returns N(s) of R12 for the square (x, y): its side-neighbours
// of its own colour (0 for an empty square).
func (s *State) SameNeighbours(x, y int) int {
	if s.Owner(x, y) < 0 {
		return 0
	}
	n0, n1, n2 := s.neighbours(y)
	return int(n0>>uint(x)&1 | (n1>>uint(x)&1)<<1 | (n2>>uint(x)&1)<<2)
}

// Check implements rules.Checker: the rows hold squares of the board only,
// no square has two colours (R2), and t is within the game.
func (s *State) Check() error {
	if s.cfg == nil {
		return errors.New("nuggets: state has no config (use New)")
	}
	if s.t < 0 || s.t > s.cfg.total {
		return fmt.Errorf("nuggets: move number %d outside 0..%d", s.t, s.cfg.total)
	}
	for y := 0; y < Size; y++ {
		var seen uint64
		for seat := range s.own {
			w := s.own[seat][y]
			if w&^grid.Full != 0 {
				return fmt.Errorf("nuggets: seat %d row %d has bits off the board: %#x", seat, y, w)
			}
			if w&seen != 0 {
				return fmt.Errorf("nuggets (R2): row %d: squares %#x have two colours", y, w&seen)
			}
			seen |= w
		}
	}
	return nil
}

// numWords is the length of the compact state (package doc).
const numWords = 1 + Seats*Size

// AppendWords implements rules.State (layout in the package doc).
func (s *State) AppendWords(dst []uint64) []uint64 {
	dst = append(dst, uint64(s.t))
	for seat := range s.own {
		dst = append(dst, s.own[seat][:]...)
	}
	return dst
}

// SetWords implements rules.State. It checks the length, the move number and
// the board's invariants, and leaves s unchanged on error.
func (s *State) SetWords(w []uint64) error {
	if len(w) != numWords {
		return fmt.Errorf("nuggets: SetWords: want %d words, got %d", numWords, len(w))
	}
	if w[0] > uint64(s.cfg.total) {
		return fmt.Errorf("nuggets: SetWords: move number %d outside 0..%d", w[0], s.cfg.total)
	}
	n := State{cfg: s.cfg, t: int(w[0])}
	for seat := range n.own {
		copy(n.own[seat][:], w[1+seat*Size:])
	}
	if err := n.Check(); err != nil {
		return fmt.Errorf("SetWords: %w", err)
	}
	*s = n
	return nil
}

// CopyFrom implements rules.State; src must be a *State.
func (s *State) CopyFrom(src rules.State) { *s = *src.(*State) }

// Clone implements rules.State.
func (s *State) Clone() rules.State { c := *s; return &c }
