package graph

import (
	"fmt"
	"hash"
	"math"
	"runtime"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/internal/sgemm"
)

// biasOp adds a bias vector [n] to every row of a [rows, n] matrix and, with
// relu, clamps at zero: one pass where gorgonia's BroadcastAdd and Rectify
// take four (a repeat of the bias to the matrix's size, the add, a
// comparison and a product), and as many again backwards. Its gradient is
// the output gradient where the output is positive (reluGradOp) for the
// matrix, and that summed over rows for the bias.
type biasOp struct {
	pureOp
	rows, n int
	relu    bool
}

func (op biasOp) Arity() int { return 2 }
func (op biasOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 1, Of: a}, G.TensorType{Dims: 2, Of: a})
}
func (op biasOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.rows, op.n}, nil
}
func (op biasOp) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.rows, op.n), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op biasOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	m, b, out, err := floats2(prealloc, in)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	if len(m) != op.rows*op.n || len(b) != op.n || len(out) != op.rows*op.n {
		return nil, fmt.Errorf("%v: matrix %v, bias %v, output %v", op, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	runRows(op.pureOp, op, opArgs{m, b, out}, op.rows, op.n)
	return prealloc, nil
}

// doRows is UsePreallocDo on rows lo..hi of d (matrix, bias, result).
func (op biasOp) doRows(d *opArgs, lo, hi int) {
	addBias(d[2][lo*op.n:hi*op.n], d[0][lo*op.n:hi*op.n], d[1], op.relu)
}

// addBias writes src plus b on every row (rows of len(b)) into dst, clamped
// at zero if relu; dst may be src.
func addBias(dst, src, b []float32, relu bool) {
	n := len(b)
	for r := 0; r+n <= len(src); r += n {
		d := dst[r : r+n]
		for j, v := range src[r : r+n] {
			v += b[j]
			if relu {
				v = relu32(v)
			}
			d[j] = v
		}
	}
}

// relu32 is max(v, 0) as `if v < 0 { v = 0 }` computes it (−0 stays −0),
// without a branch: on a layer's activations, about half of them negative
// at random, the branch is mispredicted so often that the loop ran as long
// as the convolution's product (issue 21). A NaN with its sign bit set
// becomes 0.
func relu32(v float32) float32 {
	b := math.Float32bits(v)
	// All ones where the sign is set and the magnitude is not zero.
	m := uint32(int32(b)>>31) & uint32(int32(-(b&0x7fffffff))>>31)
	return math.Float32frombits(b &^ m)
}

func (op biasOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "bias:%d-%d-%v", op.rows, op.n, op.relu)
}
func (op biasOp) Hashcode() uint32 { return hashOf(op) }
func (op biasOp) String() string {
	if op.relu {
		return fmt.Sprintf("relu(m+b)<%d×%d>", op.rows, op.n)
	}
	return fmt.Sprintf("m+b<%d×%d>", op.rows, op.n)
}

// DiffWRT implements G.SDOp.
func (op biasOp) DiffWRT(int) []bool { return []bool{true, true} }

// SymDiff implements G.SDOp.
func (op biasOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: %d inputs, want 2", op, len(in))
	}
	gz := grad
	if op.relu {
		var err error
		if gz, err = G.ApplyOp(reluGradOp{pureOp: keep(), rows: op.rows, n: op.n}, out, grad); err != nil {
			return nil, err
		}
	}
	db, err := G.ApplyOp(colSumOp{pureOp: keep(), rows: op.rows, n: op.n}, gz)
	if err != nil {
		return nil, err
	}
	return G.Nodes{gz, db}, nil
}

// colSumOp sums a [rows, n] matrix over its rows (a bias's gradient):
// output [n], each column added row after row in order, as gorgonia's Sum
// over axis 0 did, so the same bits; the columns are split over the cores
// (gorgonia's Sum ran on one).
type colSumOp struct {
	pureOp
	rows, n int
}

func (op colSumOp) Arity() int { return 1 }
func (op colSumOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 1, Of: a})
}
func (op colSumOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return tensor.Shape{op.n}, nil }
func (op colSumOp) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.n), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op colSumOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("%v: %d inputs, want 1", op, len(in))
	}
	d, err := floatsN(in[0], prealloc)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	m, out, n := d[0], d[1], op.n
	if len(m) != op.rows*n || len(out) != n {
		return nil, fmt.Errorf("%v: input %v, output %v", op, in[0].Shape(), prealloc.Shape())
	}
	runRows(op.pureOp, op, d, n, op.rows)
	return prealloc, nil
}

// doRows is UsePreallocDo on columns lo..hi of d (matrix, result).
func (op colSumOp) doRows(d *opArgs, lo, hi int) {
	m, n := d[0], op.n
	sum := d[1][lo:hi]
	copy(sum, m[lo:hi])
	for r := 1; r < op.rows; r++ {
		for j, v := range m[r*n+lo : r*n+hi] {
			sum[j] += v
		}
	}
}
func (op colSumOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "colsum:%d-%d", op.rows, op.n) }
func (op colSumOp) Hashcode() uint32      { return hashOf(op) }
func (op colSumOp) String() string        { return fmt.Sprintf("Σrows<%d×%d>", op.rows, op.n) }

// DiffWRT implements G.SDOp: colSumOp is only ever a gradient here.
func (op colSumOp) DiffWRT(int) []bool { return []bool{false} }

// SymDiff implements G.SDOp.
func (op colSumOp) SymDiff(G.Nodes, *G.Node, *G.Node) (G.Nodes, error) {
	return nil, fmt.Errorf("%v: no gradient (a gradient op)", op)
}

// reluGradOp is the gradient through a ReLU: inputs the ReLU's output and
// the gradient of its output, both [rows, n]; the gradient where the output
// is positive, else 0.
type reluGradOp struct {
	pureOp
	rows, n int
}

func (op reluGradOp) Arity() int { return 2 }
func (op reluGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 2, Of: a})
}
func (op reluGradOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.rows, op.n}, nil
}
func (op reluGradOp) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.rows, op.n), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op reluGradOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	y, g, out, err := floats2(prealloc, in)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	if len(y) != op.rows*op.n || len(g) != len(y) || len(out) != len(y) {
		return nil, fmt.Errorf("%v: output %v, gradient %v, result %v", op, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	runRows(op.pureOp, op, opArgs{y, g, out}, op.rows, op.n)
	return prealloc, nil
}

// doRows is UsePreallocDo on rows lo..hi of d (ReLU output, gradient,
// result).
func (op reluGradOp) doRows(d *opArgs, lo, hi int) {
	y, g, out := d[0], d[1], d[2]
	sgemm.ReLUGrad(out[lo*op.n:hi*op.n], y[lo*op.n:], g[lo*op.n:])
}
func (op reluGradOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "relugrad:%d-%d", op.rows, op.n) }
func (op reluGradOp) Hashcode() uint32      { return hashOf(op) }
func (op reluGradOp) String() string        { return fmt.Sprintf("∂relu<%d×%d>", op.rows, op.n) }

// planarOp reorders the trunk's [b·hw, ch] matrix (a cell's channels side
// by side) into [b, ch·hw] (a channel's cells side by side, the order of the
// spatial logits and of the global branch's flattening), or back when
// inverse: one loop where gorgonia's Reshape+Transpose walks an iterator
// and allocates its result. Its gradient is the inverse reordering.
type planarOp struct {
	pureOp
	b, hw, ch int
	inverse   bool
}

func (op planarOp) Arity() int { return 1 }
func (op planarOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 2, Of: a})
}
func (op planarOp) shape() tensor.Shape {
	if op.inverse {
		return tensor.Shape{op.b * op.hw, op.ch}
	}
	return tensor.Shape{op.b, op.ch * op.hw}
}
func (op planarOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return op.shape(), nil }
func (op planarOp) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.shape()...), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op planarOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("%v: %d inputs, want 1", op, len(in))
	}
	d, err := floatsN(in[0], prealloc)
	n := op.b * op.hw * op.ch
	if err != nil || len(d[0]) != n || len(d[1]) != n {
		return nil, fmt.Errorf("%v: input %v, output %v (%v)", op, in[0].Shape(), prealloc.Shape(), err)
	}
	runRows(op.pureOp, op, d, op.b, op.hw*op.ch)
	return prealloc, nil
}

// doRows is UsePreallocDo on images lo..hi of d (input, result).
func (op planarOp) doRows(d *opArgs, lo, hi int) {
	src, dst := d[0], d[1]
	hw, ch := op.hw, op.ch
	for i := lo; i < hi; i++ {
		cells, planes := src[i*hw*ch:(i+1)*hw*ch], dst[i*hw*ch:(i+1)*hw*ch]
		if op.inverse {
			cells, planes = planes, cells
		}
		for p := 0; p < hw; p++ {
			for c, v := range cells[p*ch : (p+1)*ch] {
				if op.inverse {
					cells[p*ch+c] = planes[c*hw+p]
				} else {
					planes[c*hw+p] = v
				}
			}
		}
	}
}
func (op planarOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "planar:%d-%d-%d-%v", op.b, op.hw, op.ch, op.inverse)
}
func (op planarOp) Hashcode() uint32 { return hashOf(op) }
func (op planarOp) String() string {
	if op.inverse {
		return fmt.Sprintf("cells<%d×%d×%d>", op.b, op.ch, op.hw)
	}
	return fmt.Sprintf("planes<%d×%d×%d>", op.b, op.hw, op.ch)
}

// DiffWRT implements G.SDOp.
func (op planarOp) DiffWRT(int) []bool { return []bool{true} }

// SymDiff implements G.SDOp.
func (op planarOp) SymDiff(in G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	g, err := G.ApplyOp(planarOp{pureOp: keep(), b: op.b, hw: op.hw, ch: op.ch, inverse: !op.inverse}, grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{g}, nil
}

// opArgs is the float32 data of an op's operands for one call: its inputs,
// then its result.
type opArgs [6][]float32

// rower is an op whose work splits by rows: doRows computes rows lo..hi of
// one call on its operands d.
type rower interface{ doRows(d *opArgs, lo, hi int) }

// rowsJob is a row-wise loop split over the cores (sgemm.Parallel): r's
// rows 0..n on operands a. Every row is computed the same way whatever the
// split, so results do not depend on the number of cores. An op keeps its
// job with its result (kept.job), r set on its first call: a closure per
// call, or the op boxed in an interface, was an allocation on every run.
type rowsJob struct {
	n int
	r rower
	a opArgs
}

// RunPart implements sgemm.Runner.
func (j *rowsJob) RunPart(i, parts int) { j.r.doRows(&j.a, j.n*i/parts, j.n*(i+1)/parts) }

// job returns the op's row job: the kept one, or a new one for an op made
// without a kept result.
func (p pureOp) job() *rowsJob {
	if p.out == nil {
		return new(rowsJob)
	}
	return &p.out.job
}

// runRows runs op's row loop (doRows) on operands a over rows 0..n, of
// about cost floats each, with the job p (op's pureOp) keeps beside its
// result. op goes into the job on its first call only: converting it to the
// rower interface on every call was an allocation.
func runRows[R rower](p pureOp, op R, a opArgs, n, cost int) {
	j := p.job()
	if j.r == nil {
		j.r = op
	}
	j.a = a
	parallelRows(j, n, cost)
}

// parallelRows runs j over rows 0..n on every core when the work (n rows of
// about cost floats each) is worth splitting, and on the caller alone
// inside an sgemm.Split (a minibatch shard of a data-parallel step).
func parallelRows(j *rowsJob, n, cost int) {
	j.n = n
	parts := min(runtime.GOMAXPROCS(0), n)
	if parts < 2 || sgemm.Serial() || n*cost < 1<<15 {
		j.r.doRows(&j.a, 0, n)
		return
	}
	sgemm.Parallel(parts, j)
}
