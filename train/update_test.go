package train

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
)

// updateTrainer is a learner for game (tinyConfigOf, minibatches of 16, one
// epoch, the KL penalty towards a clone and an entropy floor, so every loss
// term is on; γ, ε and the other weights as given, the values of the game's
// default config when the test was pinned) whose buffer holds 32 synthetic
// decisions: two gradient steps.
func updateTrainer(t *testing.T, game string, gamma, entropyCoef float64) *trainer {
	t.Helper()
	cfg := tinyConfigOf(t, game)
	cfg.PPO.Gamma, cfg.PPO.Lambda, cfg.PPO.Clip, cfg.PPO.Target = gamma, 0.95, 0.2, "gae"
	cfg.PPO.ValueCoef, cfg.PPO.EntropyCoef, cfg.PPO.MaxGradNorm = 0.5, entropyCoef, 0.5
	cfg.PPO.Minibatch, cfg.PPO.Epochs, cfg.PPO.CriticWarmup = 16, 1, 0
	cfg.PPO.KLClone, cfg.PPO.KLAnneal = 0.5, 10
	cfg.PPO.EntropyFloor, cfg.PPO.EntropyFloorCoef = 10, 0.05 // the second step gets the extra bonus
	// One worker: the train step unsplit (graph.Step), as when the bits were pinned.
	cfg.Workers = 1
	tr, err := newLearner(cfg, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.clone, err = neural.New(tr.net.Arch); err != nil {
		t.Fatal(err)
	}
	tr.clone.Init(rules.NewRNG(77))
	rng := rules.NewRNG(11)
	b, sp := &tr.buf, tr.sp
	const n = 32
	for i := 0; i < n; i++ {
		for range b.os {
			b.planes = append(b.planes, uint8(rng.U(2)))
		}
		for range b.ns {
			b.scalars = append(b.scalars, float32(rng.Float64()))
		}
		mask := make([]uint64, b.mw)
		for h := 0; h < sp.Heads; h++ {
			act := int32(-1)
			for k := 0; k < sp.Actions; k++ {
				if rng.U(3) == 0 || k == sp.Actions-1 {
					bit := h*sp.Actions + k
					mask[bit>>6] |= 1 << (bit & 63)
					if act < 0 || rng.U(4) == 0 {
						act = int32(k)
					}
				}
			}
			b.actions = append(b.actions, act)
		}
		b.masks = append(b.masks, mask...)
		b.logp = append(b.logp, float32(-1-rng.Float64()))
		b.value = append(b.value, float32(rng.Float64()-0.5))
		b.reward = append(b.reward, float32(rng.U(3))-1)
		b.done = append(b.done, i%8 == 7)
		next := int32(i + 1)
		if i%8 == 7 {
			next = -1
		}
		b.next = append(b.next, next)
	}
	return tr
}

// weightsHash is an FNV-1a hash of the bits of every parameter and Adam
// moment of tr, and of the update's metrics.
func weightsHash(tr *trainer, m Metrics) string {
	h := fnv.New64a()
	for _, vs := range [][][]float32{tr.net.Values, tr.adam.m, tr.adam.v} {
		for _, v := range vs {
			for _, x := range v {
				fmt.Fprintf(h, "%08x", math.Float32bits(x))
			}
		}
	}
	for _, x := range []float64{m.PGLoss, m.ValueLoss, m.Entropy, m.GradNorm, m.ApproxKL, m.ClipFrac, m.KLClone, m.EntropyCoef, m.KLCoef} {
		fmt.Fprintf(h, "%016x", math.Float64bits(x))
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// One PPO update (two minibatch steps: clipped policy loss, value loss,
// entropy bonus with the floor's extra on the second step, KL towards the
// clone, gradient clipping, Adam) leaves the same weights, moments and
// metrics, bit for bit, as when it was pinned (before the loss and update
// moved into update.go, issue 26): a rewrite of the update must not change
// what it computes. Re-pinned three times since (issue 21), each time for
// a change of summation order only: when sgemm's last rows of a product
// moved onto the assembly micro-kernel (fused multiply-adds, where they had
// been Go's separate multiply and add) so that its AVX2 and AVX-512 kernels
// give the same bits; when the plain-Go forward pass, which gives the
// clone's policy for the KL term, moved to segmented products with the bias
// added last (only kl_clone's last digits moved: 0.0054339268 →
// 0.0054339266 on slime); and when conv3Op did the same (three chains of
// 3·C terms per cell instead of one of 9·C; the losses printed on failure
// agree to 7 digits). Rectangle's once more when padded images lost their
// second border column (sgemm.PadPitch): the filter gradient's sums over
// the product's rows have fewer zero terms, so their blocks split
// elsewhere; every loss is unchanged and the gradient norm moved in its
// 11th digit (385.67192206358254 → 385.67192205572815).
func TestUpdatePinned(t *testing.T) {
	for _, tc := range []struct {
		game               string
		gamma, entropyCoef float64
		want               string
	}{
		{"slime", 0.99, 0.01, "ccce5eabe7f709d6"},
		{"rectangle", 0.995, 0, "c6eaea35bb685ebe"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			tr := updateTrainer(t, tc.game, tc.gamma, tc.entropyCoef)
			var m Metrics
			if err := tr.learn(context.Background(), 1, rules.NewRNG(5), 1e-3, &m); err != nil {
				t.Fatal(err)
			}
			if m.Samples != 32 {
				t.Fatalf("%d samples learned, want 32 (two minibatches of 16)", m.Samples)
			}
			if got := weightsHash(tr, m); got != tc.want {
				t.Errorf("weights hash %s, want %s (pg %v, v %v, entropy %v, kl_clone %v, grad norm %v)", got, tc.want, m.PGLoss, m.ValueLoss, m.Entropy, m.KLClone, m.GradNorm)
			}
		})
	}
}
