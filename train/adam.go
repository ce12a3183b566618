package train

import (
	"fmt"
	"math"

	"github.com/gridgym/gridgym/agents/neural"
)

// adam is the Adam optimiser over a network's parameters, with global
// gradient-norm clipping and a learning rate set per step. It is written here
// rather than taken from gorgonia because gorgonia's AdamSolver fixes its
// learning rate at construction (no schedule) and keeps its moments in
// unexported fields (no checkpoint, so no exact --resume).
type adam struct {
	beta1, beta2, eps float64
	t                 int
	m, v              [][]float32
	onStep            func() // test hook: called after every step
	// frozen, if set, marks parameters that step leaves alone (moments
	// included) and leaves out of the gradient norm: the critic warm-up.
	frozen []bool
}

func newAdam(net *neural.Net) *adam {
	a := &adam{beta1: 0.9, beta2: 0.999, eps: 1e-8}
	for _, p := range net.Values {
		a.m = append(a.m, make([]float32, len(p)))
		a.v = append(a.v, make([]float32, len(p)))
	}
	return a
}

// step applies one update with learning rate lr to params from grads,
// scaling the gradients down first if their global L2 norm exceeds maxNorm
// (0 = no clipping). It returns the norm before clipping.
func (a *adam) step(params, grads [][]float32, lr, maxNorm float64) float64 {
	norm := 0.0
	for i, g := range grads {
		if a.frozen != nil && a.frozen[i] {
			continue
		}
		for _, x := range g {
			norm += float64(x) * float64(x)
		}
	}
	norm = math.Sqrt(norm)
	scale := 1.0
	if maxNorm > 0 && norm > maxNorm {
		scale = maxNorm / norm
	}
	a.t++
	c1 := 1 - math.Pow(a.beta1, float64(a.t))
	c2 := 1 - math.Pow(a.beta2, float64(a.t))
	b1, b2 := float32(a.beta1), float32(a.beta2)
	stepSize := float32(lr * math.Sqrt(c2) / c1)
	eps := float32(a.eps * math.Sqrt(c2))
	sc := float32(scale)
	if a.onStep != nil {
		defer a.onStep()
	}
	for i, p := range params {
		if a.frozen != nil && a.frozen[i] {
			continue
		}
		m, v, g := a.m[i], a.v[i], grads[i]
		for j := range p {
			gj := g[j] * sc
			m[j] = b1*m[j] + (1-b1)*gj
			v[j] = b2*v[j] + (1-b2)*gj*gj
			p[j] -= stepSize * m[j] / (float32(math.Sqrt(float64(v[j]))) + eps)
		}
	}
	return norm
}

// tensors returns the optimiser state for a checkpoint.
func (a *adam) tensors(net *neural.Net) []neural.Tensor {
	var ts []neural.Tensor
	for i, p := range net.Params {
		ts = append(ts, neural.Tensor{Name: "m." + p.Name, Shape: p.Shape, Data: a.m[i]},
			neural.Tensor{Name: "v." + p.Name, Shape: p.Shape, Data: a.v[i]})
	}
	ts = append(ts, neural.Tensor{Name: "t", Shape: []int{1}, Data: []float32{float32(a.t)}})
	return ts
}

// load restores the state written by tensors.
func (a *adam) load(net *neural.Net, ts []neural.Tensor) error {
	by := map[string][]float32{}
	for _, t := range ts {
		by[t.Name] = t.Data
	}
	for i, p := range net.Params {
		m, v := by["m."+p.Name], by["v."+p.Name]
		if len(m) != len(a.m[i]) || len(v) != len(a.v[i]) {
			return fmt.Errorf("optimizer state for %s missing or misshapen", p.Name)
		}
		copy(a.m[i], m)
		copy(a.v[i], v)
	}
	t := by["t"]
	if len(t) != 1 {
		return fmt.Errorf("optimizer step count missing")
	}
	a.t = int(t[0])
	return nil
}
