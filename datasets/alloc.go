package datasets

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow/go/v14/arrow/memory"
)

// poolAllocator is the memory.Allocator of a Writer: it recycles the
// buffers of the record batches it has written (Arrow frees a buffer when its
// last reference is released), so that batch after batch of the same shape
// costs no new allocation, no zeroing of fresh pages and no garbage for the
// collector that self-play shares the cores with. Buffers come in
// power-of-two capacities (at least 64 bytes, 64-byte aligned) and are
// zeroed when handed out, as the Go allocator's are. Safe for concurrent use
// (the IPC writer compresses on several goroutines when asked to).
type poolAllocator struct {
	mu   sync.Mutex
	free [64][][]byte // by log2 capacity
	held int          // bytes in the free lists
	max  int          // bytes the free lists may hold
}

func newPoolAllocator(max int) *poolAllocator { return &poolAllocator{max: max} }

// class returns the log2 capacity for a request of size bytes.
func class(size int) int {
	if size <= 64 {
		return 6
	}
	return bits.Len(uint(size - 1))
}

// Allocate returns a zeroed buffer of size bytes.
func (p *poolAllocator) Allocate(size int) []byte {
	c := class(size)
	p.mu.Lock()
	if l := p.free[c]; len(l) > 0 {
		b := l[len(l)-1]
		p.free[c] = l[:len(l)-1]
		p.held -= cap(b)
		p.mu.Unlock()
		b = b[:size]
		clear(b)
		return b
	}
	p.mu.Unlock()
	return memory.DefaultAllocator.Allocate(1 << c)[:size]
}

// Reallocate resizes b to size bytes, keeping its contents; new bytes are
// zero.
func (p *poolAllocator) Reallocate(size int, b []byte) []byte { return reallocate(p, size, b) }

// reallocate is memory.Allocator's Reallocate for a of both allocators
// here: b resized in place where its capacity allows (new bytes zeroed),
// else a buffer from a with b's contents, and b given back to a.
func reallocate(a memory.Allocator, size int, b []byte) []byte {
	if cap(b) >= size {
		old := len(b)
		b = b[:size]
		if size > old {
			clear(b[old:])
		}
		return b
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

// Free takes b back for reuse (buffers not made here are left to the
// garbage collector).
func (p *poolAllocator) Free(b []byte) {
	c := cap(b)
	if c < 64 || c&(c-1) != 0 {
		return
	}
	p.mu.Lock()
	if p.held+c <= p.max {
		k := bits.TrailingZeros(uint(c))
		p.free[k] = append(p.free[k], b[:0])
		p.held += c
	}
	p.mu.Unlock()
}

// errAllocLimit is what a boundedAllocator panics with (the reader recovers
// it into an error naming the shard).
var errAllocLimit = errors.New("allocation beyond the bound the file's size allows")

// boundedAllocator is the memory.Allocator of a Reader: it hands out pool
// buffers but refuses (panics with errAllocLimit) any allocation that would
// take the bytes it has outstanding past limit. Arrow's IPC reader sizes
// buffers by numbers from the file; scanLayout bounds those first, and this
// is the second line: whatever a corrupt file makes the reader ask for, it
// never gets more than limit (a bound tied to the file's size).
type boundedAllocator struct {
	pool  *poolAllocator
	limit int64
	used  atomic.Int64
	peak  atomic.Int64
}

func newBoundedAllocator(limit int64) *boundedAllocator {
	return &boundedAllocator{pool: newPoolAllocator(int(min(limit, 256<<20))), limit: limit}
}

func (a *boundedAllocator) take(n int64) {
	if n < 0 {
		panic(errAllocLimit)
	}
	u := a.used.Add(n)
	if u > a.limit {
		a.used.Add(-n)
		panic(fmt.Errorf("%w (%d bytes asked, %d held, bound %d)", errAllocLimit, n, u-n, a.limit))
	}
	for p := a.peak.Load(); u > p && !a.peak.CompareAndSwap(p, u); p = a.peak.Load() {
	}
}

// Allocate returns a zeroed buffer of size bytes.
func (a *boundedAllocator) Allocate(size int) []byte {
	if size < 0 {
		panic(errAllocLimit)
	}
	a.take(int64(1) << class(size))
	return a.pool.Allocate(size)
}

// Reallocate resizes b to size bytes, keeping its contents.
func (a *boundedAllocator) Reallocate(size int, b []byte) []byte {
	if size < 0 {
		panic(errAllocLimit)
	}
	return reallocate(a, size, b)
}

// Free takes b back.
func (a *boundedAllocator) Free(b []byte) {
	if c := cap(b); c >= 64 && c&(c-1) == 0 {
		a.used.Add(-int64(c))
	}
	a.pool.Free(b)
}
