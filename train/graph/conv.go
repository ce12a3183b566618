package graph

import (
	"hash"
	"hash/fnv"
)

// The training graph keeps the trunk's activations as [B·H·W, C] matrices
// (NHWC: a cell's channels side by side), so that a 3×3 convolution is a
// segmented matrix product on each image with a border of zeros, and a 1×1
// convolution a matrix product alone (conv3Op). Gorgonia's own Conv2d gathers NCHW patches with
// generic index arithmetic, transposes every result back to NCHW and
// differentiates the gather by scattering a [B·H·W, 9·C] matrix: a step
// took about 2.3× as long with it (BenchmarkTrainStep).

// hashOf hashes an op by its WriteHash text.
func hashOf(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
