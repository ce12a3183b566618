package stats

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n, lo, hi float64
	}{
		// Hand-computed with z = 1.96: centre (p + z²/2n)/(1 + z²/n),
		// half-width z·√(p(1−p)/n + z²/4n²)/(1 + z²/n).
		{7, 10, 0.396780, 0.892209},
		{3, 10, 0.107791, 0.603220},
		{0, 10, 0, 0.277531},
		{10, 10, 0.722469, 1},
		{50, 100, 0.403832, 0.596168},
		{0, 0, 0, 1},
	} {
		lo, hi := Wilson(tc.k, tc.n)
		if math.Abs(lo-tc.lo) > 1e-5 || math.Abs(hi-tc.hi) > 1e-5 {
			t.Errorf("Wilson(%v, %v) = [%.6f, %.6f], want [%.6f, %.6f]", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}
