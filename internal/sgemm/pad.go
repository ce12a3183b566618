package sgemm

// A 3×3 convolution (stride 1, zero padding 1) as a segmented product
// (GemmSegs) needs no patch gather: with the image stored NHWC with zero
// cells around it (PadImage), a cell's 3×3 neighbourhood is three runs of
// 3·c floats, one per row of the neighbourhood (Conv3Segs). One zero column
// serves as both borders: a padded row is a zero cell and the image row's w
// cells (PadPitch = w+1 cells), so the zero cell that starts row y+1 is the
// right neighbour of row y's last cell as well as the left neighbour of
// row y+1's first. Above and below the image is a row of zero cells, and
// one more zero cell ends the buffer (PadCells in all). The product's rows
// run over the padded cells from the first inner cell to the last
// (Conv3Rows of them), the zero cells between the image's rows included:
// their results are not cells of the output, and callers skip or clear
// them. A second border column would cost one more such row per image row:
// 9% more rows on an 8×8 board. The filter is laid out as
// [(dy·3+dx)·c + channel][filters].

// PadPitch is the cells per row of a padded image of width w: one zero
// cell, then the row's w cells. Inner cell (y, x) is padded cell
// (y+1)·PadPitch(w) + x + 1.
func PadPitch(w int) int { return w + 1 }

// PadCells is the cells of a padded h×w image (PadImage): h+2 padded rows,
// the zero cell below-right of the last inner cell, and the zero cells
// that the rows of Conv3Span past Conv3Rows read.
func PadCells(h, w int) int { return Conv3Span(h, w) + 2*PadPitch(w) + 2 }

// PadImage writes one image of h×w cells and c channels, src NHWC
// ([h·w][c]) or NCHW ([c][h][w]) when nchw, into the inner cells of dst
// ([PadCells(h, w)][c], NHWC). dst's zero cells are not written: callers
// keep them zero.
func PadImage(dst, src []float32, c, h, w int, nchw bool) {
	pw := PadPitch(w)
	if !nchw {
		for y := 0; y < h; y++ {
			copy(dst[((y+1)*pw+1)*c:((y+1)*pw+1+w)*c], src[y*w*c:(y+1)*w*c])
		}
		return
	}
	hw := h * w
	for k := 0; k < c; k++ {
		plane := src[k*hw : (k+1)*hw]
		for y := 0; y < h; y++ {
			d := dst[((y+1)*pw+1)*c+k:]
			for x, v := range plane[y*w : (y+1)*w] {
				d[x*c] = v
			}
		}
	}
}

// InnerCells copies the inner cells of a 3×3 convolution's product rows
// (rows, Conv3Rows of them with c columns, row 0 the first inner cell) into
// dst ([h·w][c]), skipping the zero cells between the image's rows.
func InnerCells(dst, rows []float32, c, h, w int) {
	pw := PadPitch(w)
	for y := 0; y < h; y++ {
		copy(dst[y*w*c:(y+1)*w*c], rows[y*pw*c:(y*pw+w)*c])
	}
}

// Conv3Segs returns the three segments (GemmSegs) of a 3×3 convolution on
// an image of width w and c channels padded by PadImage, offsets counted
// from the top-left neighbour of the product's first row (padded cell 0).
func Conv3Segs(c, w int) [3]Seg {
	pw := PadPitch(w)
	return [3]Seg{{Off: 0, Len: 3 * c}, {Off: pw * c, Len: 3 * c}, {Off: 2 * pw * c, Len: 3 * c}}
}

// Conv3Rows is the number of rows of a 3×3 convolution's segmented product
// on an h×w image: padded cells PadPitch(w)+1 (the first inner cell) to
// the last inner cell. Inner cell (y, x) is row y·PadPitch(w)+x; rows
// y·PadPitch(w)+w, for y < h−1, are the zero cells between image rows.
func Conv3Rows(h, w int) int { return (h-1)*PadPitch(w) + w }

// Conv3Span is Conv3Rows rounded up to whole tiles of spanRows rows: the
// rows a convolution's product computes when its result has room for
// them. A product whose last rows fill no whole tile runs them through a
// zero-padded copy, one panel at a time, which cost an 8×8 board's
// convolutions 8% (71 rows: 11 of them so); the rows past Conv3Rows fall
// on zero cells below the image, so their results are garbage that
// callers clear where the output must stay zero.
func Conv3Span(h, w int) int {
	r := Conv3Rows(h, w)
	return (r + spanRows - 1) / spanRows * spanRows
}

// spanRows is the height of the smallest micro-kernel tile (6: AVX2's, and
// AVX-512's half-height one; 12-row tiles are two of them).
const spanRows = 6

// PackConv3 packs a 3×3 filter w ([nf][c][3][3], PyTorch's layout) for
// GemmSegs in one pass: the matrix [(dy·3+dx)·c + channel][filter] that
// PackB would pack. dst holds PackedLen(9·c, nf) floats.
func PackConv3(dst, w []float32, nf, c int) {
	k := 9 * c
	dst = dst[:PackedLen(k, nf)]
	if nf%nr != 0 {
		clear(dst) // the last panel's columns past nf
	}
	for f := 0; f < nf; f++ {
		pan, j := f/nr, f%nr
		col := dst[pan*k*nr+j:]
		for ch := 0; ch < c; ch++ {
			src := w[(f*c+ch)*9 : (f*c+ch)*9+9]
			for t, v := range src {
				col[(t*c+ch)*nr] = v
			}
		}
	}
}
