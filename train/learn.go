package train

import (
	"context"
	"fmt"
	"math"
	"runtime"

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
func (t *trainer) learn(ctx context.Context, rng *rules.RNG, lr float64, m *Metrics) error {
	p := t.cfg.PPO
	b := &t.buf
	b.gae(p.Gamma, p.Lambda)
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
	if err := gr.coefficients(1, float32(p.ValueCoef), float32(p.EntropyCoef), 0); err != nil {
		return err
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
	var pg, vl, ent, kl, clipFrac, gnorm float64
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
			ent += float64(gr.read(gr.entropy)[0])
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
