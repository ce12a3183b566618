package rules

import (
	"math"
	"slices"
	"testing"
)

// The pinned U(n) stream: if this changes, every recorded game replays
// differently, so it must not change silently (design: same seed, same game,
// on every machine).
func TestRNGPinnedStream(t *testing.T) {
	r := NewRNG(2026)
	var got []int
	for i := 0; i < 8; i++ {
		got = append(got, r.U(1000))
	}
	r2 := NewRNG(2026)
	for i, g := range got {
		if v := r2.U(1000); v != g {
			t.Fatalf("draw %d: %d then %d", i, g, v)
		}
	}
	if !slices.Equal(got, pinned) {
		t.Fatalf("U stream for seed 2026 = %v, pinned %v", got, pinned)
	}
}

var pinned = []int{76, 725, 312, 138, 533, 542, 227, 907}

func TestUUniform(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 7, 24, 110000} {
		r := NewRNG(uint64(n))
		const draws = 60000
		buckets := make([]int, min(n, 10))
		for i := 0; i < draws; i++ {
			v := r.U(n)
			if v < 0 || v >= n {
				t.Fatalf("U(%d) = %d", n, v)
			}
			buckets[v*len(buckets)/n]++
		}
		for b, c := range buckets {
			want := float64(draws) / float64(len(buckets))
			if n%len(buckets) == 0 && math.Abs(float64(c)-want) > 6*math.Sqrt(want) {
				t.Errorf("U(%d): bucket %d has %d draws, want ≈ %.0f", n, b, c, want)
			}
		}
	}
}

func TestScripted(t *testing.T) {
	r := Scripted(1, 4, 7)
	if a, b, c, d := r.U(3), r.U(5), r.U(5), r.U(9); a != 1 || b != 4 || c != 2 || d != 0 {
		t.Fatalf("scripted draws %d %d %d %d, want 1 4 2 0 (modulo n, then 0)", a, b, c, d)
	}
	if r.Used() != 4 || Scripted().U(7) != 0 {
		t.Fatalf("Used = %d, want 4", r.Used())
	}
}

// Shuffle is the canonical draw of rising-tide R8 and bovine-borders R9: for
// i = n−1 down to 1, j = U(i+1), swap.
func TestShuffleCanonical(t *testing.T) {
	s := []int8{0, 1, 2, 3}
	Scripted(1, 0, 1).Shuffle(s) // i=3,j=1 → 0 3 2 1; i=2,j=0 → 2 3 0 1; i=1,j=1 → same
	if want := [4]int8{2, 3, 0, 1}; [4]int8(s) != want {
		t.Fatalf("got %v, want %v", s, want)
	}
	counts := map[[4]int8]int{}
	r := NewRNG(1)
	for i := 0; i < 24000; i++ {
		p := []int8{0, 1, 2, 3}
		r.Shuffle(p)
		counts[[4]int8(p)]++
	}
	if len(counts) != 24 {
		t.Fatalf("%d distinct orders, want 24", len(counts))
	}
	for p, c := range counts {
		if c < 800 || c > 1200 {
			t.Errorf("order %v drawn %d times, want ≈ 1000", p, c)
		}
	}
}

func TestDeriveIndependent(t *testing.T) {
	a, b := Derive(1, 0), Derive(1, 1)
	same := 0
	for i := 0; i < 100; i++ {
		if a.U(1<<30) == b.U(1<<30) {
			same++
		}
	}
	if same > 2 {
		t.Fatalf("streams 0 and 1 agree on %d of 100 draws", same)
	}
}

func BenchmarkU(b *testing.B) {
	r := NewRNG(1)
	s := 0
	for i := 0; i < b.N; i++ {
		s += r.U(110000)
	}
	_ = s
}

func TestD4Group(t *testing.T) {
	const n = 5
	seen := map[[4]int]bool{}
	for g := D4(0); g < 8; g++ {
		r1, c1 := g.Point(n, 0, 1)
		r2, c2 := g.Point(n, 2, 0)
		seen[[4]int{r1, c1, r2, c2}] = true
		inv := g.Inverse()
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				a, b := g.Point(n, r, c)
				if x, y := inv.Point(n, a, b); x != r || y != c {
					t.Fatalf("g=%d: inverse does not undo (%d,%d)", g, r, c)
				}
				for h := D4(0); h < 8; h++ {
					p, q := h.Point(n, a, b)
					if x, y := g.Then(h).Point(n, r, c); x != p || y != q {
						t.Fatalf("g=%d then h=%d differs at (%d,%d)", g, h, r, c)
					}
				}
			}
		}
	}
	if len(seen) != 8 {
		t.Fatalf("%d distinct symmetries, want 8", len(seen))
	}
	// g=1 is NumPy's rot90(T, 1): the element at (r, c) moves to (n−1−c, r)
	// (rising-tide R20's real (a, b) → view (17−b, a) with n = 18).
	if r, c := D4(1).Point(18, 5, 12); r != 5 || c != 5 {
		t.Fatalf("rot90 maps (5,12) to (%d,%d), want (5,5)", r, c)
	}
}
