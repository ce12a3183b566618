// Package stats holds the confidence intervals gridgym reports, shared by
// training's quick evaluations (train) and tournaments (eval), which must
// not import each other.
package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// Wilson returns the 95% Wilson score interval of k successes in n trials
// (k may be fractional, as with ties counted ½); [0, 1] when n is 0. Unlike
// the normal interval it stays inside [0, 1] and behaves at rates near 0 or 1.
func Wilson(k, n float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := k / n
	d := 1 + z95*z95/n
	c := (p + z95*z95/(2*n)) / d
	h := z95 * math.Sqrt(max(0, p*(1-p))/n+z95*z95/(4*n*n)) / d
	return max(0, c-h), min(1, c+h)
}

// MeanCI returns the mean of xs and the half-width of its 95% normal
// interval, 1.96·s/√n with the sample standard deviation s (0 below two values).
func MeanCI(xs []float64) (mean, half float64) {
	mean, sd := stat.MeanStdDev(xs, nil)
	if len(xs) < 2 {
		return mean, 0
	}
	return mean, 1.96 * sd / math.Sqrt(float64(len(xs)))
}

// MeanTCI returns the mean of xs and the half-width of its 95% Student-t
// interval, t(0.975, n−1)·s/√n (0 below two values): for a handful of
// values, such as the margins of a few exploiters trained with different
// seeds, where the normal interval of MeanCI is too narrow (n = 3: 4.30
// against 1.96).
func MeanTCI(xs []float64) (mean, half float64) {
	mean, sd := stat.MeanStdDev(xs, nil)
	if len(xs) < 2 {
		return mean, 0
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(0.975)
	return mean, t * sd / math.Sqrt(float64(len(xs)))
}
