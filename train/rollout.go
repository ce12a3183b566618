package train

import (
	"sync"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train/graph"
)

// Who plays a seat in an episode.
const (
	byLearner  = iota // the current policy; its decisions are trained on
	byPool            // a past checkpoint of the pool
	byScripted        // a registered scripted bot
	byClone           // the frozen cloned policy (opponents.clone)
)

type seatActor struct {
	kind  int
	pool  int          // index into the pool (byPool)
	bot   agents.Agent // byScripted
	label string
}

// buffer holds one iteration's learner decisions, as the network saw them
// (in the random D4 frame the decision was taken in).
type buffer struct {
	os, ns, mw, heads int

	planes  []uint8
	scalars []float32
	masks   []uint64
	actions []int32
	logp    []float32
	value   []float32
	reward  []float32
	done    []bool
	next    []int32 // the same seat's next decision in the episode, −1 at the end
	adv     []float32
	ret     []float32
	g       []float32 // UPGO returns (upgo)
}

func (b *buffer) len() int { return len(b.logp) }

func (b *buffer) reset() {
	b.planes, b.scalars, b.masks, b.actions = b.planes[:0], b.scalars[:0], b.masks[:0], b.actions[:0]
	b.logp, b.value, b.reward, b.done, b.next = b.logp[:0], b.value[:0], b.reward[:0], b.done[:0], b.next[:0]
}

// gae fills adv and ret by generalised advantage estimation along each
// seat's chain of decisions (next pointers always point forward).
func (b *buffer) gae(gamma, lambda float64) {
	n := b.len()
	b.adv = resize(b.adv, n)
	b.ret = resize(b.ret, n)
	for i := n - 1; i >= 0; i-- {
		delta := float64(b.reward[i]) - float64(b.value[i])
		a := delta
		if !b.done[i] && b.next[i] >= 0 {
			j := b.next[i]
			delta += gamma * float64(b.value[j])
			a = delta + gamma*lambda*float64(b.adv[j])
		}
		b.adv[i] = float32(a)
		b.ret[i] = float32(a + float64(b.value[i]))
	}
}

// upgo replaces the advantages (not the value targets, which stay GAE's
// returns) with UPGO's: G_i = r_i + γ·max(V_j, G_j) for the seat's next
// decision j (0 after the last), adv_i = G_i − V_i. The return follows the
// trajectory only while it did at least as well as the critic expected.
func (b *buffer) upgo(gamma float64) {
	n := b.len()
	b.g = resize(b.g, n)
	for i := n - 1; i >= 0; i-- {
		g := float64(b.reward[i])
		if !b.done[i] && b.next[i] >= 0 {
			j := b.next[i]
			g += gamma * max(float64(b.value[j]), float64(b.g[j]))
		}
		b.g[i] = float32(g)
		b.adv[i] = float32(g - float64(b.value[i]))
	}
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// player runs episodes of a Vec with a mix of actors: the learner's network
// (sampling, or greedy for evaluation), pool networks and scripted bots.
type player struct {
	v       *env.Vec
	cfg     rules.Config
	enc     rules.Encoder
	sym     rules.Symmetric
	syms    []rules.D4
	net     *neural.Net
	workers int
	scratch []*scratch    // per worker
	actors  [][]seatActor // [env][seat]
	actions []int32
	// play is an evaluation's play settings (Config.Play): decide's draws
	// sample softmax(logits/T) where they sample (neural.Play.Samples) and
	// take the argmax elsewhere; temperature 0 (training's rollouts)
	// samples the policy itself. An evaluation draws as the neural agent
	// that plays the weights file does (neural.Agent.Act): the draw is
	// neural.Draw(drawSeed[env], neural.ObsKey(observation), head), a
	// function of the position, not a fresh number each step. With
	// play.Guard (Config.Play.Guard) the learner and its pool snapshots
	// play behind the game's scripted guard (request).
	play     neural.Play
	drawSeed []uint64

	// the requests of one decide call
	reqEnv, reqSeat []int
	reqSym          []rules.D4
}

// request lists the active (env, seat) pairs played by actors of kind (and
// pool index k) in p.req*, each in a random frame of the game's symmetries
// (drawn from rngs[env]) when augment. With play.Guard, a learner or pool
// seat that the game's scripted guard answers (rules.Guarder) plays the
// guard's move and is not listed: the network makes no decision there, so
// training records none and its reward goes to the seat's last decision,
// as the guard is played by the neural agent and the exported bot.
func (p *player) request(active []bool, kind, k int, augment bool, rngs []*rules.RNG) {
	v := p.v
	p.reqEnv, p.reqSeat, p.reqSym = p.reqEnv[:0], p.reqSeat[:0], p.reqSym[:0]
	guard := p.play.Guard && (kind == byLearner || kind == byPool)
	for i := 0; i < v.N; i++ {
		if !active[i] {
			continue
		}
		for s := 0; s < v.Seats; s++ {
			a := p.actors[i][s]
			if a.kind != kind || (kind == byPool && a.pool != k) || !v.Active[i*v.Seats+s] {
				continue
			}
			if guard {
				if m, ok := rules.GuardMove(v.State(i), s); ok {
					v.SetMove(i, s, m)
					continue
				}
			}
			g := rules.D4(0)
			if augment && len(p.syms) > 1 {
				g = p.syms[rngs[i].U(len(p.syms))]
			}
			p.reqEnv, p.reqSeat, p.reqSym = append(p.reqEnv, i), append(p.reqSeat, s), append(p.reqSym, g)
		}
	}
}

// scripted sets the moves of the scripted bots of the active envs for the
// next step (a bot that panics or errs passes: agents.SafeAct).
func (p *player) scripted(active []bool) {
	v := p.v
	for i := 0; i < v.N; i++ {
		if !active[i] {
			continue
		}
		for s := 0; s < v.Seats; s++ {
			if a := p.actors[i][s]; a.kind == byScripted && v.Active[i*v.Seats+s] {
				mv, _ := agents.SafeAct(a.bot, v.State(i))
				v.SetMove(i, s, mv)
			}
		}
	}
}

// scratch is one worker's share of a decide call: the rows it runs, as the
// network saw them.
type scratch struct {
	ws      *neural.Workspace
	planes  []uint8   // [row][ObsSize]
	scalars []float32 // [row][Scalars]
	masks   []uint64  // [row][MaskWords]
	acts    []int32   // [row][Heads], in the network's frame
}

func newPlayer(v *env.Vec, cfg rules.Config, net *neural.Net, workers int) *player {
	p := &player{v: v, cfg: cfg, enc: v.Encoder(), net: net, workers: max(1, workers)}
	if s, ok := p.enc.(rules.Symmetric); ok {
		p.sym, p.syms = s, s.Symmetries()
	}
	p.actors = make([][]seatActor, v.N)
	for i := range p.actors {
		p.actors[i] = make([]seatActor, v.Seats)
	}
	p.actions = make([]int32, v.N*v.Seats*v.Space.Heads)
	sp := v.Space
	per := (v.N*v.Seats + p.workers - 1) / p.workers
	for w := 0; w < p.workers; w++ {
		p.scratch = append(p.scratch, &scratch{
			ws:      neural.NewWorkspace(net.Arch, per),
			planes:  make([]uint8, per*sp.ObsSize()),
			scalars: make([]float32, per*sp.Scalars),
			masks:   make([]uint64, per*sp.MaskWords()),
			acts:    make([]int32, per*sp.Heads),
		})
	}
	return p
}

// decide runs net on the requests (env, seat) listed in reqEnv/reqSeat: it
// fills inputs (in frame reqSym), runs the forward pass split over the
// workers, picks each head's action (sampled with rngs[env] or greedy), maps
// it back to the canonical frame into p.actions, and calls rec for every
// decision with its worker scratch and row there.
func (p *player) decide(net *neural.Net, greedy bool, rngs []*rules.RNG, rec func(i, s int, sc *scratch, row int, logp float64)) {
	n := len(p.reqEnv)
	if n == 0 {
		return
	}
	sp := p.v.Space
	a := net.Arch
	os, ns, mw := sp.ObsSize(), sp.Scalars, sp.MaskWords()
	nw := min(p.workers, n)
	var wg sync.WaitGroup
	for w := 0; w < nw; w++ {
		lo, hi := w*n/nw, (w+1)*n/nw
		body := func(sc *scratch, lo, hi int) {
			for r := lo; r < hi; r++ {
				i, s, g := p.reqEnv[r], p.reqSeat[r], p.reqSym[r]
				kk := i*p.v.Seats + s
				obs := p.v.Obs[kk*os : (kk+1)*os]
				sca := p.v.Scalars[kk*ns : (kk+1)*ns]
				m := p.v.Mask[kk*mw : (kk+1)*mw]
				j := r - lo
				dp, ds, dm := sc.planes[j*os:(j+1)*os], sc.scalars[j*ns:(j+1)*ns], sc.masks[j*mw:(j+1)*mw]
				if g != 0 {
					p.sym.TransformObs(g, dp, ds, obs, sca)
					graph.TransformMask(p.sym, g, sp, m, dm)
				} else {
					copy(dp, obs)
					copy(ds, sca)
					copy(dm, m)
				}
				neural.FillInput(a, sc.ws.Input[j*a.InputSize():], dp, ds)
			}
			net.Forward(sc.ws, hi-lo, sc.masks, mw)
		}
		if w == nw-1 {
			body(p.scratch[w], lo, hi)
		} else {
			wg.Add(1)
			go func() { defer wg.Done(); body(p.scratch[w], lo, hi) }()
		}
	}
	wg.Wait()
	for w := 0; w < nw; w++ {
		lo, hi := w*n/nw, (w+1)*n/nw
		sc := p.scratch[w]
		for r := lo; r < hi; r++ {
			i, s, g := p.reqEnv[r], p.reqSeat[r], p.reqSym[r]
			kk := i*p.v.Seats + s
			j := r - lo
			hot := !greedy && p.play.Temperature > 0 && p.play.Samples(p.v.State(i).Steps())
			var key uint64 // an evaluation's sampled step: one key for every head's draw
			if hot {
				key = neural.ObsKey(p.v.Obs[kk*os:(kk+1)*os], p.v.Scalars[kk*ns:(kk+1)*ns])
			}
			for h := 0; h < a.Heads; h++ {
				l := sc.ws.Logits[(j*a.Heads+h)*a.Actions : (j*a.Heads+h+1)*a.Actions]
				var act int
				switch {
				case greedy:
					act = neural.Argmax(l)
				case p.play.Temperature == 0:
					act = neural.SampleLogits(l, rngs[i])
				case hot:
					act = neural.SampleAt(l, p.play.Temperature, neural.Draw(p.drawSeed[i], key, h))
				default:
					act = neural.Argmax(l)
				}
				sc.acts[j*a.Heads+h] = int32(act)
				ca := int32(act)
				if g != 0 {
					ca = p.sym.TransformAction(g.Inverse(), h, ca)
				}
				p.actions[kk*a.Heads+h] = ca
			}
			if rec != nil {
				logp := neural.JointLogProb(sc.ws.Logits[j*a.Heads*a.Actions:(j+1)*a.Heads*a.Actions], a.Actions, sc.acts[j*a.Heads:(j+1)*a.Heads])
				rec(i, s, sc, j, logp)
			}
		}
	}
}
