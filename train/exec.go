package train

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// executor runs a gorgonia graph (the forward ops and the gradient ops that
// G.Grad added) without gorgonia's tape machine, which allocated its
// instructions' inputs, registers and log text on every run and leaked over
// long runs (graph.newVM recreated it every 200 runs). The graph stays
// gorgonia's; the executor is who runs it: once, at the first run, it
// sorts the ops in the tape machine's order (G.Sort, reversed) and gives
// each its inputs' slots and a result of its own, kept from run to run, so
// that a run after the first allocates nothing (TestTrainStepAllocsNothing).
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
	execSkip                     // a G.Read: graph.read reads the value itself
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
		d := s.pre.Data().([]float32)
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
	if _, ok := op.(G.UsePreallocDoer); ok {
		return execPrealloc, nil
	}
	return execDo, nil
}

// execKernel is a gorgonia op computed by the executor.
type execKernel struct{}

func (k *execKernel) do(s *execStep) (G.Value, error) { return nil, fmt.Errorf("no kernel") }

// floatData returns the float32 data of a value without boxing it (Dense's
// Data does, on every call).
func floatData(v G.Value) ([]float32, error) {
	if t, ok := v.(*tensor.Dense); ok && t.Dtype() == tensor.Float32 && !t.IsScalar() {
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
