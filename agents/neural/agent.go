package neural

import (
	"fmt"
	"math"
	"slices"

	"github.com/gridgym/gridgym/rules"
)

// Agent plays one seat with a network (agents.Agent): it observes through the
// game's encoder, masks illegal actions, and takes per head
//   - with Sample and a generator from Reset: a draw from the policy with
//     that generator (training's rollouts);
//   - else with Temperature T > 0 (in the first TempSteps steps, if set): a draw from softmax(logits/T) over the
//     legal actions that is a pure function of (seed, observation, head)
//     (play.go: Draw, SampleAt), the seed being Seed, or with PerSeat
//     SeatSeed(Seed, seat) mixed with Reset's generator. This breaks the symmetry between copies of one
//     network in one game (Rectangle's shared placements, issue 22) and is
//     what the exported Python bot reproduces exactly (export, SEED);
//   - else the most probable legal action (greedy, the default).
type Agent struct {
	Net    *Net
	Enc    rules.Encoder
	Sample bool // sample from the policy instead of acting greedily

	// Temperature of the seeded play-time sampling; 0 = greedy.
	Temperature float64
	// Seed keys the play-time draws.
	Seed uint64
	// PerSeat mixes the seat into Seed at Reset (SeatSeed), so that copies
	// of one network in different seats draw differently, and with a
	// generator from Reset also one draw of it, so that one seat draws
	// differently from game to game (as an exported bot with SEED = None
	// does from process to process), reproducibly for the tournament's seed.
	// Weights specs (FILE:temp=T) set it; an exported bot, told no seat,
	// cannot.
	PerSeat bool
	// TempSteps, if > 0, limits the sampling to the game's first TempSteps
	// steps (rules.State.Steps; Rectangle's placement is step 0): greedy
	// after them.
	TempSteps int
	// Opening, if > 0, plays the game's scripted opening of that size at
	// the placement (Play.Opening, rules.Opener) with the draws OpeningDraw
	// under the seed above; the network plays every later step. A game
	// without an opener ignores it (resolve refuses such a spec).
	Opening int
	// Guard plays the game's scripted guard (Play.Guard, rules.Guarder)
	// wherever it answers, the network everywhere else. A game without one
	// ignores it (resolve refuses such a spec).
	Guard bool

	seat    int
	seed    uint64 // the draws' seed for this game: Seed, or SeatSeed(Seed, seat)
	rng     *rules.RNG
	w       *Workspace
	planes  []uint8
	scalars []float32
	mask    []uint64
	actions []int32
	rankI   []int32 // Rank: per head, the action last taken
}

// NewAgent returns an agent playing net in the game configured by cfg; the
// network must have been shaped for that game's encoder.
func NewAgent(net *Net, cfg rules.Config, sample bool) (*Agent, error) {
	g := cfg.Game()
	if g == nil || g.Encoder == nil {
		return nil, fmt.Errorf("neural agent: game has no encoder")
	}
	enc := g.Encoder(cfg)
	if err := net.Arch.Fits(g.Name, enc.Space()); err != nil {
		return nil, err
	}
	sp := enc.Space()
	return &Agent{Net: net, Enc: enc, Sample: sample, w: NewWorkspace(net.Arch, 1),
		planes: make([]uint8, sp.ObsSize()), scalars: make([]float32, sp.Scalars),
		mask: make([]uint64, sp.MaskWords()), actions: make([]int32, sp.Heads),
		rankI: make([]int32, sp.Heads)}, nil
}

// Fits reports whether a network of this shape can play game with space sp.
func (a Arch) Fits(game string, sp rules.Space) error {
	want, err := NewArch(game, sp, a.Filters, a.Layers, a.Hidden)
	if err != nil {
		return err
	}
	want.Coords = a.Coords
	if a.Units == 0 {
		want.Units = 0 // a network without unit features still plays
	}
	if a.Encoding != EncodingVersion {
		return fmt.Errorf("network was trained on observation encoding version %d; this gridgym uses version %d", a.Encoding, EncodingVersion)
	}
	if want != a {
		return fmt.Errorf("network shaped for %s %dx%dx%d (+%d scalars), %d heads of %d actions; this game (%s) needs %dx%dx%d (+%d scalars), %d heads of %d actions",
			a.Game, a.Planes, a.Height, a.Width, a.Scalars, a.Heads, a.Actions, game, want.Planes, want.Height, want.Width, want.Scalars, want.Heads, want.Actions)
	}
	return nil
}

// Reset implements agents.Agent.
func (g *Agent) Reset(_ rules.State, seat int, rng *rules.RNG) {
	g.seat, g.rng, g.seed = seat, rng, g.Seed
	if g.PerSeat {
		g.seed = SeatSeed(g.Seed, seat)
		if rng != nil {
			g.seed ^= rng.Uint64()
		}
	}
}

// Act implements agents.Agent.
func (g *Agent) Act(st rules.State) rules.Move {
	if g.Guard {
		if m, ok := rules.GuardMove(st, g.seat); ok {
			return m
		}
	}
	g.Enc.Observe(st, g.seat, g.planes, g.scalars)
	if g.Opening > 0 && st.Steps() == 0 {
		if m, ok := g.opening(st); ok {
			return m
		}
	}
	g.Enc.Mask(st, g.seat, g.mask)
	FillInput(g.Net.Arch, g.w.Input, g.planes, g.scalars)
	g.Net.Forward(g.w, 1, g.mask, len(g.mask))
	a := g.Net.Arch
	var key uint64
	hot := Play{Temperature: g.Temperature, Steps: g.TempSteps}.Samples(st.Steps())
	if hot {
		key = ObsKey(g.planes, g.scalars)
	}
	for h := 0; h < a.Heads; h++ {
		l := g.w.Logits[h*a.Actions : (h+1)*a.Actions]
		if g.Sample && g.rng != nil {
			g.actions[h] = int32(SampleLogits(l, g.rng))
		} else if hot {
			g.actions[h] = int32(SampleAt(l, g.Temperature, Draw(g.seed, key, h)))
		} else {
			g.actions[h] = int32(Argmax(l))
		}
	}
	return g.Enc.Decode(st, g.seat, g.actions)
}

// opening is the game's scripted opening of size g.Opening at st (an
// Opener's), drawn with OpeningDraw keyed by the observation just encoded.
func (g *Agent) opening(st rules.State) (rules.Move, bool) {
	op, ok := st.(rules.Opener)
	if !ok {
		return rules.Move{}, false
	}
	key := ObsKey(g.planes, g.scalars)
	var u [rules.OpeningDraws]float64
	for i := range u {
		u[i] = OpeningDraw(g.seed, key, i)
	}
	return op.Opening(g.seat, g.Opening, u)
}

// Rank implements agents.Ranker: the policy's k best moves for the agent's
// seat at st, best first, whatever its Sample and Temperature. Move i takes
// every head's (i+1)-th most probable legal action (ties: the lower index
// first), or the head's least probable legal one if it has fewer; a move
// equal to one already ranked is left out, so fewer than k may come back.
// The greedy move is the first. It allocates nothing beyond dst's growth.
func (g *Agent) Rank(st rules.State, k int, dst []rules.Move) []rules.Move {
	g.Enc.Observe(st, g.seat, g.planes, g.scalars)
	g.Enc.Mask(st, g.seat, g.mask)
	FillInput(g.Net.Arch, g.w.Input, g.planes, g.scalars)
	g.Net.Forward(g.w, 1, g.mask, len(g.mask))
	a := g.Net.Arch
	start := len(dst)
	for i := 0; i < k; i++ {
		for h := 0; h < a.Heads; h++ {
			l := g.w.Logits[h*a.Actions : (h+1)*a.Actions]
			if i == 0 {
				g.rankI[h] = int32(Argmax(l))
			} else if j := nextBelow(l, g.rankI[h]); j >= 0 {
				g.rankI[h] = int32(j)
			}
			g.actions[h] = g.rankI[h]
		}
		m := g.Enc.Decode(st, g.seat, g.actions)
		if !slices.Contains(dst[start:], m) {
			dst = append(dst, m)
		}
	}
	return dst
}

// nextBelow returns the index of the largest finite logit that comes after
// action i in the order of logits descending, then index ascending: the next
// most probable legal action after i; −1 if there is none.
func nextBelow(l []float32, i int32) int {
	v, best, bi := l[i], float32(math.Inf(-1)), -1
	for j, x := range l {
		if (x < v || x == v && int32(j) > i) && (bi < 0 || x > best) && !math.IsInf(float64(x), -1) {
			best, bi = x, j
		}
	}
	return bi
}

// Evaluate implements agents.Evaluator: the network's value for seat at st
// (the tanh of its value head, an estimate of the discounted rank reward,
// −1..1).
func (g *Agent) Evaluate(st rules.State, seat int) float64 {
	g.Enc.Observe(st, seat, g.planes, g.scalars)
	FillInput(g.Net.Arch, g.w.Input, g.planes, g.scalars)
	g.Net.Forward(g.w, 1, nil, 0)
	return float64(g.w.Value[0])
}

// Argmax returns the index of the largest logit (the first of equals); with
// every logit −Inf (no legal action) it returns 0.
func Argmax(l []float32) int {
	best, bi := float32(math.Inf(-1)), 0
	for i, v := range l {
		if v > best {
			best, bi = v, i
		}
	}
	return bi
}

// SampleLogits draws an index with probability softmax(l) from rng (−Inf
// logits are never drawn); with every logit −Inf it returns 0.
func SampleLogits(l []float32, rng *rules.RNG) int {
	m := l[Argmax(l)]
	if math.IsInf(float64(m), -1) {
		return 0
	}
	sum := 0.0
	for _, v := range l {
		sum += math.Exp(float64(v - m))
	}
	u := rng.Float64() * sum
	last := 0
	for i, v := range l {
		if math.IsInf(float64(v), -1) {
			continue
		}
		u -= math.Exp(float64(v - m))
		last = i
		if u < 0 {
			return i
		}
	}
	return last
}

// Softmax writes the probabilities softmax(l) into dst (grown to len(l))
// and returns it: −Inf logits (illegal actions) get 0, and with every logit
// −Inf (no legal action) every entry is 0.
func Softmax(dst []float64, l []float32) []float64 {
	if cap(dst) < len(l) {
		dst = make([]float64, len(l))
	}
	dst = dst[:len(l)]
	clear(dst)
	if len(l) == 0 {
		return dst
	}
	m := float64(l[Argmax(l)])
	if math.IsInf(m, -1) {
		return dst
	}
	sum := 0.0
	for i, v := range l {
		dst[i] = math.Exp(float64(v) - m)
		sum += dst[i]
	}
	for i := range dst {
		dst[i] /= sum
	}
	return dst
}

// JointLogProb is the log-probability of a decision that takes acts[h] on
// each head h of logits ([heads][actions] rows, masked entries −Inf): the
// sum over heads of LogProb, skipping a head whose action is out of range or
// whose logit is −Inf (a head with nothing legal to do). It is the
// behaviour log-probability the trainer stores for PPO's ratio, and what
// V-trace scores the stored decisions with again.
func JointLogProb(logits []float32, actions int, acts []int32) float64 {
	lp := 0.0
	for h, act := range acts {
		l := logits[h*actions : (h+1)*actions]
		if act >= 0 && int(act) < actions && !math.IsInf(float64(l[act]), -1) {
			lp += LogProb(l, int(act))
		}
	}
	return lp
}

// LogProb returns log softmax(l)[i].
func LogProb(l []float32, i int) float64 {
	m := l[Argmax(l)]
	sum := 0.0
	for _, v := range l {
		sum += math.Exp(float64(v - m))
	}
	return float64(l[i]-m) - math.Log(sum)
}
