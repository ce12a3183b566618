package train

import (
	"fmt"
	"math"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train/graph"
)

// FrameAgreement is how a network plays in one frame of its game's
// symmetries against how it plays in the real one, over the positions of
// its own greedy play (MeasureSymmetry).
type FrameAgreement struct {
	Frame rules.D4
	// Greedy is the share of decisions whose greedy action in the frame,
	// mapped back, is the real frame's (every head equal).
	Greedy float64
	// TV is the mean total-variation distance between the two policies
	// (per head, the frame's mapped back), 0 for an equivariant network.
	TV float64
}

// MeasureSymmetry plays decisions decisions of seat 0 in games of the
// network against itself (greedy, real frame, 8 games at once, the game's
// generator seeded by seed) and compares its policy in every other frame of
// the game's symmetries with the real frame's. Augmented training
// (ppo.augment) acts in random frames: for a network that is far from
// equivariant the learner then learns from another policy's play, which
// fine-tuning such a network does not survive (reports/nuggets/finetune,
// reports/exploit). A game without symmetries gives no frames.
func MeasureSymmetry(net *neural.Net, cfg rules.Config, decisions int, seed uint64) ([]FrameAgreement, error) {
	const n = 8
	v, err := env.New(env.Config{Game: cfg, N: n, Seed: seed, Workers: 1})
	if err != nil {
		return nil, err
	}
	defer v.Close()
	sym, ok := v.Encoder().(rules.Symmetric)
	if !ok || decisions < 1 {
		return nil, nil
	}
	if err := net.Arch.Fits(cfg.Game().Name, v.Space); err != nil {
		return nil, fmt.Errorf("symmetry: %w", err)
	}
	v.Reset(seed)
	m := symmetryMeter{net: net, v: v, sym: sym, ws: neural.NewWorkspace(net.Arch, 1)}
	m.alloc()
	frames := sym.Symmetries()
	out := make([]FrameAgreement, 0, len(frames))
	for _, g := range frames {
		if g != 0 {
			out = append(out, FrameAgreement{Frame: g})
		}
	}
	a := net.Arch
	actions := make([]int32, n*v.Seats*a.Heads)
	seen := 0
	for seen < decisions {
		for kk := 0; kk < n*v.Seats; kk++ {
			if !v.Active[kk] {
				continue
			}
			m.policy(0, kk, m.real)
			copy(actions[kk*a.Heads:], m.acts)
			if kk%v.Seats != 0 || seen >= decisions {
				continue
			}
			seen++
			want := actions[kk*a.Heads : (kk+1)*a.Heads] // the real frame's, copied above
			for i := range out {
				m.policy(out[i].Frame, kk, m.framed)
				same := true
				for h := range want {
					same = same && m.acts[h] == want[h]
					out[i].TV += tvDistance(m.real[h], m.framed[h]) / float64(a.Heads)
				}
				if same {
					out[i].Greedy++
				}
			}
		}
		v.Step(actions)
	}
	for i := range out {
		out[i].Greedy /= float64(seen)
		out[i].TV /= float64(seen)
	}
	return out, nil
}

// symmetryMeter is MeasureSymmetry's scratch: one position through the
// network in a frame, its policy per head mapped back to the real frame.
type symmetryMeter struct {
	net          *neural.Net
	v            *env.Vec
	sym          rules.Symmetric
	ws           *neural.Workspace
	planes       []uint8
	scalars      []float32
	mask         []uint64
	acts         []int32
	probs        []float64   // one head's policy in the frame (neural.Softmax)
	real, framed [][]float64 // [head][action], in the real frame
}

func (m *symmetryMeter) alloc() {
	sp, a := m.v.Space, m.net.Arch
	m.planes, m.scalars, m.mask = make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars), make([]uint64, sp.MaskWords())
	m.acts = make([]int32, a.Heads)
	for range a.Heads {
		m.real = append(m.real, make([]float64, a.Actions))
		m.framed = append(m.framed, make([]float64, a.Actions))
	}
}

// policy runs seat row kk of the batch in frame g: m.acts gets the greedy
// actions and dst the softmax policies, both mapped back to the real frame.
func (m *symmetryMeter) policy(g rules.D4, kk int, dst [][]float64) {
	v, sp, a := m.v, m.v.Space, m.net.Arch
	os, ns, mw := sp.ObsSize(), sp.Scalars, sp.MaskWords()
	m.sym.TransformObs(g, m.planes, m.scalars, v.Obs[kk*os:(kk+1)*os], v.Scalars[kk*ns:(kk+1)*ns])
	graph.TransformMask(m.sym, g, sp, v.Mask[kk*mw:(kk+1)*mw], m.mask)
	neural.FillInput(a, m.ws.Input, m.planes, m.scalars)
	m.net.Forward(m.ws, 1, m.mask, mw)
	inv := g.Inverse()
	for h := range a.Heads {
		l := m.ws.Logits[h*a.Actions : (h+1)*a.Actions]
		m.acts[h] = m.sym.TransformAction(inv, h, int32(neural.Argmax(l)))
		m.probs = neural.Softmax(m.probs, l)
		clear(dst[h])
		for x, q := range m.probs {
			dst[h][m.sym.TransformAction(inv, h, int32(x))] += q
		}
	}
}

// tvDistance is the total-variation distance of two distributions.
func tvDistance(p, q []float64) float64 {
	d := 0.0
	for i := range p {
		d += math.Abs(p[i] - q[i])
	}
	return d / 2
}
