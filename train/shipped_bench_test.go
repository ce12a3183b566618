package train

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/internal/sgemm"
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
			s := shippedStep(b, game, benchBatch, runtime.GOMAXPROCS(0))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if s.run(); s.err != nil {
					b.Fatal(s.err)
				}
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

// BenchmarkShippedCopies is the ceiling of BenchmarkShipped's train step on
// two cores: copies=1 runs one single-threaded step of 128 samples per op,
// copies=2 two independent ones at once, each with its own network, graph
// and optimiser, one per core (sgemm.Split: every product inside stays on
// its goroutine). Nothing is shared, so copies=2's samples/s over copies=1's
// is what the machine gives this work on two cores, whatever the code
// around it; run with -cpu 2 (issue 55: 1.80–2.05 here, medians of three,
// reports/learner/README.md).
//
//	go test ./train -run '^$' -bench ShippedCopies -cpu 2 -count 3
func BenchmarkShippedCopies(b *testing.B) {
	const batch = 128
	for _, game := range []string{"slime", "bovine-borders", "rising-tide", "rectangle", "nuggets"} {
		for _, copies := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/copies=%d", game, copies), func(b *testing.B) {
				var steps copySteps
				for range copies {
					steps = append(steps, *shippedStep(b, game, batch, 1))
				}
				sgemm.Split(copies, steps) // warm
				b.ResetTimer()
				for range b.N {
					sgemm.Split(copies, steps)
				}
				b.StopTimer()
				for _, s := range steps {
					if s.err != nil {
						b.Fatal(s.err)
					}
				}
				b.ReportMetric(float64(copies*batch*b.N)/b.Elapsed().Seconds(), "samples/s")
			})
		}
	}
}

// shippedStep is the train step of game's shipped network on a random
// minibatch of batch samples split over workers, with its own copy of the
// network and its own optimiser.
func shippedStep(b *testing.B, game string, batch, workers int) *copyStep {
	b.Helper()
	net, _, err := neural.Load("../models/" + game + "/final.safetensors")
	if err != nil {
		b.Skip(err)
	}
	return randomStep(b, net, batch, workers)
}

// randomStep is the train step of net on a random minibatch of batch
// samples (seed 1, no KL term) split over workers, with its own optimiser.
func randomStep(b *testing.B, net *neural.Net, batch, workers int) *copyStep {
	b.Helper()
	gr, err := newGraph(net, batch)
	if err != nil {
		b.Fatal(err)
	}
	graph.FillRandom(gr, rules.NewRNG(1))
	if err := gr.Coefficients(1, 0.5, 0.01, 0); err != nil {
		b.Fatal(err)
	}
	st, err := graph.NewStep(gr, net, workers)
	if err != nil {
		b.Fatal(err)
	}
	return &copyStep{net: net, st: st, opt: newAdam(net)}
}

// copyStep is one train step: its network, graph and optimiser.
type copyStep struct {
	net *neural.Net
	st  *graph.Step
	opt *adam
	err error
}

// copySteps runs copy i as part i (sgemm.Runner).
type copySteps []copyStep

// RunPart implements sgemm.Runner: one step of copy i.
func (c copySteps) RunPart(i, _ int) { c[i].run() }

// run runs one step (forward, backward, Adam), keeping its error.
func (s *copyStep) run() {
	if err := s.st.Run(); err != nil {
		s.err = err
		return
	}
	grads, err := s.st.Grads()
	if err != nil {
		s.err = err
		return
	}
	s.opt.step(s.net.Values, grads, 3e-4, 0.5)
}
