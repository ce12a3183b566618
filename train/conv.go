package train

import (
	"hash"
	"hash/fnv"

	"github.com/gridgym/gridgym/internal/sgemm"
)

// The training graph keeps the trunk's activations as [B·H·W, C] matrices
// (NHWC: a cell's channels side by side), so that a 3×3 convolution is one
// patch gather and one matrix product, and a 1×1 convolution a matrix
// product alone (conv3Op). Gorgonia's own Conv2d gathers NCHW patches with
// generic index arithmetic, transposes every result back to NCHW and
// differentiates the gather by scattering a [B·H·W, 9·C] matrix: a step
// took about 2.3× as long with it (BenchmarkTrainStep).

// patches gathers the 3×3 neighbourhoods of b images (sgemm.Patches3x3).
func patches(dst, src, img []float32, b, c, h, w int, nchw bool) {
	sgemm.Patches3x3(dst, src, img, b, c, h, w, nchw)
}

// hashOf hashes an op by its WriteHash text.
func hashOf(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
