package rules

import (
	"io"
	"math/bits"
)

// MaxSeats bounds the seats of any game (Rectangle allows up to 8 players).
const MaxSeats = 8

// MoveKind says what a Move is. Pass is the zero value and means "no move" in
// every game; the other kinds are defined by each game's package.
type MoveKind uint8

// Pass is the move that changes nothing. Every malformed, missing or illegal
// answer ends up as Pass unless a game's rules say otherwise.
const Pass MoveKind = 0

// Move is one seat's answer, decoded and mapped to the real board. Its Kind and
// the meaning of Arg belong to the game that made it: cells are written as
// row*cols+col of the real board, other entries are game codes. Moves are
// comparable values, so they pass through batches without allocation.
type Move struct {
	Kind MoveKind
	N    uint8    // Arg entries in use
	Arg  [8]int16 // cells or game codes
}

// Aggregate says how a tournament combines a bot's per-game scores.
type Aggregate uint8

const (
	// MeanScore averages Outcome.Score over the games played.
	MeanScore Aggregate = iota
	// SumScore adds Outcome.Score over the games played (Nuggets' log-scores).
	SumScore
	// MeanPoints averages Outcome.Points over the games played (Bovine Borders).
	MeanPoints
)

// Spec describes a configured game: what every generic layer needs to know
// about its shape, without knowing which game it is.
type Spec struct {
	Game       string // registry name
	Seats      int    // number of seats, 2..MaxSeats
	Sequential bool   // seats move one at a time (Active says whose turn)
	// Deterministic: Step draws nothing from its generator, so a position
	// and the moves decide the next position (no chance events). The search
	// then keeps the outcome of a path that ends the game instead of playing
	// it again; rulestest.Conformance checks the claim.
	Deterministic bool
	Rows, Cols    int       // board size
	MaxSteps      int       // upper bound on Step calls in one game
	ScoreName     string    // what Outcome.Score counts ("rounds survived", …)
	Tournament    Aggregate // how the competition aggregates per-game results
}

// Outcome is the result of a game for every seat. Its slices are owned by the
// caller and must have length Spec.Seats.
type Outcome struct {
	Score  []float64 // the game's own per-game score (its rules' scoring rule)
	Points []float64 // placement points: seats ranked strictly below + ½·ties
	Win    []float64 // win share: 1 for an outright win, 1/k in a k-way tie at the top
}

// NewOutcome allocates an Outcome for seats seats.
func NewOutcome(seats int) *Outcome {
	return &Outcome{Score: make([]float64, seats), Points: make([]float64, seats), Win: make([]float64, seats)}
}

// State is a game in progress. Implementations are pointers to a game's own
// state struct; every method is free of I/O, and Step, Active, Legal and
// RandomMove allocate nothing.
type State interface {
	// Spec describes the configured game.
	Spec() *Spec
	// Reset puts the game at its start position.
	Reset()
	// Step plays one step: moves has one entry per seat (index = seat). Moves
	// of seats that are not Active are ignored; illegal moves get the game's
	// documented treatment. rng supplies every random event. Step on a
	// finished game does nothing.
	Step(moves []Move, rng *RNG)
	// Done reports whether the game has ended.
	Done() bool
	// Steps is the number of Step calls played so far.
	Steps() int
	// Active reports whether seat is asked for a move in the next step (alive,
	// and for sequential games, its turn).
	Active(seat int) bool
	// Legal reports whether m would pass the submission check for seat now.
	Legal(seat int, m Move) bool
	// LegalMoves appends every legal move of seat under the default action
	// set of the game's package doc (Pass included where the rules allow it).
	LegalMoves(seat int, dst []Move) []Move
	// RandomMove returns a uniformly random legal move of seat (Pass if there
	// is none), drawing only from rng.
	RandomMove(seat int, rng *RNG) Move
	// Outcome fills o for the current position (final once Done).
	Outcome(o *Outcome)
	// AppendWords appends the compact state (bitboards and counters) to dst;
	// SetWords restores it. Datasets store these words.
	AppendWords(dst []uint64) []uint64
	SetWords(w []uint64) error
	// CopyFrom makes the receiver a copy of src, which must be the same game.
	CopyFrom(src State)
	// Clone returns an independent copy.
	Clone() State
	// Render draws the board as text, with ANSI colours if color is set.
	Render(w io.Writer, color bool)
}

// Forecaster is implemented by states that can forecast the outcome of an
// unfinished game from the position alone better than Outcome's provisional
// one (Rising Tide: the flood replayed to the end as if every seat passed).
// The search scores the leaves of its short rollouts with it when asked
// (setting leaf=forecast). Forecast fills o, the final outcome once Done,
// and allocates nothing.
type Forecaster interface {
	Forecast(o *Outcome)
}

// KeyedStepper is implemented by states that can draw a step's chance
// events from a key instead of in the rules' draw order. StepKeyed plays
// the same step as Step, with every random event (a contest at a square, a
// square's decay, …) decided by its own uniform draw KeyedU(key, event), so
// each event has the probability the rules give it. Two positions stepped
// with the same key then share the outcome of every event they have in
// common, whatever else differs: common random numbers. A search comparing
// moves (setting crn=1) compares them in the same worlds, so the chance that
// the moves do not touch cancels out of the comparison; the rules' draw
// order, where one more query shifts every later draw, cannot give that.
// Games are played with Step; StepKeyed is for simulations.
type KeyedStepper interface {
	StepKeyed(moves []Move, key uint64)
}

// KeyedU returns a uniform integer in [0, n) for the chance event event in
// the world key (KeyedStepper): the high word of Mix64(key ⊕ Mix64(event))·n,
// whose bias is below n/2⁶⁴. n must be ≥ 1.
func KeyedU(key, event uint64, n int) int {
	hi, _ := bits.Mul64(Mix64(key^Mix64(event)), uint64(n))
	return int(hi)
}

// Codec is a game's competition protocol: the exact request the competition
// sends a bot for one seat, and how the bot's answer becomes a Move. Python
// competitions get their arguments as a JSON array and answer with a tagged
// Python value (package pyval); program competitions (Slime) get their
// command-line argument and answer with their standard output.
type Codec interface {
	// AppendRequest appends the bot's input for seat to dst.
	AppendRequest(dst []byte, st State, seat int) []byte
	// ParseAnswer maps a bot's raw answer for seat to the real move, applying
	// the rules' treatment of malformed answers. It never fails.
	ParseAnswer(st State, seat int, answer []byte) Move
}

// Hash returns a stable 64-bit digest (FNV-1a over the little-endian bytes) of
// a state's compact words: equal on every machine for equal states. buf is
// scratch space, reused to avoid allocation.
func Hash(st State, buf []uint64) (uint64, []uint64) {
	buf = st.AppendWords(buf[:0])
	h := uint64(14695981039346656037)
	for _, w := range buf {
		for i := 0; i < 8; i++ {
			h ^= (w >> (8 * i)) & 0xff
			h *= 1099511628211
		}
	}
	return h, buf
}

// PointsFromKeys fills o.Points and o.Win from per-seat rank keys, higher is
// better and equal keys tie: points = seats strictly below + ½ · other seats tied.
func PointsFromKeys(keys []float64, o *Outcome) {
	n := len(keys)
	best := keys[0]
	for _, k := range keys {
		if k > best {
			best = k
		}
	}
	top := 0
	for _, k := range keys {
		if k == best {
			top++
		}
	}
	for s := 0; s < n; s++ {
		below, tied := 0, 0
		for t := 0; t < n; t++ {
			switch {
			case t == s:
			case keys[t] < keys[s]:
				below++
			case keys[t] == keys[s]:
				tied++
			}
		}
		o.Points[s] = float64(below) + 0.5*float64(tied)
		o.Win[s] = 0
		if keys[s] == best {
			o.Win[s] = 1 / float64(top)
		}
	}
}

// Checker is implemented by states that can verify their own invariants (the
// rules files' I-numbered properties that hold in every position). The
// conformance suite and the fuzz targets call it after every step.
type Checker interface {
	Check() error
}

// Partial is implemented by states whose LegalMoves lists only a documented
// subset of the legal moves in some positions (Rectangle's placement step,
// with n²ᵇ placements). RandomMove still draws from all legal moves there.
type Partial interface {
	LegalMovesPartial(seat int) bool
}

// Opener is implemented by the states of games whose placement a
// network's play settings may hand to a scripted opening (neural.Play's
// Opening; Rectangle's opening square): a placement is one joint choice of
// every robot's cell, which a policy with one head per robot, each sampled
// on its own, cannot make. Opening returns seat's opening move of size
// size at the placement, from the uniform draws u in [0, 1) (the play-time
// draws, so that an exported bot draws the same), and false where the
// state is not at its placement or size does not fit its board.
type Opener interface {
	Opening(seat, size int, u [OpeningDraws]float64) (Move, bool)
}

// OpeningDraws is the number of uniform draws an Opener takes.
const OpeningDraws = 3

// Opens reports whether the states of the validated config cfg are
// Openers: whether a network's play settings may ask for an opening there.
func Opens(cfg Config) bool {
	_, ok := cfg.Game().New(cfg).(Opener)
	return ok
}

// Guarder is implemented by the states of games with a scripted guard that
// a network's play settings may put in front of the network (neural.Play's
// Guard; Bovine Borders' barn guard, issue 54): a narrow kind of position
// where a short rule answers and the policy, by measurement, does not (a
// rival beside the barn takes it with even odds whatever the network then
// does). Guard returns seat's guard move at the state, and false where the
// position is not one the guard answers (the network plays). It is a pure
// function of the seat's view, so that an exported bot answers the same.
type Guarder interface {
	Guard(seat int) (Move, bool)
}

// GuardMove is seat's guard move at st where st's game has a scripted
// guard (Guarder) and it answers there; false otherwise (the network
// plays). The neural agent and the trainer's rollouts both ask it, so that
// a network is trained and played behind the same guard.
func GuardMove(st State, seat int) (Move, bool) {
	if gd, ok := st.(Guarder); ok {
		return gd.Guard(seat)
	}
	return Move{}, false
}

// Guards reports whether the states of the validated config cfg are
// Guarders: whether a network's play settings may ask for the guard there.
func Guards(cfg Config) bool {
	_, ok := cfg.Game().New(cfg).(Guarder)
	return ok
}
