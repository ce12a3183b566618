package train

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The training graph keeps the trunk's activations as [B·H·W, C] matrices
// (NHWC: a cell's channels side by side), so that a 3×3 convolution is one
// patch gather and one matrix product, and a 1×1 convolution a matrix
// product alone. Gorgonia's own Conv2d gathers NCHW patches with generic
// index arithmetic and transposes every result back to NCHW: those copies
// took about half of a training step (BenchmarkTrainStep).

// patchOp gathers the 3×3 neighbourhoods (zero padding 1) of every cell of
// a batch of H×W images with C channels: row b·H·W + y·W + x of its output
// holds, for (dy, dx) in row-major order and then channel c, the input at
// (y+dy−1, x+dx−1), channel c. Its input is [B·H·W, C] (NHWC), or
// [B, C, H, W] when nchw is set (the network's input planes).
type patchOp struct {
	b, c, h, w int
	nchw       bool
}

func (op patchOp) Arity() int { return 1 }

// Type: a 2- or 4-dimensional tensor to a matrix of the same element type.
func (op patchOp) Type() hm.Type {
	dims := 2
	if op.nchw {
		dims = 4
	}
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: dims, Of: a}, G.TensorType{Dims: 2, Of: a})
}

func (op patchOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.b * op.h * op.w, 9 * op.c}, nil
}

func (op patchOp) Do(in ...G.Value) (G.Value, error) {
	out := tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(op.b*op.h*op.w, 9*op.c))
	return op.UsePreallocDo(out, in...)
}

// UsePreallocDo implements G.UsePreallocDoer: every output value is written.
func (op patchOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("%v: %d inputs, want 1", op, len(in))
	}
	src, ok1 := in[0].Data().([]float32)
	dst, ok2 := prealloc.Data().([]float32)
	if !ok1 || !ok2 || len(src) != op.b*op.c*op.h*op.w || len(dst) != op.b*op.h*op.w*9*op.c {
		return nil, fmt.Errorf("%v: input %v, output %v", op, in[0].Shape(), prealloc.Shape())
	}
	C, H, W := op.c, op.h, op.w
	hw := H * W
	var img []float32 // one image in NHWC
	if op.nchw {
		img = make([]float32, hw*C)
	}
	for b := 0; b < op.b; b++ {
		if op.nchw { // transpose the image once; the gather below copies runs of C
			for c := 0; c < C; c++ {
				for p, v := range src[(b*C+c)*hw : (b*C+c+1)*hw] {
					img[p*C+c] = v
				}
			}
		} else {
			img = src[b*hw*C : (b+1)*hw*C]
		}
		for y := 0; y < H; y++ {
			for x := 0; x < W; x++ {
				row := dst[((b*H+y)*W+x)*9*C : ((b*H+y)*W+x+1)*9*C]
				for dy := 0; dy < 3; dy++ {
					yy := y + dy - 1
					for dx := 0; dx < 3; dx++ {
						xx := x + dx - 1
						seg := row[(dy*3+dx)*C : (dy*3+dx+1)*C]
						if yy < 0 || yy >= H || xx < 0 || xx >= W {
							clear(seg)
						} else {
							copy(seg, img[(yy*W+xx)*C:(yy*W+xx+1)*C])
						}
					}
				}
			}
		}
	}
	return prealloc, nil
}

func (op patchOp) ReturnsPtr() bool     { return false }
func (op patchOp) CallsExtern() bool    { return false }
func (op patchOp) OverwritesInput() int { return -1 }
func (op patchOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "patch3x3:%d-%d-%d-%d-%v", op.b, op.c, op.h, op.w, op.nchw)
}
func (op patchOp) Hashcode() uint32 { return hashOf(op) }
func (op patchOp) String() string {
	return fmt.Sprintf("patch3x3<%d×%d×%d×%d, nchw %v>", op.b, op.c, op.h, op.w, op.nchw)
}

// DiffWRT implements G.SDOp.
func (op patchOp) DiffWRT(int) []bool { return []bool{true} }

// SymDiff implements G.SDOp: the gradient of the input sums the gradients
// of every patch entry that copied it (patchGradOp).
func (op patchOp) SymDiff(in G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("%v: %d inputs, want 1", op, len(in))
	}
	n, err := G.ApplyOp(patchGradOp{op}, grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{n}, nil
}

// patchGradOp is patchOp's transpose: it scatters-adds the gradient of
// every patch entry back onto the input cell and channel it was copied from.
type patchGradOp struct{ p patchOp }

func (op patchGradOp) Arity() int { return 1 }

func (op patchGradOp) Type() hm.Type {
	dims := 2
	if op.p.nchw {
		dims = 4
	}
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: dims, Of: a})
}

func (op patchGradOp) shape() tensor.Shape {
	p := op.p
	if p.nchw {
		return tensor.Shape{p.b, p.c, p.h, p.w}
	}
	return tensor.Shape{p.b * p.h * p.w, p.c}
}

func (op patchGradOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return op.shape(), nil }

func (op patchGradOp) Do(in ...G.Value) (G.Value, error) {
	out := tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(op.shape()...))
	return op.UsePreallocDo(out, in...)
}

// UsePreallocDo implements G.UsePreallocDoer: the output is cleared, then
// accumulated.
func (op patchGradOp) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	p := op.p
	if len(in) != 1 {
		return nil, fmt.Errorf("%v: %d inputs, want 1", op, len(in))
	}
	src, ok1 := in[0].Data().([]float32)
	dst, ok2 := prealloc.Data().([]float32)
	if !ok1 || !ok2 || len(dst) != p.b*p.c*p.h*p.w || len(src) != p.b*p.h*p.w*9*p.c {
		return nil, fmt.Errorf("%v: input %v, output %v", op, in[0].Shape(), prealloc.Shape())
	}
	clear(dst)
	C, H, W := p.c, p.h, p.w
	hw := H * W
	for b := 0; b < p.b; b++ {
		for y := 0; y < H; y++ {
			for x := 0; x < W; x++ {
				row := src[((b*H+y)*W+x)*9*C : ((b*H+y)*W+x+1)*9*C]
				for dy := 0; dy < 3; dy++ {
					yy := y + dy - 1
					if yy < 0 || yy >= H {
						continue
					}
					for dx := 0; dx < 3; dx++ {
						xx := x + dx - 1
						if xx < 0 || xx >= W {
							continue
						}
						seg := row[(dy*3+dx)*C : (dy*3+dx+1)*C]
						if p.nchw {
							q := b*C*hw + yy*W + xx
							for c, v := range seg {
								dst[q+c*hw] += v
							}
							continue
						}
						d := dst[(b*hw+yy*W+xx)*C : (b*hw+yy*W+xx+1)*C]
						for c, v := range seg {
							d[c] += v
						}
					}
				}
			}
		}
	}
	return prealloc, nil
}

func (op patchGradOp) ReturnsPtr() bool     { return false }
func (op patchGradOp) CallsExtern() bool    { return false }
func (op patchGradOp) OverwritesInput() int { return -1 }
func (op patchGradOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "patch3x3grad:%d-%d-%d-%d-%v", op.p.b, op.p.c, op.p.h, op.p.w, op.p.nchw)
}
func (op patchGradOp) Hashcode() uint32 { return hashOf(op) }
func (op patchGradOp) String() string   { return fmt.Sprintf("∂%v", op.p) }

// hashOf hashes an op by its WriteHash text.
func hashOf(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
