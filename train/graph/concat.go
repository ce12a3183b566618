package graph

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// concatOp puts two matrices of the same rows side by side: inputs a
// [rows, na] and b [rows, nb], output [rows, na+nb] (the spatial logits
// and the extra logits of a head). gorgonia's Concat and the Slices of its
// gradient walk strided iterators on one core; this is a row copy on every
// core. Its gradient is each input's columns of the output gradient
// (colsOp).
type concatOp struct {
	pureOp
	rows, na, nb int
}

func (op concatOp) Arity() int { return 2 }
func (op concatOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	m := G.TensorType{Dims: 2, Of: a}
	return hm.NewFnType(m, m, m)
}
func (op concatOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.rows, op.na + op.nb}, nil
}
func (op concatOp) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.rows, op.na+op.nb), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op concatOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	a, b, out, err := floats2(prealloc, in)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	na, nb, n := op.na, op.nb, op.na+op.nb
	if len(a) != op.rows*na || len(b) != op.rows*nb || len(out) != op.rows*n {
		return nil, fmt.Errorf("%v: inputs %v and %v, output %v", op, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	runRows(op.pureOp, op, opArgs{a, b, out}, op.rows, n)
	return prealloc, nil
}

// doRows is UsePreallocDo on rows lo..hi of d (a, b, result).
func (op concatOp) doRows(d *opArgs, lo, hi int) {
	a, b, out := d[0], d[1], d[2]
	na, nb, n := op.na, op.nb, op.na+op.nb
	for r := lo; r < hi; r++ {
		copy(out[r*n:r*n+na], a[r*na:(r+1)*na])
		copy(out[r*n+na:(r+1)*n], b[r*nb:(r+1)*nb])
	}
}
func (op concatOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "concat:%d-%d-%d", op.rows, op.na, op.nb) }
func (op concatOp) Hashcode() uint32      { return hashOf(op) }
func (op concatOp) String() string        { return fmt.Sprintf("[a|b]<%d×%d|%d>", op.rows, op.na, op.nb) }

// DiffWRT implements G.SDOp.
func (op concatOp) DiffWRT(int) []bool { return []bool{true, true} }

// SymDiff implements G.SDOp.
func (op concatOp) SymDiff(in G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: %d inputs, want 2", op, len(in))
	}
	n := op.na + op.nb
	da, err := G.ApplyOp(colsOp{pureOp: keep(), rows: op.rows, n: n, lo: 0, hi: op.na}, grad)
	if err != nil {
		return nil, err
	}
	db, err := G.ApplyOp(colsOp{pureOp: keep(), rows: op.rows, n: n, lo: op.na, hi: n}, grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{da, db}, nil
}

// colsOp is columns lo..hi of a [rows, n] matrix: output [rows, hi−lo]
// (concatOp's gradient).
type colsOp struct {
	pureOp
	rows, n, lo, hi int
}

func (op colsOp) Arity() int { return 1 }
func (op colsOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 2, Of: a})
}
func (op colsOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.rows, op.hi - op.lo}, nil
}
func (op colsOp) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.rows, op.hi-op.lo), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op colsOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("%v: %d inputs, want 1", op, len(in))
	}
	d, err := floatsN(in[0], prealloc)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	src, out, w := d[0], d[1], op.hi-op.lo
	if len(src) != op.rows*op.n || len(out) != op.rows*w {
		return nil, fmt.Errorf("%v: input %v, output %v", op, in[0].Shape(), prealloc.Shape())
	}
	runRows(op.pureOp, op, d, op.rows, w)
	return prealloc, nil
}

// doRows is UsePreallocDo on rows lo..hi of d (input, result).
func (op colsOp) doRows(d *opArgs, lo, hi int) {
	src, out, w := d[0], d[1], op.hi-op.lo
	for r := lo; r < hi; r++ {
		copy(out[r*w:(r+1)*w], src[r*op.n+op.lo:r*op.n+op.hi])
	}
}
func (op colsOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "cols:%d-%d-%d-%d", op.rows, op.n, op.lo, op.hi)
}
func (op colsOp) Hashcode() uint32 { return hashOf(op) }
func (op colsOp) String() string {
	return fmt.Sprintf("m[:,%d:%d]<%d×%d>", op.lo, op.hi, op.rows, op.n)
}

// DiffWRT implements G.SDOp: colsOp is only ever a gradient here.
func (op colsOp) DiffWRT(int) []bool { return []bool{false} }

// SymDiff implements G.SDOp.
func (op colsOp) SymDiff(G.Nodes, *G.Node, *G.Node) (G.Nodes, error) {
	return nil, fmt.Errorf("%v: no gradient (a gradient op)", op)
}
