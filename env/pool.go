package env

import (
	"runtime"
	"sync/atomic"
	"time"
)

// pool runs a function over a split range on the calling goroutine and
// workers-1 helper goroutines. Helpers spin briefly between calls before they
// park, because waking a parked goroutine on another core costs tens of
// microseconds on a virtual machine: enough to lose most of the second core
// on batches that step in a few hundred microseconds.
type pool struct {
	n      int // range size
	shares int // goroutines sharing a call, the caller included
	gen    atomic.Uint64
	done   atomic.Int32
	f      func(lo, hi int)
	wake   []chan struct{}
	parked []atomic.Bool
	stop   atomic.Bool
}

// spinFor is how long an idle helper spins before it parks.
const spinFor = 50 * time.Microsecond

func newPool(n, shares int) *pool {
	p := &pool{n: n, shares: shares}
	if shares > 1 {
		p.wake = make([]chan struct{}, shares-1)
		p.parked = make([]atomic.Bool, shares-1)
		for w := range p.wake {
			p.wake[w] = make(chan struct{}, 1)
			go p.helper(w)
		}
	}
	return p
}

func (p *pool) share(k int) (lo, hi int) { return k * p.n / p.shares, (k + 1) * p.n / p.shares }

// run calls f on every share and returns when all are done.
func (p *pool) run(f func(lo, hi int)) {
	if p.shares <= 1 {
		f(0, p.n)
		return
	}
	p.f = f
	p.done.Store(0)
	p.gen.Add(1)
	for w := range p.wake {
		if p.parked[w].Load() {
			select {
			case p.wake[w] <- struct{}{}:
			default:
			}
		}
	}
	f(p.share(0))
	for p.done.Load() != int32(len(p.wake)) {
		runtime.Gosched()
	}
	p.f = nil
}

func (p *pool) helper(w int) {
	last := uint64(0)
	for {
		start := time.Now()
		for spins := 0; p.gen.Load() == last; spins++ {
			if p.stop.Load() {
				return
			}
			if spins&63 != 63 || time.Since(start) < spinFor {
				continue
			}
			p.parked[w].Store(true)
			if p.gen.Load() == last && !p.stop.Load() {
				<-p.wake[w]
			}
			p.parked[w].Store(false)
			start = time.Now()
		}
		if p.stop.Load() {
			return
		}
		last = p.gen.Load()
		p.f(p.share(w + 1))
		p.done.Add(1)
	}
}

// close stops the helpers.
func (p *pool) close() {
	p.stop.Store(true)
	for w := range p.wake {
		select {
		case p.wake[w] <- struct{}{}:
		default:
		}
	}
}
