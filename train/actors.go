package train

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
)

// Acting (issue 55): an iteration's rollout is played by actors, each with
// its own games (an env.Vec), their seats and its own batched inference over
// them (a player), and its own buffer of the learner's decisions. With
// envs_per_worker 0 there is one actor of envs games, stepped and run by the
// workers together (the acting of before); with envs_per_worker > 0 there
// is one actor per worker, max(envs, envs_per_worker·workers) games shared
// among them, each playing on its own goroutine without waiting for the
// others, and each until it has made its share of the iteration's
// decisions. Their buffers are joined in actor order, so a run depends on
// the worker count but not on timing.
//
// With ppo.overlap the actors play iteration it+1's rollout while the
// learner updates on iteration it's: they act with a frozen copy of the
// network as it was before that update (one policy version stale; PPO's
// ratio, and V-trace's traces with ppo.target vtrace, correct for it), the
// pool of opponents as it was then and the league's record as it was then.

// actor is one share of the acting.
type actor struct {
	t   *trainer // the config and the frozen clone, read only while it plays
	v   *env.Vec
	pl  *player
	buf buffer
	// decisions is its share of the iteration's decisions.
	decisions int
	// net, pool and poolI are the policy it plays the learner's seats
	// with and the opponent pool it draws from, set before each rollout.
	net   *neural.Net
	pool  []*neural.Net
	poolI []int
	// league is its copy of PFSP's record (opponents.pfsp), updated by its
	// own games; events are those games' results, replayed onto the
	// trainer's record in actor order when the rollout is joined.
	league leagueRecord
	events []leagueEvent
	// out is what its last rollout played.
	out actorResult
	// With Config.ContinueCut, cut[i] says env i holds a cut game to play
	// on, and base[env·seats+seat] is each seat's terminal reward at the
	// position its current episode started from (0 at a game's start).
	cut  []bool
	base []float64
}

// actorResult is an actor's rollout's figures: the env steps played and
// the sums behind metrics.csv's decisions, episodes, train_win and
// mean_reward.
type actorResult struct {
	steps      int64
	episodes   int
	wins, winN float64
	rewardSum  float64
	rewardN    int
	ok         bool // the rollout ran to its end (false: its context ended first)
}

// leagueEvent is one game's result against an opponent label: 1 the
// learner finished ahead, ½ level, 0 behind.
type leagueEvent struct {
	label string
	r     float64
}

// actorCount is the number of actors and the games of each: one actor of
// envs games without envs_per_worker, else one per worker.
func (c *Config) actorCount(workers int) (actors, games int) {
	if c.EnvsPerWorker == 0 {
		return 1, c.Envs
	}
	return workers, max(c.Envs, c.EnvsPerWorker*workers)
}

// newActors makes the trainer's actors: their games, players and shares of
// the decisions, for workers workers.
func (t *trainer) newActors(workers int) error {
	cfg := t.cfg
	mode, err := cfg.RewardMode()
	if err != nil {
		return err
	}
	n, games := cfg.actorCount(workers)
	for k := 0; k < n; k++ {
		a := &actor{t: t, decisions: share(cfg.Decisions, k, n)}
		ec := env.Config{Game: t.rcfg, N: share(games, k, n), Seed: cfg.Seed, Workers: cfg.Workers, MaxSteps: cfg.MaxEpisodeSteps,
			Reward: mode, Shaping: cfg.PPO.Shaping, Potential: cfg.PPO.Potential, Continue: cfg.ContinueCut}
		pw := workers
		if n > 1 {
			ec.Seed, ec.Workers, pw = rules.Derive(cfg.Seed, uint64(k)).Uint64(), 1, 1
		}
		if a.v, err = env.New(ec); err != nil {
			t.close()
			return err
		}
		a.pl = newPlayer(a.v, t.rcfg, t.net, pw)
		a.pl.play.Guard = cfg.Play.Guard // the learner and its snapshots play behind the guard, as it will be played
		a.buf = buffer{os: t.buf.os, ns: t.buf.ns, mw: t.buf.mw, heads: t.buf.heads}
		a.cut, a.base = make([]bool, a.v.N), make([]float64, a.v.N*a.v.Seats)
		t.actors = append(t.actors, a)
	}
	t.v = t.actors[0].v
	return nil
}

// share is part k of n of total: the parts differ by at most one, and add
// up to total; at least 1.
func share(total, k, n int) int { return max(1, total*(k+1)/n-total*k/n) }

// close ends the actors' games.
func (t *trainer) close() {
	for _, a := range t.actors {
		a.v.Close()
	}
}

// rollout is a rollout in progress (launch); wait joins it.
type rollout struct {
	cancel context.CancelFunc
	done   chan struct{}
	start  time.Time
	it     int
}

// launch starts iteration it's rollout with the policy net, the opponent
// pool (snapshots pool of iterations poolI) and the trainer's league as it
// is now, drawing from rng, on the actors' goroutines; the caller joins it
// with wait.
func (t *trainer) launch(ctx context.Context, rng *rules.RNG, it int, net *neural.Net, pool []*neural.Net, poolI []int) *rollout {
	ctx, cancel := context.WithCancel(ctx)
	r := &rollout{cancel: cancel, done: make(chan struct{}), start: time.Now(), it: it}
	rngs := make([]*rules.RNG, len(t.actors))
	if len(rngs) == 1 {
		rngs[0] = rng // one actor draws as the single rollout always did
	} else {
		base := rng.Uint64()
		for k := range rngs {
			rngs[k] = rules.Derive(base, uint64(k))
		}
	}
	for _, a := range t.actors {
		a.net, a.pool, a.poolI = net, append(a.pool[:0], pool...), append(a.poolI[:0], poolI...)
		a.league.copyFrom(t.league.share, t.league.pfsp)
		a.events = a.events[:0]
	}
	go func() {
		defer close(r.done)
		var wg sync.WaitGroup
		for k, a := range t.actors[1:] {
			wg.Add(1)
			go func() { defer wg.Done(); a.collect(ctx, rngs[k+1], it) }()
		}
		t.actors[0].collect(ctx, rngs[0], it)
		wg.Wait()
	}()
	return r
}

// wait joins the rollout r: the actors' buffers joined into the trainer's
// in actor order, their league events replayed onto its record, their
// figures into m. It returns the env steps played, and ok = false if the
// rollout's context ended first (the buffer is then incomplete).
func (t *trainer) wait(r *rollout, m *Metrics) (int64, bool) {
	<-r.done
	r.cancel()
	var sum actorResult
	ok := true
	t.buf.reset()
	for _, a := range t.actors {
		o := a.out
		ok = ok && o.ok
		sum.steps, sum.episodes, sum.wins, sum.winN = sum.steps+o.steps, sum.episodes+o.episodes, sum.wins+o.wins, sum.winN+o.winN
		sum.rewardSum, sum.rewardN = sum.rewardSum+o.rewardSum, sum.rewardN+o.rewardN
		if len(t.actors) == 1 {
			t.buf, a.buf = a.buf, t.buf // the single actor's buffer is the update's, without a copy
		} else {
			t.buf.join(&a.buf)
		}
		for _, e := range a.events {
			t.league.record(e)
		}
	}
	m.ActSeconds = time.Since(r.start).Seconds()
	m.Decisions, m.Episodes = t.buf.len(), sum.episodes
	m.TrainWin = math.NaN()
	if sum.winN > 0 {
		m.TrainWin = sum.wins / sum.winN
	}
	if sum.rewardN > 0 {
		m.MeanReward = sum.rewardSum / float64(sum.rewardN)
	}
	return sum.steps, ok
}

// collect plays iteration it's rollout here and now with the current
// network: launch and wait.
func (t *trainer) collect(ctx context.Context, rng *rules.RNG, it int, m *Metrics) (int64, bool) {
	return t.wait(t.launch(ctx, rng, it, t.net, t.pool, t.poolI), m)
}

// play leaves iteration it's rollout in the buffer and returns its env
// steps (ok = false if ctx ended first): the rollout played ahead during
// the previous update (ppo.overlap), else one played now — with the
// current network and pool, or, first after a resume, with the acting
// policy and pool the checkpoint kept. With ppo.overlap it then starts
// the next iteration's rollout with a frozen copy of the network as it is
// now, before this iteration's update.
func (t *trainer) play(ctx context.Context, it int, m *Metrics) (int64, bool) {
	r := t.ahead
	t.ahead = nil
	if r == nil || r.it != it {
		t.dropRollout(r)
		net, pool, poolI := t.net, t.pool, t.poolI
		if t.acting.it == it && t.acting.net != nil {
			net, pool, poolI = t.acting.net, t.acting.nets, t.acting.pool
		}
		r = t.launch(ctx, rules.IterationStream(t.cfg.Seed, it, rules.CollectPhase), it, net, pool, poolI)
	}
	steps, ok := t.wait(r, m)
	if !ok || !t.cfg.PPO.Overlap || it >= t.cfg.Iterations {
		return steps, ok
	}
	// The policy that played this rollout is kept (played) until the
	// iteration ends, for a checkpoint of the iteration before it.
	t.played, t.acting = t.acting, t.played
	a := &t.acting
	if a.net == nil {
		a.net = t.net.Clone()
	} else {
		a.net.CopyFrom(t.net)
	}
	a.it, a.pool, a.nets = it+1, append(a.pool[:0], t.poolI...), append(a.nets[:0], t.pool...)
	t.ahead = t.launch(ctx, rules.IterationStream(t.cfg.Seed, it+1, rules.CollectPhase), it+1, a.net, a.nets, a.pool)
	return steps, ok
}

// actingPolicy is the frozen policy and opponent pool (snapshots nets of
// iterations pool) of iteration it's rollout played ahead (ppo.overlap).
type actingPolicy struct {
	net  *neural.Net
	it   int
	pool []int
	nets []*neural.Net
}

// aheadOf is the acting policy of the rollout after iteration it, if
// one was played or is under way (ppo.overlap).
func (t *trainer) aheadOf(it int) (*actingPolicy, bool) {
	for _, a := range []*actingPolicy{&t.acting, &t.played} {
		if a.it == it+1 && a.net != nil {
			return a, true
		}
	}
	return nil, false
}

// dropAhead stops the rollout played ahead, if any, and waits for its end.
func (t *trainer) dropAhead() {
	t.dropRollout(t.ahead)
	t.ahead = nil
}

// dropRollout stops r (nil: none) and waits for its end.
func (t *trainer) dropRollout(r *rollout) {
	if r != nil {
		r.cancel()
		<-r.done
	}
}

// join appends the decisions of o, its next links shifted past the
// buffer's own.
func (b *buffer) join(o *buffer) {
	off := int32(b.len())
	b.planes, b.scalars, b.masks, b.actions = append(b.planes, o.planes...), append(b.scalars, o.scalars...), append(b.masks, o.masks...), append(b.actions, o.actions...)
	b.logp, b.value, b.reward, b.done = append(b.logp, o.logp...), append(b.value, o.value...), append(b.reward, o.reward...), append(b.done, o.done...)
	for _, j := range o.next {
		if j >= 0 {
			j += off
		}
		b.next = append(b.next, j)
	}
}

// leagueRecord is PFSP's record: the learner's win share against each
// opponent label (an exponential average), used where pfsp is on.
type leagueRecord struct {
	pfsp  bool
	share map[string]float64
}

// copyFrom makes r a copy of the record share.
func (r *leagueRecord) copyFrom(share map[string]float64, pfsp bool) {
	r.pfsp = pfsp
	if r.share == nil {
		r.share = map[string]float64{}
	}
	clear(r.share)
	for k, v := range share {
		r.share[k] = v
	}
}

// record moves the win share against e.label towards e.r.
func (r *leagueRecord) record(e leagueEvent) {
	if r.share == nil {
		r.share = map[string]float64{}
	}
	w := r.winShare(e.label)
	r.share[e.label] = w + pfspRate*(e.r-w)
}

// pick draws one of n opponents, named by label: uniformly, or with
// opponents.pfsp by PFSP's weights (1 − w)² + 0.05, w the learner's win
// share against it so far (½ before any game).
func (r *leagueRecord) pick(rng *rules.RNG, n int, label func(int) string) int {
	if !r.pfsp || n == 1 {
		return rng.U(n)
	}
	total := 0.0
	for k := 0; k < n; k++ {
		total += r.pfspWeight(label(k))
	}
	u := rng.Float64() * total
	for k := 0; k < n; k++ {
		if u -= r.pfspWeight(label(k)); u < 0 {
			return k
		}
	}
	return n - 1
}

// pfspWeight is PFSP's weight of an opponent: (1 − w)² + 0.05.
func (r *leagueRecord) pfspWeight(label string) float64 {
	w := r.winShare(label)
	return (1-w)*(1-w) + 0.05
}

// winShare is the learner's averaged win share against an opponent, ½
// before any game.
func (r *leagueRecord) winShare(label string) float64 {
	if w, ok := r.share[label]; ok {
		return w
	}
	return 0.5
}

// pfspRate is the step of PFSP's exponential average of win shares.
const pfspRate = 0.05

// collect plays whole episodes until the actor's learner seats have made
// its share of the decisions, filling its buffer, and leaves its figures
// in a.out (ok = false if ctx ended first).
func (a *actor) collect(ctx context.Context, rng *rules.RNG, it int) {
	a.buf.reset()
	a.out = actorResult{}
	v, pl := a.v, a.pl
	a.resetGames(rng.Uint64())
	c := &collection{a: a, it: it, last: make([]int32, v.N*v.Seats), active: make([]bool, v.N), allScripted: make([]bool, v.N)}
	c.mode, _ = a.t.cfg.RewardMode()
	rngs := make([]*rules.RNG, v.N)
	c.epRNG = rules.Derive(rng.Uint64(), 0)
	for i := range rngs {
		rngs[i] = rules.Derive(rng.Uint64(), uint64(i))
		c.start(i)
		c.active[i] = true
	}
	for i := range c.last {
		c.last[i] = -1
	}
	augment := a.t.cfg.PPO.Augment
	for c.running = v.N; c.running > 0; {
		if ctx.Err() != nil {
			return
		}
		pl.request(c.active, byLearner, -1, augment, rngs)
		pl.decide(a.net, false, rngs, c.store)
		a.opponents(c.active, rngs)
		v.Step(pl.actions)
		a.out.steps += int64(c.running)
		for i := 0; i < v.N; i++ {
			if c.active[i] {
				c.settle(i)
			}
		}
	}
	a.out.ok = true
}

// resetGames starts the rollout's games: every env at its start position
// (rules.EnvStream(seed, i)), except, with Config.ContinueCut, the envs
// holding a cut game, which play on from where they stand.
func (a *actor) resetGames(seed uint64) {
	if !a.t.cfg.ContinueCut {
		a.v.Reset(seed)
		return
	}
	for i, c := range a.cut {
		if c {
			a.v.PlayOn(i)
			continue
		}
		a.v.ResetEnv(i, rules.EnvStream(seed, i))
		clear(a.base[i*a.v.Seats : (i+1)*a.v.Seats])
	}
}

// opponents sets the actions of pool networks (sampling) and the moves of
// scripted bots for the next step.
func (a *actor) opponents(active []bool, rngs []*rules.RNG) {
	pl := a.pl
	for k, net := range a.pool {
		pl.request(active, byPool, k, false, rngs)
		pl.decide(net, false, rngs, nil)
	}
	if t := a.t; t.clone != nil && t.cfg.Opponents.Clone > 0 {
		pl.request(active, byClone, -1, false, rngs)
		pl.decide(t.clone, false, rngs, nil)
	}
	pl.scripted(active)
}

// seatEpisode assigns the actors of env i's next episode (number ep of the
// iteration): the learner in seat ep mod seats, the other seats drawn from
// the opponent pool as OpponentConfig documents.
func (a *actor) seatEpisode(i, ep int, rng *rules.RNG) {
	cfg, seats := &a.t.cfg, a.v.Seats
	o := cfg.Opponents
	learner := ep % seats
	atTable := o.tableEpisode(rng)
	var table [rules.MaxSeats]int8 // opponents.table: the order its bots take the other seats in
	if atTable {
		for k := range o.Table {
			table[k] = int8(k)
		}
		rng.Shuffle(table[:len(o.Table)])
	}
	next := 0
	for s := 0; s < seats; s++ {
		sa := &a.pl.actors[i][s]
		*sa = seatActor{kind: byLearner, label: "learner"}
		if s == learner {
			continue
		}
		if atTable {
			a.seatScripted(i, s, o.Table[table[next]], rng)
			next++
			continue
		}
		u := rng.Float64()
		switch {
		case u < o.Self:
		case u < o.Self+o.Past && len(a.pool) > 0:
			k := a.league.pick(rng, len(a.pool), func(k int) string { return fmt.Sprintf("pool-%d", a.poolI[k]) })
			*sa = seatActor{kind: byPool, pool: k, label: fmt.Sprintf("pool-%d", a.poolI[k])}
		case o.Clone > 0 && u >= o.Self+o.Past && u < o.Self+o.Past+o.Clone && a.t.clone != nil:
			*sa = seatActor{kind: byClone, label: "clone"}
		default:
			a.seatScripted(i, s, o.Scripted[a.league.pick(rng, len(o.Scripted), func(k int) string { return o.Scripted[k] })], rng)
		}
	}
}

// seatScripted seats the bot name (a scripted bot or network of the
// opponents) in seat s of env i's next episode.
func (a *actor) seatScripted(i, s int, name string, rng *rules.RNG) {
	e, _ := agents.Lookup(a.t.cfg.Game, name) // Config.Validate checked every name
	sa := &a.pl.actors[i][s]
	*sa = seatActor{kind: byScripted, bot: e.New(), label: name}
	sa.bot.Reset(a.v.State(i), s, rules.Derive(rng.Uint64(), uint64(s)))
}

// record adds one game's result against each opponent seat of env i to
// the actor's league: 1 where a learner seat finished ahead of it, ½
// level, 0 behind.
func (a *actor) record(i int, points []float64) {
	if !a.league.pfsp {
		return
	}
	seated := a.pl.actors[i]
	for s, p := range seated {
		if p.kind != byLearner {
			continue
		}
		for o, q := range seated {
			if q.kind == byLearner {
				continue
			}
			e := leagueEvent{label: q.label, r: 0.5}
			if points[s] > points[o] {
				e.r = 1
			} else if points[s] < points[o] {
				e.r = 0
			}
			a.league.record(e)
			a.events = append(a.events, e)
		}
	}
}

// onlyScripted says whether env i's learner plays one seat against
// scripted bots only.
func (a *actor) onlyScripted(i int) bool {
	n := 0
	for _, p := range a.pl.actors[i] {
		if p.kind == byLearner {
			n++
		} else if p.kind != byScripted {
			return false
		}
	}
	return n == 1
}

// collection is one actor's rollout in progress: the envs still playing
// (active, running) and each learner seat's last decision in the buffer
// (last, −1 none).
type collection struct {
	a           *actor
	it          int
	mode        env.RewardMode
	epRNG       *rules.RNG // the league's draws (seatEpisode)
	last        []int32    // [env][seat]
	active      []bool     // [env]
	allScripted []bool     // [env]: the learner's opponents are all scripted
	running     int
	started     int // episodes started (seatEpisode's numbering)
	out         rules.Outcome
}

// start seats env i's next episode.
func (c *collection) start(i int) {
	a := c.a
	a.seatEpisode(i, c.it*a.v.N+c.started, c.epRNG)
	c.allScripted[i] = a.onlyScripted(i)
	c.started++
}

// store appends the learner's decision in seat s of env i (row of the
// player's scratch sc) to the buffer, linked to the seat's previous one.
func (c *collection) store(i, s int, sc *scratch, row int, logp float64) {
	b, seats, heads := &c.a.buf, c.a.v.Seats, c.a.v.Space.Heads
	idx := int32(b.len())
	b.planes = append(b.planes, sc.planes[row*b.os:(row+1)*b.os]...)
	b.scalars = append(b.scalars, sc.scalars[row*b.ns:(row+1)*b.ns]...)
	b.masks = append(b.masks, sc.masks[row*b.mw:(row+1)*b.mw]...)
	b.actions = append(b.actions, sc.acts[row*heads:(row+1)*heads]...)
	b.logp = append(b.logp, float32(logp))
	b.value = append(b.value, sc.ws.Value[row])
	b.reward = append(b.reward, 0)
	b.done = append(b.done, false)
	b.next = append(b.next, -1)
	if p := c.last[i*seats+s]; p >= 0 {
		b.next[p] = idx
	}
	c.last[i*seats+s] = idx
}

// settle takes env i's step: the env's reward (shaping, and the terminal
// reward when the rules ended the episode) goes to each learner seat's
// latest decision; an ended episode closes its seats' decisions (a
// truncated one scored as its position stands), and the env starts its
// next one, or stops once the actor's buffer holds its share of decisions.
func (c *collection) settle(i int) {
	a, v := c.a, c.a.v
	b, o := &a.buf, &a.out
	seats, last := v.Seats, c.last
	for s := 0; s < seats; s++ {
		if k := i*seats + s; a.pl.actors[i][s].kind == byLearner && last[k] >= 0 {
			b.reward[last[k]] += v.Reward[k]
			o.rewardSum += float64(v.Reward[k])
		}
	}
	if !(v.Terminated[i] || v.Truncated[i]) {
		return
	}
	c.out.Score, c.out.Points = v.FinalScore[i*seats:(i+1)*seats], v.FinalPoints[i*seats:(i+1)*seats]
	for s := 0; s < seats; s++ {
		k := i*seats + s
		if a.pl.actors[i][s].kind != byLearner || last[k] < 0 {
			continue
		}
		r := env.TerminalReward(c.mode, &c.out, s, v.Space.ScoreScale)
		if v.Truncated[i] { // the env gives none at truncation; the trainer scores the position as it stands
			b.reward[last[k]] += float32(r)
			o.rewardSum += r
		}
		if a.base[k] != 0 { // ContinueCut: the episode is scored by the change over it
			b.reward[last[k]] -= float32(a.base[k])
			o.rewardSum -= a.base[k]
		}
		b.done[last[k]] = true
		last[k] = -1
		o.rewardN++
		if c.allScripted[i] {
			o.wins += v.FinalWin[k]
			o.winN++
		}
	}
	if a.t.cfg.ContinueCut {
		a.cut[i] = v.Truncated[i]
		for s := 0; s < seats; s++ {
			a.base[i*seats+s] = 0
			if v.Truncated[i] {
				a.base[i*seats+s] = env.TerminalReward(c.mode, &c.out, s, v.Space.ScoreScale)
			}
		}
	}
	a.record(i, c.out.Points)
	o.episodes++
	if b.len() >= a.decisions {
		c.active[i] = false
		c.running--
		return
	}
	v.PlayOn(i) // ContinueCut: a cut game goes on
	c.start(i)
}
