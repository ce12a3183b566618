package train

import (
	"context"
	"fmt"
	"math"
	"strings"

	G "gorgonia.org/gorgonia"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train/graph"
)

// The PPO update, in the shape of CleanRL's ppo.py: learn runs the epochs
// and minibatches, defineLoss (below it) is the loss they minimise. Every
// hyperparameter is a PPOConfig field (a game's train/default.yaml, ppo.*):
//
//	target             the advantage estimator: gae | upgo | vtrace (doc.go)
//	gamma, lambda      γ and λ of GAE(γ, λ), of UPGO (γ) and of V-trace's traces
//	                   (V-trace's truncation levels ρ̄ = c̄ = 1 are constants, vtrace.go)
//	reward, shaping    the terminal reward (rank | score | none) and the
//	                   potential-based shaping's weight (env.Config)
//	epochs, minibatch  passes over the iteration's decisions, samples per step
//	clip               ε of the clipped ratio (the graph's inputs lo, hi)
//	value_coef         weight of the value loss (c_v)
//	entropy_coef       weight of the entropy bonus (c_ent), raised by
//	entropy_floor(_coef) while the previous minibatch's entropy was low
//	kl_clone, kl_anneal weight of KL(π_clone ‖ π) (c_kl), annealed (klCoef)
//	critic_warmup      iterations of value-only updates (c_pg = c_ent = c_kl = 0)
//	max_grad_norm      global gradient-norm clip (Adam's step, adam.go)
//	lr, lr_final       Adam's learning rate, linear schedule (trainer.lr)
//	augment            act in a random frame of the game's symmetries
//
// The gorgonia plumbing — the network as a graph, its inputs, running it,
// the minibatch split over the workers — is package graph's; filling the
// inputs from the buffer is graph.Graph.Fill.

// learn is one iteration's PPO update over the buffer: advantages, then for
// each epoch, for each minibatch, a forward and backward pass of the loss
// and an Adam step. It fills m's loss columns.
// It returns errAborted, with the network part-updated (the caller rolls
// back), if ctx ends between two gradient steps.
func (t *trainer) learn(ctx context.Context, it int, rng *rules.RNG, lr float64, m *Metrics) error {
	p := t.cfg.PPO
	b := &t.buf

	// Advantages and returns: GAE(γ, λ), or UPGO's; V-trace's are made
	// before every epoch (below), from the network as it is then.
	u := &ppoUpdate{t: t, lr: lr}
	if p.Target != "vtrace" {
		b.gae(p.Gamma, p.Lambda)
		if p.Target == "upgo" {
			b.upgo(p.Gamma)
		}
		u.mean, u.std = advStats(b.adv)
	}

	// This iteration's loss weights (defineLoss), the clip range, and the
	// train step: the minibatch split over the workers (graph.Step).
	var err error
	if u.cPG, u.cEnt, u.cKL, err = t.lossWeights(it); err != nil {
		return err
	}
	m.KLCoef = u.cKL
	if t.step == nil {
		w := t.cfg.Workers
		if w == 0 {
			w = defaultWorkers()
		}
		if t.step, err = graph.NewStep(t.graph, t.net, w); err != nil {
			return err
		}
	}

	// for epoch: (V-trace's targets), for minibatch: the step.
	u.s = graph.Samples{Planes: b.planes, Scalars: b.scalars, Masks: b.masks, Actions: b.actions, OS: b.os, NS: b.ns, MW: b.mw, Heads: b.heads}
	for epoch := 0; epoch < p.Epochs; epoch++ {
		if p.Target == "vtrace" {
			lp, v := t.policyNow()
			b.vtrace(p.Gamma, p.Lambda, lp, v)
			u.mean, u.std = advStats(b.adv)
		}
		if err := minibatches(ctx, b.len(), p.Minibatch, 1, rng, u.minibatch); err != nil {
			return err
		}
	}
	u.report(m)
	return nil
}

// lossWeights sets the graph's loss weights and clip range for iteration
// it and returns the policy term's, the entropy bonus's and the KL
// penalty's weights: the policy terms are off during the critic warm-up,
// which also freezes the policy's parameters (Adam's frozen).
func (t *trainer) lossWeights(it int) (cPG, cEnt, cKL float64, err error) {
	p, gr := t.cfg.PPO, t.graph
	cPG, cEnt, cKL = 1.0, p.EntropyCoef, t.klCoef(it)
	t.adam.frozen = nil
	if it <= p.CriticWarmup {
		cPG, cEnt, cKL = 0, 0, 0
		t.adam.frozen = t.policyParams()
	}
	if err := gr.Coefficients(float32(cPG), float32(p.ValueCoef), float32(cEnt), 0); err != nil {
		return 0, 0, 0, err
	}
	if gr.CKL != nil {
		if err := G.Let(gr.CKL, float32(cKL)); err != nil {
			return 0, 0, 0, err
		}
	}
	lo, hi := gr.Lo.Data().([]float32), gr.Hi.Data().([]float32)
	for i := range lo {
		lo[i], hi[i] = float32(1-p.Clip), float32(1+p.Clip)
	}
	return cPG, cEnt, cKL, nil
}

// ppoUpdate is one iteration's PPO update in progress: what every
// minibatch step reads (the buffer's samples, the advantages' mean and
// standard deviation, the loss weights, the learning rate) and the sums of
// its statistics over the steps.
type ppoUpdate struct {
	t               *trainer
	s               graph.Samples
	mean, std       float64
	cPG, cEnt, cKL  float64
	lr              float64
	floorOn         bool // the previous minibatch's entropy was below the floor
	steps           int
	pg, vl, ent     float64
	approxKL, clipF float64
	gnorm, klClone  float64
	entCoef         float64
}

// minibatch is one gradient step on the buffer's rows mbInds: the loss
// (defineLoss), its gradient, Adam's step, and the step's statistics.
func (u *ppoUpdate) minibatch(mbInds []int) error {
	t, p, b := u.t, u.t.cfg.PPO, &u.t.buf
	gr, st := t.graph, t.step
	// The minibatch: observations, masks and actions taken, then the
	// old log-probabilities, normalised advantages and returns.
	gr.Fill(u.s, mbInds, nil, nil)
	// Entropy floor: a minibatch after one below it gets the extra bonus.
	ec := u.cEnt
	if u.cPG > 0 && p.EntropyFloor > 0 && u.floorOn {
		ec += p.EntropyFloorCoef
	}
	if p.EntropyFloor > 0 {
		if err := G.Let(gr.CEnt, float32(ec)); err != nil {
			return err
		}
	}
	u.entCoef += ec
	var targetH float64 // Σ over the minibatch of the clone's entropy (the KL's constant)
	if u.cKL > 0 {
		targetH = t.cloneTargets(u.s, mbInds)
	}
	old, adv, ret := gr.OldLogp.Data().([]float32), gr.Adv.Data().([]float32), gr.Ret.Data().([]float32)
	for j, r := range mbInds {
		old[j] = b.logp[r]
		adv[j] = float32((float64(b.adv[r]) - u.mean) / u.std)
		ret[j] = b.ret[r]
	}

	// loss (defineLoss), then loss.backward().
	if err := st.Run(); err != nil {
		return fmt.Errorf("ppo step: %w", err)
	}
	// clip_grad_norm_(max_grad_norm), optimizer.step().
	grads, err := st.Grads()
	if err != nil {
		return err
	}
	u.gnorm += t.adam.step(t.net.Values, grads, u.lr, p.MaxGradNorm)

	// Statistics: the loss terms, approx_kl = mean(old − new
	// log-probability), clipfrac = share of |ratio − 1| > ε.
	u.pg += float64(st.Read(gr.PGLoss)[0])
	u.vl += float64(st.Read(gr.VLoss)[0])
	e := float64(st.Read(gr.Entropy)[0])
	u.ent += e
	u.floorOn = e < p.EntropyFloor
	if u.cKL > 0 {
		u.klClone += float64(st.Read(gr.KLLoss)[0]) - targetH/float64(p.Minibatch)
	}
	newLogp, ratio := st.Read(gr.LogpA), st.Read(gr.Ratio)
	for j := range mbInds {
		u.approxKL += float64(old[j] - newLogp[j])
		if math.Abs(float64(ratio[j])-1) > p.Clip {
			u.clipF++
		}
	}
	u.steps++
	return nil
}

// report writes the update's means over its steps into m's loss columns.
func (u *ppoUpdate) report(m *Metrics) {
	B := u.t.cfg.PPO.Minibatch
	if u.steps > 0 {
		f := float64(u.steps)
		m.PGLoss, m.ValueLoss, m.Entropy, m.GradNorm = u.pg/f, u.vl/f, u.ent/f, u.gnorm/f
		m.ApproxKL, m.ClipFrac = u.approxKL/(f*float64(B)), u.clipF/(f*float64(B))
		m.KLClone, m.EntropyCoef = math.NaN(), u.entCoef/f
		if u.cKL > 0 {
			m.KLClone = u.klClone / f
		}
	}
	m.Samples = u.steps * B
}

// advStats is the mean and standard deviation (+1e-8) of the advantages,
// which learn normalises over the iteration (CleanRL: per minibatch).
func advStats(adv []float32) (mean, std float64) {
	n := float64(len(adv))
	sq := 0.0
	for _, a := range adv {
		mean += float64(a)
	}
	mean /= n
	for _, a := range adv {
		sq += (float64(a) - mean) * (float64(a) - mean)
	}
	return mean, math.Sqrt(sq/n) + 1e-8
}

// minibatches calls f with the sample indices of each minibatch of B, for
// epochs passes over n samples: each pass shuffles the indices with rng and
// takes whole minibatches in order; a buffer smaller than one minibatch is
// sampled with replacement to fill it. It stops at f's first error, or
// with errAborted once ctx is done.
func minibatches(ctx context.Context, n, B, epochs int, rng *rules.RNG, f func(mb []int) error) error {
	bInds := make([]int, n)
	mbInds := make([]int, B)
	for epoch := 0; epoch < epochs; epoch++ {
		for i := range bInds {
			bInds[i] = i
		}
		shuffle(bInds, rng)
		for start := 0; start+B <= max(n, B); start += B {
			if ctx.Err() != nil {
				return errAborted
			}
			for j := range mbInds {
				if start+j < n {
					mbInds[j] = bInds[start+j]
				} else {
					mbInds[j] = rng.U(n)
				}
			}
			if err := f(mbInds); err != nil {
				return err
			}
		}
	}
	return nil
}

// newGraph is the training graph of net for minibatches of batch rows, with
// defineLoss's loss (package graph builds and runs it).
func newGraph(net *neural.Net, batch int) (*graph.Graph, error) {
	return graph.New(net, batch, false, defineLoss)
}

// newGraphKL is newGraph with, if kl, the KL penalty towards the clone
// (the graph's Target input and weight CKL).
func newGraphKL(net *neural.Net, batch int, kl bool) (*graph.Graph, error) {
	return graph.New(net, batch, kl, defineLoss)
}

// defineLoss builds, on the graph's network outputs for a minibatch, the
// loss that learn minimises and behaviour cloning (bc.go) too:
//
//	ratio    = exp(logπ(a) − logπ_old(a))                       (Σ over heads)
//	pg_loss  = −mean min(ratio·A, clip(ratio, 1−ε, 1+ε)·A)      (CleanRL's mean max(pg_loss1, pg_loss2))
//	v_loss   = mean (value − return)²                           (no ½, no value clipping)
//	entropy  = mean over samples and heads of −Σ π log π
//	bc_loss  = −mean Σ_a t(a)·logπ(a)                           (cloning: t is the teacher's move one-hot,
//	                                                             or mixed with uniform over legal moves by
//	                                                             bc.label_smoothing, bcTargets; = −mean logπ(a) at 0)
//	kl_loss  = −Heads·mean over rows of Σ_a π_clone(a)·log π(a)   (KL(π_clone ‖ π) + a constant)
//	loss     = c_pg·pg_loss + c_v·v_loss − c_ent·entropy + c_bc·bc_loss [+ c_kl·kl_loss]
//
// The weights c_* and the clip range [lo, hi] = [1−ε, 1+ε] are the graph's
// inputs, set per iteration (learn, bc.go). logpA is Σ_a onehot(a)·log π(a)
// per sample: log π(a) of the taken action, or bc_loss's Σ_a t(a)·log π(a),
// policy is policyOp's [rows, 2] (log π(a), entropy) per head row, and
// clone, with the KL penalty (else nil), policyOp's rows on the clone's
// probabilities (Σ_a π_clone(a)·log π(a), then unused).
func defineLoss(gr *graph.Graph, must func(*G.Node, error) *G.Node, logpA, policy, clone *G.Node) {
	gr.Entropy = must(G.Mean(must(G.Slice(policy, nil, G.S(1)))))
	gr.Ratio = must(G.Exp(must(G.Sub(logpA, gr.OldN))))
	surr1 := must(G.HadamardProd(gr.Ratio, gr.AdvN)) // −pg_loss1
	clipped := must(G.MaxBetween(must(G.MinBetween(gr.Ratio, gr.HiN)), gr.LoN))
	surr2 := must(G.HadamardProd(clipped, gr.AdvN)) // −pg_loss2
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

// shuffle puts perm in a uniformly random order with the draws of
// rules.RNG.Shuffle (which takes []int8: a generic version of it made the
// rules' zero-allocation step allocate).
func shuffle(perm []int, rng *rules.RNG) {
	for i := len(perm) - 1; i >= 1; i-- {
		j := rng.U(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
}

// klCoef is the weight of the KL penalty towards the clone in iteration it:
// ppo.kl_clone, falling linearly to 0 over ppo.kl_anneal iterations of
// policy updates (those after the critic warm-up).
func (t *trainer) klCoef(it int) float64 {
	p := t.cfg.PPO
	if p.KLClone == 0 || t.clone == nil {
		return 0
	}
	k := it - p.CriticWarmup - 1 // policy updates before this one
	if k < 0 {
		return 0
	}
	return p.KLClone * max(0, 1-float64(k)/float64(p.KLAnneal))
}

// policyParams marks the parameters the critic warm-up leaves alone:
// everything but those that feed only the value (value.*, and the global
// branch, global.* and hidden.*, where no logit reads it: Arch.Extras 0).
func (t *trainer) policyParams() []bool {
	a := t.net.Arch
	frozen := make([]bool, len(t.net.Params))
	for i, p := range t.net.Params {
		critic := strings.HasPrefix(p.Name, "value.") ||
			(a.Extras == 0 && (strings.HasPrefix(p.Name, "hidden.") || strings.HasPrefix(p.Name, "global.")))
		frozen[i] = !critic
	}
	return frozen
}

// cloneTargets writes the frozen clone's probabilities for the minibatch
// rows idx of s (the graph's input x, already filled) into the graph's KL
// target, and returns the sum over the minibatch of the clone's entropy
// (Σ over heads), the KL's constant.
func (t *trainer) cloneTargets(s graph.Samples, idx []int) float64 {
	gr, a := t.graph, t.net.Arch
	B := len(idx)
	if t.cloneWS == nil {
		t.cloneWS = neural.NewWorkspace(a, B)
		t.cloneMask = make([]uint64, B*s.MW)
	}
	ws := t.cloneWS
	copy(ws.Input, gr.X.Data().([]float32))
	for j, r := range idx {
		copy(t.cloneMask[j*s.MW:(j+1)*s.MW], s.Masks[r*s.MW:(r+1)*s.MW])
	}
	t.clone.Forward(ws, B, t.cloneMask, s.MW)
	q := gr.Target.Data().([]float32)
	h := 0.0
	for r := 0; r < B*a.Heads; r++ {
		// Probabilities of the head's row (all 0 where no action is legal).
		t.cloneP = neural.Softmax(t.cloneP, ws.Logits[r*a.Actions:(r+1)*a.Actions])
		out := q[r*a.Actions : (r+1)*a.Actions]
		for k, pk := range t.cloneP {
			out[k] = float32(pk)
			if pk > 0 {
				h -= pk * math.Log(pk)
			}
		}
	}
	return h
}
