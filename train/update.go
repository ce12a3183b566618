package train

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"

	G "gorgonia.org/gorgonia"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
)

func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

// samples is what one gradient step reads: the buffer rows of a minibatch.
type samples struct {
	planes  []uint8
	scalars []float32
	masks   []uint64
	actions []int32
	os, ns  int
	mw      int
	heads   int
}

// fill writes minibatch rows idx of s into the graph's inputs, each in frame
// frames[j] of sym (nil = as stored).
func (gr *graph) fill(s samples, idx []int, sym rules.Symmetric, frames []rules.D4) {
	a := gr.arch
	x := gr.x.Data().([]float32)
	mb := gr.maskBias.Data().([]float32)
	oh := gr.onehot.Data().([]float32)
	clear(oh)
	if frames != nil && (len(gr.tPlanes) != s.os || len(gr.tScalars) != s.ns || len(gr.tMask) != s.mw) {
		gr.tPlanes, gr.tScalars, gr.tMask = make([]uint8, s.os), make([]float32, s.ns), make([]uint64, s.mw)
	}
	tp, ts, tm := gr.tPlanes, gr.tScalars, gr.tMask
	sp := rules.Space{Heads: a.Heads, Actions: a.Actions}
	for j, r := range idx {
		planes := s.planes[r*s.os : (r+1)*s.os]
		scalars := s.scalars[r*s.ns : (r+1)*s.ns]
		mask := s.masks[r*s.mw : (r+1)*s.mw]
		g := rules.D4(0)
		if frames != nil {
			g = frames[j]
		}
		if g != 0 {
			sym.TransformObs(g, tp, ts, planes, scalars)
			transformMask(sym, g, sp, mask, tm)
			planes, scalars, mask = tp, ts, tm
		}
		neural.FillInput(a, x[j*a.InputSize():], planes, scalars)
		for h := 0; h < a.Heads; h++ {
			row := (j*a.Heads + h) * a.Actions
			for k := 0; k < a.Actions; k++ {
				b := h*a.Actions + k
				if mask[b>>6]>>(b&63)&1 != 0 {
					mb[row+k] = 0
				} else {
					mb[row+k] = maskedLogit
				}
			}
			act := s.actions[r*s.heads+h]
			if g != 0 {
				act = sym.TransformAction(g, h, act)
			}
			if act >= 0 && int(act) < a.Actions {
				oh[row+int(act)] = 1
			}
		}
	}
}

// learn runs the PPO epochs over the buffer.
// It returns errAborted, with the network part-updated (the caller rolls
// back), if ctx ends between two gradient steps.
func (t *trainer) learn(ctx context.Context, it int, rng *rules.RNG, lr float64, m *Metrics) error {
	p := t.cfg.PPO
	b := &t.buf
	b.gae(p.Gamma, p.Lambda)
	if p.Target == "upgo" {
		b.upgo(p.Gamma)
	}
	// The loss of this iteration: PPO's clipped policy loss, the value
	// loss, the entropy bonus (raised while below the floor) and the KL
	// penalty towards the clone; only the value during the critic warm-up.
	cPG, cEnt, cKL := 1.0, p.EntropyCoef, t.klCoef(it)
	t.adam.frozen = nil
	if it <= p.CriticWarmup {
		cPG, cEnt, cKL = 0, 0, 0
		t.adam.frozen = t.policyParams()
	}
	m.KLCoef = cKL
	floorOn := false // the previous minibatch's entropy was below the floor
	n := b.len()
	// Normalise advantages over the iteration.
	mean, sq := 0.0, 0.0
	for _, a := range b.adv {
		mean += float64(a)
	}
	mean /= float64(n)
	for _, a := range b.adv {
		sq += (float64(a) - mean) * (float64(a) - mean)
	}
	std := math.Sqrt(sq/float64(n)) + 1e-8
	gr := t.graph
	if err := gr.coefficients(float32(cPG), float32(p.ValueCoef), float32(cEnt), 0); err != nil {
		return err
	}
	if gr.cKL != nil {
		if err := G.Let(gr.cKL, float32(cKL)); err != nil {
			return err
		}
	}
	lo, hi := gr.lo.Data().([]float32), gr.hi.Data().([]float32)
	for i := range lo {
		lo[i], hi[i] = float32(1-p.Clip), float32(1+p.Clip)
	}
	s := samples{planes: b.planes, scalars: b.scalars, masks: b.masks, actions: b.actions, os: b.os, ns: b.ns, mw: b.mw, heads: b.heads}
	B := p.Minibatch
	perm := make([]int, n)
	idx := make([]int, B)
	var steps int
	var pg, vl, ent, kl, clipFrac, gnorm, klClone, entCoef float64
	for e := 0; e < p.Epochs; e++ {
		for i := range perm {
			perm[i] = i
		}
		shuffle(perm, rng)
		// Whole minibatches only; a buffer smaller than one minibatch is
		// sampled with replacement to fill it.
		for start := 0; start+B <= max(n, B); start += B {
			if ctx.Err() != nil {
				return errAborted
			}
			for j := range idx {
				if start+j < n {
					idx[j] = perm[start+j]
				} else {
					idx[j] = rng.U(n)
				}
			}
			gr.fill(s, idx, nil, nil)
			// Entropy floor: a minibatch after one below it gets the extra bonus.
			ec := cEnt
			if cPG > 0 && p.EntropyFloor > 0 && floorOn {
				ec += p.EntropyFloorCoef
			}
			if p.EntropyFloor > 0 {
				if err := G.Let(gr.cEnt, float32(ec)); err != nil {
					return err
				}
			}
			entCoef += ec
			var targetH float64 // Σ over the minibatch of the clone's entropy (the KL's constant)
			if cKL > 0 {
				targetH = t.cloneTargets(s, idx)
			}
			old, adv, ret := gr.oldLogp.Data().([]float32), gr.adv.Data().([]float32), gr.ret.Data().([]float32)
			for j, r := range idx {
				old[j] = b.logp[r]
				adv[j] = float32((float64(b.adv[r]) - mean) / std)
				ret[j] = b.ret[r]
			}
			if err := gr.run(); err != nil {
				return fmt.Errorf("ppo step: %w", err)
			}
			grads, err := gr.grads()
			if err != nil {
				return err
			}
			gnorm += t.adam.step(t.net.Values, grads, lr, p.MaxGradNorm)
			pg += float64(gr.read(gr.pgLoss)[0])
			vl += float64(gr.read(gr.vLoss)[0])
			e := float64(gr.read(gr.entropy)[0])
			ent += e
			floorOn = e < p.EntropyFloor
			if cKL > 0 {
				klClone += float64(gr.read(gr.klLoss)[0]) - targetH/float64(B)
			}
			newLogp, ratio := gr.read(gr.logpA), gr.read(gr.ratio)
			for j := range idx {
				kl += float64(old[j] - newLogp[j])
				if math.Abs(float64(ratio[j])-1) > p.Clip {
					clipFrac++
				}
			}
			steps++
		}
	}
	if steps > 0 {
		f := float64(steps)
		m.PGLoss, m.ValueLoss, m.Entropy, m.GradNorm = pg/f, vl/f, ent/f, gnorm/f
		m.ApproxKL, m.ClipFrac = kl/(f*float64(B)), clipFrac/(f*float64(B))
		m.KLClone, m.EntropyCoef = math.NaN(), entCoef/f
		if cKL > 0 {
			m.KLClone = klClone / f
		}
	}
	m.Samples = steps * B
	return nil
}

// shuffle puts perm in a uniformly random order with the draws of
// rules.RNG.Shuffle (which takes []int8: a generic version of it made the
// rules' zero-allocation step allocate).
func shuffle(perm []int, rng *rules.RNG) {
	for i := len(perm) - 1; i >= 1; i-- {
		j := rng.U(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
}

// snapshot keeps a copy of the network's parameters and the optimiser's
// state, for rollback.
func (t *trainer) snapshot() {
	sn := &t.snap
	copyAll := func(dst *[][]float32, src [][]float32) {
		if len(*dst) != len(src) {
			*dst = make([][]float32, len(src))
		}
		for i, v := range src {
			(*dst)[i] = append((*dst)[i][:0], v...)
		}
	}
	copyAll(&sn.values, t.net.Values)
	copyAll(&sn.m, t.adam.m)
	copyAll(&sn.v, t.adam.v)
	sn.t = t.adam.t
}

// rollback restores the network and optimiser saved by snapshot, in place
// (the training graph and the actors share the parameter slices).
func (t *trainer) rollback() {
	sn := &t.snap
	for i, v := range sn.values {
		copy(t.net.Values[i], v)
	}
	for i := range sn.m {
		copy(t.adam.m[i], sn.m[i])
		copy(t.adam.v[i], sn.v[i])
	}
	t.adam.t = sn.t
}

// paramSnapshot is what snapshot keeps.
type paramSnapshot struct {
	values, m, v [][]float32
	t            int
}

// klCoef is the weight of the KL penalty towards the clone in iteration it:
// ppo.kl_clone, falling linearly to 0 over ppo.kl_anneal iterations of
// policy updates (those after the critic warm-up).
func (t *trainer) klCoef(it int) float64 {
	p := t.cfg.PPO
	if p.KLClone == 0 || t.clone == nil {
		return 0
	}
	k := it - p.CriticWarmup - 1 // policy updates before this one
	if k < 0 {
		return 0
	}
	return p.KLClone * max(0, 1-float64(k)/float64(p.KLAnneal))
}

// policyParams marks the parameters the critic warm-up leaves alone:
// everything but those that feed only the value (value.*, and the global
// branch, global.* and hidden.*, where no logit reads it: Arch.Extras 0).
func (t *trainer) policyParams() []bool {
	a := t.net.Arch
	frozen := make([]bool, len(t.net.Params))
	for i, p := range t.net.Params {
		critic := strings.HasPrefix(p.Name, "value.") ||
			(a.Extras == 0 && (strings.HasPrefix(p.Name, "hidden.") || strings.HasPrefix(p.Name, "global.")))
		frozen[i] = !critic
	}
	return frozen
}

// cloneTargets writes the frozen clone's probabilities for the minibatch
// rows idx of s (the graph's input x, already filled) into the graph's KL
// target, and returns the sum over the minibatch of the clone's entropy
// (Σ over heads), the KL's constant.
func (t *trainer) cloneTargets(s samples, idx []int) float64 {
	gr, a := t.graph, t.net.Arch
	B := len(idx)
	if t.cloneWS == nil {
		t.cloneWS = neural.NewWorkspace(a, B)
		t.cloneMask = make([]uint64, B*s.mw)
	}
	ws := t.cloneWS
	copy(ws.Input, gr.x.Data().([]float32))
	for j, r := range idx {
		copy(t.cloneMask[j*s.mw:(j+1)*s.mw], s.masks[r*s.mw:(r+1)*s.mw])
	}
	t.clone.Forward(ws, B, t.cloneMask, s.mw)
	q := gr.target.Data().([]float32)
	h := 0.0
	for r := 0; r < B*a.Heads; r++ {
		// Probabilities of the head's row (all 0 where no action is legal).
		t.cloneP = neural.Softmax(t.cloneP, ws.Logits[r*a.Actions:(r+1)*a.Actions])
		out := q[r*a.Actions : (r+1)*a.Actions]
		for k, pk := range t.cloneP {
			out[k] = float32(pk)
			if pk > 0 {
				h -= pk * math.Log(pk)
			}
		}
	}
	return h
}
