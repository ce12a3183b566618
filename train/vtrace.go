package train

import (
	"math"

	"github.com/gridgym/gridgym/agents/neural"
)

// V-trace's truncation levels (IMPALA, Espeholt et al. 2018, §4.1): ρ̄
// bounds the importance weight of each step's own TD error (it sets which
// policy's value function the targets estimate: π's own at ρ̄ ≥ 1), c̄ the
// weight of the traces that carry later errors back (how far the return
// follows a trajectory the current policy would not have taken). 1 and 1
// are the paper's values and HandyRL's.
const (
	vtraceRhoBar = 1.0
	vtraceCBar   = 1.0
)

// vtrace fills ret and adv with V-trace targets (ppo.target: vtrace) from
// the current policy's log-probability lp of each stored decision and its
// value v, against the behaviour log-probability b.logp that the decision
// was sampled with, along each seat's chain of decisions:
//
//	ρ_i = min(ρ̄, π(a_i)/μ(a_i)),   c_i = λ·min(c̄, π(a_i)/μ(a_i))
//	δ_i = ρ_i·(r_i + γ·V_j − V_i)                       (j: the seat's next decision; no V_j at the end)
//	v_i = V_i + δ_i + γ·c_i·(v_j − V_j)                 (the value target: ret)
//	A_i = r_i + γ·v_j − V_i                             (the policy-gradient advantage: adv)
//
// IMPALA's advantage carries a factor ρ_i; here PPO's clipped ratio
// π/μ in the surrogate is that importance weight, so adv leaves it out. On
// policy (π = μ) the targets are GAE(λ)'s returns and A_i is the one-step
// error plus γ times the next step's GAE(λ) advantage; at λ = 1 both equal
// GAE's. Off policy (samples from a policy a few updates old: later PPO
// epochs, a distributed learner's shards) the traces stop where the
// current policy would not have followed the trajectory.
func (b *buffer) vtrace(gamma, lambda float64, lp, v []float32) {
	n := b.len()
	b.adv = resize(b.adv, n)
	b.ret = resize(b.ret, n)
	for i := n - 1; i >= 0; i-- {
		ratio := math.Exp(float64(lp[i]) - float64(b.logp[i]))
		rho, c := min(vtraceRhoBar, ratio), lambda*min(vtraceCBar, ratio)
		vi := float64(v[i])
		next, trace := 0.0, 0.0 // γ·v_j and γ·c_i·(v_j − V_j)
		if !b.done[i] && b.next[i] >= 0 {
			j := b.next[i]
			next = gamma * float64(b.ret[j])
			trace = gamma * c * (float64(b.ret[j]) - float64(v[j]))
			vi1 := gamma * float64(v[j])
			b.ret[i] = float32(vi + rho*(float64(b.reward[i])+vi1-vi) + trace)
		} else {
			b.ret[i] = float32(vi + rho*(float64(b.reward[i])-vi))
		}
		b.adv[i] = float32(float64(b.reward[i]) + next - vi)
	}
}

// policyNow is the current network's log-probability of each stored
// decision (Σ over heads, the way the rollout summed it) and its value, for
// V-trace, in the buffer's frames; t.nowWS is its scratch. Rows go through
// the inference path (neural.Net.Forward) in batches of the minibatch size.
func (t *trainer) policyNow() (lp, v []float32) {
	b, a := &t.buf, t.net.Arch
	n := b.len()
	B := min(t.cfg.PPO.Minibatch, n)
	if t.nowWS == nil || t.nowWS.Batch < B {
		t.nowWS = neural.NewWorkspace(a, B)
	}
	ws := t.nowWS
	t.nowLogp, t.nowValue = resize(t.nowLogp, n), resize(t.nowValue, n)
	for lo := 0; lo < n; lo += B {
		hi := min(lo+B, n)
		for r := lo; r < hi; r++ {
			neural.FillInput(a, ws.Input[(r-lo)*a.InputSize():], b.planes[r*b.os:(r+1)*b.os], b.scalars[r*b.ns:(r+1)*b.ns])
		}
		t.net.Forward(ws, hi-lo, b.masks[lo*b.mw:hi*b.mw], b.mw)
		for r := lo; r < hi; r++ {
			j := r - lo
			logp := neural.JointLogProb(ws.Logits[j*a.Heads*a.Actions:(j+1)*a.Heads*a.Actions], a.Actions, b.actions[r*b.heads:(r+1)*b.heads])
			t.nowLogp[r], t.nowValue[r] = float32(logp), ws.Value[j]
		}
	}
	return t.nowLogp, t.nowValue
}
