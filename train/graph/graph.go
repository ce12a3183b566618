package graph

import (
	"fmt"
	"math"
	"runtime"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/internal/sgemm"
	"github.com/gridgym/gridgym/rules"
)

// gorgonia's float32 matrix products (the dense layers, the 1×1
// convolutions, the unit features, and their gradients) run on sgemm's
// kernel and workers instead of gonum's pure-Go SGEMM.
func init() { G.Use(sgemm.BLAS{}) }

// MaskedLogit is the logit added to illegal actions in the training graph:
// exp of it underflows to exactly 0 in float32, so illegal actions get zero
// probability and zero gradient, like neural.Forward's −Inf.
const MaskedLogit = -1e9

// Graph is the network of a neural.Net as a gorgonia graph with a fixed
// batch size, and one loss, built by the LossFunc that New is given (package
// train's defineLoss, which serves PPO, behaviour cloning and Expert
// Iteration), on inputs and outputs that Graph names. Its weight tensors
// share their backing arrays with the Net, so an optimiser step on the
// graph's values is a step on the Net.
type Graph struct {
	Arch  neural.Arch
	Batch int          // samples per run
	Expr  *G.ExprGraph // the gorgonia graph

	Params []*G.Node // the network's weights, in Net order

	// Inputs, filled in place before each run (Fill: the observations, the
	// masks' logit bias, the actions' one-hot rows; the rest by the loss's
	// owner): [Batch][Cin][H][W], [Batch·Heads][Actions] twice, then one
	// value per sample.
	X, MaskBias, Onehot       *tensor.Dense
	OldLogp, Adv, Ret, Lo, Hi *tensor.Dense
	units                     *tensor.Dense // [batch][Heads][H·W] unit planes (Arch.Units), copied from x by run
	// The loss's weights (Coefficients), scalar inputs.
	CPG, CV, CEnt, CBC *G.Node
	// The KL penalty towards a reference policy (New with kl; nil without):
	// its target probabilities [Batch·Heads][Actions], their node, and the
	// penalty's weight.
	Target       *tensor.Dense
	TargetN, CKL *G.Node

	// Outputs: the network's (Logits, Value), the log-probability of the
	// taken actions summed over heads (LogpA), and what the LossFunc sets:
	// the loss and its terms (readable after a run with Read).
	Logits, Value, LogpA                                *G.Node
	Loss, PGLoss, VLoss, Entropy, BCLoss, Ratio, KLLoss *G.Node
	// The input nodes of the tensors above, for the LossFunc.
	XN, maskN, onehotN, OldN, AdvN, RetN, LoN, HiN, unitsN *G.Node

	// The executor (exec.go) runs the graph; after each run, the outputs'
	// values (read) and the parameters' gradients (grads) are copied out.
	exec  *executor
	loss  LossFunc    // what built Loss (NewStep's parts are built by it too)
	gradN []*G.Node   // the gradient of the loss by parameter (G.Grad)
	grad  [][]float32 // their values of the last run
	out   [][]float32 // outs' values of the last run
	outs  []*G.Node   // output nodes in the order New made them

	// Fill's rows split over the cores (fillJob), and each part's scratch
	// for a sample in another frame (augmentation).
	fill    fillJob
	fillScr []fillScratch
}

// fillScratch is one Fill part's sample in another frame.
type fillScratch struct {
	planes  []uint8
	scalars []float32
	mask    []uint64
}

// LossFunc builds the loss on a Graph's network outputs, as New calls it
// once per graph, after the network and before the gradient: it sets
// gr.Loss (the scalar the gradient is of) and the terms a caller reads
// (PGLoss, VLoss, Entropy, BCLoss, Ratio, and KLLoss with the penalty),
// from the inputs' nodes and: logpA, Σ_a onehot(a)·log π(a) per sample
// (summed over heads); policy, policyOp's [Batch·Heads, 2] rows (log π(a),
// entropy); clone, with the KL penalty (else nil), policyOp's rows on the
// target probabilities (Σ_a target(a)·log π(a)). must records the first
// error of a gorgonia call. The loss is the caller's (package train's
// defineLoss): this package only runs it.
type LossFunc func(gr *Graph, must func(*G.Node, error) *G.Node, logpA, policy, clone *G.Node)

// New builds the training graph of net for minibatches of batch rows, its
// loss built by loss, with, if kl, the penalty towards a reference policy's
// probabilities (the input Target and its weight CKL).
func New(net *neural.Net, batch int, kl bool, loss LossFunc) (*Graph, error) {
	a := net.Arch
	gr := &Graph{Arch: a, Batch: batch, Expr: G.NewGraph(), loss: loss}
	g := gr.Expr
	dt := tensor.Float32
	hw := a.Cells()
	rows := batch * a.Heads

	for i, p := range net.Params {
		t := tensor.New(tensor.WithShape(p.Shape...), tensor.WithBacking(net.Values[i]))
		gr.Params = append(gr.Params, G.NodeFromAny(g, t, G.WithName(p.Name)))
	}
	input := func(name string, shape ...int) (*tensor.Dense, *G.Node) {
		t := tensor.New(tensor.Of(dt), tensor.WithShape(shape...))
		var n *G.Node
		if len(shape) == 1 {
			n = G.NewVector(g, dt, G.WithShape(shape...), G.WithName(name), G.WithValue(t))
		} else if len(shape) == 2 {
			n = G.NewMatrix(g, dt, G.WithShape(shape...), G.WithName(name), G.WithValue(t))
		} else {
			n = G.NewTensor(g, dt, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(t))
		}
		return t, n
	}
	gr.X, gr.XN = input("x", batch, a.Cin(), a.Height, a.Width)
	gr.MaskBias, gr.maskN = input("mask", rows, a.Actions)
	gr.Onehot, gr.onehotN = input("onehot", rows, a.Actions)
	gr.OldLogp, gr.OldN = input("old_logp", batch)
	gr.Adv, gr.AdvN = input("adv", batch)
	gr.Ret, gr.RetN = input("ret", batch)
	gr.Lo, gr.LoN = input("lo", batch)
	gr.Hi, gr.HiN = input("hi", batch)
	if a.Units > 0 {
		gr.units, gr.unitsN = input("units", batch, a.Heads, hw)
	}
	scalar := func(name string) *G.Node {
		return G.NewScalar(g, dt, G.WithName(name), G.WithValue(float32(0)))
	}
	gr.CPG, gr.CV, gr.CEnt, gr.CBC = scalar("c_pg"), scalar("c_v"), scalar("c_ent"), scalar("c_bc")

	var err error
	must := func(n *G.Node, e error) *G.Node {
		if e != nil && err == nil {
			err = e
		}
		return n
	}
	// The trunk as [B·H·W, C] matrices (NHWC; conv.go says why).
	F := a.Filters
	// bias: m [rows, n] plus b [n] on every row, then ReLU if relu (biasOp).
	bias := func(m, b *G.Node, relu bool) *G.Node {
		sh := m.Shape()
		return must(G.ApplyOp(biasOp{pureOp: keep(), rows: sh[0], n: sh[1], relu: relu}, m, b))
	}
	// conv3: ReLU of the 3×3 convolution of in (c channels) by w [F, c, 3, 3]
	// plus b (conv3Op).
	conv3 := func(in *G.Node, c int, nchw bool, w, b *G.Node) *G.Node {
		return must(G.ApplyOp(newConv3Op(batch, c, a.Height, a.Width, F, nchw), in, w, b))
	}
	// conv1: 1×1 convolution of the trunk to cout channels by w [cout, F, 1, 1].
	conv1 := func(in *G.Node, cout int, w, b *G.Node, relu bool) *G.Node {
		return bias(must(G.ApplyOp(conv1Op{pureOp: keep(), rows: batch * hw, k: F, n: cout}, in, w)), b, relu)
	}
	// planar: [B·H·W, ch] to [B, ch·H·W], channel-major (NCHW order), the
	// order of the spatial logits and of the global branch's flattening.
	planar := func(m *G.Node, ch int) *G.Node {
		if ch == 1 {
			return must(G.Reshape(m, tensor.Shape{batch, hw}))
		}
		return must(G.ApplyOp(planarOp{pureOp: keep(), b: batch, hw: hw, ch: ch}, m))
	}
	h := conv3(gr.XN, a.Cin(), true, gr.Params[0], gr.Params[1])
	for l := 1; l < a.Layers; l++ {
		h = conv3(h, F, false, gr.Params[2*l], gr.Params[2*l+1])
	}
	pi := 2 * a.Layers
	var spatial *G.Node
	if a.APlanes > 0 {
		np := a.Heads * a.APlanes
		spatial = planar(conv1(h, np, gr.Params[pi], gr.Params[pi+1], false), np)
		spatial = must(G.Reshape(spatial, tensor.Shape{rows, a.APlanes * hw}))
		pi += 2
	}
	glob := planar(conv1(h, 2, gr.Params[pi], gr.Params[pi+1], true), 2)
	hid := bias(must(G.Mul(glob, gr.Params[pi+2])), gr.Params[pi+3], true)
	value := must(G.Tanh(bias(must(G.Mul(hid, gr.Params[pi+4])), gr.Params[pi+5], false)))
	gr.Value = must(G.Reshape(value, tensor.Shape{batch}))
	logits := spatial
	if a.Extras > 0 {
		ex := bias(must(G.Mul(hid, gr.Params[pi+6])), gr.Params[pi+7], false)
		ex = must(G.Reshape(ex, tensor.Shape{rows, a.Extras}))
		if a.Units > 0 {
			// Trunk features at each head's unit: [B, Heads, HW]·[B, HW, F].
			uf := must(G.ApplyOp(unitsOp{pureOp: keep(), b: batch, heads: a.Heads, hw: hw, k: F}, gr.unitsN, h))
			ex = must(G.Add(ex, must(G.Mul(uf, gr.Params[pi+8]))))
		}
		if logits == nil {
			logits = ex
		} else {
			logits = must(G.ApplyOp(concatOp{pureOp: keep(), rows: rows, na: a.APlanes * hw, nb: a.Extras}, logits, ex))
		}
	}
	gr.Logits = logits
	// Per row: log π(a) and the entropy, from the masked log-softmax (policyOp).
	terms := must(G.ApplyOp(newPolicyOp(rows, a.Actions), logits, gr.maskN, gr.onehotN))
	logpA := must(G.Slice(terms, nil, G.S(0)))
	if a.Heads > 1 {
		logpA = must(G.Sum(must(G.Reshape(logpA, tensor.Shape{batch, a.Heads})), 1))
	}
	gr.LogpA = logpA
	var clone *G.Node
	if kl {
		gr.Target, gr.TargetN = input("target", rows, a.Actions)
		gr.CKL = scalar("c_kl")
		clone = must(G.ApplyOp(newPolicyOp(rows, a.Actions), logits, gr.maskN, gr.TargetN))
	}
	loss(gr, must, logpA, terms, clone)
	if err != nil {
		return nil, fmt.Errorf("build graph: %w", err)
	}
	outs := []*G.Node{gr.Logits, gr.Value, gr.Loss, gr.PGLoss, gr.VLoss, gr.Entropy, gr.BCLoss, gr.LogpA, gr.Ratio}
	if kl {
		outs = append(outs, gr.KLLoss)
	}
	gr.outs = outs
	gr.gradN, err = G.Grad(gr.Loss, gr.Params...)
	if err != nil {
		return nil, fmt.Errorf("gradient graph: %w", err)
	}
	if gr.exec, err = newExecutor(g); err != nil {
		return nil, fmt.Errorf("training graph: %w", err)
	}
	gr.grad = make([][]float32, len(gr.Params))
	for i, p := range gr.Params {
		gr.grad[i] = make([]float32, p.Shape().TotalSize())
	}
	gr.out = make([][]float32, len(outs))
	for i, n := range outs {
		gr.out[i] = make([]float32, max(1, n.Shape().TotalSize()))
	}
	return gr, nil
}

// Run executes one forward and backward pass with the inputs as filled.
func (gr *Graph) Run() error {
	if gr.units != nil {
		a := gr.Arch
		hw := a.Cells()
		x, u := gr.X.Float32s(), gr.units.Float32s()
		for j := 0; j < gr.Batch; j++ {
			copy(u[j*a.Heads*hw:(j+1)*a.Heads*hw], x[(j*a.Cin()+a.Units)*hw:(j*a.Cin()+a.Units+a.Heads)*hw])
		}
	}
	if err := gr.exec.run(); err != nil {
		return err
	}
	// The gradients as the tape machine left them in the parameters' dual
	// values: added into zeroed ones (0 + g, so −0 is +0, as before).
	for i, n := range gr.gradN {
		v, err := floatData(gr.exec.value(n))
		if err != nil {
			return fmt.Errorf("gradient of %s: %w", gr.Params[i].Name(), err)
		}
		d := gr.grad[i]
		if len(v) != len(d) {
			return fmt.Errorf("gradient of %s: %d values, want %d", gr.Params[i].Name(), len(v), len(d))
		}
		for j, x := range v {
			d[j] = 0
			d[j] += x
		}
	}
	for i, n := range gr.outs {
		v := gr.exec.value(n)
		if f, ok := v.(*G.F32); ok {
			gr.out[i][0] = float32(*f)
			continue
		}
		d, err := floatData(v)
		if err != nil || len(d) != len(gr.out[i]) {
			return fmt.Errorf("output %v: %d values (%v), want %d", n, len(d), err, len(gr.out[i]))
		}
		copy(gr.out[i], d)
	}
	return nil
}

// Coefficients sets the loss's weights: of the policy-gradient term, the
// value loss, the entropy bonus and the cloning term.
func (gr *Graph) Coefficients(pg, v, ent, bc float32) error {
	for _, c := range []struct {
		n *G.Node
		v float32
	}{{gr.CPG, pg}, {gr.CV, v}, {gr.CEnt, ent}, {gr.CBC, bc}} {
		if err := G.Let(c.n, c.v); err != nil {
			return err
		}
	}
	return nil
}

// Grads returns the gradient slices of the parameters of the last run, in
// Net order.
func (gr *Graph) Grads() ([][]float32, error) { return gr.grad, nil }

// Read returns the forward value of an output node of the last run as a
// slice (a scalar as one element).
func (gr *Graph) Read(n *G.Node) []float32 {
	if i := gr.Output(n); i >= 0 {
		return gr.out[i]
	}
	return nil
}

// Outputs returns the output nodes (Read's), in the same order in every
// graph of the same network.
func (gr *Graph) Outputs() []*G.Node { return gr.outs }

// Output returns output node n's index in Outputs (-1 if n is none).
func (gr *Graph) Output(n *G.Node) int {
	for i, o := range gr.outs {
		if o == n {
			return i
		}
	}
	return -1
}

// Samples is what one gradient step reads: a buffer's rows, each the
// compact observation (OS plane bytes, NS scalars), the legal-action mask
// (MW words) and the Heads actions taken, which Fill writes into a Graph's
// inputs.
type Samples struct {
	Planes  []uint8
	Scalars []float32
	Masks   []uint64
	Actions []int32
	OS, NS  int
	MW      int
	Heads   int
}

// Fill writes minibatch rows idx of s into the graph's inputs, each in frame
// frames[j] of sym (nil = as stored). The rows are split over the cores
// (each row's inputs are written alone, so the split changes no bit): a
// minibatch of Rising Tide or Rectangle rows is 2–3 ms of copying, 3% of a
// one-core train step, which a serial copy would make a quarter of the
// step's time on 16 cores (issue 55).
func (gr *Graph) Fill(s Samples, idx []int, sym rules.Symmetric, frames []rules.D4) {
	parts := max(1, min(runtime.GOMAXPROCS(0), len(idx)/fillRows))
	for len(gr.fillScr) < parts {
		gr.fillScr = append(gr.fillScr, fillScratch{})
	}
	a := gr.Arch
	clear(gr.Onehot.Data().([]float32)[len(idx)*a.Heads*a.Actions:]) // rows past idx (each part clears its own)
	gr.fill = fillJob{gr: gr, s: s, idx: idx, sym: sym, frames: frames}
	sgemm.Parallel(parts, &gr.fill)
	gr.fill = fillJob{gr: gr}
}

// fillRows is the fewest minibatch rows a Fill part takes.
const fillRows = 16

// fillJob is a Fill split over the cores by minibatch rows (sgemm.Runner).
type fillJob struct {
	gr     *Graph
	s      Samples
	idx    []int
	sym    rules.Symmetric
	frames []rules.D4
}

// RunPart implements sgemm.Runner: rows i·len/n .. (i+1)·len/n of idx.
func (f *fillJob) RunPart(i, n int) {
	gr, s := f.gr, f.s
	a := gr.Arch
	j0, j1 := len(f.idx)*i/n, len(f.idx)*(i+1)/n
	x := gr.X.Data().([]float32)
	mb := gr.MaskBias.Data().([]float32)
	oh := gr.Onehot.Data().([]float32)
	clear(oh[j0*a.Heads*a.Actions : j1*a.Heads*a.Actions])
	sc := &gr.fillScr[i]
	if f.frames != nil && (len(sc.planes) != s.OS || len(sc.scalars) != s.NS || len(sc.mask) != s.MW) {
		sc.planes, sc.scalars, sc.mask = make([]uint8, s.OS), make([]float32, s.NS), make([]uint64, s.MW)
	}
	sp := rules.Space{Heads: a.Heads, Actions: a.Actions}
	for j := j0; j < j1; j++ {
		r := f.idx[j]
		planes := s.Planes[r*s.OS : (r+1)*s.OS]
		scalars := s.Scalars[r*s.NS : (r+1)*s.NS]
		mask := s.Masks[r*s.MW : (r+1)*s.MW]
		g := rules.D4(0)
		if f.frames != nil {
			g = f.frames[j]
		}
		if g != 0 {
			f.sym.TransformObs(g, sc.planes, sc.scalars, planes, scalars)
			TransformMask(f.sym, g, sp, mask, sc.mask)
			planes, scalars, mask = sc.planes, sc.scalars, sc.mask
		}
		neural.FillInput(a, x[j*a.InputSize():], planes, scalars)
		for h := 0; h < a.Heads; h++ {
			row := (j*a.Heads + h) * a.Actions
			for k := 0; k < a.Actions; k++ {
				b := h*a.Actions + k
				if mask[b>>6]>>(b&63)&1 != 0 {
					mb[row+k] = 0
				} else {
					mb[row+k] = MaskedLogit
				}
			}
			act := s.Actions[r*s.Heads+h]
			if g != 0 {
				act = f.sym.TransformAction(g, h, act)
			}
			if act >= 0 && int(act) < a.Actions {
				oh[row+int(act)] = 1
			}
		}
	}
}

// TransformMask writes the mask m of the canonical frame as seen in frame g.
func TransformMask(sym rules.Symmetric, g rules.D4, sp rules.Space, m, dst []uint64) {
	clear(dst)
	for h := 0; h < sp.Heads; h++ {
		for a := 0; a < sp.Actions; a++ {
			b := h*sp.Actions + a
			if m[b>>6]>>(b&63)&1 != 0 {
				t := h*sp.Actions + int(sym.TransformAction(g, h, int32(a)))
				dst[t>>6] |= 1 << (t & 63)
			}
		}
	}
}

// FillRandom fills a graph's inputs as torch_learner.py does: binary planes
// (30% ones), 30% of the actions legal plus the last, one legal action
// taken per head, zero old log-probabilities, normal advantages and returns,
// the clip range [0.8, 1.2]. Benchmarks and tests run on it.
func FillRandom(gr *Graph, rng *rules.RNG) {
	a := gr.Arch
	x := gr.X.Data().([]float32)
	for i := range x {
		x[i] = 0
		if rng.U(10) < 3 {
			x[i] = 1
		}
	}
	mb, oh := gr.MaskBias.Data().([]float32), gr.Onehot.Data().([]float32)
	clear(oh)
	for j := 0; j < gr.Batch*a.Heads; j++ {
		row := mb[j*a.Actions : (j+1)*a.Actions]
		var legal []int
		for k := range row {
			row[k] = MaskedLogit
			if rng.U(10) < 3 || k == len(row)-1 {
				row[k] = 0
				legal = append(legal, k)
			}
		}
		oh[j*a.Actions+legal[rng.U(len(legal))]] = 1
	}
	old, adv, ret := gr.OldLogp.Data().([]float32), gr.Adv.Data().([]float32), gr.Ret.Data().([]float32)
	lo, hi := gr.Lo.Data().([]float32), gr.Hi.Data().([]float32)
	for j := 0; j < gr.Batch; j++ {
		old[j], adv[j], ret[j], lo[j], hi[j] = 0, float32(normal(rng)), float32(normal(rng)), 0.8, 1.2
	}
}

// normal draws a standard normal variate (Box–Muller).
func normal(rng *rules.RNG) float64 {
	u := (float64(rng.U(1<<30)) + 0.5) / (1 << 30)
	v := float64(rng.U(1<<30)) / (1 << 30)
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*v)
}
