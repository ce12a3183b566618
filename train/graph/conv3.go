package graph

import (
	"fmt"
	"hash"
	"runtime"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/internal/sgemm"
)

// conv3Op is a whole 3×3 convolution layer (zero padding 1) of a batch of
// H×W images: inputs x (C channels: [B·H·W, C], or [B, C, H, W] with
// nchw), w [F, C, 3, 3] and the bias b [F], output ReLU(x∗w + b)
// [B·H·W, F]. Image by image, it copies x into a buffer with a border of
// zero cells and computes the convolution as one segmented product on it
// (sgemm.GemmSegs; internal/sgemm/pad.go says how), with no patch gather
// (the gathers took 30% of a train step), then adds the bias and clamps
// the image's rows while they are in cache (a separate biasOp read and
// wrote the whole output again). Its gradients are reluGradOp and colSumOp
// (biasOp's), then two more products (conv3GradInput, conv3GradFilter)
// instead of a gather's transpose: the data gradient is the full
// convolution of the output gradient with the flipped filter, the same
// segmented product on the padded output gradient; the filter gradient is,
// for each row of the neighbourhood, the padded input's three-cell runs
// (a strided view, rows overlapping) transposed times the output gradient.
// Layers with channels enough (wino) run the three by Winograd instead
// (internal/sgemm/winograd.go), in groups of images.
type conv3Op struct {
	pureOp
	p       shape3
	f       int
	scratch *conv3Scratch
}

// pureOp holds the answers shared by this package's ops: they return
// their own values, call nothing external and overwrite no input. Each
// node's op keeps its result tensor from run to run (keep, result).
type pureOp struct{ out *kept }

// keep is a pureOp with a result tensor of its own: an op of the training
// graph is made with one, or its Do allocates a new result on every run.
func keep() pureOp { return pureOp{out: new(kept)} }

// kept is an op's result tensor, kept from run to run. Every run calls
// every op's Do (the executor, exec.go, as the tape machine before it), and
// a new result each time was most of a train step's allocation (96 MB per
// minibatch of 256 for rising-tide). Each node has its own: a result lives
// exactly as long as it did when it was new, as the executor runs the same
// ops in the same order every time.
type kept struct {
	t   *tensor.Dense
	job rowsJob // the op's row loop (parallelRows), kept with its result
}

// result returns the op's result tensor in shape: the kept one (reshaped
// back if a gorgonia Reshape changed its shape in place), or a new one.
// shape is copied where kept, so that a call's shape does not escape (an
// allocation on every call).
func (p pureOp) result(shape ...int) *tensor.Dense {
	newT := func() *tensor.Dense {
		return tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(append([]int(nil), shape...)...))
	}
	if p.out == nil {
		return newT()
	}
	if p.out.t == nil || p.out.t.Shape().TotalSize() != tensor.Shape(shape).TotalSize() {
		p.out.t = newT()
	} else if !p.out.t.Shape().Eq(tensor.Shape(shape)) {
		if err := p.out.t.Reshape(append([]int(nil), shape...)...); err != nil {
			p.out.t = newT()
		}
	}
	return p.out.t
}

func (pureOp) ReturnsPtr() bool     { return false }
func (pureOp) CallsExtern() bool    { return false }
func (pureOp) OverwritesInput() int { return -1 }

// shape3 is the input of a conv3Op: b images of h×w cells, c channels, in
// NCHW order when nchw is set (else [b·h·w, c]).
type shape3 struct {
	b, c, h, w int
	nchw       bool
}

// conv3Scratch holds a convolution's buffers from run to run: per slot,
// an image with a border of zero cells and a product's rows, and the
// filter laid out and packed for the products.
type conv3Scratch struct {
	pad    [][]float32 // per slot: one image padded ([sgemm.PadCells(h, w)][channels], sgemm.PadImage)
	band   [][]float32 // per slot: a product's rows (sgemm.Conv3Rows), or the padded output gradient's
	padC   []int       // per slot: the channels pad was last laid out for (its border is zero for them)
	wf     []float32   // the flipped filter of the input gradient, [(ey·3+ex)·F + f][c]
	packed []float32   // the forward's filter or wf, packed for sgemm.GemmSegs
	dw     [][]float32 // per slot: its images' filter gradient
	wv, wm [][]float32 // per slot: a Winograd product's transformed tiles and products (wino)
	bias   []float32   // the forward product's bias, for the run in progress
	run    conv3Run
}

// conv3Slots is how many parts a convolution's images are split into:
// conv3SlotsFor the CPUs, fixed whatever GOMAXPROCS is (above or below the
// CPU count, or changed while the process runs), so that the filter
// gradient (a sum of the parts' sums, added in slot order) is the same bit
// for bit on one core and on all. It sizes the per-slot scratch
// (conv3Op.product) and splits the images (conv3Run.RunPart) alike; a test
// sets it to conv3SlotsFor(16) to run a 16-CPU machine's split here.
var conv3Slots = conv3SlotsFor(runtime.NumCPU())

// conv3SlotsFor is the slot count on a machine of cpus CPUs (runtime.NumCPU):
// one per CPU, at least two.
func conv3SlotsFor(cpus int) int { return max(2, cpus) }

// conv3Kind says which product a conv3Run makes.
type conv3Kind int

const (
	runForward    conv3Kind = iota // x times the filter
	runGradInput                   // the output gradient times the flipped filter
	runGradFilter                  // x's runs, transposed, times the output gradient
)

// conv3Run is one convolution product over a batch, split into slots of
// whole images (sgemm.Parallel runs the slots on the cores).
type conv3Run struct {
	op   conv3Op
	kind conv3Kind
	c    int       // channels of src
	src  []float32 // the padded operand: x, or the output gradient
	nchw bool
	mat  []float32 // the right operand: the output gradient (runGradFilter), else unused (packed)
	n    int       // the product's columns
	out  []float32 // the product (forward, input gradient); the filter gradient goes to dw
}

// RunPart implements sgemm.Runner: slot i of slots.
func (r *conv3Run) RunPart(i, slots int) {
	op, s := r.op, r.op.scratch
	H, W := op.p.h, op.p.w
	hw, pw, php := H*W, sgemm.PadPitch(W), sgemm.PadCells(H, W)
	rows, span := sgemm.Conv3Rows(H, W), sgemm.Conv3Span(H, W)
	pad := s.pad[i][:php*r.c]
	if s.padC[i] != r.c {
		clear(s.pad[i]) // the border's cells moved with the channels
		s.padC[i] = r.c
	}
	band := s.band[i]
	segs := sgemm.Conv3Segs(r.c, W)
	first := true
	if wino(r.kind, r.c, r.n, H, W) {
		if r.kind == runGradFilter {
			r.winoGradFilter(i, slots)
		} else {
			r.wino(i, slots)
		}
		return
	}
	for img := op.p.b * i / slots; img < op.p.b*(i+1)/slots; img++ {
		sgemm.PadImage(pad, r.src[img*hw*r.c:(img+1)*hw*r.c], r.c, H, W, r.nchw)
		if r.kind == runGradFilter {
			// The output gradient at the product's rows, zero at the
			// border cells between the image's rows; then per row of the
			// neighbourhood dy, dwt[dy·3c + j][f] += Σ_r pad[(r + dy·pw)·c + j]·g[r][f].
			g := band[:rows*r.n]
			clear(g)
			for y := 0; y < H; y++ {
				copy(g[y*pw*r.n:(y*pw+W)*r.n], r.mat[(img*hw+y*W)*r.n:(img*hw+(y+1)*W)*r.n])
			}
			beta := float32(1)
			if first {
				beta = 0
			}
			for dy := 0; dy < 3; dy++ {
				sgemm.GemmWorkers(1, true, false, 3*r.c, r.n, rows, pad[dy*pw*r.c:], r.c, g, r.n, beta, s.dw[i][dy*3*r.c*r.n:], r.n)
			}
			first = false
			continue
		}
		c := band[:span*r.n]
		clear(c)
		sgemm.GemmSegs(span, r.n, pad, r.c, segs[:], s.packed, c, r.n)
		out := r.out[img*hw*r.n : (img+1)*hw*r.n]
		sgemm.InnerCells(out, c, r.n, H, W)
		if r.kind == runForward {
			sgemm.BiasReLU(out, s.bias)
		}
	}
	if first && r.kind == runGradFilter {
		clear(s.dw[i]) // a slot without images (a batch smaller than the slots)
	}
}

// wino reports whether a convolution product of kind, c channels to n, on
// an h×w image runs by Winograd (sgemm.WinoWorth): the forward and the
// input gradient of layers of 16 filters and more, the filter gradient of
// layers of 32 and more.
func wino(kind conv3Kind, c, n, h, w int) bool {
	if kind == runGradFilter && (c < 32 || n < 32) {
		// Its products are c×n: too small a tile below 32 (Bovine Borders'
		// 16 filters ran slower than the direct product).
		return false
	}
	return winoOn && sgemm.WinoWorth(c, n, h, w)
}

// winoOn lets a test run the direct products instead (TestWinogradStep).
var winoOn = true

// wino is RunPart for a forward or input-gradient product by Winograd
// (internal/sgemm/winograd.go): the slot's images padded one by one, their
// tiles transformed into groups of sgemm.WinoGroup images, each group's
// products, then each image's cells transformed back into out (and, for
// the forward, the bias added and clamped). Each image's result is the
// same bits whatever the group and slot it falls in.
func (r *conv3Run) wino(i, slots int) {
	op, s := r.op, r.op.scratch
	H, W := op.p.h, op.p.w
	hw, tiles := H*W, sgemm.WinoTiles(H, W)
	pad := s.pad[i][:sgemm.PadCells(H, W)*r.c]
	g := sgemm.WinoGroup(r.c, r.n, H, W)
	i0, i1 := op.p.b*i/slots, op.p.b*(i+1)/slots
	for g0 := i0; g0 < i1; g0 += g {
		n := min(g, i1-g0)
		rows := sgemm.WinoRows(n, H, W)
		for k := 0; k < n; k++ {
			img := g0 + k
			sgemm.PadImage(pad, r.src[img*hw*r.c:(img+1)*hw*r.c], r.c, H, W, r.nchw)
			sgemm.WinoInput(s.wv[i], rows, k*tiles, pad, r.c, H, W)
		}
		sgemm.WinoProduct(s.wm[i], s.wv[i], rows, r.c, r.n, s.packed)
		for k := 0; k < n; k++ {
			out := r.out[(g0+k)*hw*r.n : (g0+k+1)*hw*r.n]
			sgemm.WinoOutput(out, 0, W, s.wm[i], rows, k*tiles, r.n, H, W)
			if r.kind == runForward {
				sgemm.BiasReLU(out, s.bias)
			}
		}
	}
}

// winoGradFilter is RunPart for the filter gradient by Winograd
// (sgemm.WinoGradProduct): the slot's images in groups of sgemm.WinoGroup,
// each group's input tiles and output gradient transformed, their products
// summed into the slot's dw ([16][c][n], the transformed filter's
// gradient) group by group in order; conv3GradFilter adds the slots' sums
// and transforms them back (sgemm.WinoGradFilter).
func (r *conv3Run) winoGradFilter(i, slots int) {
	op, s := r.op, r.op.scratch
	H, W := op.p.h, op.p.w
	hw, tiles := H*W, sgemm.WinoTiles(H, W)
	pad := s.pad[i][:sgemm.PadCells(H, W)*r.c]
	g := sgemm.WinoGroup(r.c, r.n, H, W)
	i0, i1 := op.p.b*i/slots, op.p.b*(i+1)/slots
	for g0 := i0; g0 < i1; g0 += g {
		n := min(g, i1-g0)
		rows := sgemm.WinoRows(n, H, W)
		for k := 0; k < n; k++ {
			img := g0 + k
			sgemm.PadImage(pad, r.src[img*hw*r.c:(img+1)*hw*r.c], r.c, H, W, r.nchw)
			sgemm.WinoInput(s.wv[i], rows, k*tiles, pad, r.c, H, W)
			sgemm.WinoGradOutput(s.wm[i], rows, k*tiles, r.mat[img*hw*r.n:(img+1)*hw*r.n], r.n, H, W)
		}
		sgemm.WinoGradProduct(s.dw[i], s.wv[i], s.wm[i], rows, n*tiles, r.c, r.n, g0 == i0)
	}
	if i0 == i1 {
		clear(s.dw[i]) // a slot without images (a batch smaller than the slots)
	}
}

func newConv3Op(b, c, h, w, f int, nchw bool) conv3Op {
	return conv3Op{pureOp: keep(), p: shape3{b: b, c: c, h: h, w: w, nchw: nchw}, f: f, scratch: &conv3Scratch{}}
}

func (op conv3Op) rows() int { return op.p.b * op.p.h * op.p.w }

func (op conv3Op) Arity() int { return 3 }

func (op conv3Op) Type() hm.Type {
	dims := 2
	if op.p.nchw {
		dims = 4
	}
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: dims, Of: a}, G.TensorType{Dims: 4, Of: a}, G.TensorType{Dims: 1, Of: a}, G.TensorType{Dims: 2, Of: a})
}

func (op conv3Op) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.rows(), op.f}, nil
}

func (op conv3Op) Do(in ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(op.result(op.rows(), op.f), in...)
}

// floats2 returns the float32 data of an op's two inputs and its output
// (the caller names the op in an error: an op passed as a fmt.Stringer was
// an allocation on every call).
func floats2(out G.Value, in []G.Value) (a, b, o []float32, err error) {
	if len(in) != 2 {
		return nil, nil, nil, fmt.Errorf("%d inputs, want 2", len(in))
	}
	if a, err = floatData(in[0]); err == nil {
		if b, err = floatData(in[1]); err == nil {
			o, err = floatData(out)
		}
	}
	return a, b, o, err
}

// grow returns buf with length n, reallocated only when too short.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}

// UsePreallocDo implements G.UsePreallocDoer.
func (op conv3Op) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	if len(in) != 3 {
		return nil, fmt.Errorf("%v: %d inputs, want 3", op, len(in))
	}
	d, err := floatsN(in[0], in[1], in[2], prealloc)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	x, w, b, out := d[0], d[1], d[2], d[3]
	C, F, rows := op.p.c, op.f, op.rows()
	if len(x) != rows*C || len(w) != F*C*9 || len(b) != F || len(out) != rows*F {
		return nil, fmt.Errorf("%v: input %v, filter %v, bias %v, output %v", op, in[0].Shape(), in[1].Shape(), in[2].Shape(), prealloc.Shape())
	}
	s := op.scratch
	s.bias = b
	defer func() { s.bias = nil }()
	if wino(runForward, C, F, op.p.h, op.p.w) {
		s.packed = grow(s.packed, sgemm.WinoPackedLen(C, F))
		sgemm.WinoFilter(s.packed, w, F, C, false)
	} else {
		s.packed = grow(s.packed, sgemm.PackedLen(9*C, F))
		sgemm.PackConv3(s.packed, w, F, C)
	}
	op.product(runForward, C, x, op.p.nchw, nil, F, out)
	return prealloc, nil
}

// product runs one of the convolution's products (conv3Run) over the batch
// on every core: c channels of src, padded image by image, times the
// packed filter (the forward's packed by the caller; the input gradient's
// is mat, packed here) or, for the filter gradient, times mat; n columns.
func (op conv3Op) product(kind conv3Kind, c int, src []float32, nchw bool, mat []float32, n int, out []float32) {
	s := op.scratch
	php := sgemm.PadCells(op.p.h, op.p.w)
	if len(s.pad) != conv3Slots {
		s.pad, s.band, s.dw = make([][]float32, conv3Slots), make([][]float32, conv3Slots), make([][]float32, conv3Slots)
		s.wv, s.wm = make([][]float32, conv3Slots), make([][]float32, conv3Slots)
		s.padC = make([]int, conv3Slots)
	}
	H, W := op.p.h, op.p.w
	useWino := wino(kind, c, n, H, W)
	for i := range s.pad {
		if cap(s.pad[i]) < php*c {
			s.pad[i], s.padC[i] = make([]float32, php*c), c
		}
		s.band[i] = grow(s.band[i], sgemm.Conv3Span(op.p.h, op.p.w)*n)
		if kind == runGradFilter && useWino {
			s.dw[i] = grow(s.dw[i], 16*c*n) // the transformed filter's gradient
		} else if kind == runGradFilter {
			s.dw[i] = grow(s.dw[i], 9*c*n)
		}
		if useWino {
			rows := sgemm.WinoRows(min(sgemm.WinoGroup(c, n, H, W), op.p.b), H, W)
			s.wv[i], s.wm[i] = grow(s.wv[i], sgemm.WinoLen(rows, c)), grow(s.wm[i], sgemm.WinoLen(rows, n))
		}
	}
	if kind == runGradInput && mat != nil { // nil: packed by the caller (Winograd's)
		s.packed = grow(s.packed, sgemm.PackedLen(9*c, n))
		sgemm.PackB(s.packed, mat, n, 9*c, n)
	}
	s.run = conv3Run{op: op, kind: kind, c: c, src: src, nchw: nchw, mat: mat, n: n, out: out}
	sgemm.Parallel(conv3Slots, &s.run)
	s.run = conv3Run{}
}

func (op conv3Op) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "conv3:%d-%d-%d-%d-%d-%v-%p", op.p.b, op.p.c, op.p.h, op.p.w, op.f, op.p.nchw, op.scratch)
}
func (op conv3Op) Hashcode() uint32 { return hashOf(op) }
func (op conv3Op) String() string {
	return fmt.Sprintf("conv3x3<%d×%d×%d×%d → %d, nchw %v>", op.p.b, op.p.c, op.p.h, op.p.w, op.f, op.p.nchw)
}

// DiffWRT implements G.SDOp: the network's input planes (nchw) need no
// gradient.
func (op conv3Op) DiffWRT(int) []bool { return []bool{!op.p.nchw, true, true} }

// SymDiff implements G.SDOp: through the ReLU and the bias as biasOp's,
// then the convolution's products.
func (op conv3Op) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if len(in) != 3 {
		return nil, fmt.Errorf("%v: %d inputs, want 3", op, len(in))
	}
	gb, err := biasOp{rows: op.rows(), n: op.f, relu: true}.SymDiff(G.Nodes{nil, in[2]}, out, grad)
	if err != nil {
		return nil, err
	}
	grad = gb[0]
	dw, err := G.ApplyOp(conv3GradFilter{pureOp: keep(), op: op}, in[0], grad)
	if err != nil {
		return nil, err
	}
	var dx *G.Node
	if !op.p.nchw {
		if dx, err = G.ApplyOp(conv3GradInput{pureOp: keep(), op: op}, grad, in[1]); err != nil {
			return nil, err
		}
	}
	return G.Nodes{dx, dw, gb[1]}, nil
}

// conv3GradInput is conv3Op's gradient with respect to x: inputs the
// output gradient [B·H·W, F] and w, output [B·H·W, C]. dx[q][c] =
// Σ grad[q+(ey−1, ex−1)][f]·w[f][c][2−ey][2−ex]: the patches of the output
// gradient times the flipped filter.
type conv3GradInput struct {
	pureOp
	op conv3Op
}

func (g conv3GradInput) Arity() int { return 2 }
func (g conv3GradInput) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 4, Of: a}, G.TensorType{Dims: 2, Of: a})
}
func (g conv3GradInput) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{g.op.rows(), g.op.p.c}, nil
}
func (g conv3GradInput) Do(in ...G.Value) (G.Value, error) {
	return g.UsePreallocDo(g.result(g.op.rows(), g.op.p.c), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (g conv3GradInput) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	grad, w, out, err := floats2(prealloc, in)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", g, err)
	}
	op := g.op
	C, F, rows := op.p.c, op.f, op.rows()
	if len(grad) != rows*F || len(w) != F*C*9 || len(out) != rows*C {
		return nil, fmt.Errorf("%v: gradient %v, filter %v, output %v", g, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	s := op.scratch
	if wino(runGradInput, F, C, op.p.h, op.p.w) {
		// The flipped filter transformed (sgemm.WinoFilter's grad form).
		s.packed = grow(s.packed, sgemm.WinoPackedLen(F, C))
		sgemm.WinoFilter(s.packed, w, F, C, true)
		op.product(runGradInput, F, grad, false, nil, C, out)
		return prealloc, nil
	}
	// wf[(ey·3+ex)·F + f][c] = w[f][c][2−ey][2−ex]
	s.wf = grow(s.wf, 9*F*C)
	for f := 0; f < F; f++ {
		for c := 0; c < C; c++ {
			for k := 0; k < 9; k++ {
				s.wf[((8-k)*F+f)*C+c] = w[(f*C+c)*9+k]
			}
		}
	}
	op.product(runGradInput, F, grad, false, s.wf, C, out)
	return prealloc, nil
}
func (g conv3GradInput) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "dx:")
	g.op.WriteHash(h)
}
func (g conv3GradInput) Hashcode() uint32 { return hashOf(g) }
func (g conv3GradInput) String() string   { return fmt.Sprintf("∂x %v", g.op) }

// conv3GradFilter is conv3Op's gradient with respect to w: inputs x and the
// output gradient, output [F, C, 3, 3]: x's patches transposed times the
// output gradient.
type conv3GradFilter struct {
	pureOp
	op conv3Op
}

func (g conv3GradFilter) Arity() int { return 2 }
func (g conv3GradFilter) Type() hm.Type {
	dims := 2
	if g.op.p.nchw {
		dims = 4
	}
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: dims, Of: a}, G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 4, Of: a})
}
func (g conv3GradFilter) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{g.op.f, g.op.p.c, 3, 3}, nil
}
func (g conv3GradFilter) Do(in ...G.Value) (G.Value, error) {
	return g.UsePreallocDo(g.result(g.op.f, g.op.p.c, 3, 3), in...)
}

// UsePreallocDo implements G.UsePreallocDoer.
func (g conv3GradFilter) UsePreallocDo(prealloc G.Value, in ...G.Value) (G.Value, error) {
	x, grad, out, err := floats2(prealloc, in)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", g, err)
	}
	op := g.op
	C, F, rows := op.p.c, op.f, op.rows()
	if len(x) != rows*C || len(grad) != rows*F || len(out) != F*C*9 {
		return nil, fmt.Errorf("%v: input %v, gradient %v, output %v", g, in[0].Shape(), in[1].Shape(), prealloc.Shape())
	}
	// dwt[(dy·3+dx)·C + c][f] = Σ_cells x[cell+(dy−1, dx−1)][c]·grad[cell][f],
	// summed slot by slot (each slot image by image), then the slots' sums
	// added in slot order.
	s := op.scratch
	op.product(runGradFilter, C, x, op.p.nchw, grad, F, nil)
	if wino(runGradFilter, C, F, op.p.h, op.p.w) {
		du := s.dw[0][:16*C*F]
		for _, d := range s.dw[1:] {
			for j, v := range d[:16*C*F] {
				du[j] += v
			}
		}
		sgemm.WinoGradFilter(out, du, F, C)
		return prealloc, nil
	}
	dw := s.dw[0][:9*C*F]
	for _, d := range s.dw[1:] {
		for j, v := range d[:9*C*F] {
			dw[j] += v
		}
	}
	for f := 0; f < F; f++ {
		for c := 0; c < C; c++ {
			for k := 0; k < 9; k++ {
				out[(f*C+c)*9+k] = dw[(k*C+c)*F+f]
			}
		}
	}
	return prealloc, nil
}
func (g conv3GradFilter) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "dw:")
	g.op.WriteHash(h)
}
func (g conv3GradFilter) Hashcode() uint32 { return hashOf(g) }
func (g conv3GradFilter) String() string   { return fmt.Sprintf("∂w %v", g.op) }
