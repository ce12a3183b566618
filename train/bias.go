package train

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
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
	return op.UsePreallocDo(tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(op.rows, op.n)), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op biasOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	m, b, out, err := floats2(op, prealloc, in)
	if err != nil {
		return nil, err
	}
	if len(m) != op.rows*op.n || len(b) != op.n || len(out) != op.rows*op.n {
		return nil, fmt.Errorf("%v: matrix %v, bias %v, output %v", op, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	for r := 0; r < op.rows; r++ {
		src, dst := m[r*op.n:(r+1)*op.n], out[r*op.n:(r+1)*op.n]
		for j, v := range src {
			v += b[j]
			if op.relu && v < 0 {
				v = 0
			}
			dst[j] = v
		}
	}
	return prealloc, nil
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
		if gz, err = G.ApplyOp(reluGradOp{rows: op.rows, n: op.n}, out, grad); err != nil {
			return nil, err
		}
	}
	db, err := G.Sum(gz, 0)
	if err != nil {
		return nil, err
	}
	return G.Nodes{gz, db}, nil
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
	return op.UsePreallocDo(tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(op.rows, op.n)), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op reluGradOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	y, g, out, err := floats2(op, prealloc, in)
	if err != nil {
		return nil, err
	}
	if len(y) != op.rows*op.n || len(g) != len(y) || len(out) != len(y) {
		return nil, fmt.Errorf("%v: output %v, gradient %v, result %v", op, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	for i, v := range y {
		if v > 0 {
			out[i] = g[i]
		} else {
			out[i] = 0
		}
	}
	return prealloc, nil
}
func (op reluGradOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "relugrad:%d-%d", op.rows, op.n) }
func (op reluGradOp) Hashcode() uint32      { return hashOf(op) }
func (op reluGradOp) String() string        { return fmt.Sprintf("∂relu<%d×%d>", op.rows, op.n) }
