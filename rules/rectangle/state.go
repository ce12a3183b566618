package rectangle

import (
	"github.com/gridgym/gridgym/rules"
)

// Limits of the parameters (R1).
const (
	MaxN      = 64 // largest grid side
	MaxRobots = 8  // most robots per player
)

// maxSeats is the most players (R1).
const maxSeats = rules.MaxSeats

// Cell values, as the rules' protocol board writes them (R19) with absolute
// player numbers: Cell returns Unpaintable, Unpainted or the painting player.
const (
	Unpaintable = -2
	Unpainted   = -1
)

// State is a Rectangle game in progress. A *State implements rules.State and
// rules.Checker.
type State struct {
	spec     rules.Spec
	n, p, b  int    // grid side, players, robots per player (R1)
	idleK    int    // K: the game ends after K moves without a claim (R15)
	maxMoves int    // M: the game ends after move M (R15)
	full     uint64 // the n low bits: one full row
	board           // the game state proper: what CopyFrom copies
	rt       ringTrack
	sc       scratch
}

// ringTrack is the ring planes' memory with ring_memory=true (ring.go,
// RingKept). It is observation only: the rules never read it, and
// AppendWords does not write it (it follows from the moves played).
type ringTrack struct {
	on    bool
	guard bool                       // ring_guard: rivals' kept rings are guarded (RingKept)
	rule  RingRule                   // ring_rule's constants (RuleOf)
	free  bool                       // ring_step=free (RingMoves)
	still [maxSeats][MaxRobots]int32 // moves each robot has stood still (0 at move 1)
	mem   [maxSeats]RingMemory       // what each seat carries into the current move
}

// ringScratch is the buffers of Step's ring memory (allocated on first use).
type ringScratch struct {
	v     View
	plans [MaxRobots]Plan
	x     Rings
}

// board is the whole game state: everything AppendWords writes, plus done.
type board struct {
	paint [maxSeats][MaxN]uint64 // paint[i][r] bit c: (r, c) painted in i's colour
	unp   [MaxN]uint64           // unpaintable cells (R3), claimed interiors
	rr    [maxSeats][MaxRobots]uint8
	rc    [maxSeats][MaxRobots]uint8 // robot k of player i is at (rr[i][k], rc[i][k])
	score [maxSeats]int32
	steps int32 // Step calls so far: 0 before the placement, t after move t−1…
	idle  int32 // R14: moves since the last claiming move
	done  bool
}

// Claim is a rectangle claimed in the last Step, with the gain it scored.
type Claim struct {
	Player, R1, C1, R2, C2, Gain int
}

// candCap is the size of the candidate buffer. More candidates are handled in
// batches (see claims).
const candCap = 512

// maxClaimLog is how many claims of one step LastClaims keeps.
const maxClaimLog = 64

// scratch holds buffers Step reuses; none of it is game state.
type scratch struct {
	occ1, occ2 [MaxN]uint64 // cells with ≥ 1 and ≥ 2 robots
	arrived    [maxSeats]uint8
	newB       [MaxN]uint64                // new paint of the player being scanned
	newCell    [maxSeats][MaxRobots]uint16 // cells newly painted per player (r<<8 | c)
	newN       [maxSeats]uint8

	cand      [candCap]uint64 // candidate keys
	candN     int
	candLimit int    // ≤ candCap; tests lower it to exercise the batched path
	bound     uint64 // batches: keys above bound were dropped from this scan
	over      bool   // this scan dropped keys
	rescan    bool   // scanning the snapshot for keys above last
	last      uint64 // batches: the last key processed
	snapPaint [maxSeats][MaxN]uint64
	snapUnp   [MaxN]uint64

	ring *ringScratch // ring memory only

	nCand    int // candidates found in the last Step (all batches)
	claimLog [maxClaimLog]Claim
	nClaims  int
}

// New returns a game at its start position for a validated config.
func New(cfg rules.Config) *State {
	s := NewSized(cfg.Int("n"), cfg.Int("players"), cfg.Int("robots"), cfg.Int("idle_limit"), cfg.Int("max_moves"))
	s.rt.on = cfg.Bool("ring_memory")
	s.rt.guard = s.rt.on && cfg.Bool("ring_guard")
	s.rt.rule = RuleOf(cfg.Get("ring_rule"))
	s.rt.free = cfg.Get("ring_step") == "free"
	return s
}

// NewSized returns a game with explicit parameters (R1), for tests and tools
// that do not go through the registry. Out-of-range values are clamped.
func NewSized(n, players, robots, idleLimit, maxMoves int) *State {
	n = clamp(n, 8, MaxN)
	players = clamp(players, 2, maxSeats)
	robots = clamp(robots, 1, MaxRobots)
	idleLimit = clamp(idleLimit, 1, maxIdleLimit)
	maxMoves = clamp(maxMoves, idleLimit, maxMaxMoves)
	s := &State{n: n, p: players, b: robots, idleK: idleLimit, maxMoves: maxMoves}
	s.rt.rule = RuleOf("")
	s.full = ^uint64(0)
	if n < 64 {
		s.full = 1<<uint(n) - 1
	}
	s.spec = rules.Spec{
		Game:  Name,
		Seats: players,
		// Step ignores its generator: no chance in Rectangle.
		Deterministic: true,
		Rows:          n,
		Cols:          n,
		MaxSteps:      maxMoves + 1,
		ScoreName:     "claimed cells",
		Tournament:    rules.MeanScore,
	}
	s.sc.candLimit = candCap
	return s
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// Spec implements rules.State.
func (s *State) Spec() *rules.Spec { return &s.spec }

// Reset implements rules.State: an empty board before the placement.
func (s *State) Reset() {
	s.board = board{}
	s.rt = ringTrack{on: s.rt.on, guard: s.rt.guard, rule: s.rt.rule, free: s.rt.free}
	s.sc.nCand, s.sc.nClaims = 0, 0
}

// Done implements rules.State.
func (s *State) Done() bool { return s.done }

// Steps implements rules.State.
func (s *State) Steps() int { return int(s.steps) }

// Active implements rules.State: every player acts in every step (R6).
func (s *State) Active(seat int) bool { return !s.done && seat >= 0 && seat < s.p }

// CopyFrom implements rules.State; src must be a *State.
func (s *State) CopyFrom(src rules.State) {
	o := src.(*State)
	s.spec, s.n, s.p, s.b, s.idleK, s.maxMoves, s.full = o.spec, o.n, o.p, o.b, o.idleK, o.maxMoves, o.full
	s.board = o.board
	s.rt = o.rt
	s.sc.nCand, s.sc.nClaims = 0, 0
	if s.sc.candLimit == 0 {
		s.sc.candLimit = candCap
	}
}

// Clone implements rules.State.
func (s *State) Clone() rules.State {
	c := &State{}
	c.CopyFrom(s)
	c.sc.candLimit = s.sc.candLimit
	return c
}

// Outcome implements rules.State: Score is the claimed cells (R16); Points and
// Win rank the scores, equal scores tie.
func (s *State) Outcome(o *rules.Outcome) {
	var keys [maxSeats]float64
	for i := 0; i < s.p; i++ {
		o.Score[i] = float64(s.score[i])
		keys[i] = o.Score[i]
	}
	rules.PointsFromKeys(keys[:s.p], o)
}

// N is the grid side.
func (s *State) N() int { return s.n }

// Players is the number of players (seats).
func (s *State) Players() int { return s.p }

// Robots is the number of robots per player.
func (s *State) Robots() int { return s.b }

// IdleLimit is K (R15).
func (s *State) IdleLimit() int { return s.idleK }

// MaxMoves is M (R15).
func (s *State) MaxMoves() int { return s.maxMoves }

// MoveNum is the protocol's move_num of the next step (R19): 0 before the
// placement, t before move t.
func (s *State) MoveNum() int { return int(s.steps) }

// Placement reports whether the next step is the placement (R7).
func (s *State) Placement() bool { return s.steps == 0 }

// Idle is the idle counter (R14).
func (s *State) Idle() int { return int(s.idle) }

// Score is player seat's claimed cells (R16).
func (s *State) Score(seat int) int { return int(s.score[seat]) }

// Robot returns the cell of robot i of player seat. Before the placement every
// robot reads (0, 0) but is not on the board yet.
func (s *State) Robot(seat, i int) (r, c int) { return int(s.rr[seat][i]), int(s.rc[seat][i]) }

// Cell returns Unpaintable, Unpainted, or the player whose paint is on (r, c).
func (s *State) Cell(r, c int) int {
	bit := uint64(1) << uint(c)
	if s.unp[r]&bit != 0 {
		return Unpaintable
	}
	for i := 0; i < s.p; i++ {
		if s.paint[i][r]&bit != 0 {
			return i
		}
	}
	return Unpainted
}

// PaintRows returns player seat's paint bitboard (n row words, bit c = column
// c). It aliases the state: read only.
func (s *State) PaintRows(seat int) []uint64 { return s.paint[seat][:s.n] }

// UnpaintableRows returns the unpaintable cells (n row words). It aliases the
// state: read only.
func (s *State) UnpaintableRows() []uint64 { return s.unp[:s.n] }

// LastClaims returns the claims of the last Step call on this object, in the
// order they were made (at most 64 are kept; ClaimCount has the total). The
// slice aliases scratch space reused by the next Step.
func (s *State) LastClaims() []Claim { return s.sc.claimLog[:min(s.sc.nClaims, maxClaimLog)] }

// ClaimCount is the number of claims made in the last Step call.
func (s *State) ClaimCount() int { return s.sc.nClaims }

// SetCell sets (r, c) to v: Unpaintable, Unpainted or a player's paint. It is
// for building custom states (tests, analysis) and checks nothing beyond the
// coordinates; Check verifies the result.
func (s *State) SetCell(r, c, v int) {
	if r < 0 || r >= s.n || c < 0 || c >= s.n || v < Unpaintable || v >= s.p {
		return
	}
	bit := uint64(1) << uint(c)
	s.unp[r] &^= bit
	for i := 0; i < s.p; i++ {
		s.paint[i][r] &^= bit
	}
	switch {
	case v == Unpaintable:
		s.unp[r] |= bit
	case v >= 0:
		s.paint[v][r] |= bit
	}
}

// SetRobot puts robot i of player seat on (r, c), for custom states. Nothing is
// painted.
func (s *State) SetRobot(seat, i, r, c int) {
	if seat < 0 || seat >= s.p || i < 0 || i >= s.b || r < 0 || r >= s.n || c < 0 || c >= s.n {
		return
	}
	s.rr[seat][i], s.rc[seat][i] = uint8(r), uint8(c)
}

// SetScore sets player seat's score, for custom states.
func (s *State) SetScore(seat, score int) {
	if seat >= 0 && seat < s.p {
		s.score[seat] = int32(score)
	}
}

// SetClock sets the number of steps played (so the next step is move t=steps,
// or the placement if 0) and the idle counter, for custom states; done follows
// from them (R15).
func (s *State) SetClock(steps, idle int) {
	s.steps, s.idle = int32(max(steps, 0)), int32(max(idle, 0))
	s.done = s.finished()
}

// finished applies R15 to the counters.
func (s *State) finished() bool {
	return s.steps >= 2 && (int(s.idle) >= s.idleK || int(s.steps)-1 >= s.maxMoves)
}
