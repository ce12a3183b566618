package sgemm

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
)

// barrier is a Parallel's work whose parts each wait until all n have
// started: it returns only if the parts run at once.
type barrier struct {
	started atomic.Int32
	ran     []bool
}

func (b *barrier) RunPart(i, n int) {
	b.started.Add(1)
	for int(b.started.Load()) < n {
		runtime.Gosched()
	}
	b.ran[i] = true
}

// The pool is sized by the splits asked of it, not by the CPU count
// (issue 55): a Gemm on GOMAXPROCS workers above and below this machine's
// CPU count gives the bits of one worker, and a Parallel of more parts than
// CPUs runs them all at once (every part waits for the others to start)
// with a worker for each part but the caller's.
func TestPoolFollowsTheSplit(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(55, 55))
	m, n, k := 1031, 40, 300
	a, b := randSlice(rng, m*k), randSlice(rng, k*n)
	ref := make([]float32, m*n)
	GemmWorkers(1, false, false, m, n, k, a, k, b, n, 0, ref, n)
	for _, procs := range []int{1, 2, 3, runtime.NumCPU() + 2, 16} {
		t.Run(fmt.Sprintf("gomaxprocs%d", procs), func(t *testing.T) {
			runtime.GOMAXPROCS(procs)
			c := make([]float32, m*n)
			Gemm(false, false, m, n, k, a, k, b, n, 0, c, n)
			for i := range ref {
				if c[i] != ref[i] {
					t.Fatalf("element %d: %v on GOMAXPROCS %d, %v on one worker", i, c[i], procs, ref[i])
				}
			}
			if got := int(poolSize.Load()); got < procs-1 {
				t.Errorf("a product on %d workers left %d pool workers, want at least %d", procs, got, procs-1)
			}
			parts := 2*runtime.NumCPU() + procs
			r := &barrier{ran: make([]bool, parts)}
			Parallel(parts, r)
			for i, ok := range r.ran {
				if !ok {
					t.Fatalf("part %d of %d did not run", i, parts)
				}
			}
			if got := int(poolSize.Load()); got < parts-1 {
				t.Errorf("a Parallel of %d parts left %d pool workers, want at least %d", parts, got, parts-1)
			}
		})
	}
}
