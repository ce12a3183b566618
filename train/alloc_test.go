package train

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train/graph"
)

// A train step — the forward and backward pass of the loss (step.run, on
// the executor of package graph), the gradients summed over the workers
// (step.grads) and the Adam step — allocates nothing after a warm-up, on
// every game's network shape, with and without the KL penalty's inputs, on
// one worker and on two (the minibatch split, graph.Step) (issue 21). It is
// measured by testing.AllocsPerRun (which runs at GOMAXPROCS 1).
func TestTrainStepAllocsNothing(t *testing.T) {
	for _, tc := range gameShapes {
		// One worker without the KL term's inputs and two with them: both
		// sides of each run on every game's network.
		for _, c := range []struct {
			workers int
			kl      bool
		}{{1, false}, {2, true}} {
			workers, kl := c.workers, c.kl
			t.Run(fmt.Sprintf("%s/workers%d/kl%v", tc.game, workers, kl), func(t *testing.T) {
				net := testNet(t, tc.game, tc.params, tc.coords)
				gr, err := newGraphKL(net, 24, kl)
				if err != nil {
					t.Fatal(err)
				}
				graph.FillRandom(gr, rules.NewRNG(7))
				if err := gr.Coefficients(1, 0.5, 0.01, 0.1); err != nil {
					t.Fatal(err)
				}
				st, err := graph.NewStep(gr, net, workers)
				if err != nil {
					t.Fatal(err)
				}
				opt := newAdam(net)
				var stepErr error
				step := func() {
					if err := st.Run(); err != nil {
						stepErr = err
						return
					}
					grads, err := st.Grads()
					if err != nil {
						stepErr = err
						return
					}
					opt.step(net.Values, grads, 1e-3, 0.5)
					_ = st.Read(gr.Loss)
					_ = st.Read(gr.Ratio)
				}
				// Warm-up: results, scratch and views are made in the first
				// run; sgemm's pooled buffers (a sync.Pool) come back after
				// the GCs that the setup's allocations trigger, so GC is off
				// while measuring (a step that allocates nothing triggers
				// none).
				step()
				runtime.GC()
				defer debug.SetGCPercent(debug.SetGCPercent(-1))
				step()
				// 20 steps, fewer than one object a step on average: a step
				// that allocates fails, while the runtime's rare sudog (two
				// workers park their goroutines even at GOMAXPROCS 1; one
				// run in four of the suite under two CPU hogs saw one in
				// five steps) does not decide the verdict.
				if n := testing.AllocsPerRun(20, step); n != 0 {
					t.Errorf("a train step allocates %v objects at GOMAXPROCS 1 (mean of 20 steps), want 0", n)
				}
				// Two cores are not measured here: there the Go runtime
				// itself allocates now and then (a sudog when sgemm's
				// WaitGroup parks a goroutine and its P's cache is
				// empty), more the busier the machine, which would make
				// the verdict depend on the load. The split step's own
				// code is the same at GOMAXPROCS 1 (workers=2 above);
				// BenchmarkTrainStepAdam with -cpu 2 reports allocs/op.
				if stepErr != nil {
					t.Fatal(stepErr)
				}
			})
		}
	}
}

// BenchmarkTrainStepAdam: a whole train step as learn runs it — the pass
// split over GOMAXPROCS workers, the gradients' sum and the Adam step — on
// every game's default network and a minibatch of 256, after two warm-up
// steps (BenchmarkTrainStep times the first run too, which makes every
// op's result): allocs/op and B/op are the steady state's, samples/s =
// 256/op. -cpu 1,2 gives one core and two.
func BenchmarkTrainStepAdam(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(fmt.Sprintf("%s/f%d-l%d", s.game, s.filters, s.layers), func(b *testing.B) {
			st := randomStep(b, benchArch(b, s.game, s.filters, s.layers, s.hidden), 256, runtime.GOMAXPROCS(0))
			step := func() {
				if st.run(); st.err != nil {
					b.Fatal(st.err)
				}
			}
			step()
			step()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				step()
			}
			b.ReportMetric(float64(256*b.N)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}
