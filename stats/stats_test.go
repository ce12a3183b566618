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

// MeanTCI against tabulated t quantiles (t(0.975, 2) = 4.302653,
// t(0.975, 9) = 2.262157): values 1, 2, 6 have mean 3 and s = √7; ten
// values 0..9 mean 4.5 and s = √(55/6).
func TestMeanTCI(t *testing.T) {
	for _, tc := range []struct {
		xs         []float64
		mean, half float64
	}{
		{[]float64{1, 2, 6}, 3, 4.302653 * math.Sqrt(7) / math.Sqrt(3)},
		{[]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 4.5, 2.262157 * math.Sqrt(55.0/6) / math.Sqrt(10)},
		{[]float64{5}, 5, 0},
	} {
		m, h := MeanTCI(tc.xs)
		if math.Abs(m-tc.mean) > 1e-9 || math.Abs(h-tc.half) > 1e-5 {
			t.Errorf("MeanTCI(%v) = %v ± %v, want %v ± %v", tc.xs, m, h, tc.mean, tc.half)
		}
	}
}
