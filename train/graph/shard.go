package graph

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/internal/sgemm"
)

// Step is one train step (forward and backward pass of the loss) on every
// core by splitting the minibatch (issue 21): learn fills the full graph's
// inputs as before, and with workers > 1 step copies them, rows in order,
// into one graph per worker (parts) of batch/workers rows each (the last
// part also takes the remainder). The parts share the network's weight
// tensors, which the passes only read, and run at once (sgemm.Split), each
// op in them on its own goroutine (sgemm.Serial). Every term of the loss
// (package train's defineLoss) is a mean over the samples (or over their heads' rows), so a
// part's gradient weighted by its share of the rows, n_k/batch, and summed
// over the parts in order is the full minibatch's gradient: the same
// up to rounding, and the same bits for a given number of workers.
// With one worker a Step is the full graph itself, bit for bit.
type Step struct {
	full     *Graph
	parts    []*Graph
	off      []int // first minibatch row of each part, then batch
	grad     [][]float32
	size     int                   // the parameters' elements, all tensors together
	partGrad [][][]float32         // each part's gradients (Grads' sum reads them)
	out      map[*G.Node][]float32 // read's results by the full graph's node
	errs     []error
}

// NewStep returns the train step of full, a graph of net, on workers
// goroutines (at most one per row); its parts' losses are built by full's
// LossFunc.
func NewStep(full *Graph, net *neural.Net, workers int) (*Step, error) {
	s := &Step{full: full}
	w := min(workers, full.Batch)
	if w <= 1 {
		return s, nil
	}
	per := full.Batch / w
	for k := 0; k < w; k++ {
		n := per
		if k == w-1 {
			n = full.Batch - per*(w-1)
		}
		gr, err := New(net, n, full.CKL != nil, full.loss)
		if err != nil {
			return nil, fmt.Errorf("minibatch shard %d of %d: %w", k, w, err)
		}
		s.parts = append(s.parts, gr)
		s.off = append(s.off, k*per)
	}
	s.off = append(s.off, full.Batch)
	s.errs = make([]error, w)
	s.grad = make([][]float32, len(full.Params))
	for i, p := range full.Params {
		s.grad[i] = make([]float32, p.Shape().TotalSize())
		s.size += len(s.grad[i])
	}
	s.partGrad = make([][][]float32, w)
	s.out = map[*G.Node][]float32{}
	return s, nil
}

// Run executes the forward and backward pass of the loss on the full
// graph's inputs as filled.
func (s *Step) Run() error {
	if s.parts == nil {
		return s.full.Run()
	}
	sgemm.Split(len(s.parts), s)
	for k, err := range s.errs {
		if err != nil {
			return fmt.Errorf("minibatch shard %d of %d: %w", k, len(s.parts), err)
		}
	}
	return nil
}

// RunPart implements sgemm.Runner: part k copies its rows of the inputs
// (on its own core: with 16 parts a serial copy of the whole minibatch
// would be 16 times a part's share) and runs its pass.
func (s *Step) RunPart(k, _ int) {
	p := s.parts[k]
	if s.errs[k] = s.split(p, s.off[k], s.off[k+1]); s.errs[k] == nil {
		s.errs[k] = p.Run()
	}
}

// split copies minibatch rows lo..hi of the full graph's inputs and its loss
// weights into part p.
func (s *Step) split(p *Graph, lo, hi int) error {
	f := s.full
	rows := func(dst, src *tensor.Dense) {
		if dst == nil {
			return
		}
		d, v := dst.Float32s(), src.Float32s()
		w := len(v) / f.Batch
		copy(d, v[lo*w:hi*w])
	}
	rows(p.X, f.X)
	rows(p.MaskBias, f.MaskBias)
	rows(p.Onehot, f.Onehot)
	rows(p.OldLogp, f.OldLogp)
	rows(p.Adv, f.Adv)
	rows(p.Ret, f.Ret)
	rows(p.Lo, f.Lo)
	rows(p.Hi, f.Hi)
	rows(p.Target, f.Target)
	for _, c := range [][2]*G.Node{{p.CPG, f.CPG}, {p.CV, f.CV}, {p.CEnt, f.CEnt}, {p.CBC, f.CBC}, {p.CKL, f.CKL}} {
		if c[0] == nil {
			continue
		}
		f, ok := c[1].Value().(*G.F32)
		if !ok {
			return fmt.Errorf("loss weight %s is not a float32", c[1].Name())
		}
		v := float32(*f)
		if cur, ok := c[0].Value().(*G.F32); !ok || float32(*cur) != v {
			if err := G.Let(c[0], v); err != nil {
				return fmt.Errorf("loss weight %s: %w", c[1].Name(), err)
			}
		}
	}
	return nil
}

// share is part k's weight in the sums over parts: its share of the rows.
func (s *Step) share(k int) float32 {
	return float32(s.off[k+1]-s.off[k]) / float32(s.full.Batch)
}

// Grads returns the gradient of the loss of the last run by parameter, in
// Net order: the parts' gradients weighted by their shares and summed in
// part order.
func (s *Step) Grads() ([][]float32, error) {
	if s.parts == nil {
		return s.full.Grads()
	}
	for k, p := range s.parts {
		g, err := p.Grads()
		if err != nil {
			return nil, err
		}
		s.partGrad[k] = g
	}
	// The sum is split over the parts' cores by parameter elements: each
	// element is still summed over the parts in order (the same bits),
	// but no core adds all parts' gradients alone, a cost that grows with
	// the cores (16 parts: 16 passes over the network's parameters).
	sgemm.Split(len(s.parts), gradSum{s})
	return s.grad, nil
}

// gradSum is Grads' sum over the parts (sgemm.Runner): worker i of n sums
// the i-th n-th of the parameters' elements, counted across the
// parameters in Net order.
type gradSum struct{ s *Step }

// RunPart implements sgemm.Runner.
func (r gradSum) RunPart(i, n int) {
	s := r.s
	Spans(s.grad, s.size*i/n, s.size*(i+1)/n, func(t, a, b int) {
		d := s.grad[t][a:b]
		for k, g := range s.partGrad {
			w, x := s.share(k), g[t][a:b]
			if k == 0 {
				for j, v := range x {
					d[j] = w * v
				}
				continue
			}
			for j, v := range x {
				d[j] += w * v
			}
		}
	})
}

// Spans calls f(t, a, b) for each tensor t of ts that elements lo..hi of
// all of them, counted across the tensors in order, overlap: its elements
// a..b. It is how a pass over a network's parameters is split over the
// cores by elements (Step.Grads' sum, package train's Adam update).
func Spans(ts [][]float32, lo, hi int, f func(t, a, b int)) {
	at := 0 // first element of tensor t
	for t, x := range ts {
		a, b := max(lo-at, 0), min(hi-at, len(x))
		at += len(x)
		if a < b {
			f(t, a, b)
		}
	}
}

// Read is Graph.Read of the full graph's output node n for the whole
// minibatch: a per-sample output (log π(a), the ratio) is the parts' rows
// in order, a loss term (a mean) the parts' terms weighted by their shares.
// n must be one of the full graph's outputs.
func (s *Step) Read(n *G.Node) []float32 {
	if s.parts == nil {
		return s.full.Read(n)
	}
	out, ok := s.out[n]
	i := s.full.Output(n)
	if !ok {
		out = make([]float32, len(s.full.Read(n)))
		s.out[n] = out
	}
	if len(out) == 1 {
		out[0] = 0
		for k, p := range s.parts {
			out[0] += s.share(k) * p.Read(p.Outputs()[i])[0]
		}
		return out
	}
	w := len(out) / s.full.Batch // values per sample
	for k, p := range s.parts {
		copy(out[s.off[k]*w:s.off[k+1]*w], p.Read(p.Outputs()[i]))
	}
	return out
}

// Parts is how many graphs the minibatch is split over (0: the full graph
// runs alone).
func (s *Step) Parts() int { return len(s.parts) }
