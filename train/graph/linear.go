package graph

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/internal/sgemm"
)

// conv1Op is a 1×1 convolution of the trunk: inputs x [rows, k] (NHWC
// cells) and the filter w [n, k, 1, 1], output x·wᵀ [rows, n]. gorgonia's
// Mul of x by Transpose(Reshape(w)) allocated its product, x's gradient and
// the transposes on every run; this is one product each way on sgemm, with
// results kept (pureOp.result). The products are gorgonia's, on the same
// kernel, so the values are the same bit for bit.
type conv1Op struct {
	pureOp
	rows, k, n int
}

func (op conv1Op) Arity() int { return 2 }
func (op conv1Op) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 4, Of: a}, G.TensorType{Dims: 2, Of: a})
}
func (op conv1Op) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.rows, op.n}, nil
}
func (op conv1Op) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.rows, op.n), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op conv1Op) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	x, w, out, err := floats2(prealloc, in)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	if len(x) != op.rows*op.k || len(w) != op.n*op.k || len(out) != op.rows*op.n {
		return nil, fmt.Errorf("%v: input %v, filter %v, output %v", op, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	sgemm.Gemm(false, true, op.rows, op.n, op.k, x, op.k, w, op.k, 0, out, op.n)
	return prealloc, nil
}
func (op conv1Op) WriteHash(h hash.Hash) { fmt.Fprintf(h, "conv1:%d-%d-%d", op.rows, op.k, op.n) }
func (op conv1Op) Hashcode() uint32      { return hashOf(op) }
func (op conv1Op) String() string        { return fmt.Sprintf("x·wᵀ<%d×%d·%d>", op.rows, op.k, op.n) }

// DiffWRT implements G.SDOp.
func (op conv1Op) DiffWRT(int) []bool { return []bool{true, true} }

// SymDiff implements G.SDOp: dx = g·w, dw = (xᵀ·g)ᵀ.
func (op conv1Op) SymDiff(in G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: %d inputs, want 2", op, len(in))
	}
	dx, err := G.ApplyOp(conv1Grad{pureOp: keep(), op: op}, grad, in[1])
	if err != nil {
		return nil, err
	}
	dw, err := G.ApplyOp(conv1Grad{pureOp: keep(), op: op, filter: true, scratch: new([]float32)}, in[0], grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{dx, dw}, nil
}

// conv1Grad is a conv1Op's gradient: with respect to x (inputs the output
// gradient g and w; g·w, [rows, k]) or, with filter, to w (inputs x and g;
// gᵀ·x, [n, k, 1, 1]; for k ≠ 16 xᵀ·g into scratch [k, n], then
// transposed).
type conv1Grad struct {
	pureOp
	op      conv1Op
	filter  bool
	scratch *[]float32
}

func (g conv1Grad) Arity() int { return 2 }
func (g conv1Grad) Type() hm.Type {
	a := hm.TypeVariable('a')
	if g.filter {
		return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 4, Of: a})
	}
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 4, Of: a}, G.TensorType{Dims: 2, Of: a})
}
func (g conv1Grad) shape() tensor.Shape {
	if g.filter {
		return tensor.Shape{g.op.n, g.op.k, 1, 1}
	}
	return tensor.Shape{g.op.rows, g.op.k}
}
func (g conv1Grad) InferShape(...G.DimSizer) (tensor.Shape, error) { return g.shape(), nil }
func (g conv1Grad) Do(in ...G.Value) (G.Value, error) {
	return g.UsePreallocDo(g.result(g.shape()...), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (g conv1Grad) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	a, b, out, err := floats2(prealloc, in)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", g, err)
	}
	rows, k, n := g.op.rows, g.op.k, g.op.n
	if !g.filter {
		if len(a) != rows*n || len(b) != n*k || len(out) != rows*k {
			return nil, fmt.Errorf("%v: gradient %v, filter %v, output %v", g, in[0].Shape(), in[1].Shape(), prealloc.Shape())
		}
		sgemm.Gemm(false, false, rows, k, n, a, n, b, k, 0, out, k)
		return prealloc, nil
	}
	if len(a) != rows*k || len(b) != rows*n || len(out) != n*k {
		return nil, fmt.Errorf("%v: input %v, gradient %v, output %v", g, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	if k == 16 {
		// gᵀ·x straight into out ([n][k]): the same multiply-adds in the
		// same order as (xᵀ·g)ᵀ below, and x with 16 columns (the trunk's
		// filters) is the product's packed panel as it lies
		// (sgemm.GemmWorkers), where xᵀ·g packs g's n columns into panels
		// of 16 over every row of the batch: a third of Bovine Borders'
		// heads' gradient.
		sgemm.Gemm(true, false, n, k, rows, b, n, a, k, 0, out, k)
		return prealloc, nil
	}
	*g.scratch = grow(*g.scratch, k*n)
	wt := *g.scratch
	sgemm.Gemm(true, false, k, n, rows, a, k, b, n, 0, wt, n)
	for c := 0; c < k; c++ {
		for f := 0; f < n; f++ {
			out[f*k+c] = wt[c*n+f]
		}
	}
	return prealloc, nil
}
func (g conv1Grad) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "dconv1:%v:", g.filter)
	g.op.WriteHash(h)
}
func (g conv1Grad) Hashcode() uint32 { return hashOf(g) }
func (g conv1Grad) String() string {
	if g.filter {
		return fmt.Sprintf("∂w %v", g.op)
	}
	return fmt.Sprintf("∂x %v", g.op)
}

// unitsOp is the trunk's features at each head's unit: inputs the unit
// planes u [B, heads, hw] and the trunk t [B·hw, k], output u_b·t_b per
// image, [B·heads, k]. It replaces gorgonia's BatchedMatMul, which
// allocated per image on every run and ran on one core; each image's
// product is the same Gemm, so the same bits. Only t gets a gradient (the
// unit planes are input): u_bᵀ·g_b (unitsGrad).
type unitsOp struct {
	pureOp
	b, heads, hw, k int
}

func (op unitsOp) Arity() int { return 2 }
func (op unitsOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 3, Of: a}, G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 2, Of: a})
}
func (op unitsOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.b * op.heads, op.k}, nil
}
func (op unitsOp) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.b*op.heads, op.k), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op unitsOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	u, t, out, err := floats2(prealloc, in)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	H, hw, k := op.heads, op.hw, op.k
	if len(u) != op.b*H*hw || len(t) != op.b*hw*k || len(out) != op.b*H*k {
		return nil, fmt.Errorf("%v: units %v, trunk %v, output %v", op, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	runRows(op.pureOp, op, opArgs{u, t, out}, op.b, H*hw*k)
	return prealloc, nil
}

// doRows is UsePreallocDo on images lo..hi of d (units, trunk, result).
func (op unitsOp) doRows(d *opArgs, lo, hi int) {
	u, t, out := d[0], d[1], d[2]
	H, hw, k := op.heads, op.hw, op.k
	for i := lo; i < hi; i++ {
		sgemm.GemmWorkers(1, false, false, H, k, hw, u[i*H*hw:], hw, t[i*hw*k:], k, 0, out[i*H*k:(i+1)*H*k], k)
	}
}
func (op unitsOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "units:%d-%d-%d-%d", op.b, op.heads, op.hw, op.k)
}
func (op unitsOp) Hashcode() uint32 { return hashOf(op) }
func (op unitsOp) String() string {
	return fmt.Sprintf("u·t<%d×%d×%d·%d>", op.b, op.heads, op.hw, op.k)
}

// DiffWRT implements G.SDOp: the unit planes are input.
func (op unitsOp) DiffWRT(int) []bool { return []bool{false, true} }

// SymDiff implements G.SDOp.
func (op unitsOp) SymDiff(in G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: %d inputs, want 2", op, len(in))
	}
	dt, err := G.ApplyOp(unitsGrad{pureOp: keep(), op: op}, in[0], grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{nil, dt}, nil
}

// unitsGrad is unitsOp's gradient with respect to the trunk: inputs u and
// the output gradient g [B·heads, k], output u_bᵀ·g_b per image [B·hw, k].
type unitsGrad struct {
	pureOp
	op unitsOp
}

func (g unitsGrad) Arity() int { return 2 }
func (g unitsGrad) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 3, Of: a}, G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 2, Of: a})
}
func (g unitsGrad) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{g.op.b * g.op.hw, g.op.k}, nil
}
func (g unitsGrad) Do(in ...G.Value) (G.Value, error) {
	return g.UsePreallocDo(g.result(g.op.b*g.op.hw, g.op.k), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (g unitsGrad) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	u, d, out, err := floats2(prealloc, in)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", g, err)
	}
	op := g.op
	H, hw, k := op.heads, op.hw, op.k
	if len(u) != op.b*H*hw || len(d) != op.b*H*k || len(out) != op.b*hw*k {
		return nil, fmt.Errorf("%v: units %v, gradient %v, output %v", g, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	runRows(g.pureOp, g, opArgs{u, d, out}, op.b, H*hw*k)
	return prealloc, nil
}

// doRows is UsePreallocDo on images lo..hi of d (units, gradient, result).
func (g unitsGrad) doRows(d *opArgs, lo, hi int) {
	u, dd, out := d[0], d[1], d[2]
	H, hw, k := g.op.heads, g.op.hw, g.op.k
	for i := lo; i < hi; i++ {
		sgemm.GemmWorkers(1, true, false, hw, k, H, u[i*H*hw:], hw, dd[i*H*k:], k, 0, out[i*hw*k:(i+1)*hw*k], k)
	}
}
func (g unitsGrad) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "dunits:")
	g.op.WriteHash(h)
}
func (g unitsGrad) Hashcode() uint32 { return hashOf(g) }
func (g unitsGrad) String() string   { return fmt.Sprintf("∂t %v", g.op) }
