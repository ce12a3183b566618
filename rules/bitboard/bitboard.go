// Package bitboard holds cell sets of grids up to 64×64 as one uint64 word per
// row (bit c of word r is cell (r, c)) and the word operations the engines build
// on: neighbour sets, dilations, flood fills and connected components. Every
// operation works on caller-owned slices (usually arrays sliced with b[:]), so
// nothing allocates.
package bitboard

import "math/bits"

// Grid is the geometry of an H×W board, W ≤ 64. Row words use bits 0..W−1;
// Full masks them.
type Grid struct {
	H, W int
	Full uint64 // the W low bits: one full row
}

// New returns the geometry of an h×w board (1 ≤ w ≤ 64).
func New(h, w int) Grid {
	full := ^uint64(0)
	if w < 64 {
		full = 1<<uint(w) - 1
	}
	return Grid{H: h, W: w, Full: full}
}

// Set adds cell (r, c) to b.
func Set(b []uint64, r, c int) { b[r] |= 1 << uint(c) }

// Clear removes cell (r, c) from b.
func Clear(b []uint64, r, c int) { b[r] &^= 1 << uint(c) }

// Has reports whether cell (r, c) is in b.
func Has(b []uint64, r, c int) bool { return b[r]>>uint(c)&1 != 0 }

// Count returns the number of cells in b.
func Count(b []uint64) int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// Empty reports whether b has no cell.
func Empty(b []uint64) bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

// Equal reports whether a and b hold the same cells.
func Equal(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// First returns the first cell of b in row-major order, ok=false if b is empty.
func First(b []uint64) (r, c int, ok bool) {
	for r, w := range b {
		if w != 0 {
			return r, bits.TrailingZeros64(w), true
		}
	}
	return 0, 0, false
}

// Each calls f for every cell of b in row-major order.
func Each(b []uint64, f func(r, c int)) {
	for r, w := range b {
		for w != 0 {
			c := bits.TrailingZeros64(w)
			w &= w - 1
			f(r, c)
		}
	}
}

// Nth returns the k-th cell (0-based, row-major) of b; k must be < Count(b).
func Nth(b []uint64, k int) (r, c int) {
	for r, w := range b {
		n := bits.OnesCount64(w)
		if k < n {
			for ; k > 0; k-- {
				w &= w - 1
			}
			return r, bits.TrailingZeros64(w)
		}
		k -= n
	}
	return -1, -1
}

// Side4 sets dst to the cells side-adjacent to some cell of src (src's own
// cells only where a neighbour in src reaches them). dst and src must not alias.
func (g Grid) Side4(dst, src []uint64) {
	h := g.H
	for r := 0; r < h; r++ {
		w := src[r]
		n := (w<<1 | w>>1) & g.Full
		if r > 0 {
			n |= src[r-1]
		}
		if r+1 < h {
			n |= src[r+1]
		}
		dst[r] = n
	}
}

// Side8 sets dst to the cells among the 8 neighbours of some cell of src.
// dst and src must not alias.
func (g Grid) Side8(dst, src []uint64) {
	h := g.H
	for r := 0; r < h; r++ {
		w := src[r]
		if r > 0 {
			w |= src[r-1]
		}
		if r+1 < h {
			w |= src[r+1]
		}
		n := (w<<1 | w>>1) & g.Full
		if r > 0 {
			n |= src[r-1]
		}
		if r+1 < h {
			n |= src[r+1]
		}
		dst[r] = n
	}
}

// Dilate4 sets dst to src plus its side-neighbours. dst and src must not alias.
func (g Grid) Dilate4(dst, src []uint64) {
	g.Side4(dst, src)
	for r := 0; r < g.H; r++ {
		dst[r] |= src[r]
	}
}

// Dilate8 sets dst to src plus its 8-neighbours (a 3×3 dilation, clipped).
// dst and src must not alias.
func (g Grid) Dilate8(dst, src []uint64) {
	h := g.H
	for r := 0; r < h; r++ {
		w := src[r]
		if r > 0 {
			w |= src[r-1]
		}
		if r+1 < h {
			w |= src[r+1]
		}
		dst[r] = (w | w<<1 | w>>1) & g.Full
	}
}

// Fill4 grows seed (in place) to every cell of within connected to it by side
// steps through within. Cells of seed outside within are dropped first. It
// sweeps down and up, so most shapes settle in a few passes.
func (g Grid) Fill4(seed, within []uint64) {
	h := g.H
	for r := 0; r < h; r++ {
		seed[r] &= within[r]
	}
	for {
		changed := false
		for r := 0; r < h; r++ { // downward sweep
			w := seed[r]
			if r > 0 {
				w |= seed[r-1] & within[r]
			}
			w = fillRow(w, within[r])
			if w != seed[r] {
				seed[r] = w
				changed = true
			}
		}
		for r := h - 2; r >= 0; r-- { // upward sweep
			w := seed[r] | seed[r+1]&within[r]
			w = fillRow(w, within[r])
			if w != seed[r] {
				seed[r] = w
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

// fillRow extends the set bits of w along the runs of m that contain them,
// with Kogge-Stone occluded fills in both directions (constant time).
func fillRow(w, m uint64) uint64 {
	w &= m
	if w == 0 {
		return 0
	}
	g, p := w, m
	g |= p & (g << 1)
	p &= p << 1
	g |= p & (g << 2)
	p &= p << 2
	g |= p & (g << 4)
	p &= p << 4
	g |= p & (g << 8)
	p &= p << 8
	g |= p & (g << 16)
	p &= p << 16
	g |= p & (g << 32)
	d, q := g, m
	d |= q & (d >> 1)
	q &= q >> 1
	d |= q & (d >> 2)
	q &= q >> 2
	d |= q & (d >> 4)
	q &= q >> 4
	d |= q & (d >> 8)
	q &= q >> 8
	d |= q & (d >> 16)
	q &= q >> 16
	d |= q & (d >> 32)
	return d
}

// NextComponent moves one side-connected component out of rest into comp (the
// component of rest's first cell in row-major order) and returns its size, or
// 0 when rest is empty. Looping until 0 visits every component without
// allocating. rest and comp need len ≥ H.
func (g Grid) NextComponent(rest, comp []uint64) int {
	r, c, ok := First(rest[:g.H])
	if !ok {
		return 0
	}
	clear(comp[:g.H])
	comp[r] = 1 << uint(c)
	g.Fill4(comp[:g.H], rest[:g.H])
	n := 0
	for i := 0; i < g.H; i++ {
		rest[i] &^= comp[i]
		n += bits.OnesCount64(comp[i])
	}
	return n
}

// Components4 calls f once for each side-connected component of b, in the
// row-major order of each component's first cell, with the component's cells
// in comp (scratch the caller provides, len ≥ H) and its size. b is not changed;
// rest is scratch of len ≥ H.
func (g Grid) Components4(b, comp, rest []uint64, f func(comp []uint64, size int)) {
	copy(rest[:g.H], b[:g.H])
	for {
		n := g.NextComponent(rest, comp)
		if n == 0 {
			return
		}
		f(comp[:g.H], n)
	}
}
