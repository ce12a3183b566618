package neural_test

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/agents/neural/neuraltest"
	"github.com/gridgym/gridgym/rules"
)

// ForwardParts and PartImages split every batch into at most one part per
// core, each of at least one whole chunk of images, that
// cover the batch in order, one a core once the batch has a chunk for
// each: the split Forward runs and Workspace.fit sizes the scratch for, on
// 1 to 17 and 64 cores.
func TestForwardPartsCoverTheBatch(t *testing.T) {
	for _, cores := range []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 64} {
		for b := 1; b <= 300; b++ {
			parts := neural.ForwardParts(cores, b)
			if parts < 1 || parts > cores {
				t.Fatalf("%d cores, batch %d: %d parts", cores, b, parts)
			}
			if b >= 4*cores && parts != cores { // a batch of 64 on 16 cores takes all 16
				t.Fatalf("%d cores, batch %d: %d parts, want one a core", cores, b, parts)
			}
			next := 0
			for i := 0; i < parts; i++ {
				i0, i1 := neural.PartImages(i, parts, b)
				if i0 != next || i1 <= i0 || i0%4 != 0 || (i1 < b && i1%4 != 0) || (parts > 1 && i1-i0 < 4) {
					t.Fatalf("%d cores, batch %d: part %d of %d is images %d..%d after %d", cores, b, i, parts, i0, i1, next)
				}
				next = i1
			}
			if next != b {
				t.Fatalf("%d cores, batch %d: the parts end at image %d", cores, b, next)
			}
		}
	}
}

// Forward neither panics nor changes a bit of its logits and values
// whatever GOMAXPROCS is, above or below the CPU count, and whatever the
// core count its workspace was made for (issue 55: a workspace sized on a
// 16-CPU machine, for NumCPU's parts, and a Forward split over
// GOMAXPROCS = 2 parts ran past a part's scratch), for every preset's
// architecture and batches that leave a partial chunk.
func TestForwardSameWhateverGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	names, archs := neuraltest.PresetArchs(t)
	for k, a := range archs {
		for _, batch := range []int{1, 17, 64, 100} {
			t.Run(fmt.Sprintf("%s/b%d", names[k], batch), func(t *testing.T) {
				net := neuraltest.RandomNet(t, a, uint64(k+1))
				r := rules.NewRNG(uint64(batch))
				input := make([]float32, batch*a.InputSize())
				for i := range input {
					input[i] = float32(r.U(3))
				}
				run := func(w *neural.Workspace, procs int) ([]float32, []float32) {
					runtime.GOMAXPROCS(procs)
					copy(w.Input, input)
					net.Forward(w, batch, nil, 0)
					if got := neural.FittedCores(w); got != procs {
						t.Fatalf("GOMAXPROCS %d: the workspace is fitted to %d cores", procs, got)
					}
					return append([]float32(nil), w.Logits[:batch*a.Logits()]...), append([]float32(nil), w.Value[:batch]...)
				}
				same := func(what string, l, v, l1, v1 []float32) {
					t.Helper()
					for i := range l1 {
						if math.Float32bits(l[i]) != math.Float32bits(l1[i]) {
							t.Fatalf("%s: logit %d is %v, %v on one core", what, i, l[i], l1[i])
						}
					}
					for i := range v1 {
						if math.Float32bits(v[i]) != math.Float32bits(v1[i]) {
							t.Fatalf("%s: value %d is %v, %v on one core", what, i, v[i], v1[i])
						}
					}
				}
				l1, v1 := run(neural.NewWorkspaceFor(a, batch, 1), 1)
				// Made on a 16-CPU machine, run below its CPU count.
				for _, procs := range []int{1, 2, 4} {
					l, v := run(neural.NewWorkspaceFor(a, batch, 16), procs)
					same(fmt.Sprintf("made for 16 cores, GOMAXPROCS %d", procs), l, v, l1, v1)
				}
				// Made at GOMAXPROCS 1, run above it and above this
				// machine's CPU count.
				for _, procs := range []int{2, 4, 16} {
					runtime.GOMAXPROCS(1)
					w := neural.NewWorkspace(a, batch)
					l, v := run(w, procs)
					same(fmt.Sprintf("made at GOMAXPROCS 1, run at %d", procs), l, v, l1, v1)
				}
				// One workspace while GOMAXPROCS goes down and up again.
				w := neural.NewWorkspaceFor(a, batch, 16)
				for _, procs := range []int{16, 2, 1, 3, 8, 2} {
					l, v := run(w, procs)
					same(fmt.Sprintf("one workspace, GOMAXPROCS %d", procs), l, v, l1, v1)
				}
			})
		}
	}
}
