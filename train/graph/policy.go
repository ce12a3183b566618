package graph

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// policyOp is the policy's per-row terms of the loss in one pass over the
// logits: inputs logits, the mask bias (0 or MaskedLogit) and the one-hot
// actions taken, all [rows, actions]; output [rows, 2]: log π(a) (the
// one-hot's dot product with the masked log-softmax) and the entropy
// −Σ π log π. Gorgonia's LogSoftMax, Exp, products and sums took a dozen
// passes over the [rows, actions] matrices, each allocating its result.
type policyOp struct {
	pureOp
	rows, actions int
	soft          *policySoft // nil: the gradient computes the log-softmax again
}

// policySoft is a policyOp's log-softmax of the last run, kept for its
// gradient (policyGradOp), which computed it again (exp over every legal
// action of the minibatch: 8% of a rising-tide train step): log π and π of
// every row, [rows, actions], and each row's entropy as the forward pass
// wrote it; idx is the rows' scratch for their legal actions' indices.
type policySoft struct {
	lp, p, h []float32
	idx      []int32
}

// newPolicyOp is a policyOp of the training graph: its own result and a
// log-softmax kept for its gradient.
func newPolicyOp(rows, actions int) policyOp {
	return policyOp{pureOp: keep(), rows: rows, actions: actions, soft: &policySoft{}}
}

func (op policyOp) Arity() int { return 3 }
func (op policyOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	m := G.TensorType{Dims: 2, Of: a}
	return hm.NewFnType(m, m, m, m)
}
func (op policyOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.rows, 2}, nil
}
func (op policyOp) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.rows, 2), in...)
}

// floatsN returns the float32 data of up to len(opArgs) values (the caller
// names the op in an error).
func floatsN(vs ...G.Value) (opArgs, error) {
	var out opArgs
	if len(vs) > len(out) {
		return out, fmt.Errorf("%d values, want at most %d", len(vs), len(out))
	}
	for i, v := range vs {
		d, err := floatData(v)
		if err != nil {
			return out, fmt.Errorf("value %d: %w", i, err)
		}
		out[i] = d
	}
	return out, nil
}

// logSoftmaxRow writes the log-softmax of z+mask into lp and the
// probabilities into p, and returns the row's log π(a) and entropy. Masked
// actions (mask < 0: MaskedLogit) get probability exactly 0, as exp of
// their logit underflows to in float32, without computing it; a row with
// every action masked is a softmax over all of them, as it was in gorgonia.
// idx (at least len(z) long) is scratch: the first pass lists the counted
// actions there, so that the exponentials, the normalisation and the
// entropy visit only those (a Rising Tide row has 3,200 actions and a few
// legal ones), in the same order and so to the same bits as a pass over the
// whole row.
func logSoftmaxRow(z, mask, onehot, lp, p []float32, idx []int32) (logpA, ent float64) {
	mx := float32(math.Inf(-1))
	legal := idx[:0]
	for j, v := range z {
		v += mask[j]
		lp[j] = v
		if mask[j] >= 0 {
			mx = max(mx, v)
			legal = append(legal, int32(j))
		}
	}
	if math.IsInf(float64(mx), -1) { // every action masked: count them all
		legal = legal[:0]
		for j, v := range lp {
			mx = max(mx, v)
			legal = append(legal, int32(j))
		}
	}
	clear(p)
	s := 0.0
	for _, j := range legal {
		e := math.Exp(float64(lp[j] - mx))
		p[j] = float32(e)
		s += e
	}
	lse := mx + float32(math.Log(s))
	inv := float32(1 / s)
	for j := range lp {
		lp[j] -= lse
	}
	for j, o := range onehot {
		if o != 0 {
			logpA += float64(o) * float64(lp[j])
		}
	}
	for _, j := range legal {
		p[j] *= inv
		ent -= float64(p[j]) * float64(lp[j])
	}
	return logpA, ent
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op policyOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	if len(in) != 3 {
		return nil, fmt.Errorf("%v: %d inputs, want 3", op, len(in))
	}
	d, err := floatsN(in[0], in[1], in[2], prealloc)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	n := op.rows * op.actions
	if len(d[0]) != n || len(d[1]) != n || len(d[2]) != n || len(d[3]) != 2*op.rows {
		return nil, fmt.Errorf("%v: logits %v, mask %v, actions %v, output %v", op, in[0].Shape(), in[1].Shape(), in[2].Shape(), prealloc.Shape())
	}
	A := op.actions
	s := op.soft
	if s != nil {
		s.lp, s.p, s.h, s.idx = grow(s.lp, n), grow(s.p, n), grow(s.h, op.rows), grow(s.idx, n)
	}
	runRows(op.pureOp, op, d, op.rows, 4*A)
	return prealloc, nil
}

// doRows is UsePreallocDo on rows lo..hi of d (logits, mask, actions,
// result).
func (op policyOp) doRows(d *opArgs, lo, hi int) {
	A := op.actions
	s := op.soft
	var lp, pr []float32
	var idx []int32
	if s == nil {
		lp, pr, idx = make([]float32, A), make([]float32, A), make([]int32, A)
	}
	for r := lo; r < hi; r++ {
		if s != nil {
			lp, pr, idx = s.lp[r*A:(r+1)*A], s.p[r*A:(r+1)*A], s.idx[r*A:(r+1)*A]
		}
		la, h := logSoftmaxRow(d[0][r*A:(r+1)*A], d[1][r*A:(r+1)*A], d[2][r*A:(r+1)*A], lp, pr, idx)
		d[3][2*r], d[3][2*r+1] = float32(la), float32(h)
		if s != nil {
			s.h[r] = float32(h)
		}
	}
}
func (op policyOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "policy:%d-%d", op.rows, op.actions) }
func (op policyOp) Hashcode() uint32      { return hashOf(op) }
func (op policyOp) String() string        { return fmt.Sprintf("logπ(a),H<%d×%d>", op.rows, op.actions) }

// DiffWRT implements G.SDOp: only the logits get a gradient.
func (op policyOp) DiffWRT(int) []bool { return []bool{true, false, false} }

// SymDiff implements G.SDOp.
func (op policyOp) SymDiff(in G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	if len(in) != 3 {
		return nil, fmt.Errorf("%v: %d inputs, want 3", op, len(in))
	}
	g := policyGradOp(op)
	g.pureOp = keep() // its own result, not the forward op's
	dz, err := G.ApplyOp(g, in[0], in[1], in[2], grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{dz, nil, nil}, nil
}

// policyGradOp is policyOp's gradient with respect to the logits: inputs
// logits, mask bias, one-hot actions and the output gradient [rows, 2]
// (g₀ for log π(a), g₁ for the entropy H); output [rows, actions]:
// g₀·(onehot_k − π_k·Σonehot) − g₁·π_k·(log π_k + H).
type policyGradOp policyOp

func (op policyGradOp) Arity() int { return 4 }
func (op policyGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	m := G.TensorType{Dims: 2, Of: a}
	return hm.NewFnType(m, m, m, m, m)
}
func (op policyGradOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.rows, op.actions}, nil
}
func (op policyGradOp) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.rows, op.actions), in...)
}
func (op policyGradOp) ReturnsPtr() bool     { return false }
func (op policyGradOp) CallsExtern() bool    { return false }
func (op policyGradOp) OverwritesInput() int { return -1 }

// UsePreallocDo implements G.UsePreallocDoer.
func (op policyGradOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	if len(in) != 4 {
		return nil, fmt.Errorf("%v: %d inputs, want 4", op, len(in))
	}
	d, err := floatsN(in[0], in[1], in[2], in[3], prealloc)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	A := op.actions
	n := op.rows * A
	if len(d[0]) != n || len(d[1]) != n || len(d[2]) != n || len(d[3]) != 2*op.rows || len(d[4]) != n {
		return nil, fmt.Errorf("%v: logits %v, mask %v, actions %v, gradient %v, output %v", op, in[0].Shape(), in[1].Shape(), in[2].Shape(), in[3].Shape(), prealloc.Shape())
	}
	runRows(op.pureOp, op, d, op.rows, 4*A)
	return prealloc, nil
}

// doRows is UsePreallocDo on rows lo..hi of d (logits, mask, actions,
// output gradient, result), with the forward pass's log-softmax where the
// op kept it.
func (op policyGradOp) doRows(d *opArgs, lo, hi int) {
	A := op.actions
	s := op.soft
	var lp, pr []float32
	var idx []int32
	if s == nil || len(s.p) != op.rows*A {
		s, pr, idx = nil, make([]float32, A), make([]int32, A)
	}
	for r := lo; r < hi; r++ {
		oh, dz := d[2][r*A:(r+1)*A], d[4][r*A:(r+1)*A]
		var hf float32
		if s != nil {
			lp, pr, hf = s.lp[r*A:(r+1)*A], s.p[r*A:(r+1)*A], s.h[r]
		} else {
			_, h := logSoftmaxRow(d[0][r*A:(r+1)*A], d[1][r*A:(r+1)*A], oh, dz, pr, idx)
			lp, hf = dz, float32(h) // dz holds log π until overwritten below
		}
		g0, g1 := d[3][2*r], d[3][2*r+1]
		var sum float32
		for _, o := range oh {
			sum += o
		}
		for k, l := range lp {
			p := pr[k]
			dz[k] = g0*(oh[k]-p*sum) - g1*p*(l+hf)
		}
	}
}
func (op policyGradOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "dpolicy:%d-%d", op.rows, op.actions) }
func (op policyGradOp) Hashcode() uint32      { return hashOf(op) }
func (op policyGradOp) String() string {
	return fmt.Sprintf("∂logπ(a),H<%d×%d>", op.rows, op.actions)
}

// PolicyOp is the op New applies to the logits, for a loss's own tests:
// on inputs logits, mask bias and target rows [rows, actions], the rows
// [rows, 2] of Σ_a target(a)·log π(a) (log π(a) of a one-hot target) and the
// entropy of the masked softmax π.
func PolicyOp(rows, actions int) G.Op { return newPolicyOp(rows, actions) }
