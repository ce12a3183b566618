package graph

import (
	"fmt"
	"strings"

	"github.com/chewxy/math32"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/internal/sgemm"
)

// executor runs a gorgonia graph (the forward ops and the gradient ops that
// G.Grad added) without gorgonia's tape machine, which allocated its
// instructions' inputs, registers and log text on every run and leaked over
// long runs (graph.newVM recreated it every 200 runs). The graph stays
// gorgonia's; the executor is who runs it: once, when made, it sorts the
// ops in the tape machine's order (G.Sort, reversed) and gives each its
// inputs' slots and a result of its own (made in the first run), kept from
// run to run, so that a run after the first allocates nothing
// (TestTrainStepAllocsNothing).
// Each op computes what gorgonia's computed, in the same order, so the same
// bits (TestUpdatePinned): this package's ops keep their results (pureOp),
// a gorgonia op that takes a preallocated result (G.UsePreallocDoer) writes
// into its kept one, a Reshape is a view of its input's kept result, and
// the rest (execKernel) are computed here as gorgonia computes them.
type executor struct {
	leaves []*G.Node  // inputs, parameters, constants: values read each run
	leafAt []int      // their slots
	steps  []execStep // the ops, in order
	vals   []G.Value  // every node's value of the run, by slot
	slot   map[*G.Node]int
}

// execStep is one op of the graph: its input slots, its output slot, and
// how it runs.
type execStep struct {
	node *G.Node
	op   G.Op
	in   []int
	ins  []G.Value // the inputs' values, filled before each call
	out  int
	kind execKind
	pre  G.Value // the kept result (execPrealloc), or the view (execView)
	src  G.Value // execView: the value pre views
	k    *execKernel
}

// execKind says how an execStep runs.
type execKind int

const (
	execDo       execKind = iota // op.Do: this package's ops (results kept), or a gorgonia op that allocates
	execPrealloc                 // G.UsePreallocDoer into pre
	execView                     // a Reshape: pre, a view of the input's data
	execSkip                     // a G.Read: the caller reads values with executor.value
	execOwn                      // computed here (execKernel)
)

// newExecutor prepares g's ops for running.
func newExecutor(g *G.ExprGraph) (*executor, error) {
	sorted, err := G.Sort(g)
	if err != nil {
		return nil, fmt.Errorf("sort graph: %w", err)
	}
	e := &executor{slot: map[*G.Node]int{}}
	for i := len(sorted) - 1; i >= 0; i-- {
		n := sorted[i]
		e.slot[n] = len(e.vals)
		e.vals = append(e.vals, nil)
		if n.Op() == nil {
			e.leaves = append(e.leaves, n)
			e.leafAt = append(e.leafAt, e.slot[n])
			continue
		}
		s := execStep{node: n, op: n.Op(), out: e.slot[n]}
		for it := g.From(n.ID()); it.Next(); {
			c := it.Node().(*G.Node)
			j, ok := e.slot[c]
			if !ok {
				return nil, fmt.Errorf("node %v: input %v comes after it", n, c)
			}
			s.in = append(s.in, j)
		}
		s.ins = make([]G.Value, len(s.in))
		s.kind, s.k = classify(n)
		if s.kind == execPrealloc {
			if n.IsScalar() {
				s.kind = execDo
			} else {
				s.pre = tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(n.Shape().Clone()...))
			}
		}
		e.steps = append(e.steps, s)
	}
	return e, nil
}

// value returns node n's value of the last run (nil before one).
func (e *executor) value(n *G.Node) G.Value {
	i, ok := e.slot[n]
	if !ok {
		return nil
	}
	return e.vals[i]
}

// run executes every op once.
func (e *executor) run() error {
	for i, n := range e.leaves {
		e.vals[e.leafAt[i]] = n.Value()
	}
	for i := range e.steps {
		s := &e.steps[i]
		for j, k := range s.in {
			s.ins[j] = e.vals[k]
		}
		var v G.Value
		var err error
		switch s.kind {
		case execSkip:
			continue
		case execView:
			v, err = s.view()
		case execPrealloc:
			// Zeroed, as the tape machine's fresh registers were: a slice's
			// gradient (sliceIncrOp) adds into its result.
			clear(s.pre.(*tensor.Dense).Float32s())
			v, err = s.op.(G.UsePreallocDoer).UsePreallocDo(s.pre, s.ins...)
		case execOwn:
			v, err = s.k.do(s)
		default:
			v, err = s.op.Do(s.ins...)
		}
		if err != nil {
			return fmt.Errorf("%v: %w", s.op, err)
		}
		e.vals[s.out] = v
	}
	return nil
}

// view returns a Reshape's result: a tensor of the node's shape on its
// input's data, made again only when the input is another value.
func (s *execStep) view() (G.Value, error) {
	if s.pre != nil && s.src == s.ins[0] {
		return s.pre, nil
	}
	if f, ok := s.ins[0].(*G.F32); ok {
		// A scalar as a one-element tensor: its value copied.
		if s.pre == nil {
			s.pre = tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(s.node.Shape().Clone()...))
		}
		d, err := floatData(s.pre)
		if err != nil {
			return nil, err
		}
		if len(d) != 1 {
			return nil, fmt.Errorf("reshape of a scalar to %v", s.node.Shape())
		}
		d[0] = float32(*f)
		return s.pre, nil
	}
	in, ok := s.ins[0].(tensor.Tensor)
	if !ok {
		return nil, fmt.Errorf("reshape of %T, want a tensor", s.ins[0])
	}
	if in.RequiresIterator() {
		return nil, fmt.Errorf("reshape of a strided tensor")
	}
	s.pre = tensor.New(tensor.WithShape(s.node.Shape().Clone()...), tensor.WithBacking(in.Data()))
	s.src = s.ins[0]
	return s.pre, nil
}

// classify says how node n's op runs.
func classify(n *G.Node) (execKind, *execKernel) {
	op := n.Op()
	switch fmt.Sprintf("%T", op) {
	case "gorgonia.reshapeOp":
		return execView, nil
	case "gorgonia.readOp":
		return execSkip, nil
	}
	if _, ok := op.(interface{ result(...int) *tensor.Dense }); ok {
		return execDo, nil
	}
	if k := newKernel(n); k != nil {
		return execOwn, k
	}
	if _, ok := op.(G.UsePreallocDoer); ok {
		return execPrealloc, nil
	}
	return execDo, nil
}

// kernelKind is which gorgonia op an execKernel computes.
type kernelKind int

const (
	kBinary    kernelKind = iota // elementwise ⊙ ÷ + − ==, MinBetween, MaxBetween; a scalar broadcast
	kUnary                       // elementwise neg, exp, square, tanh
	kSize                        // SizeOf: a constant of the shapes
	kSum                         // Σ over everything, or over axis 1 of a matrix
	kSlice                       // rows or columns lo..hi of a matrix, copied
	kSliceIncr                   // zeros with a slice plus the increment (a slice's gradient)
	kRepeat                      // a one-element axis repeated
	kMatMul                      // a matrix product, either side transposed (sgemm, as gorgonia calls it)
)

// execKernel computes a gorgonia op as gorgonia does it (the same float32
// arithmetic in the same order), into a result kept from run to run: the
// loss's arithmetic and the gradients G.Grad built for it, which in
// gorgonia box every scalar and allocate every result and iterator.
type execKernel struct {
	kind   kernelKind
	sym    string        // kBinary, kUnary: the operator
	along  int           // kSum: −1 = everything; kSlice, kSliceIncr, kRepeat: the axis
	lo, hi int           // kSlice, kSliceIncr: the range along it
	f      *G.F32        // a scalar result
	t      *tensor.Dense // a tensor result
	cached bool          // kSize: f is computed
	// kMatMul: which operand is transposed.
	transA, transB bool
}

// newKernel returns the kernel of node n's op, or nil where the executor
// leaves the op to gorgonia.
func newKernel(n *G.Node) *execKernel {
	op := n.Op()
	str := fmt.Sprint(op)
	k := &execKernel{}
	switch fmt.Sprintf("%T", op) {
	case "gorgonia.elemBinOp":
		k.kind, k.sym = kBinary, strings.Fields(str)[0]
		if k.sym == "==" && !strings.HasSuffix(str, "true") {
			return nil // a comparison returning booleans
		}
		switch k.sym {
		case "⊙", "÷", "+", "-", "==":
		default:
			return nil
		}
	case "gorgonia.minBetween", "gorgonia.maxBetween":
		k.kind, k.sym = kBinary, strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", op), "gorgonia."), "Between")
	case "gorgonia.linAlgBinOp":
		k.kind = kMatMul
		switch str {
		case "A × B":
		case "Aᵀ × B":
			k.transA = true
		case "A × Bᵀ":
			k.transB = true
		default:
			return nil
		}
		if n.Dims() != 2 {
			return nil
		}
	case "gorgonia.elemUnaryOp":
		k.kind, k.sym = kUnary, str
		switch k.sym {
		case "neg", "exp", "square", "tanh":
		default:
			return nil
		}
	case "gorgonia.sizeOp":
		k.kind = kSize
	case "gorgonia.sumOp":
		k.kind, k.along = kSum, -1
		switch {
		case n.IsScalar():
		case str == "Σ[1]" && n.Dims() == 1:
			k.along = 1
		default:
			return nil
		}
	case "*gorgonia.sliceOp", "gorgonia.sliceIncrOp":
		k.kind = kSlice
		if strings.HasPrefix(str, "T[:...]") {
			k.along, k.lo, k.hi = -1, 0, 0 // the whole tensor
		} else {
			sl, ok := op.(tensor.Slice)
			if !ok || sl.Step() > 1 {
				return nil
			}
			at := strings.Index(str, sliceText(sl))
			if at < 0 {
				return nil
			}
			k.along = strings.Count(str[:at], ",")
			k.lo, k.hi = sl.Start(), sl.End()
		}
		if strings.HasSuffix(str, "+=...") {
			k.kind = kSliceIncr
		}
	case "*gorgonia.repeatOp":
		k.kind = kRepeat
		if _, err := fmt.Sscanf(str, "Repeat%d", &k.along); err != nil {
			return nil
		}
	default:
		return nil
	}
	if n.IsScalar() {
		k.f = new(G.F32)
	} else {
		k.t = tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(n.Shape().Clone()...))
	}
	return k
}

// sliceText is how a sliceOp's String writes its slice.
func sliceText(sl tensor.Slice) string {
	return fmt.Sprintf("%d:%d:%d", sl.Start(), sl.End(), sl.Step())
}

// operand is one input of a kernel: its float32 data, or the scalar.
func operand(v G.Value) (d []float32, x float32, scalar bool, err error) {
	if f, ok := v.(*G.F32); ok {
		return nil, float32(*f), true, nil
	}
	d, err = floatData(v)
	return d, 0, false, err
}

// do computes step s's op into the kernel's result.
func (k *execKernel) do(s *execStep) (G.Value, error) {
	var out []float32
	if k.t != nil {
		out = k.t.Float32s()
	}
	switch k.kind {
	case kSize:
		if !k.cached {
			v, err := s.op.Do(s.ins...)
			if err != nil {
				return nil, err
			}
			f, ok := v.(*G.F32)
			if !ok || k.f == nil {
				return nil, fmt.Errorf("size is %T, want a float32 scalar", v)
			}
			*k.f, k.cached = *f, true
		}
		return k.f, nil
	case kBinary:
		a, x, as, err := operand(s.ins[0])
		if err != nil {
			return nil, err
		}
		b, y, bs, err := operand(s.ins[1])
		if err != nil {
			return nil, err
		}
		if k.f != nil {
			if !as || !bs {
				return nil, fmt.Errorf("scalar result of tensor inputs")
			}
			*k.f = G.F32(binaryF32(k.sym, x, y))
			return k.f, nil
		}
		switch {
		case !as && !bs && len(a) == len(out) && len(b) == len(out):
			for i := range out {
				out[i] = binaryF32(k.sym, a[i], b[i])
			}
		case as && !bs && len(b) == len(out):
			for i := range out {
				out[i] = binaryF32(k.sym, x, b[i])
			}
		case !as && bs && len(a) == len(out):
			for i := range out {
				out[i] = binaryF32(k.sym, a[i], y)
			}
		default:
			return nil, fmt.Errorf("operands %v and %v, result %v", s.ins[0].Shape(), s.ins[1].Shape(), k.t.Shape())
		}
		return k.t, nil
	case kUnary:
		a, x, as, err := operand(s.ins[0])
		if err != nil {
			return nil, err
		}
		if k.f != nil {
			if !as {
				return nil, fmt.Errorf("scalar result of a tensor")
			}
			*k.f = G.F32(unaryF32(k.sym, x))
			return k.f, nil
		}
		if as || len(a) != len(out) {
			return nil, fmt.Errorf("operand %v, result %v", s.ins[0].Shape(), k.t.Shape())
		}
		for i, v := range a {
			out[i] = unaryF32(k.sym, v)
		}
		return k.t, nil
	case kSum:
		a, err := floatData(s.ins[0])
		if err != nil {
			return nil, err
		}
		if k.along < 0 {
			if k.f == nil {
				return nil, fmt.Errorf("sum of everything into a tensor")
			}
			var sum float32
			for _, v := range a {
				sum += v
			}
			*k.f = G.F32(sum)
			return k.f, nil
		}
		sh := s.ins[0].Shape()
		if len(sh) != 2 || sh[0] != len(out) {
			return nil, fmt.Errorf("sum over axis 1 of %v into %v", sh, k.t.Shape())
		}
		w := sh[1]
		for r := range out {
			var sum float32
			for _, v := range a[r*w : (r+1)*w] {
				sum += v
			}
			out[r] = sum
		}
		return k.t, nil
	case kSlice, kSliceIncr:
		return k.slice(s, out)
	case kMatMul:
		return k.matMul(s, out)
	case kRepeat:
		a, err := floatData(s.ins[0])
		if err != nil {
			return nil, err
		}
		switch {
		case len(a) == 1:
			for i := range out {
				out[i] = a[0]
			}
		case k.along == 1 && len(out)%len(a) == 0:
			// [n, 1] to [n, reps]: each row's value repeated.
			reps := len(out) / len(a)
			for r, v := range a {
				for j := range reps {
					out[r*reps+j] = v
				}
			}
		default:
			return nil, fmt.Errorf("repeat of %v along %d into %v", s.ins[0].Shape(), k.along, k.t.Shape())
		}
		return k.t, nil
	}
	return nil, fmt.Errorf("kernel %d", k.kind)
}

// slice is kSlice (a copy of the slice of input 0) or kSliceIncr (zeros of
// input 0's shape with the slice plus input 1, as gorgonia adds into a new
// tensor: 0 + x).
func (k *execKernel) slice(s *execStep, out []float32) (G.Value, error) {
	sh := s.ins[0].Shape()
	src, err := floatData(s.ins[0])
	if err != nil {
		return nil, err
	}
	rows, n := 1, len(src)
	if len(sh) == 2 {
		rows, n = sh[0], sh[1]
	}
	r0, r1, c0, c1 := 0, rows, 0, n
	switch {
	case k.along < 0:
	case k.along == 0 && len(sh) <= 2:
		r0, r1 = k.lo, min(k.hi, rows)
		if len(sh) == 1 {
			r0, r1, c0, c1 = 0, 1, k.lo, min(k.hi, n)
		}
	case k.along == 1 && len(sh) == 2:
		c0, c1 = k.lo, min(k.hi, n)
	default:
		return nil, fmt.Errorf("slice along %d of %v", k.along, sh)
	}
	w := c1 - c0
	if k.kind == kSlice {
		if len(out) != (r1-r0)*w {
			return nil, fmt.Errorf("slice of %v into %v", sh, k.t.Shape())
		}
		for r := r0; r < r1; r++ {
			copy(out[(r-r0)*w:(r-r0+1)*w], src[r*n+c0:r*n+c1])
		}
		return k.t, nil
	}
	inc, x, scalar, err := operand(s.ins[1])
	if err != nil {
		return nil, err
	}
	if len(out) != len(src) || (!scalar && len(inc) != (r1-r0)*w) {
		return nil, fmt.Errorf("slice increment of %v by %v into %v", sh, s.ins[1].Shape(), k.t.Shape())
	}
	clear(out)
	for r := r0; r < r1; r++ {
		row := out[r*n+c0 : r*n+c1]
		for j := range row {
			v := x
			if !scalar {
				v = inc[(r-r0)*w+j]
			}
			row[j] += v
		}
	}
	return k.t, nil
}

// matMul is gorgonia's matrix product of inputs 0 and 1 (tensor's MatMul:
// sgemm with the leading dimensions of the stored matrices, beta 0).
func (k *execKernel) matMul(s *execStep, out []float32) (G.Value, error) {
	as, bs := s.ins[0].Shape(), s.ins[1].Shape()
	a, err := floatData(s.ins[0])
	if err != nil {
		return nil, err
	}
	b, err := floatData(s.ins[1])
	if err != nil {
		return nil, err
	}
	if len(as) != 2 || len(bs) != 2 {
		return nil, fmt.Errorf("product of %v and %v", as, bs)
	}
	m, kk := as[0], as[1]
	if k.transA {
		m, kk = as[1], as[0]
	}
	n, kb := bs[1], bs[0]
	if k.transB {
		n, kb = bs[0], bs[1]
	}
	if kk != kb || len(out) != m*n {
		return nil, fmt.Errorf("product of %v and %v (transposed %v, %v) into %v", as, bs, k.transA, k.transB, k.t.Shape())
	}
	sgemm.Gemm(k.transA, k.transB, m, n, kk, a, as[1], b, bs[1], 0, out, n)
	return k.t, nil
}

// binaryF32 is gorgonia's elementwise operator sym on float32.
func binaryF32(sym string, a, b float32) float32 {
	switch sym {
	case "⊙":
		return a * b
	case "÷":
		return a / b
	case "+":
		return a + b
	case "-":
		return a - b
	case "==":
		if a == b {
			return 1
		}
	case "min": // tensor's MinBetween: b where b < a
		if b < a {
			return b
		}
		return a
	case "max":
		if b > a {
			return b
		}
		return a
	}
	return 0
}

// unaryF32 is gorgonia's elementwise function sym on float32 (math32's, as
// the tensor package's).
func unaryF32(sym string, a float32) float32 {
	switch sym {
	case "neg":
		return -a
	case "exp":
		return math32.Exp(a)
	case "square":
		return a * a
	case "tanh":
		return math32.Tanh(a)
	}
	return 0
}

// floatData returns the float32 data of a value without boxing it (Dense's
// Data does, on every call).
func floatData(v G.Value) ([]float32, error) {
	if t, ok := v.(*tensor.Dense); ok && t.Dtype() == tensor.Float32 {
		return t.Float32s(), nil
	}
	if v == nil {
		return nil, fmt.Errorf("no value")
	}
	d, ok := v.Data().([]float32)
	if !ok {
		return nil, fmt.Errorf("value %v is %T, want float32 data", v.Shape(), v.Data())
	}
	return d, nil
}
