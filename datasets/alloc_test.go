package datasets

import (
	"bytes"
	"testing"

	"github.com/apache/arrow/go/v14/arrow/memory"
)

// Reallocate on both allocators keeps a buffer's contents, zeroes the bytes
// it adds (in place or in a new buffer, whatever the old bytes beyond len
// held), and the bounded one counts only what is outstanding: after a move
// to a bigger buffer and its Free, nothing.
func TestReallocate(t *testing.T) {
	pool := newPoolAllocator(1 << 20)
	bounded := newBoundedAllocator(1 << 20)
	for name, a := range map[string]memory.Allocator{"pool": pool, "bounded": bounded} {
		b := a.Allocate(100) // capacity 128
		for i := range b {
			b[i] = byte(i + 1)
		}
		dirty := b[:cap(b)]
		for i := 100; i < len(dirty); i++ {
			dirty[i] = 0xff // what a recycled buffer may hold beyond len
		}
		want := append([]byte(nil), b...)
		b = a.Reallocate(120, b) // in place
		if cap(b) != 128 || !bytes.Equal(b[:100], want) || !bytes.Equal(b[100:], make([]byte, 20)) {
			t.Fatalf("%s: in place: cap %d, %v", name, cap(b), b)
		}
		b = a.Reallocate(50, b) // shrink
		if !bytes.Equal(b, want[:50]) {
			t.Fatalf("%s: shrink: %v", name, b)
		}
		b = a.Reallocate(300, b) // moves: capacity 512
		if cap(b) != 512 || !bytes.Equal(b[:50], want[:50]) || !bytes.Equal(b[50:], make([]byte, 250)) {
			t.Fatalf("%s: moved: cap %d, %v", name, cap(b), b)
		}
		a.Free(b)
	}
	if u := bounded.used.Load(); u != 0 {
		t.Fatalf("bounded allocator holds %d bytes after every buffer was freed, want 0", u)
	}
	if pk := bounded.peak.Load(); pk != 128+512 {
		t.Fatalf("bounded allocator's peak %d, want %d (the old buffer and the new while copying)", pk, 128+512)
	}
}
