package datasets

import (
	"math/bits"
	"sync"

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
func (p *poolAllocator) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		old := len(b)
		b = b[:size]
		if size > old {
			clear(b[old:])
		}
		return b
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
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
