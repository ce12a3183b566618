package train

import (
	"math"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/rules"
)

// opGradCheck checks one op's backward pass in isolation: on a graph of
// inputs of the given shapes (random values), loss = Σ c ⊙ op(inputs) with
// fixed random weights c, gorgonia's gradient of every input entry equals a
// central difference of the loss. Odd sizes catch an op that assumes a
// multiple of something.
func opGradCheck(t *testing.T, shapes [][]int, apply func(in G.Nodes) (*G.Node, error)) {
	t.Helper()
	rng := rules.NewRNG(21)
	g := G.NewGraph()
	var in G.Nodes
	var data [][]float32
	for _, sh := range shapes {
		v := tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(sh...))
		d := v.Data().([]float32)
		for i := range d {
			d[i] = float32(rng.Float64()*2 - 1)
		}
		in = append(in, G.NewTensor(g, tensor.Float32, len(sh), G.WithShape(sh...), G.WithValue(v)))
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
	if _, err := G.Grad(loss, in...); err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(g, G.BindDualValues(in...))
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
	for _, n := range in {
		gv, err := n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		analytic = append(analytic, append([]float32(nil), gv.Data().([]float32)...))
	}
	const h = 1e-2
	for i, d := range data {
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
	opGradCheck(t, [][]int{{3, 5}, {3, 2}}, func(in G.Nodes) (*G.Node, error) {
		return G.ApplyOp(concatOp{rows: 3, na: 5, nb: 2}, in[0], in[1])
	})
}
