package sgemm

import (
	"math/rand/v2"
	"testing"
)

// A 3×3 convolution through PadImage, Conv3Segs, GemmSegs and InnerCells equals the
// direct sum over each cell's neighbourhood (zeros off the board), from
// either layout, on square and non-square images down to one cell, one row
// and one column, filter counts that fill panels and that do not; PadImage
// leaves the border alone.
func TestConv3Segmented(t *testing.T) {
	for _, sh := range [][4]int{{3, 4, 5, 16}, {1, 1, 1, 16}, {2, 1, 7, 5}, {5, 7, 1, 20}, {14, 8, 8, 32}, {4, 3, 20, 16}} {
		conv3Segmented(t, sh[0], sh[1], sh[2], sh[3])
	}
}

// conv3Segmented is TestConv3Segmented on one shape: C channels, an H×W
// image, F filters.
func conv3Segmented(t *testing.T, C, H, W, F int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(C*H), uint64(W*F)))
	x := randSlice(rng, C*H*W)  // NHWC: x[(y·W+x)·C + c]
	wt := randSlice(rng, 9*C*F) // wt[(dy·3+dx)·C + c][f]
	at := func(c, y, xx int) float32 {
		if y < 0 || y >= H || xx < 0 || xx >= W {
			return 0
		}
		return x[(y*W+xx)*C+c]
	}
	nchw := make([]float32, len(x))
	for c := 0; c < C; c++ {
		for p := 0; p < H*W; p++ {
			nchw[c*H*W+p] = x[p*C+c]
		}
	}
	bp := make([]float32, PackedLen(9*C, F))
	PackB(bp, wt, F, 9*C, F)
	for _, layout := range []struct {
		name string
		src  []float32
		nchw bool
	}{{"nhwc", x, false}, {"nchw", nchw, true}} {
		pad := make([]float32, PadCells(H, W)*C)
		PadImage(pad, layout.src, C, H, W, layout.nchw)
		// Padded cell q is inner cell (q/pw−1, q%pw−1): column 0 and the
		// rows above and below are zero, as is the last cell.
		pw := PadPitch(W)
		for q := 0; q < PadCells(H, W); q++ {
			y, xx := q/pw-1, q%pw-1
			for c := 0; c < C; c++ {
				if got, want := pad[q*C+c], at(c, y, xx); got != want {
					t.Fatalf("%d×%d×%d: %s: padded cell %d (%d,%d) channel %d = %v, want %v", C, H, W, layout.name, q, y, xx, c, got, want)
				}
			}
		}
		// The product's Conv3Span rows read inside PadCells (a slice
		// bound would panic otherwise).
		rows := Conv3Span(H, W)
		out := make([]float32, rows*F)
		segs := Conv3Segs(C, W)
		GemmSegs(rows, F, pad, C, segs[:], bp, out, F)
		inner := make([]float32, H*W*F)
		InnerCells(inner, out, F, H, W)
		for y := 0; y < H; y++ {
			for xx := 0; xx < W; xx++ {
				for f := 0; f < F; f++ {
					var want float64
					for k := 0; k < 9; k++ {
						for c := 0; c < C; c++ {
							want += float64(at(c, y+k/3-1, xx+k%3-1)) * float64(wt[(k*C+c)*F+f])
						}
					}
					got := inner[(y*W+xx)*F+f]
					if d := float64(got) - want; d > 1e-4 || d < -1e-4 {
						t.Fatalf("%d×%d×%d→%d: %s: cell (%d,%d) filter %d = %v, want %v", C, H, W, F, layout.name, y, xx, f, got, want)
					}
				}
			}
		}
	}
}

// PackConv3 packs a filter as PackB packs the same filter laid out as a
// [(dy·3+dx)·c + channel][filter] matrix, for filter counts that fill whole
// panels and that do not.
func TestPackConv3(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, tc := range []struct{ nf, c int }{{16, 3}, {32, 5}, {5, 2}, {20, 7}} {
		w := randSlice(rng, tc.nf*tc.c*9)
		m := make([]float32, 9*tc.c*tc.nf)
		for f := 0; f < tc.nf; f++ {
			for ch := 0; ch < tc.c; ch++ {
				for k := 0; k < 9; k++ {
					m[(k*tc.c+ch)*tc.nf+f] = w[(f*tc.c+ch)*9+k]
				}
			}
		}
		want := make([]float32, PackedLen(9*tc.c, tc.nf))
		PackB(want, m, tc.nf, 9*tc.c, tc.nf)
		got := make([]float32, len(want))
		for i := range got {
			got[i] = 42 // every entry must be written
		}
		PackConv3(got, w, tc.nf, tc.c)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%d filters, %d channels: packed[%d] = %v, want %v", tc.nf, tc.c, i, got[i], want[i])
			}
		}
	}
}

// Conv3Span covers Conv3Rows with whole 6-row tiles, and PadCells holds
// every cell that its last row's segments read, on every game's board and
// odd ones.
func TestConv3Span(t *testing.T) {
	for _, hw := range [][2]int{{1, 1}, {2, 3}, {4, 5}, {8, 8}, {20, 20}, {7, 13}} {
		h, w := hw[0], hw[1]
		rows, span := Conv3Rows(h, w), Conv3Span(h, w)
		if span < rows || span%6 != 0 || span-rows >= 6 {
			t.Errorf("%d×%d: span %d for %d rows, want the next multiple of 6", h, w, span, rows)
		}
		segs := Conv3Segs(1, w)
		last := span - 1 + segs[2].Off + segs[2].Len // one past the last cell read (c = 1)
		if last > PadCells(h, w) {
			t.Errorf("%d×%d: the last row reads up to cell %d of %d", h, w, last, PadCells(h, w))
		}
	}
}
