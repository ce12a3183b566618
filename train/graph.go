package train

import (
	"fmt"

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

// maskedLogit is the logit added to illegal actions in the training graph:
// exp of it underflows to exactly 0 in float32, so illegal actions get zero
// probability and zero gradient, like neural.Forward's −Inf.
const maskedLogit = -1e9

// graph is the network of a neural.Net as a gorgonia graph with a fixed batch
// size, and one loss that serves PPO and behaviour cloning (defineLoss,
// update.go, says what it is). Its weight tensors share their backing arrays
// with the Net, so an optimiser step on the graph's values is a step on the
// Net.
type graph struct {
	arch  neural.Arch
	batch int
	g     *G.ExprGraph

	params []*G.Node

	// Inputs, filled in place before each run.
	x, maskBias, onehot       *tensor.Dense
	oldLogp, adv, ret, lo, hi *tensor.Dense
	units                     *tensor.Dense // [batch][Heads][H·W] unit planes (Arch.Units), copied from x by run
	cPG, cV, cEnt, cBC        *G.Node
	// The KL penalty towards a reference policy (newGraphKL; nil without).
	target       *tensor.Dense
	targetN, cKL *G.Node
	klLoss       *G.Node

	// Graph nodes.
	logits, value, loss, pgLoss, vLoss, entropy, bcLoss, logpA, ratio *G.Node
	xN, maskN, onehotN, oldN, advN, retN, loN, hiN, unitsN            *G.Node

	// The executor (exec.go) runs the graph; after each run, the outputs'
	// values (read) and the parameters' gradients (grads) are copied out.
	exec  *executor
	gradN []*G.Node   // the gradient of the loss by parameter (G.Grad)
	grad  [][]float32 // their values of the last run
	out   [][]float32 // outs' values of the last run
	outs  []*G.Node   // output nodes in the order newGraphKL made them

	// fill's scratch for a sample in another frame (augmentation).
	tPlanes  []uint8
	tScalars []float32
	tMask    []uint64
}

// newGraph builds the training graph of net for minibatches of batch rows.
func newGraph(net *neural.Net, batch int) (*graph, error) { return newGraphKL(net, batch, false) }

// newGraphKL is newGraph with, if kl, the penalty towards a reference
// policy: input target (the reference's probabilities, [batch·Heads][Actions])
// and the term cKL · klLoss, klLoss = −mean over samples of Σ_heads Σ_a
// target·log π (the cross-entropy; KL(target ‖ π) plus the target's own
// entropy, a constant).
func newGraphKL(net *neural.Net, batch int, kl bool) (*graph, error) {
	a := net.Arch
	gr := &graph{arch: a, batch: batch, g: G.NewGraph()}
	g := gr.g
	dt := tensor.Float32
	hw := a.Cells()
	rows := batch * a.Heads

	for i, p := range net.Params {
		t := tensor.New(tensor.WithShape(p.Shape...), tensor.WithBacking(net.Values[i]))
		gr.params = append(gr.params, G.NodeFromAny(g, t, G.WithName(p.Name)))
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
	gr.x, gr.xN = input("x", batch, a.Cin(), a.Height, a.Width)
	gr.maskBias, gr.maskN = input("mask", rows, a.Actions)
	gr.onehot, gr.onehotN = input("onehot", rows, a.Actions)
	gr.oldLogp, gr.oldN = input("old_logp", batch)
	gr.adv, gr.advN = input("adv", batch)
	gr.ret, gr.retN = input("ret", batch)
	gr.lo, gr.loN = input("lo", batch)
	gr.hi, gr.hiN = input("hi", batch)
	if a.Units > 0 {
		gr.units, gr.unitsN = input("units", batch, a.Heads, hw)
	}
	scalar := func(name string) *G.Node {
		return G.NewScalar(g, dt, G.WithName(name), G.WithValue(float32(0)))
	}
	gr.cPG, gr.cV, gr.cEnt, gr.cBC = scalar("c_pg"), scalar("c_v"), scalar("c_ent"), scalar("c_bc")

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
	h := conv3(gr.xN, a.Cin(), true, gr.params[0], gr.params[1])
	for l := 1; l < a.Layers; l++ {
		h = conv3(h, F, false, gr.params[2*l], gr.params[2*l+1])
	}
	pi := 2 * a.Layers
	var spatial *G.Node
	if a.APlanes > 0 {
		np := a.Heads * a.APlanes
		spatial = planar(conv1(h, np, gr.params[pi], gr.params[pi+1], false), np)
		spatial = must(G.Reshape(spatial, tensor.Shape{rows, a.APlanes * hw}))
		pi += 2
	}
	glob := planar(conv1(h, 2, gr.params[pi], gr.params[pi+1], true), 2)
	hid := bias(must(G.Mul(glob, gr.params[pi+2])), gr.params[pi+3], true)
	value := must(G.Tanh(bias(must(G.Mul(hid, gr.params[pi+4])), gr.params[pi+5], false)))
	gr.value = must(G.Reshape(value, tensor.Shape{batch}))
	logits := spatial
	if a.Extras > 0 {
		ex := bias(must(G.Mul(hid, gr.params[pi+6])), gr.params[pi+7], false)
		ex = must(G.Reshape(ex, tensor.Shape{rows, a.Extras}))
		if a.Units > 0 {
			// Trunk features at each head's unit: [B, Heads, HW]·[B, HW, F].
			uf := must(G.ApplyOp(unitsOp{pureOp: keep(), b: batch, heads: a.Heads, hw: hw, k: F}, gr.unitsN, h))
			ex = must(G.Add(ex, must(G.Mul(uf, gr.params[pi+8]))))
		}
		if logits == nil {
			logits = ex
		} else {
			logits = must(G.ApplyOp(concatOp{pureOp: keep(), rows: rows, na: a.APlanes * hw, nb: a.Extras}, logits, ex))
		}
	}
	gr.logits = logits
	// Per row: log π(a) and the entropy, from the masked log-softmax (policyOp).
	terms := must(G.ApplyOp(newPolicyOp(rows, a.Actions), logits, gr.maskN, gr.onehotN))
	logpA := must(G.Slice(terms, nil, G.S(0)))
	if a.Heads > 1 {
		logpA = must(G.Sum(must(G.Reshape(logpA, tensor.Shape{batch, a.Heads})), 1))
	}
	gr.logpA = logpA
	var clone *G.Node
	if kl {
		gr.target, gr.targetN = input("target", rows, a.Actions)
		gr.cKL = scalar("c_kl")
		clone = must(G.ApplyOp(newPolicyOp(rows, a.Actions), logits, gr.maskN, gr.targetN))
	}
	gr.defineLoss(must, logpA, terms, clone)
	if err != nil {
		return nil, fmt.Errorf("build graph: %w", err)
	}
	outs := []*G.Node{gr.logits, gr.value, gr.loss, gr.pgLoss, gr.vLoss, gr.entropy, gr.bcLoss, gr.logpA, gr.ratio}
	if kl {
		outs = append(outs, gr.klLoss)
	}
	gr.outs = outs
	gr.gradN, err = G.Grad(gr.loss, gr.params...)
	if err != nil {
		return nil, fmt.Errorf("gradient graph: %w", err)
	}
	if gr.exec, err = newExecutor(g); err != nil {
		return nil, fmt.Errorf("training graph: %w", err)
	}
	gr.grad = make([][]float32, len(gr.params))
	for i, p := range gr.params {
		gr.grad[i] = make([]float32, p.Shape().TotalSize())
	}
	gr.out = make([][]float32, len(outs))
	for i, n := range outs {
		gr.out[i] = make([]float32, max(1, n.Shape().TotalSize()))
	}
	return gr, nil
}

// run executes one forward and backward pass with the inputs as filled.
func (gr *graph) run() error {
	if gr.units != nil {
		a := gr.arch
		hw := a.Cells()
		x, u := gr.x.Float32s(), gr.units.Float32s()
		for j := 0; j < gr.batch; j++ {
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
			return fmt.Errorf("gradient of %s: %w", gr.params[i].Name(), err)
		}
		d := gr.grad[i]
		if len(v) != len(d) {
			return fmt.Errorf("gradient of %s: %d values, want %d", gr.params[i].Name(), len(v), len(d))
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

// coefficients sets the loss weights.
func (gr *graph) coefficients(pg, v, ent, bc float32) error {
	for _, c := range []struct {
		n *G.Node
		v float32
	}{{gr.cPG, pg}, {gr.cV, v}, {gr.cEnt, ent}, {gr.cBC, bc}} {
		if err := G.Let(c.n, c.v); err != nil {
			return err
		}
	}
	return nil
}

// grads returns the gradient slices of the parameters of the last run, in
// Net order.
func (gr *graph) grads() ([][]float32, error) { return gr.grad, nil }

// read returns the forward value of an output node of the last run as a
// slice (a scalar as one element).
func (gr *graph) read(n *G.Node) []float32 {
	if i := gr.output(n); i >= 0 {
		return gr.out[i]
	}
	return nil
}

// outputs returns the output nodes (read's), in the same order in every
// graph of the same network.
func (gr *graph) outputs() []*G.Node { return gr.outs }

// output returns output node n's index in outputs (-1 if n is none).
func (gr *graph) output(n *G.Node) int {
	for i, o := range gr.outs {
		if o == n {
			return i
		}
	}
	return -1
}

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
