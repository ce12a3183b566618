//go:build linux

package search_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
)

// BenchmarkTreeBalance measures, in CPU time of the thread (so other jobs on
// the machine hardly change it), how evenly BenchmarkSearch's move of
// benchBudget simulations splits over T trees: each op searches the move's
// T trees one after the other on one thread and reports the CPU time of the
// move (cpu-ms/move), of its slowest tree (slowest-ms) and their ratio
// (bound-x), the most that T cores can speed the move up: its wall time on T
// idle cores is at least the slowest tree's.
//
//	go test ./search -run '^$' -bench TreeBalance -benchtime 40x
func BenchmarkTreeBalance(b *testing.B) {
	for _, g := range rules.Games() {
		st := position(g, 10, 3)
		seat := activeSeat(st)
		for _, trees := range []int{2, 4} {
			b.Run(fmt.Sprintf("%s/trees=%d", g.Name, trees), func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				a := newAgent(b, g.Name, fmt.Sprintf("search:%s@%d:trees=%d", prior(g.Name), benchBudget, trees)).(*search.Agent)
				trs := make([]search.Tree, trees)
				for i := range trs {
					trs[i] = search.NewTestTree(a, st, seat, benchBudget/trees+1, uint64(i))
				}
				var sum, slowest time.Duration
				for n := range b.N {
					var worst time.Duration
					for i, tr := range trs {
						tr.Reset(st, a, uint64(trees*n+i))
						c0 := threadCPU()
						for range benchBudget / trees {
							tr.Simulate()
						}
						d := threadCPU() - c0
						sum += d
						worst = max(worst, d)
					}
					slowest += worst
				}
				ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
				b.ReportMetric(ms(sum), "cpu-ms/move")
				b.ReportMetric(ms(slowest), "slowest-ms")
				b.ReportMetric(float64(sum)/float64(max(slowest, 1)), "bound-x")
			})
		}
	}
}

// threadCPU is the CPU time the calling thread has used.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
