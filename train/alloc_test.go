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
// measured by testing.AllocsPerRun (which runs at GOMAXPROCS 1) and again
// at two cores, where each op's rows and products go through
// sgemm.Parallel and the runtime may hand out a sudog.
func TestTrainStepAllocsNothing(t *testing.T) {
	for _, tc := range gameShapes {
		for _, workers := range []int{1, 2} {
			for _, kl := range []bool{false, true} {
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
					if n := testing.AllocsPerRun(5, step); n != 0 {
						t.Errorf("a train step allocates %v objects at GOMAXPROCS 1, want 0", n)
					}
					// Two cores: warm up again (each P has its own share of a
					// sync.Pool, filled on first use, and its own cache of
					// the runtime's sudogs, which sgemm's pool workers take
					// when they sleep on one core and give back on the other
					// after the wake: the caches settle within a hundred
					// steps, where ten had left 12-25 allocations in the 20
					// steps below on a loaded machine once the workers spun
					// before sleeping).
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
					for range 100 {
						step()
					}
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					for range 20 {
						step()
					}
					runtime.ReadMemStats(&after)
					// The Go runtime allocates a sudog (112 B) now and then
					// when sgemm's WaitGroup parks a goroutine and its P's
					// cache of them is empty: 2 to 5 in 200 to 400 steps, GC
					// off, more under load (3 in 20 at load 4). Anything that
					// allocates on every step fails the bound.
					if n := after.Mallocs - before.Mallocs; n >= 20 {
						t.Errorf("20 train steps allocate %d objects at GOMAXPROCS 2, want fewer than one a step (the runtime's sudogs)", n)
					} else if n > 0 {
						t.Logf("20 train steps at GOMAXPROCS 2: %d objects (the runtime's sudogs)", n)
					}
					if stepErr != nil {
						t.Fatal(stepErr)
					}
				})
			}
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
			net := benchArch(b, s.game, s.filters, s.layers, s.hidden)
			gr, err := newGraph(net, 256)
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
			step := func() {
				if err := st.Run(); err != nil {
					b.Fatal(err)
				}
				grads, err := st.Grads()
				if err != nil {
					b.Fatal(err)
				}
				opt.step(net.Values, grads, 1e-4, 0.5)
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
