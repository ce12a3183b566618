// Package graph is the gorgonia machinery that package train's learning
// algorithm runs on: a neural.Net (agents/neural) as a gorgonia graph with
// a fixed batch size, the loss that train defines on it (a LossFunc), its
// gradient, and what runs them allocation-free and in parallel. It knows
// nothing of PPO, rollouts or games: train fills the inputs, sets the loss
// weights, runs a Step and reads the gradients and the loss terms.
//
//	graph.go   Graph: the network's nodes (trunk of 3×3 convolutions, 1×1
//	           heads, the global branch, unit features), the inputs (Fill:
//	           observations, mask bias, actions; the loss's own), New
//	           (network + LossFunc + G.Grad), Run, Read, Grads
//	shard.go   Step: one train step with the minibatch split over workers,
//	           the parts' gradients summed in order (same bits per worker count)
//	exec.go    the executor: runs the graph without gorgonia's tape machine,
//	           every op's result kept from run to run (no allocation after
//	           the first), the same bits as the tape (TestExecutorMatchesTapeMachine)
//	conv.go,   the custom ops and their gradients: 3×3 convolution as
//	conv3.go   segmented products on zero-bordered images (sgemm.GemmSegs),
//	linear.go  1×1 convolution and unit features (matrix products),
//	bias.go    bias + ReLU, column sums, NCHW reordering, and the row-split
//	           runner they share,
//	concat.go  the concatenation of the spatial and extra logits,
//	policy.go  the masked log-softmax's log π(a) and entropy per row
//
// Every op computes in a fixed order, so a train step gives the same bits
// from run to run and, for a given worker count, on any machine; the plain-Go
// forward pass (neural.Forward) gives the same policy within 1e-5
// (TestForwardMatchesGorgonia).
package graph
