package train

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/internal/sgemm"
)

// step is one train step (forward and backward pass of the loss) on every
// core by splitting the minibatch (issue 21): learn fills the full graph's
// inputs as before, and with workers > 1 step copies them, rows in order,
// into one graph per worker (parts) of batch/workers rows each (the last
// part also takes the remainder). The parts share the network's weight
// tensors, which the passes only read, and run at once (sgemm.Split), each
// op in them on its own goroutine (sgemm.Serial). Every term of the loss
// (defineLoss) is a mean over the samples (or over their heads' rows), so a
// part's gradient weighted by its share of the rows, n_k/batch, and summed
// over the parts in order is the full minibatch's gradient: the same
// up to rounding, and the same bits for a given number of workers.
// With one worker step is the full graph itself, bit for bit.
type step struct {
	full  *graph
	parts []*graph
	off   []int // first minibatch row of each part, then batch
	grad  [][]float32
	out   map[*G.Node][]float32 // read's results by the full graph's node
	errs  []error
}

// newStep returns the train step of full on workers goroutines (at most
// one per row).
func newStep(full *graph, net *neural.Net, workers int) (*step, error) {
	s := &step{full: full}
	w := min(workers, full.batch)
	if w <= 1 {
		return s, nil
	}
	per := full.batch / w
	for k := 0; k < w; k++ {
		n := per
		if k == w-1 {
			n = full.batch - per*(w-1)
		}
		gr, err := newGraphKL(net, n, full.cKL != nil)
		if err != nil {
			return nil, fmt.Errorf("minibatch shard %d of %d: %w", k, w, err)
		}
		s.parts = append(s.parts, gr)
		s.off = append(s.off, k*per)
	}
	s.off = append(s.off, full.batch)
	s.errs = make([]error, w)
	s.grad = make([][]float32, len(full.params))
	for i, p := range full.params {
		s.grad[i] = make([]float32, p.Shape().TotalSize())
	}
	s.out = map[*G.Node][]float32{}
	return s, nil
}

// run executes the forward and backward pass of the loss on the full
// graph's inputs as filled.
func (s *step) run() error {
	if s.parts == nil {
		return s.full.run()
	}
	for k, p := range s.parts {
		if err := s.split(p, s.off[k], s.off[k+1]); err != nil {
			return err
		}
	}
	sgemm.Split(len(s.parts), s)
	for k, err := range s.errs {
		if err != nil {
			return fmt.Errorf("minibatch shard %d of %d: %w", k, len(s.parts), err)
		}
	}
	return nil
}

// RunPart implements sgemm.Runner: part k's pass.
func (s *step) RunPart(k, _ int) { s.errs[k] = s.parts[k].run() }

// split copies minibatch rows lo..hi of the full graph's inputs and its loss
// weights into part p.
func (s *step) split(p *graph, lo, hi int) error {
	f := s.full
	rows := func(dst, src *tensor.Dense) {
		if dst == nil {
			return
		}
		d, v := dst.Float32s(), src.Float32s()
		w := len(v) / f.batch
		copy(d, v[lo*w:hi*w])
	}
	rows(p.x, f.x)
	rows(p.maskBias, f.maskBias)
	rows(p.onehot, f.onehot)
	rows(p.oldLogp, f.oldLogp)
	rows(p.adv, f.adv)
	rows(p.ret, f.ret)
	rows(p.lo, f.lo)
	rows(p.hi, f.hi)
	rows(p.target, f.target)
	for _, c := range [][2]*G.Node{{p.cPG, f.cPG}, {p.cV, f.cV}, {p.cEnt, f.cEnt}, {p.cBC, f.cBC}, {p.cKL, f.cKL}} {
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
func (s *step) share(k int) float32 {
	return float32(s.off[k+1]-s.off[k]) / float32(s.full.batch)
}

// grads returns the gradient of the loss of the last run by parameter, in
// Net order: the parts' gradients weighted by their shares and summed in
// part order.
func (s *step) grads() ([][]float32, error) {
	if s.parts == nil {
		return s.full.grads()
	}
	for k, p := range s.parts {
		g, err := p.grads()
		if err != nil {
			return nil, err
		}
		w := s.share(k)
		for i, sum := range s.grad {
			if k == 0 {
				for j, x := range g[i] {
					sum[j] = w * x
				}
				continue
			}
			for j, x := range g[i] {
				sum[j] += w * x
			}
		}
	}
	return s.grad, nil
}

// read is graph.read of the full graph's output node n for the whole
// minibatch: a per-sample output (log π(a), the ratio) is the parts' rows
// in order, a loss term (a mean) the parts' terms weighted by their shares.
// n must be one of the full graph's outputs.
func (s *step) read(n *G.Node) []float32 {
	if s.parts == nil {
		return s.full.read(n)
	}
	out, ok := s.out[n]
	i := s.full.output(n)
	if !ok {
		out = make([]float32, len(s.full.read(n)))
		s.out[n] = out
	}
	if len(out) == 1 {
		out[0] = 0
		for k, p := range s.parts {
			out[0] += s.share(k) * p.read(p.outputs()[i])[0]
		}
		return out
	}
	w := len(out) / s.full.batch // values per sample
	for k, p := range s.parts {
		copy(out[s.off[k]*w:s.off[k+1]*w], p.read(p.outputs()[i]))
	}
	return out
}
