package env

import (
	"fmt"
	"math/bits"
	"runtime"

	"github.com/gridgym/gridgym/rules"
)

// RewardMode selects how terminal rewards are computed.
type RewardMode uint8

const (
	// RewardRank: (points − (n−1)/2)/((n−1)/2) at the end (default).
	RewardRank RewardMode = iota
	// RewardScore: (score − mean score)/ScoreScale at the end.
	RewardScore
	// RewardNone: no terminal reward, for runs whose rewards are the
	// shaping alone (the change of the seat's own score, step by step).
	RewardNone
)

// Config describes a batch of environments.
type Config struct {
	Game    rules.Config // the game and its parameters
	N       int          // number of environments
	Seed    uint64       // env i draws its random events from rules.EnvStream(Seed, i) (until ResetEnv gives it another stream), its random actions from rules.EnvActionStream(Seed, i)
	Workers int          // goroutines stepping the batch; 0 = GOMAXPROCS
	Reward  RewardMode
	Shaping float64 // weight of potential-based shaping; 0 = off
	// Potential names the shaping potential among the encoder's
	// (rules.Potentials); "" = its own rules.Potential.
	Potential string
	MaxSteps  int // truncate episodes after this many steps; 0 = the game's own end only
	// Continue keeps a game cut at MaxSteps for more: the env reports
	// Truncated and the outcome at the cut as usual, then holds the cut
	// position (later Steps leave it alone, reward 0, Truncated stays set)
	// until PlayOn plays the game on from there as its next episode, or
	// Reset or ResetEnv starts a new game; an episode ended by the rules
	// starts the next game at once, as without it. So a long game is
	// played in MaxSteps-step pieces, and a caller that stops playing an
	// env at a cut finds it where it stopped. For trainers that cut long
	// games into episodes and still want the late game in their data
	// (train.Config.ContinueCut).
	Continue bool
	// NoObs skips the observation planes and scalars (masks, rewards and
	// Active are still written): for self-play with agents that read the
	// state, whose datasets store the compact state and rebuild observations
	// later with the encoder.
	NoObs bool
	// NoMask skips the legal-action masks too (Mask is nil; Active is
	// still written): for callers whose agents answer with real moves and
	// who keep no masks, such as tournaments, where they cost up to 8% of
	// the CPU (bovine-borders). StepRandom and SampleActions need the masks.
	NoMask bool
	// Hold keeps an env whose episode ended at its final position instead
	// of resetting it in the same Step: its State, Active flags, mask (and
	// observation) are the final position's, Terminated or Truncated stays
	// set, and later Steps leave it alone (reward 0) until ResetEnv or Reset
	// starts its next episode. For callers that read the final position,
	// such as a tournament's replays.
	Hold bool
}

// Vec is a batch of N environments of one game with all their seats. Its
// exported slices are the batch buffers, indexed [env·Seats + seat] (and
// further by plane byte, scalar, mask word or head as noted).
type Vec struct {
	Spec  rules.Spec
	Space rules.Space
	N     int
	Seats int

	Obs     []uint8   // [env][seat][ObsSize] (nil with Config.NoObs)
	Scalars []float32 // [env][seat][Scalars] (nil with Config.NoObs)
	Mask    []uint64  // [env][seat][MaskWords] (nil with Config.NoMask)
	Active  []bool    // [env][seat]: the seat's action is used in the next Step
	Reward  []float32 // [env][seat]: reward of the last Step

	Terminated []bool // [env]: the last Step ended the episode by the rules
	Truncated  []bool // [env]: the last Step hit Config.MaxSteps
	// The outcome of the episode that ended in the last Step, where
	// Terminated or Truncated is set (Outcome at truncation time).
	FinalScore  []float64 // [env][seat]
	FinalPoints []float64 // [env][seat]
	FinalWin    []float64 // [env][seat]
	FinalSteps  []int32   // [env]
	Steps       []int32   // [env]: steps played in the current episode

	cfg     Config
	enc     rules.Encoder
	pot     rules.Potential
	states  []rules.State
	rngs    []*rules.RNG
	moves   [][]rules.Move // per env, per seat
	outcome []*rules.Outcome
	phi     []float64 // [env][seat] potential before the step
	actions []int32   // the actions of the Step in progress
	random  []int32   // StepRandom's action buffer
	actRNG  []*rules.RNG
	sample  bool         // the Step in progress samples its actions (StepRandom)
	raw     []rules.Move // [env][seat] moves set by SetMove for the next Step
	useRaw  []bool

	workers int
	pool    *pool
	stepFn  func(lo, hi int)
	resetFn func(lo, hi int)
	closed  bool
}

// New allocates a batch. The environments start in their start position; call
// Reset to seed them.
func New(cfg Config) (*Vec, error) {
	g := cfg.Game.Game()
	if g == nil {
		return nil, fmt.Errorf("env: no game configured")
	}
	if g.Encoder == nil {
		return nil, fmt.Errorf("env: game %s has no encoder", g.Name)
	}
	if cfg.N < 1 {
		return nil, fmt.Errorf("env: N = %d, want ≥ 1", cfg.N)
	}
	if cfg.MaxSteps < 0 {
		return nil, fmt.Errorf("env: MaxSteps = %d, want ≥ 0", cfg.MaxSteps)
	}
	enc := g.Encoder(cfg.Game)
	sp := enc.Space()
	v := &Vec{cfg: cfg, enc: enc, Space: sp, N: cfg.N}
	if cfg.Shaping != 0 {
		p, err := rules.PotentialOf(enc, cfg.Potential)
		if err != nil {
			return nil, fmt.Errorf("env: game %s: %w", g.Name, err)
		}
		v.pot = p
	}
	v.states = make([]rules.State, cfg.N)
	v.rngs = make([]*rules.RNG, cfg.N)
	v.actRNG = make([]*rules.RNG, cfg.N)
	v.moves = make([][]rules.Move, cfg.N)
	v.outcome = make([]*rules.Outcome, cfg.N)
	for i := range v.states {
		v.states[i] = g.New(cfg.Game)
		v.rngs[i] = rules.EnvStream(cfg.Seed, i)
		v.actRNG[i] = rules.EnvActionStream(cfg.Seed, i)
	}
	v.Spec = *v.states[0].Spec()
	n, s := cfg.N, v.Spec.Seats
	v.Seats = s
	for i := range v.states {
		v.moves[i] = make([]rules.Move, s)
		v.outcome[i] = rules.NewOutcome(s)
	}
	if !cfg.NoObs {
		v.Obs = make([]uint8, n*s*sp.ObsSize())
		v.Scalars = make([]float32, n*s*sp.Scalars)
	}
	if !cfg.NoMask {
		v.Mask = make([]uint64, n*s*sp.MaskWords())
	}
	v.Active = make([]bool, n*s)
	v.Reward = make([]float32, n*s)
	v.Terminated = make([]bool, n)
	v.Truncated = make([]bool, n)
	v.FinalScore = make([]float64, n*s)
	v.FinalPoints = make([]float64, n*s)
	v.FinalWin = make([]float64, n*s)
	v.FinalSteps = make([]int32, n)
	v.Steps = make([]int32, n)
	v.phi = make([]float64, n*s)
	v.random = make([]int32, n*s*sp.Heads)
	v.raw = make([]rules.Move, n*s)
	v.useRaw = make([]bool, n*s)
	v.workers = cfg.Workers
	if v.workers <= 0 {
		v.workers = runtime.GOMAXPROCS(0)
	}
	v.workers = min(v.workers, n)
	v.stepFn = v.stepRange
	v.resetFn = v.resetRange
	// The calling goroutine takes the first share of each call itself;
	// workers-1 helper goroutines take the others.
	v.pool = newPool(n, v.workers)
	v.run(v.resetFn)
	return v, nil
}

// run calls f over the batch split among the workers and waits for all.
func (v *Vec) run(f func(lo, hi int)) { v.pool.run(f) }

// Close stops the worker goroutines. The Vec must not be stepped afterwards.
func (v *Vec) Close() {
	if v.closed {
		return
	}
	v.closed = true
	v.pool.close()
}

// State returns env i's game state (read it; do not step it).
func (v *Vec) State(i int) rules.State { return v.states[i] }

// Encoder returns the game's encoder.
func (v *Vec) Encoder() rules.Encoder { return v.enc }

// Reset seeds env i with rules.EnvStream(seed, i), puts every env at its start
// position and writes the first observations.
func (v *Vec) Reset(seed uint64) {
	for i, r := range v.rngs {
		*r = *rules.EnvStream(seed, i)
	}
	v.run(v.resetFn)
}

// ResetEnv puts env i alone at its start position, with its random events
// drawn from now on from a copy of rng, and writes its first observations:
// for callers whose seed scheme is not the batch's, such as a self-play
// worker's share of a larger batch (rules.EnvStream of the env's index in
// the whole run) or a tournament game (rules.GameStream).
func (v *Vec) ResetEnv(i int, rng *rules.RNG) {
	*v.rngs[i] = *rng
	v.resetRange(i, i+1)
}

// PlayOn plays env i's game on from the position Config.Continue holds it
// at after a cut: its next episode starts there, with its step count at 0.
// It does nothing to an env not held at a cut.
func (v *Vec) PlayOn(i int) {
	if v.cfg.Continue && v.Truncated[i] {
		v.Truncated[i], v.Steps[i] = false, 0
	}
}

func (v *Vec) resetRange(lo, hi int) {
	for i := lo; i < hi; i++ {
		v.states[i].Reset()
		v.Steps[i] = 0
		v.Terminated[i], v.Truncated[i] = false, false
		for s := 0; s < v.Seats; s++ {
			v.Reward[i*v.Seats+s] = 0
		}
		v.observe(i)
	}
}

// Step plays one step in every env. actions holds N·Seats·Heads entries,
// [env][seat][head], in the canonical frame; entries of seats that are not
// Active are ignored. Illegal actions get the rules' treatment of the move
// they decode to.
func (v *Vec) Step(actions []int32) {
	if len(actions) != v.N*v.Seats*v.Space.Heads {
		panic(fmt.Sprintf("env: Step got %d actions, want N·Seats·Heads = %d", len(actions), v.N*v.Seats*v.Space.Heads))
	}
	v.actions = actions
	v.run(v.stepFn)
	v.actions = nil
}

// StepMoves plays one step in every env with the moves given by SetMove
// alone: seats without one play the empty move (rules.Move{}), as if not
// asked. It is Step for callers whose agents all answer with real moves
// (self-play, tournaments), who have no actions to decode.
func (v *Vec) StepMoves() { v.run(v.stepFn) }

// SetMove makes seat s of env i play the real move m in the next Step instead
// of decoding its action: for scripted agents, whose answers may lie outside
// the action space (Bovine's destination-only answers, say). Moves of seats
// that are not Active are ignored by the rules as usual.
func (v *Vec) SetMove(i, s int, m rules.Move) {
	k := i*v.Seats + s
	v.raw[k], v.useRaw[k] = m, true
}

// StepRandom plays one step in which every seat takes a uniformly random
// legal action from its mask, drawn inside the workers from per-env
// generators (seeded from Config.Seed). It is the random policy of the
// benchmarks (BenchVec).
func (v *Vec) StepRandom() {
	v.needMask("StepRandom")
	v.actions, v.sample = v.random, true
	v.run(v.stepFn)
	v.actions, v.sample = nil, false
}

func (v *Vec) stepRange(lo, hi int) {
	seats, heads := v.Seats, v.Space.Heads
	for i := lo; i < hi; i++ {
		if v.cfg.Hold && (v.Terminated[i] || v.Truncated[i]) || v.cfg.Continue && v.Truncated[i] {
			for k := i * seats; k < (i+1)*seats; k++ {
				v.Reward[k], v.useRaw[k] = 0, false
			}
			continue
		}
		if v.sample {
			v.sampleEnv(i, v.actRNG[i], v.actions)
		}
		st := v.states[i]
		m := v.moves[i]
		for s := 0; s < seats; s++ {
			m[s] = rules.Move{}
			switch k := i*seats + s; {
			case v.useRaw[k]:
				m[s], v.useRaw[k] = v.raw[k], false
			case v.Active[k] && v.actions != nil:
				m[s] = v.enc.Decode(st, s, v.actions[k*heads:(k+1)*heads])
			}
		}
		st.Step(m, v.rngs[i])
		v.Steps[i]++
		v.Terminated[i] = st.Done()
		v.Truncated[i] = !v.Terminated[i] && v.cfg.MaxSteps > 0 && int(v.Steps[i]) >= v.cfg.MaxSteps
		for s := 0; s < seats; s++ {
			v.Reward[i*seats+s] = 0
		}
		if v.pot != nil {
			for s := 0; s < seats; s++ {
				phi := v.pot.Potential(st, s)
				v.Reward[i*seats+s] = float32(v.cfg.Shaping * (phi - v.phi[i*seats+s]))
				v.phi[i*seats+s] = phi
			}
		}
		if v.Terminated[i] || v.Truncated[i] {
			v.finish(i)
			if !v.cfg.Hold && !(v.Truncated[i] && v.cfg.Continue) {
				st.Reset()
				v.Steps[i] = 0
			}
		}
		v.observe(i)
	}
}

// finish records the outcome of env i's episode and its terminal reward.
func (v *Vec) finish(i int) {
	seats := v.Seats
	o := v.outcome[i]
	v.states[i].Outcome(o)
	copy(v.FinalScore[i*seats:(i+1)*seats], o.Score)
	copy(v.FinalPoints[i*seats:(i+1)*seats], o.Points)
	copy(v.FinalWin[i*seats:(i+1)*seats], o.Win)
	v.FinalSteps[i] = v.Steps[i]
	if v.Truncated[i] {
		return
	}
	for s := 0; s < seats; s++ {
		v.Reward[i*seats+s] += float32(v.terminalReward(o, s))
	}
}

func (v *Vec) terminalReward(o *rules.Outcome, s int) float64 {
	return TerminalReward(v.cfg.Reward, o, s, v.Space.ScoreScale)
}

// TerminalReward is seat s's reward at the end of an episode with outcome o
// (package doc, "Rewards"); scale is the encoder's ScoreScale.
func TerminalReward(mode RewardMode, o *rules.Outcome, s int, scale float64) float64 {
	if mode == RewardNone {
		return 0
	}
	n := float64(len(o.Points))
	if mode == RewardScore {
		mean := 0.0
		for _, x := range o.Score {
			mean += x
		}
		mean /= n
		if scale <= 0 {
			scale = 1
		}
		return (o.Score[s] - mean) / scale
	}
	half := (n - 1) / 2
	return (o.Points[s] - half) / half
}

// observe writes env i's observations, masks and Active flags.
func (v *Vec) observe(i int) {
	st := v.states[i]
	seats, os, ns, mw := v.Seats, v.Space.ObsSize(), v.Space.Scalars, v.Space.MaskWords()
	for s := 0; s < seats; s++ {
		k := i*seats + s
		v.Active[k] = st.Active(s)
		if !v.cfg.NoObs {
			v.enc.Observe(st, s, v.Obs[k*os:(k+1)*os], v.Scalars[k*ns:(k+1)*ns])
		}
		if !v.cfg.NoMask {
			v.enc.Mask(st, s, v.Mask[k*mw:(k+1)*mw])
		}
		if v.pot != nil && v.Steps[i] == 0 {
			v.phi[k] = v.pot.Potential(st, s)
		}
	}
}

// SampleActions writes into actions a uniformly random legal action for every
// active (env, seat, head) from the current masks (an empty head gets 0;
// inactive seats' entries are left as they are).
func (v *Vec) SampleActions(rng *rules.RNG, actions []int32) {
	v.needMask("SampleActions")
	for i := 0; i < v.N; i++ {
		v.sampleEnv(i, rng, actions)
	}
}

// needMask panics, naming the caller, if the batch keeps no masks.
func (v *Vec) needMask(caller string) {
	if v.Mask == nil {
		panic("env: " + caller + " samples from the masks, which Config.NoMask skips")
	}
}

// sampleEnv draws env i's random legal actions into actions.
func (v *Vec) sampleEnv(i int, rng *rules.RNG, actions []int32) {
	mw, heads, na := v.Space.MaskWords(), v.Space.Heads, v.Space.Actions
	for k := i * v.Seats; k < (i+1)*v.Seats; k++ {
		if !v.Active[k] {
			continue
		}
		mask := v.Mask[k*mw : (k+1)*mw]
		for h := 0; h < heads; h++ {
			actions[k*heads+h] = int32(SampleBit(mask, h*na, (h+1)*na, rng) - h*na)
		}
	}
}

// SampleBit returns a uniformly random set bit of mask among bits [lo, hi),
// or lo if none is set. It counts the set bits word by word, draws one index
// and selects it in a second pass.
func SampleBit(mask []uint64, lo, hi int, rng *rules.RNG) int {
	n := 0
	for b := lo; b < hi; {
		w, span := window(mask, b, hi)
		n += bits.OnesCount64(w)
		b += span
	}
	if n == 0 {
		return lo
	}
	k := rng.U(n)
	for b := lo; b < hi; {
		w, span := window(mask, b, hi)
		if c := bits.OnesCount64(w); k >= c {
			k -= c
			b += span
			continue
		}
		for ; k > 0; k-- {
			w &= w - 1
		}
		return b + bits.TrailingZeros64(w)
	}
	return lo
}

// window returns the bits of mask from bit b up to the next word boundary or
// hi, whichever comes first, shifted down to bit 0, and their count.
func window(mask []uint64, b, hi int) (uint64, int) {
	off := b & 63
	w := mask[b>>6] >> uint(off)
	span := 64 - off
	if rest := hi - b; rest < span {
		span = rest
		w &= 1<<uint(span) - 1
	}
	return w, span
}

// Bit reports whether bit b of mask is set.
func Bit(mask []uint64, b int) bool { return mask[b>>6]>>uint(b&63)&1 != 0 }

// String names the reward mode as configs and metadata spell it.
func (m RewardMode) String() string {
	switch m {
	case RewardScore:
		return "score"
	case RewardNone:
		return "none"
	}
	return "rank"
}

// ParseRewardMode reads "rank", "score" or "none".
func ParseRewardMode(s string) (RewardMode, error) {
	switch s {
	case "rank":
		return RewardRank, nil
	case "score":
		return RewardScore, nil
	case "none":
		return RewardNone, nil
	}
	return 0, fmt.Errorf("reward mode %q: want rank, score or none", s)
}
