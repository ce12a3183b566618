package graph

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/rules"
)

// opGradCheck checks one op's backward pass in isolation: on a graph of
// inputs of the given shapes, loss = Σ c ⊙ op(inputs) with fixed random
// weights c, gorgonia's gradient of every entry of the first wrt inputs
// equals a central difference of the loss. Inputs have random values in
// [−1, 1], or those of fixed[i] where given (masks, actions: no gradient).
// Odd sizes catch an op that assumes a multiple of something.
func opGradCheck(t *testing.T, shapes [][]int, fixed [][]float32, wrt int, apply func(in G.Nodes) (*G.Node, error)) {
	t.Helper()
	rng := rules.NewRNG(21)
	g := G.NewGraph()
	var in G.Nodes
	var data [][]float32
	for i, sh := range shapes {
		v := tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(sh...))
		d := v.Data().([]float32)
		for j := range d {
			d[j] = float32(rng.Float64()*2 - 1)
		}
		if i < len(fixed) && fixed[i] != nil {
			copy(d, fixed[i])
		}
		// Named apart: gorgonia merges unnamed inputs of one shape into one node.
		in = append(in, G.NewTensor(g, tensor.Float32, len(sh), G.WithShape(sh...), G.WithValue(v), G.WithName(fmt.Sprintf("in%d", i))))
		data = append(data, d)
	}
	out, err := apply(in)
	if err != nil {
		t.Fatal(err)
	}
	c := tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(out.Shape().Clone()...))
	for i, d := 0, c.Data().([]float32); i < len(d); i++ {
		d[i] = float32(rng.Float64()*2 - 1)
	}
	loss := G.Must(G.Sum(G.Must(G.HadamardProd(out, G.NewConstant(c)))))
	var lv G.Value
	G.Read(loss, &lv)
	if _, err := G.Grad(loss, in[:wrt]...); err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(g, G.BindDualValues(in[:wrt]...))
	defer vm.Close()
	run := func() float64 {
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		vm.Reset()
		return float64(lv.Data().(float32))
	}
	run()
	var analytic [][]float32
	for _, n := range in[:wrt] {
		gv, err := n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		analytic = append(analytic, append([]float32(nil), gv.Data().([]float32)...))
	}
	const h = 1e-2
	for i, d := range data[:wrt] {
		for j := range d {
			orig := d[j]
			d[j] = orig + h
			up := run()
			d[j] = orig - h
			down := run()
			d[j] = orig
			num := (up - down) / (2 * h)
			if an := float64(analytic[i][j]); math.Abs(num-an) > 1e-3+1e-2*math.Abs(num) {
				t.Errorf("input %d [%d]: analytic %.5f, numeric %.5f", i, j, an, num)
			}
		}
	}
}

// concatOp's gradient (colsOp) is each input's columns of the output's.
func TestConcatOpGradient(t *testing.T) {
	opGradCheck(t, [][]int{{3, 5}, {3, 2}}, nil, 2, func(in G.Nodes) (*G.Node, error) {
		return G.ApplyOp(concatOp{rows: 3, na: 5, nb: 2}, in[0], in[1])
	})
}

// policyOp's gradient with respect to the logits (policyGradOp, reading the
// log-softmax the forward pass kept, and computing it again without one),
// for one-hot actions and for soft targets (the KL penalty's), with masked
// actions (a row with every action masked has a gradient that no finite
// difference sees: z + MaskedLogit rounds the step away in float32).
func TestPolicyOpGradient(t *testing.T) {
	const rows, actions = 3, 7
	mask := make([]float32, rows*actions)
	for k := range mask {
		if k%3 == 1 {
			mask[k] = MaskedLogit
		}
	}
	onehot := make([]float32, rows*actions)
	onehot[2], onehot[actions+5], onehot[2*actions+1] = 1, 1, 1
	soft := make([]float32, rows*actions)
	for k := range soft {
		if mask[k] == 0 {
			soft[k] = float32(k%4+1) / 10
		}
	}
	for _, tc := range []struct {
		name    string
		op      policyOp
		actions []float32
	}{
		{"kept/one-hot", newPolicyOp(rows, actions), onehot},
		{"kept/soft", newPolicyOp(rows, actions), soft},
		{"again/one-hot", policyOp{rows: rows, actions: actions}, onehot},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opGradCheck(t, [][]int{{rows, actions}, {rows, actions}, {rows, actions}}, [][]float32{nil, mask, tc.actions}, 1,
				func(in G.Nodes) (*G.Node, error) { return G.ApplyOp(tc.op, in[0], in[1], in[2]) })
		})
	}
}

// conv1Op's gradients (conv1Grad) with respect to the trunk and the filter.
func TestConv1OpGradient(t *testing.T) {
	opGradCheck(t, [][]int{{7, 5}, {3, 5, 1, 1}}, nil, 2, func(in G.Nodes) (*G.Node, error) {
		return G.ApplyOp(conv1Op{pureOp: keep(), rows: 7, k: 5, n: 3}, in[0], in[1])
	})
}

// A train step reuses its ops' results (pureOp.result) and scratch: after
// the first run, which allocates them, a run allocates under an eighth of
// that (nothing since the executor, exec.go: TestTrainStepAllocsNothing;
// with a new result per op and run it was about a third).
func TestTrainStepReusesItsTensors(t *testing.T) {
	for _, game := range []string{"rising-tide", "rectangle"} {
		t.Run(game, func(t *testing.T) {
			net := testNet(t, game, nil, game == "rectangle")
			gr, err := newGraph(net, 16)
			if err != nil {
				t.Fatal(err)
			}
			FillRandom(gr, rules.NewRNG(1))
			if err := gr.Coefficients(1, 0.5, 0.01, 0); err != nil {
				t.Fatal(err)
			}
			allocated := func(runs int) float64 {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for range runs {
					if err := gr.Run(); err != nil {
						t.Fatal(err)
					}
				}
				runtime.ReadMemStats(&after)
				return float64(after.TotalAlloc-before.TotalAlloc) / float64(runs)
			}
			first := allocated(1)
			steady := allocated(5)
			t.Logf("first run %.0f bytes, then %.0f bytes a run", first, steady)
			if steady > first/8 {
				t.Fatalf("a run allocates %.0f bytes after a first run of %.0f: want under an eighth", steady, first)
			}
		})
	}
}

// biasOp's gradients (reluGradOp for the matrix, colSumOp for the bias),
// with and without the ReLU.
func TestBiasOpGradient(t *testing.T) {
	for _, relu := range []bool{false, true} {
		opGradCheck(t, [][]int{{7, 5}, {5}}, nil, 2, func(in G.Nodes) (*G.Node, error) {
			return G.ApplyOp(biasOp{pureOp: keep(), rows: 7, n: 5, relu: relu}, in[0], in[1])
		})
	}
}

// unitsOp's gradient with respect to the trunk (unitsGrad), for unit
// planes of several cells (every game's mark one, but the op is a product).
func TestUnitsOpGradient(t *testing.T) {
	opGradCheck(t, [][]int{{3 * 5, 4}, {3, 2, 5}}, nil, 1, func(in G.Nodes) (*G.Node, error) {
		return G.ApplyOp(unitsOp{pureOp: keep(), b: 3, heads: 2, hw: 5, k: 4}, in[1], in[0])
	})
}

// relu32 agrees bit for bit with the branching definition on signed zeros,
// subnormals, infinities and random values.
func TestReLUBranchless(t *testing.T) {
	vals := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 1e-45, -1e-45, float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -math.MaxFloat32}
	rng := rules.NewRNG(9)
	for range 1000 {
		vals = append(vals, math.Float32frombits(uint32(rng.U(1<<31))<<1|uint32(rng.U(2))))
	}
	for _, v := range vals {
		if v != v {
			continue // NaNs: documented, not the branching definition
		}
		want := v
		if v < 0 {
			want = 0
		}
		if got := relu32(v); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("relu32(%v) = %v, want %v", v, got, want)
		}
	}
}
