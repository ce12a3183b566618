package train

import (
	"runtime"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train/graph"
)

// BenchmarkShipped: the work of `gridgym bench --learner` on the shipped
// networks (models/<game>/final.safetensors): one PPO minibatch step of
// 256 with Adam (samples/s), and a forward pass at batch 64 (obs/s); -cpu
// 1,2 gives one core and two.
func BenchmarkShipped(b *testing.B) {
	for _, game := range []string{"slime", "bovine-borders", "rising-tide", "rectangle", "nuggets"} {
		load := func(b *testing.B) *neural.Net {
			net, _, err := neural.Load("../models/" + game + "/final.safetensors")
			if err != nil {
				b.Skip(err)
			}
			return net
		}
		b.Run(game+"/train", func(b *testing.B) {
			net := load(b)
			gr, err := newGraph(net, benchBatch)
			if err != nil {
				b.Fatal(err)
			}
			graph.FillRandom(gr, rules.NewRNG(1))
			if err := gr.Coefficients(1, 0.5, 0.01, 0); err != nil {
				b.Fatal(err)
			}
			st, err := graph.NewStep(gr, net, runtime.GOMAXPROCS(0))
			if err != nil {
				b.Fatal(err)
			}
			opt := newAdam(net)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := st.Run(); err != nil {
					b.Fatal(err)
				}
				grads, err := st.Grads()
				if err != nil {
					b.Fatal(err)
				}
				opt.step(net.Values, grads, 3e-4, 0.5)
			}
			b.ReportMetric(float64(benchBatch*b.N)/b.Elapsed().Seconds(), "samples/s")
		})
		b.Run(game+"/fwd64", func(b *testing.B) {
			net := load(b)
			w := neural.NewWorkspace(net.Arch, 64)
			rng := rules.NewRNG(2)
			for i := range w.Input {
				if rng.U(10) < 3 {
					w.Input[i] = 1
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				net.Forward(w, 64, nil, 0)
			}
			b.ReportMetric(float64(64*b.N)/b.Elapsed().Seconds(), "obs/s")
		})
	}
}
