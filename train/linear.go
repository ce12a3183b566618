package train

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
	x, w, out, err := floats2(op, prealloc, in)
	if err != nil {
		return nil, err
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
// xᵀ·g into scratch [k, n], then transposed into [n, k, 1, 1], as
// gorgonia's product and Transpose did it).
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
	a, b, out, err := floats2(g, prealloc, in)
	if err != nil {
		return nil, err
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
	var wt []float32
	if g.scratch != nil {
		*g.scratch = grow(*g.scratch, k*n)
		wt = *g.scratch
	} else {
		wt = make([]float32, k*n)
	}
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
