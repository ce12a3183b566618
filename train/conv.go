package train

import (
	"hash"
	"hash/fnv"
)

// The training graph keeps the trunk's activations as [B·H·W, C] matrices
// (NHWC: a cell's channels side by side), so that a 3×3 convolution is one
// patch gather and one matrix product, and a 1×1 convolution a matrix
// product alone (conv3Op). Gorgonia's own Conv2d gathers NCHW patches with
// generic index arithmetic, transposes every result back to NCHW and
// differentiates the gather by scattering a [B·H·W, 9·C] matrix: a step
// took about 2.3× as long with it (BenchmarkTrainStep).

// patches gathers the 3×3 neighbourhoods (zero padding 1) of every cell of
// b images of h×w cells with c channels into dst [b·h·w, 9·c]: row
// i·h·w + y·w + x holds, for (dy, dx) in row-major order and then channel
// k, the input at (y+dy−1, x+dx−1), channel k. src is [b·h·w, c] (NHWC), or
// [b, c, h, w] when nchw is set (the network's input planes; img is then
// scratch for one image, h·w·c floats). Every entry of dst is written.
func patches(dst, src, img []float32, b, c, h, w int, nchw bool) {
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
					for dx := 0; dx < 3; dx++ {
						xx := x + dx - 1
						seg := row[(dy*3+dx)*c : (dy*3+dx+1)*c]
						if yy < 0 || yy >= h || xx < 0 || xx >= w {
							clear(seg)
						} else {
							copy(seg, img[(yy*w+xx)*c:(yy*w+xx+1)*c])
						}
					}
				}
			}
		}
	}
}

// hashOf hashes an op by its WriteHash text.
func hashOf(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
