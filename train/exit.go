package train

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"time"

	G "gorgonia.org/gorgonia"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
	"github.com/gridgym/gridgym/train/graph"
)

// Expert Iteration (config exit.*, ExItConfig), after the warm start, in
// place of PPO's collect and update; evaluation, checkpoints and metrics.csv
// rows are the iteration's as in ppo.go:
//
//	expert   exit.expert with {net} = the current network (exit-expert.safetensors)
//	collect  (exitCollect, exitGame) games on env.Vec, cut at
//	         max_episode_steps, the expert in the learner's seat
//	         (game k: seat k mod seats), exit.opponents in the others; each
//	         learner decision with a choice (two root candidates or more)
//	         keeps its observation, mask, the policy target over the
//	         network's actions (candidateTargets: the root's visit
//	         distribution, or its action values with exit.policy value, or
//	         the move played with exit.policy played) and,
//	         at the end, the game's rank outcome (−1..1,
//	         env.TerminalReward; a cut game's as its position stands); with
//	         exit.keep_prior only a share of the decisions where the
//	         expert played its prior's move, plus (exit.keep_disagree) a
//	         share of those where the network would have played another
//	update   (exitLearn) on the last exit.window iterations' decisions,
//	         ppo.epochs × ppo.minibatch of
//	         policy_coef·CE(target, π) + value_coef·(value − outcome)²
//
// on the training graph's KL input (newGraphKL: target = the policy
// target per head, the term c_kl·kl_loss, kl_loss = −mean Σ_heads
// Σ_a target·log π, the cross-entropy), with c_pg = c_ent = c_bc = 0.
// metrics.csv's columns keep their names; in ExIt rows pg_loss is that
// cross-entropy (per sample, summed over heads), kl_clone the KL from the
// policy target to the policy (the cross-entropy less the targets'
// entropy), kl_coef exit.policy_coef, train_win the expert's win share,
// mean_reward its mean rank outcome, clip_frac the share of the learner's
// decisions with a choice where the expert did not play its prior's move
// (before exit.keep_prior's subsampling); approx_kl is 0.

// exitState is an Expert Iteration run's buffers and graph: buf is the
// update's training set, the decisions of the last exit.window iterations
// (rows[i] of them from the i-th kept iteration, oldest first), cur this
// iteration's while it is collected.
type exitState struct {
	gr   *graph.Graph
	step *graph.Step
	buf  exitBuffer
	cur  exitBuffer
	rows []int
}

// keep appends this iteration's decisions (cur) to the training set and
// drops the oldest iterations' beyond window (0 counts as 1).
func (x *exitState) keep(window int) {
	x.buf.append(&x.cur)
	x.rows = append(x.rows, x.cur.len())
	for len(x.rows) > max(window, 1) {
		x.buf.dropFront(x.rows[0])
		x.rows = x.rows[:copy(x.rows, x.rows[1:])]
	}
}

// exitBuffer is one iteration's search-labelled decisions, structure of
// arrays: row r's observation, mask, the visit distribution per head
// (target, [row][Heads·Actions]), the most visited action per head (actions,
// the graph's onehot input) and the learner's outcome (ret).
type exitBuffer struct {
	planes  []uint8
	scalars []float32
	masks   []uint64
	target  []float32
	actions []int32
	ret     []float32
}

func (b *exitBuffer) len() int { return len(b.ret) }

func (b *exitBuffer) reset() {
	b.planes, b.scalars, b.masks = b.planes[:0], b.scalars[:0], b.masks[:0]
	b.target, b.actions, b.ret = b.target[:0], b.actions[:0], b.ret[:0]
}

// append adds the rows of o.
func (b *exitBuffer) append(o *exitBuffer) {
	b.planes = append(b.planes, o.planes...)
	b.scalars = append(b.scalars, o.scalars...)
	b.masks = append(b.masks, o.masks...)
	b.target = append(b.target, o.target...)
	b.actions = append(b.actions, o.actions...)
	b.ret = append(b.ret, o.ret...)
}

// dropFront removes the first k rows, keeping the others in order in the
// same arrays.
func (b *exitBuffer) dropFront(k int) {
	n := b.len()
	b.planes = dropRows(b.planes, k, n)
	b.scalars = dropRows(b.scalars, k, n)
	b.masks = dropRows(b.masks, k, n)
	b.target = dropRows(b.target, k, n)
	b.actions = dropRows(b.actions, k, n)
	b.ret = dropRows(b.ret, k, n)
}

// dropRows removes the first k of the n equal-length rows of s.
func dropRows[T any](s []T, k, n int) []T {
	if n == 0 {
		return s
	}
	return s[:copy(s, s[len(s)/n*k:])]
}

// candidateTargets writes into target ([Heads·Actions]) the policy target
// of seat at st from the search's root candidates moves and their keys
// (visitKeys or valueKeys; −Inf: not a target): each candidate's weight
// exp((key − top)/tau), top the largest key of a legal candidate — with tau
// 0, 1 for the first legal candidate of key top and 0 for the others — goes
// to the action of every head that Encode maps it to. Candidates that
// Encode cannot map or whose action is not in mask (the encoder's legal
// actions) are dropped, and each head's row is normalised to sum 1 over the
// legal actions; actions gets each head's action of largest target. ok is
// false when no candidate with a finite key maps (the decision then teaches
// nothing). acts is scratch of Heads entries.
func candidateTargets(enc rules.Encoder, st rules.State, seat int, moves []rules.Move, keys []float64, mask []uint64,
	tau float64, target []float32, actions, acts []int32) bool {
	sp := enc.Space()
	clear(target)
	top, best := math.Inf(-1), -1
	for i, m := range moves {
		if keys[i] > top && enc.Encode(st, seat, m, acts) && legalActs(sp, acts, mask) {
			top, best = keys[i], i
		}
	}
	if best < 0 {
		return false
	}
	total := 0.0
	for i, m := range moves {
		w := 1.0
		switch {
		case math.IsInf(keys[i], -1), tau == 0 && i != best:
			continue
		case tau > 0:
			w = math.Exp((keys[i] - top) / tau)
		}
		if !enc.Encode(st, seat, m, acts) || !legalActs(sp, acts, mask) {
			continue
		}
		for h := 0; h < sp.Heads; h++ {
			target[h*sp.Actions+int(acts[h])] += float32(w)
		}
		total += w
	}
	for h := 0; h < sp.Heads; h++ {
		row := target[h*sp.Actions : (h+1)*sp.Actions]
		best := 0
		for a := range row {
			row[a] = float32(float64(row[a]) / total)
			if row[a] > row[best] {
				best = a
			}
		}
		actions[h] = int32(best)
	}
	return true
}

// visitKeys sets keys to the log of each candidate's visits (−Inf for an
// unvisited one), so that candidateTargets' weights are visits^(1/τ): the
// visit distribution at temperature τ (exit.policy visits).
func visitKeys(visits []int32, keys []float64) []float64 {
	keys = keys[:0]
	for _, v := range visits {
		keys = append(keys, math.Log(float64(v))) // log 0 = −Inf
	}
	return keys
}

// playedKeys writes into keys (resized to the candidates) 0 for the
// candidate move played and −Inf for the others: exit.policy played's
// target, the move alone.
func playedKeys(moves []rules.Move, played rules.Move, keys []float64) []float64 {
	keys = keys[:0]
	for _, m := range moves {
		k := math.Inf(-1)
		if m == played {
			k = 0
		}
		keys = append(keys, k)
	}
	return keys
}

// valueKeys sets keys to each candidate's mean value at the root (values,
// search.Value's 0..1) where its visits are at least minShare of all the
// root's visits and at least 1, and −Inf elsewhere (a value from a few
// visits is noise): candidateTargets' weights are then exp((Q − Q_max)/τ)
// over the well-visited candidates (exit.policy value).
func valueKeys(visits []int32, values []float64, minShare float64, keys []float64) []float64 {
	keys = keys[:0]
	total := 0.0
	for _, v := range visits {
		total += float64(v)
	}
	for i, v := range visits {
		k := math.Inf(-1)
		if v > 0 && float64(v) >= minShare*total {
			k = values[i]
		}
		keys = append(keys, k)
	}
	return keys
}

// appendZeros extends s by k zero entries, keeping its contents.
func appendZeros[T any](s []T, k int) []T {
	var zero T
	for range k {
		s = append(s, zero)
	}
	return s
}

// legalActs reports whether every head's action of acts is in mask.
func legalActs(sp rules.Space, acts []int32, mask []uint64) bool {
	for h := 0; h < sp.Heads; h++ {
		a := acts[h]
		b := h*sp.Actions + int(a)
		if a < 0 || int(a) >= sp.Actions || !env.Bit(mask, b) {
			return false
		}
	}
	return true
}

// exitSpec is spec with {net} replaced by the weights file path.
func exitSpec(spec, path string) string { return strings.ReplaceAll(spec, NetPlaceholder, path) }

// exitIteration is one Expert Iteration's collect and update: it fills m's
// play and loss columns and returns the env steps played.
func (t *trainer) exitIteration(ctx context.Context, it int, m *Metrics) (int64, error) {
	e := t.cfg.ExIt
	path := filepath.Join(t.opt.Dir, "exit-expert.safetensors")
	uses := strings.Contains(e.Expert, NetPlaceholder)
	for _, o := range e.Opponents {
		uses = uses || strings.Contains(o, NetPlaceholder)
	}
	if uses {
		if err := t.net.Save(path, t.meta()); err != nil {
			return 0, fmt.Errorf("expert iteration: %w", err)
		}
	}
	expert, err := agents.Lookup(t.cfg.Game, exitSpec(e.Expert, path))
	if err != nil {
		return 0, fmt.Errorf("expert iteration: field exit.expert: %w", err)
	}
	opps := e.Opponents
	if len(opps) == 0 {
		opps = t.cfg.Opponents.Scripted
	}
	var oppF []agents.Factory
	for _, o := range opps {
		oe, err := agents.Lookup(t.cfg.Game, exitSpec(o, path))
		if err != nil {
			return 0, fmt.Errorf("expert iteration: field exit.opponents: %w", err)
		}
		oppF = append(oppF, oe.New)
	}
	if t.ex == nil {
		t.ex = &exitState{}
	}
	seed := rules.IterationStream(t.cfg.Seed, it, rules.CollectPhase).Uint64()
	t0 := time.Now()
	steps, ok, err := t.exitCollect(ctx, expert.New, oppF, seed, e.Decisions, m)
	if err != nil || !ok {
		if err == nil {
			err = errAborted
		}
		return 0, err
	}
	m.ActSeconds = time.Since(t0).Seconds()
	t1 := time.Now()
	if err := t.exitLearn(ctx, rules.IterationStream(t.cfg.Seed, it, rules.LearnPhase), m.LR, m); err != nil {
		return 0, err
	}
	m.LearnSeconds = time.Since(t1).Seconds()
	return steps, nil
}

// exitGame is one collected game's decisions and figures.
type exitGame struct {
	buf      exitBuffer
	steps    int64
	searched int // the learner's decisions with a choice (two root candidates or more): the expert's Stats.Moves
	departed int // of them, those where the expert did not play its prior's move: Stats.Departed
	win      float64
	ret      float64
	err      error
}

// exitCollect plays games (index k = 0, 1, …, seeds from seed) until the
// learner seats have made at least decisions search-labelled decisions,
// workers games at a time; the games are appended in index order, so the
// buffer is the same for a seed whatever the scheduling.
func (t *trainer) exitCollect(ctx context.Context, expert agents.Factory, opps []agents.Factory, seed uint64, decisions int, m *Metrics) (int64, bool, error) {
	b := &t.ex.cur
	b.reset()
	w := t.cfg.Workers
	if w <= 0 {
		w = defaultWorkers()
	}
	var steps int64
	var wins, rets float64
	games, searched, departed := 0, 0, 0
	for k := 0; b.len() < decisions; k += w {
		if ctx.Err() != nil {
			return 0, false, nil
		}
		res := make([]exitGame, w)
		var wg sync.WaitGroup
		for j := range res {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[j] = t.exitGame(expert, opps, seed, uint64(k+j))
			}()
		}
		wg.Wait()
		for j := range res {
			r := &res[j]
			if r.err != nil {
				return 0, false, r.err
			}
			if b.len() >= decisions {
				break // the games beyond the target are not kept
			}
			b.append(&r.buf)
			steps += r.steps
			wins += r.win
			rets += r.ret
			searched += r.searched
			departed += r.departed
			games++
		}
	}
	m.Episodes, m.Decisions = games, b.len()
	m.ClipFrac = 0
	if searched > 0 {
		m.ClipFrac = float64(departed) / float64(searched)
	}
	t.ex.keep(t.cfg.ExIt.Window)
	m.TrainWin, m.MeanReward = math.NaN(), math.NaN()
	if games > 0 {
		m.TrainWin, m.MeanReward = wins/float64(games), rets/float64(games)
	}
	return steps, true, nil
}

// exitGame plays game k on an env.Vec of one env, as every game loop of
// the repository does: the expert in seat k mod seats, each other seat an
// opponent drawn from the game's stream; chance from rules.GameStream and
// each seat's agent from rules.SeatStream of (seed, k). The env truncates
// the game at max_episode_steps (env.Config.MaxSteps) and holds its final
// position; every decision of the learner's is labelled with the game's
// rank reward for the learner (env.TerminalReward, env.RewardRank), which
// a truncated game gets too, from its position when cut.
func (t *trainer) exitGame(expert agents.Factory, opps []agents.Factory, seed, k uint64) (g exitGame) {
	defer func() {
		if r := recover(); r != nil {
			g.err = fmt.Errorf("expert iteration: game %d: %v", k, r)
		}
	}()
	v, err := env.New(env.Config{Game: t.rcfg, N: 1, Workers: 1, Reward: env.RewardRank,
		MaxSteps: t.cfg.MaxEpisodeSteps, NoObs: true, NoMask: true, Hold: true})
	if err != nil {
		return exitGame{err: fmt.Errorf("expert iteration: %w", err)}
	}
	defer v.Close()
	p, err := t.exitPlayers(v, expert, opps, seed, k)
	if err != nil {
		return exitGame{err: err}
	}
	st := v.State(0)
	moves := make([]rules.Move, v.Seats)
	for !v.Terminated[0] && !v.Truncated[0] {
		for s := range moves {
			if !st.Active(s) {
				continue
			}
			var failed bool
			moves[s], failed = agents.SafeAct(p.bots[s], st)
			if failed {
				moves[s] = rules.Move{}
			}
			v.SetMove(0, s, moves[s])
			if s == p.learner && !failed {
				p.label(&g.buf, st, moves[s])
			}
		}
		v.StepMoves()
		g.steps++
	}
	es := p.expert.Stats() // the expert's searched moves and departures, as the loop saw them
	g.searched, g.departed = es.Moves, es.Departed
	out := &rules.Outcome{Score: v.FinalScore, Points: v.FinalPoints, Win: v.FinalWin}
	g.ret = env.TerminalReward(env.RewardRank, out, p.learner, v.Space.ScoreScale)
	g.win = out.Win[p.learner]
	for i := range g.buf.ret {
		g.buf.ret[i] = float32(g.ret)
	}
	return g
}

// exitPlayers is one Expert Iteration game's seats and what labels the
// learner's decisions: the expert (a search agent) in the learner's seat,
// the network being trained (greedy, for exit.keep_disagree), the draws of
// exit.keep_prior, and the scratch of label.
type exitPlayers struct {
	t       *trainer
	enc     rules.Encoder
	learner int
	bots    []agents.Agent
	expert  *search.Agent
	net     *neural.Agent // nil without exit.keep_disagree
	keep    *rules.RNG    // exit.keep_prior's draws, a stream of no seat
	cm      []rules.Move
	cv      []int32
	cq      []float64
	keys    []float64
	acts    []int32
}

// exitPlayers seats game k of env v (env 0, put at its start with chance
// from rules.GameStream(seed, k) once the opponents are drawn from it).
func (t *trainer) exitPlayers(v *env.Vec, expert agents.Factory, opps []agents.Factory, seed, k uint64) (*exitPlayers, error) {
	seats := v.Seats
	p := &exitPlayers{t: t, enc: v.Encoder(), learner: int(k % uint64(seats)), bots: make([]agents.Agent, seats),
		keep: rules.SeatStream(seed, k, seats), acts: make([]int32, v.Space.Heads)}
	chance := rules.GameStream(seed, k)
	st := v.State(0) // at its start position (env.New)
	for s := range p.bots {
		if s == p.learner {
			p.bots[s] = expert()
			sa, ok := p.bots[s].(*search.Agent)
			if !ok {
				return nil, fmt.Errorf("expert iteration: field exit.expert: %T is not a search agent", p.bots[s])
			}
			p.expert = sa
		} else {
			p.bots[s] = opps[chance.U(len(opps))]()
		}
		p.bots[s].Reset(st, s, rules.SeatStream(seed, k, s))
	}
	v.ResetEnv(0, chance) // the start position again, its chance drawn from now on from what the draws left
	if t.cfg.ExIt.KeepDisagree > 0 {
		a, err := neural.NewAgent(t.net, t.rcfg, false)
		if err != nil {
			return nil, fmt.Errorf("expert iteration: exit.keep_disagree: %w", err)
		}
		a.Reset(st, p.learner, rules.SeatStream(seed, k, p.learner))
		p.net = a
	}
	return p, nil
}

// label appends to b the learner's decision in st, where the expert chose
// move: the observation, the mask and the search's target (exit.policy) —
// unless it had no choice (one root candidate: an eliminated seat's pass),
// exit.keep_prior leaves out a move that is the prior's, or no candidate
// maps to an action. Its return is set when the game ends (exitGame).
func (p *exitPlayers) label(b *exitBuffer, st rules.State, move rules.Move) {
	e, s, enc := p.t.cfg.ExIt, p.learner, p.enc
	p.cm, p.cv = p.expert.RootVisits(p.cm[:0], p.cv[:0])
	if len(p.cm) < 2 {
		return
	}
	if move == p.cm[0] && e.KeepPrior > 0 && e.KeepPrior < 1 && p.keep.Float64() >= e.KeepPrior {
		// exit.keep_prior: the prior's move, not kept, unless the
		// network would play another (exit.keep_disagree)
		if p.net == nil || p.keep.Float64() >= e.KeepDisagree || p.net.Act(st) == move {
			return
		}
	}
	sp := enc.Space()
	os, ns, mw, A := sp.ObsSize(), sp.Scalars, sp.MaskWords(), sp.Heads*sp.Actions
	n := b.len()
	b.planes = appendZeros(b.planes, os)
	b.scalars = appendZeros(b.scalars, ns)
	b.masks = appendZeros(b.masks, mw)
	b.target = appendZeros(b.target, A)
	b.actions = appendZeros(b.actions, sp.Heads)
	enc.Mask(st, s, b.masks[n*mw:])
	switch e.Policy {
	case ExItValue:
		p.cq = p.expert.RootValues(p.cq[:0])
		p.keys = valueKeys(p.cv, p.cq, e.valueMinShare(), p.keys)
	case ExItPlayed:
		p.keys = playedKeys(p.cm, move, p.keys)
	default:
		p.keys = visitKeys(p.cv, p.keys)
	}
	if !candidateTargets(enc, st, s, p.cm, p.keys, b.masks[n*mw:], e.Temperature, b.target[n*A:], b.actions[n*sp.Heads:], p.acts) {
		b.planes, b.scalars, b.masks = b.planes[:n*os], b.scalars[:n*ns], b.masks[:n*mw]
		b.target, b.actions = b.target[:n*A], b.actions[:n*sp.Heads]
		return
	}
	enc.Observe(st, s, b.planes[n*os:], b.scalars[n*ns:])
	b.ret = append(b.ret, 0)
}

// exitLearn is the update on the iteration's decisions: ppo.epochs passes
// of ppo.minibatch samples, loss policy_coef·CE + value_coef·v_loss, Adam
// at lr with ppo.max_grad_norm's clip. It fills m's loss columns.
func (t *trainer) exitLearn(ctx context.Context, rng *rules.RNG, lr float64, m *Metrics) error {
	e, p := t.cfg.ExIt, t.cfg.PPO
	b := &t.ex.buf
	n := b.len()
	if n == 0 {
		return nil
	}
	if t.ex.gr == nil {
		gr, err := newGraphKL(t.net, p.Minibatch, true)
		if err != nil {
			return err
		}
		w := t.cfg.Workers
		if w == 0 {
			w = defaultWorkers()
		}
		st, err := graph.NewStep(gr, t.net, w)
		if err != nil {
			return err
		}
		t.ex.gr, t.ex.step = gr, st
	}
	gr, st := t.ex.gr, t.ex.step
	// The loss weights: only the cross-entropy (c_kl) and the value.
	if err := gr.Coefficients(0, float32(e.ValueCoef), 0, 0); err != nil {
		return err
	}
	if err := G.Let(gr.CKL, float32(e.PolicyCoef)); err != nil {
		return err
	}
	t.adam.frozen = nil
	sp := t.sp
	A := sp.Heads * sp.Actions
	s := graph.Samples{Planes: b.planes, Scalars: b.scalars, Masks: b.masks, Actions: b.actions,
		OS: sp.ObsSize(), NS: sp.Scalars, MW: sp.MaskWords(), Heads: sp.Heads}
	B := p.Minibatch
	var steps int
	var ce, kl, vl, ent, gnorm float64
	err := minibatches(ctx, n, B, p.Epochs, rng, func(mbInds []int) error {
		gr.Fill(s, mbInds, nil, nil)
		tg, ret := gr.Target.Data().([]float32), gr.Ret.Data().([]float32)
		h := 0.0 // Σ over the minibatch of the targets' entropy (all heads)
		for j, r := range mbInds {
			row := b.target[r*A : (r+1)*A]
			copy(tg[j*A:(j+1)*A], row)
			for _, q := range row {
				if q > 0 {
					h -= float64(q) * math.Log(float64(q))
				}
			}
			ret[j] = b.ret[r]
		}
		if err := st.Run(); err != nil {
			return fmt.Errorf("expert iteration step: %w", err)
		}
		grads, err := st.Grads()
		if err != nil {
			return err
		}
		gnorm += t.adam.step(t.net.Values, grads, lr, p.MaxGradNorm)
		c := float64(st.Read(gr.KLLoss)[0])
		ce += c
		kl += c - h/float64(B)
		vl += float64(st.Read(gr.VLoss)[0])
		ent += float64(st.Read(gr.Entropy)[0])
		steps++
		return nil
	})
	if err != nil {
		return err
	}
	f := float64(steps)
	m.PGLoss, m.KLClone, m.ValueLoss, m.Entropy, m.GradNorm = ce/f, kl/f, vl/f, ent/f, gnorm/f
	m.KLCoef, m.EntropyCoef = e.PolicyCoef, 0
	m.Samples = steps * B
	return nil
}

// exitCrossEntropy is the mean over the buffer's rows of the policy's
// cross-entropy to their visit distributions (Σ over heads), from the
// graph's logits in minibatches of its size (the last one wrapped to the
// start, its extra rows not counted); for tests and reports. It takes no
// gradient step.
func (t *trainer) exitCrossEntropy() (float64, error) {
	b := &t.ex.buf
	n := b.len()
	if n == 0 || t.ex.gr == nil {
		return math.NaN(), nil
	}
	gr, st := t.ex.gr, t.ex.step
	sp := t.sp
	A := sp.Heads * sp.Actions
	mw := sp.MaskWords()
	s := graph.Samples{Planes: b.planes, Scalars: b.scalars, Masks: b.masks, Actions: b.actions,
		OS: sp.ObsSize(), NS: sp.Scalars, MW: mw, Heads: sp.Heads}
	B := gr.Batch
	idx := make([]int, B)
	sum := 0.0
	for start := 0; start < n; start += B {
		for j := range idx {
			idx[j] = (start + j) % n
		}
		gr.Fill(s, idx, nil, nil)
		if err := st.Run(); err != nil {
			return 0, err
		}
		logits := st.Read(gr.Logits)
		for j := 0; j < min(B, n-start); j++ {
			r := idx[j]
			mask := b.masks[r*mw : (r+1)*mw]
			for h := 0; h < sp.Heads; h++ {
				l := logits[(j*sp.Heads+h)*sp.Actions : (j*sp.Heads+h+1)*sp.Actions]
				q := b.target[r*A+h*sp.Actions : r*A+(h+1)*sp.Actions]
				mx := math.Inf(-1)
				for a := range l {
					if env.Bit(mask, h*sp.Actions+a) {
						mx = math.Max(mx, float64(l[a]))
					}
				}
				z := 0.0
				for a := range l {
					if env.Bit(mask, h*sp.Actions+a) {
						z += math.Exp(float64(l[a]) - mx)
					}
				}
				for a, qa := range q {
					if qa > 0 {
						sum -= float64(qa) * (float64(l[a]) - mx - math.Log(z))
					}
				}
			}
		}
	}
	return sum / float64(n), nil
}
