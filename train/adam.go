package train

import (
	"fmt"
	"math"
	"runtime"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/internal/sgemm"
	"github.com/gridgym/gridgym/train/graph"
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
	job    adamJob // the update split over the cores (step)
}

// adamJob is one step's element-wise update of the parameters, split over
// the cores by element ranges counted across the parameters in Net order
// (sgemm.Runner): each element's update is alone, so the split changes no
// bit.
type adamJob struct {
	a                         *adam
	params, grads             [][]float32
	size                      int // elements of all parameters
	b1, b2, stepSize, eps, sc float32
}

// adamElems is the fewest parameter elements an update part takes.
const adamElems = 16384

// RunPart implements sgemm.Runner: part i of n.
func (j *adamJob) RunPart(i, n int) {
	a := j.a
	graph.Spans(j.params, j.size*i/n, j.size*(i+1)/n, func(t, x, y int) {
		if a.frozen != nil && a.frozen[t] {
			return
		}
		p, m, v, g := j.params[t][x:y], a.m[t][x:y], a.v[t][x:y], j.grads[t][x:y]
		for k, pk := range p {
			gk := g[k] * j.sc
			m[k] = j.b1*m[k] + (1-j.b1)*gk
			v[k] = j.b2*v[k] + (1-j.b2)*gk*gk
			p[k] = pk - j.stepSize*m[k]/(float32(math.Sqrt(float64(v[k])))+j.eps)
		}
	})
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
	size := 0
	for _, p := range params {
		size += len(p)
	}
	a.job = adamJob{a: a, params: params, grads: grads, size: size, b1: b1, b2: b2, stepSize: stepSize, eps: eps, sc: sc}
	sgemm.Parallel(max(1, min(runtime.GOMAXPROCS(0), size/adamElems)), &a.job)
	a.job = adamJob{}
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
