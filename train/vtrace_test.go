package train

import (
	"context"
	"math"
	"path/filepath"
	"testing"
)

// vtraceChain is one seat's chain of three decisions ending the episode,
// then a lone decision cut off by the end of the buffer (no bootstrap).
func vtraceChain() buffer {
	return buffer{
		value:  []float32{0.5, 0.2, -0.1, 0.3},
		reward: []float32{0, 0.1, 1, 0.2},
		done:   []bool{false, false, true, false},
		next:   []int32{1, 2, -1, -1},
		logp:   []float32{-1, -0.5, -2, -0.7},
	}
}

// On policy (π = μ: the current log-probabilities are the behaviour's and
// the values the stored ones), V-trace's value targets are GAE(λ)'s returns
// and its advantage is r_i + γ·v_j − V_i; at λ = 1 that is GAE's advantage.
func TestVTraceOnPolicyIsGAE(t *testing.T) {
	const g = 0.9
	for _, lambda := range []float64{0.8, 1} {
		b := vtraceChain()
		b.gae(g, lambda)
		gaeAdv, gaeRet := append([]float32(nil), b.adv...), append([]float32(nil), b.ret...)
		b.vtrace(g, lambda, b.logp, b.value)
		for i := range b.ret {
			if math.Abs(float64(b.ret[i]-gaeRet[i])) > 1e-6 {
				t.Fatalf("λ %v: ret[%d] = %v, GAE's %v", lambda, i, b.ret[i], gaeRet[i])
			}
			want := float64(b.reward[i]) - float64(b.value[i])
			if j := b.next[i]; !b.done[i] && j >= 0 {
				want += g * float64(gaeRet[j])
			}
			if math.Abs(float64(b.adv[i])-want) > 1e-6 {
				t.Fatalf("λ %v: adv[%d] = %v, want r + γ·v_j − V = %v", lambda, i, b.adv[i], want)
			}
			if lambda == 1 && math.Abs(float64(b.adv[i]-gaeAdv[i])) > 1e-6 {
				t.Fatalf("λ 1: adv[%d] = %v, GAE's %v", i, b.adv[i], gaeAdv[i])
			}
		}
	}
}

// Off policy, against the formulas written out by hand (IMPALA eq. 1 with
// ρ̄ = c̄ = 1): a decision the current policy makes half as often as the
// behaviour did weighs its own TD error by ρ = ½ and carries later errors
// back by c = λ·½; one it makes more often is truncated at 1.
func TestVTraceTruncates(t *testing.T) {
	const g, l = 0.9, 0.8
	b := vtraceChain()
	v := []float32{0.4, 0.3, 0.0, 0.1} // the current critic, not the stored values
	lp := []float32{b.logp[0] + float32(math.Log(3)), b.logp[1] + float32(math.Log(0.5)), b.logp[2], b.logp[3] - 1}
	b.vtrace(g, l, lp, v)
	rho := []float64{1, 0.5, 1, math.Exp(-1)}
	// v_2: terminal. v_1 follows it with c₁ = λ·½, v_0 with c₀ = λ·1.
	v2 := 0.0 + rho[2]*(1-0.0)
	v1 := 0.3 + rho[1]*(0.1+g*0.0-0.3) + g*l*0.5*(v2-0.0)
	v0 := 0.4 + rho[0]*(0+g*0.3-0.4) + g*l*1*(v1-0.3)
	v3 := 0.1 + rho[3]*(0.2-0.1) // cut off: no next decision
	wantRet := []float64{v0, v1, v2, v3}
	wantAdv := []float64{0 + g*v1 - 0.4, 0.1 + g*v2 - 0.3, 1 - 0.0, 0.2 - 0.1}
	for i := range wantRet {
		if math.Abs(float64(b.ret[i])-wantRet[i]) > 1e-6 {
			t.Fatalf("ret[%d] = %v, want %v", i, b.ret[i], wantRet[i])
		}
		if math.Abs(float64(b.adv[i])-wantAdv[i]) > 1e-6 {
			t.Fatalf("adv[%d] = %v, want %v", i, b.adv[i], wantAdv[i])
		}
	}
}

// Before the first update the network that V-trace scores the buffer with
// is the one that acted: policyNow gives back the rollout's own
// log-probabilities and values, in the random D4 frames the decisions were
// taken in (so ρ = 1 and the first epoch's targets are on-policy).
func TestPolicyNowMatchesTheRollout(t *testing.T) {
	for _, game := range []string{"slime", "rectangle"} {
		t.Run(game, func(t *testing.T) {
			cfg := tinyConfigOf(t, game)
			cfg.PPO.Augment = true
			tr := collected(t, cfg, 3)
			n := tr.buf.len()
			if n == 0 {
				t.Fatal("no decisions collected")
			}
			lp, v := tr.policyNow()
			for i := 0; i < n; i++ {
				if math.Abs(float64(lp[i]-tr.buf.logp[i])) > 1e-4 || math.Abs(float64(v[i]-tr.buf.value[i])) > 1e-4 {
					t.Fatalf("decision %d of %d: log π %v, value %v now; %v, %v in the rollout", i, n, lp[i], v[i], tr.buf.logp[i], tr.buf.value[i])
				}
			}
		})
	}
}

// A run with target vtrace learns (the loss terms are finite, the weights
// move) and, interrupted and resumed, ends bit-identical to the run
// uninterrupted.
func TestVTraceRun(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.PPO.Target = "vtrace"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), cfg, Options{Dir: filepath.Join(t.TempDir(), "run")})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Last
	for name, x := range map[string]float64{"pg_loss": last.PGLoss, "value_loss": last.ValueLoss, "entropy": last.Entropy, "grad_norm": last.GradNorm} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("%s = %v at iteration %d", name, x, res.Iterations)
		}
	}
	if last.GradNorm == 0 {
		t.Fatal("no gradient: the weights did not move")
	}
	testResume(t, cfg, Options{})
}

// The distributed learner's shards come from older policies (here rows
// whose behaviour log-probability and value are made up: −1 and 0.25).
// With target vtrace its targets come from its own network's scores of
// those rows, so its losses differ from GAE's on the same rows, and stay
// finite.
func TestVTraceShardLearner(t *testing.T) {
	cfg := tinyConfig(t)
	good, _, _ := corruptShards(t, cfg)
	learn := func(target string) ShardStats {
		c := cfg
		c.PPO.Target = target
		l, err := NewShardLearner(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		st, err := l.Learn(context.Background(), []string{filepath.Join(good, "shard-000000.arrow")})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	gae, vt := learn("gae"), learn("vtrace")
	if vt.Decisions == 0 || vt.Decisions != gae.Decisions {
		t.Fatalf("vtrace learned %d decisions, gae %d", vt.Decisions, gae.Decisions)
	}
	m := vt.Metrics
	for name, x := range map[string]float64{"pg_loss": m.PGLoss, "value_loss": m.ValueLoss, "grad_norm": m.GradNorm} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("vtrace %s = %v", name, x)
		}
	}
	if m.ValueLoss == gae.Metrics.ValueLoss || m.PGLoss == gae.Metrics.PGLoss {
		t.Fatalf("vtrace's losses (pg %v, value %v) are GAE's: the targets ignored the learner's own scores", m.PGLoss, m.ValueLoss)
	}
}
