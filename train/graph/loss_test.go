package graph

import (
	G "gorgonia.org/gorgonia"

	"github.com/gridgym/gridgym/agents/neural"
)

// testLoss is package train's loss (defineLoss in train/update.go: PPO's
// clipped policy term, the value loss, the entropy bonus, the cloning term
// and the KL penalty), copied here so that this package's tests run the
// machinery on every kind of node the real loss adds.
func testLoss(gr *Graph, must func(*G.Node, error) *G.Node, logpA, policy, clone *G.Node) {
	gr.Entropy = must(G.Mean(must(G.Slice(policy, nil, G.S(1)))))
	gr.Ratio = must(G.Exp(must(G.Sub(logpA, gr.OldN))))
	surr1 := must(G.HadamardProd(gr.Ratio, gr.AdvN))
	clipped := must(G.MaxBetween(must(G.MinBetween(gr.Ratio, gr.HiN)), gr.LoN))
	surr2 := must(G.HadamardProd(clipped, gr.AdvN))
	gr.PGLoss = must(G.Neg(must(G.Mean(must(G.MinBetween(surr1, surr2))))))
	gr.VLoss = must(G.Mean(must(G.Square(must(G.Sub(gr.Value, gr.RetN))))))
	gr.BCLoss = must(G.Neg(must(G.Mean(logpA))))
	loss := must(G.Add(must(G.Mul(gr.CPG, gr.PGLoss)), must(G.Mul(gr.CV, gr.VLoss))))
	loss = must(G.Sub(loss, must(G.Mul(gr.CEnt, gr.Entropy))))
	gr.Loss = must(G.Add(loss, must(G.Mul(gr.CBC, gr.BCLoss))))
	if clone != nil {
		ce := must(G.Slice(clone, nil, G.S(0)))
		gr.KLLoss = must(G.Neg(must(G.Mul(must(G.Mean(ce)), G.NewConstant(float32(gr.Arch.Heads))))))
		gr.Loss = must(G.Add(gr.Loss, must(G.Mul(gr.CKL, gr.KLLoss))))
	}
}

// newGraph is New with testLoss, without the KL penalty.
func newGraph(net *neural.Net, batch int) (*Graph, error) { return New(net, batch, false, testLoss) }

// newGraphKL is New with testLoss.
func newGraphKL(net *neural.Net, batch int, kl bool) (*Graph, error) {
	return New(net, batch, kl, testLoss)
}
