package sgemm

// A 3×3 convolution (stride 1, zero padding 1) as a segmented product
// (GemmSegs) needs no patch gather: with the image stored NHWC with a
// border of one zero cell ((h+2)×(w+2) cells, PadImage), a cell's 3×3
// neighbourhood is three runs of 3·c floats, one per row of the
// neighbourhood (Conv3Segs). The product's rows run over the padded cells
// from the first inner cell to the last (Conv3Rows of them, the first at
// padded cell w+3), the border cells between the image's rows included:
// their results are not cells of the output, and callers skip or clear
// them. The filter is laid out as [(dy·3+dx)·c + channel][filters].

// PadImage writes one image of h×w cells and c channels, src NHWC
// ([h·w][c]) or NCHW ([c][h][w]) when nchw, into the inner cells of dst
// ([(h+2)·(w+2)][c], NHWC). dst's border cells are not written: callers
// keep them zero.
func PadImage(dst, src []float32, c, h, w int, nchw bool) {
	pw := w + 2
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
// dst ([h·w][c]), skipping the border cells between the image's rows.
func InnerCells(dst, rows []float32, c, h, w int) {
	pw := w + 2
	for y := 0; y < h; y++ {
		copy(dst[y*w*c:(y+1)*w*c], rows[y*pw*c:(y*pw+w)*c])
	}
}

// Conv3Segs returns the three segments (GemmSegs) of a 3×3 convolution on
// an image of width w and c channels padded by PadImage, offsets counted
// from the top-left neighbour of the product's first row.
func Conv3Segs(c, w int) [3]Seg {
	pw := w + 2
	return [3]Seg{{Off: 0, Len: 3 * c}, {Off: pw * c, Len: 3 * c}, {Off: 2 * pw * c, Len: 3 * c}}
}

// Conv3Rows is the number of rows of a 3×3 convolution's segmented product
// on an h×w image: padded cells w+3 (the first inner cell) to
// (h+2)·(w+2)−w−4 (the last). Row r is padded cell w+3+r; inner cell
// (y, x) is row y·(w+2)+x.
func Conv3Rows(h, w int) int { return (h-1)*(w+2) + w }

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
