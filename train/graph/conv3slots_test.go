package graph

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"

	"github.com/gridgym/gridgym/agents/neural/neuraltest"
	"github.com/gridgym/gridgym/rules"
)

// slotsLoss is a loss on every output the graph names (policy gradient,
// value, entropy, cloning), so that the gradient reaches every filter.
func slotsLoss(gr *Graph, must func(*G.Node, error) *G.Node, logpA, policy, _ *G.Node) {
	gr.Entropy = must(G.Mean(must(G.Slice(policy, nil, G.S(1)))))
	gr.Ratio = must(G.Exp(must(G.Sub(logpA, gr.OldN))))
	gr.PGLoss = must(G.Neg(must(G.Mean(must(G.HadamardProd(gr.Ratio, gr.AdvN))))))
	gr.VLoss = must(G.Mean(must(G.Square(must(G.Sub(gr.Value, gr.RetN))))))
	gr.BCLoss = must(G.Neg(must(G.Mean(logpA))))
	gr.Loss = must(G.Add(must(G.Add(gr.PGLoss, gr.VLoss)), must(G.Sub(gr.BCLoss, gr.Entropy))))
}

// A train step's loss and gradients are the same bits whatever GOMAXPROCS
// is, above or below the CPU count, for a convolution's slot count of a
// 2-CPU and of a 16-CPU machine (conv3SlotsFor: one rule sizes the slots'
// scratch and splits the images, and GOMAXPROCS only runs them), with the
// graph's scratch made for one slot count and run with the other, for every
// preset's architecture (issue 55).
func TestConv3SlotsWhateverGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	defer func(s int) { conv3Slots = s }(conv3Slots)
	names, archs := neuraltest.PresetArchs(t)
	for k, a := range archs {
		t.Run(names[k], func(t *testing.T) {
			net := neuraltest.RandomNet(t, a, uint64(k+1))
			gr, err := New(net, 17, false, slotsLoss)
			if err != nil {
				t.Fatal(err)
			}
			FillRandom(gr, rules.NewRNG(55))
			step := func(procs int) [][]float32 {
				runtime.GOMAXPROCS(procs)
				if err := gr.Run(); err != nil {
					t.Fatal(err)
				}
				out := [][]float32{append([]float32(nil), gr.Read(gr.Loss)...)}
				for _, g := range gr.grad {
					out = append(out, append([]float32(nil), g...))
				}
				return out
			}
			for _, cpus := range []int{2, 16} {
				conv3Slots = conv3SlotsFor(cpus)
				ref := step(1)
				for _, procs := range []int{2, 4, 16, 1} {
					got := step(procs)
					for i := range ref {
						for j := range ref[i] {
							if math.Float32bits(got[i][j]) != math.Float32bits(ref[i][j]) {
								what := "loss"
								if i > 0 {
									what = fmt.Sprintf("gradient of %s", gr.Params[i-1].Name())
								}
								t.Fatalf("%d slots: %s[%d] is %v at GOMAXPROCS %d, %v at 1", conv3Slots, what, j, got[i][j], procs, ref[i][j])
							}
						}
					}
				}
			}
		})
	}
}
