package train

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train/graph"
)

func benchArch(b *testing.B, game string, filters, layers, hidden int) *neural.Net {
	g, err := rules.Lookup(game)
	if err != nil {
		b.Fatal(err)
	}
	arch, err := neural.NewArch(game, g.Encoder(g.Default()).Space(), filters, layers, hidden)
	if err != nil {
		b.Fatal(err)
	}
	net, err := neural.NewInit(arch, rules.NewRNG(1))
	if err != nil {
		b.Fatal(err)
	}
	return net
}

var benchShapes = []struct {
	game                    string
	filters, layers, hidden int
}{
	// Every game's default architecture (rules/<game>/train/default.yaml).
	{"rising-tide", 16, 3, 32},
	{"rectangle", 16, 5, 32},
	{"bovine-borders", 16, 3, 32},
	{"nuggets", 16, 3, 32},
	{"slime", 32, 3, 32},
}

// BenchmarkTrainStep: one forward+backward pass of the gorgonia graph on a
// minibatch of 256 and the gradients' sum, as learn runs it (samples/s =
// 256/op): split, the minibatch split over GOMAXPROCS workers (graph.Step);
// whole, unsplit, each op on every core. -cpu 1,2 gives one core and two.
func BenchmarkTrainStep(b *testing.B) {
	for _, s := range benchShapes {
		for _, mode := range []string{"split", "whole"} {
			b.Run(fmt.Sprintf("%s/f%d-l%d/%s", s.game, s.filters, s.layers, mode), func(b *testing.B) {
				net := benchArch(b, s.game, s.filters, s.layers, s.hidden)
				gr, err := newGraph(net, 256)
				if err != nil {
					b.Fatal(err)
				}
				graph.FillRandom(gr, rules.NewRNG(1))
				gr.Coefficients(1, 0.5, 0.01, 0)
				workers := 1
				if mode == "split" {
					workers = runtime.GOMAXPROCS(0)
				}
				st, err := graph.NewStep(gr, net, workers)
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := st.Run(); err != nil {
						b.Fatal(err)
					}
					if _, err := st.Grads(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(256*b.N)/b.Elapsed().Seconds(), "samples/s")
			})
		}
	}
}

// BenchmarkForward: plain-Go inference of a batch of 64 observations, of 8
// (split over two cores from 8 images) and of one (obs/s); -cpu 1,2 gives
// one core and two.
func BenchmarkForward(b *testing.B) {
	for _, s := range benchShapes {
		for _, batch := range []int{64, 8, 1} {
			b.Run(fmt.Sprintf("%s/f%d-l%d/b%d", s.game, s.filters, s.layers, batch), func(b *testing.B) {
				net := benchArch(b, s.game, s.filters, s.layers, s.hidden)
				w := neural.NewWorkspace(net.Arch, batch)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					net.Forward(w, batch, nil, 0)
				}
				b.ReportMetric(float64(batch*b.N)/b.Elapsed().Seconds(), "obs/s")
			})
		}
	}
}
