package sgemm

// Patches3x3 gathers the 3×3 neighbourhoods (zero padding 1) of every cell
// of b images of h×w cells with c channels into dst [b·h·w, 9·c], the
// left operand of a 3×3 convolution as one matrix product: row
// i·h·w + y·w + x holds, for (dy, dx) in row-major order and then channel
// k, the input at (y+dy−1, x+dx−1), channel k. src is [b·h·w, c] (NHWC), or
// [b, c, h, w] when nchw is set (img is then scratch for one image, h·w·c
// floats). Every entry of dst is written.
func Patches3x3(dst, src, img []float32, b, c, h, w int, nchw bool) {
	hw := h * w
	for i := 0; i < b; i++ {
		if nchw { // transpose the image once; the gather below copies runs of c
			for k := 0; k < c; k++ {
				for p, v := range src[(i*c+k)*hw : (i*c+k+1)*hw] {
					img[p*c+k] = v
				}
			}
		} else {
			img = src[i*hw*c : (i+1)*hw*c]
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				row := dst[((i*h+y)*w+x)*9*c : ((i*h+y)*w+x+1)*9*c]
				for dy := 0; dy < 3; dy++ {
					yy := y + dy - 1
					if yy < 0 || yy >= h {
						clear(row[dy*3*c : (dy+1)*3*c])
						continue
					}
					// The three cells of a row of the neighbourhood are
					// side by side in img: one copy, clearing off-board ends.
					seg := row[dy*3*c : (dy+1)*3*c]
					x0, x1 := x-1, x+2
					lo, hi := 0, 3*c
					if x0 < 0 {
						clear(seg[:c])
						lo, x0 = c, 0
					}
					if x1 > w {
						clear(seg[2*c:])
						hi, x1 = 2*c, w
					}
					copy(seg[lo:hi], img[(yy*w+x0)*c:(yy*w+x1)*c])
				}
			}
		}
	}
}
