package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train/graph"
)

// Options are the parts of a run that are not its config: where it writes
// and how it reports.
type Options struct {
	Dir    string // run folder (config.yaml, metrics.csv, plots, checkpoints/)
	Resume bool   // continue the run in Dir from its latest checkpoint
	// CloneOnly stops after the behaviour-cloning warm start, saving it as
	// checkpoint 0 (behaviour cloning as its own command).
	CloneOnly bool
	// Progress, if set, is called after every iteration and during long
	// phases (behaviour cloning), at least once a second while they run.
	Progress func(Progress)
	// Log receives the run's warnings (a corrupt shard skipped, a warm
	// start cut short); nil: the log package's standard logger.
	Log func(format string, args ...any)
	// Init, if set, is the network a fresh run starts from (a copy of it;
	// its shape must fit the game) instead of one initialised from the
	// config's seed and network section: an exploiter (package exploit)
	// fine-tunes a copy of its target, or starts from a fresh network of
	// the target's exact architecture. A resumed run takes the
	// checkpoint's weights over it (its shape must match theirs).
	Init *neural.Net
}

// errAborted ends an iteration that its context's end cut short; the
// network and optimiser are as they were before it.
var errAborted = errors.New("iteration aborted")

// logf writes a warning through Options.Log.
func (t *trainer) logf(format string, args ...any) {
	if t.opt.Log != nil {
		t.opt.Log(format, args...)
		return
	}
	log.Printf(format, args...)
}

// Progress is what a progress bar shows.
type Progress struct {
	Phase      string // "bc-play", "bc", "ppo"
	Iteration  int
	Iterations int
	Done, Of   int // work units of the phase (iterations, samples, …)
	Metrics    Metrics
	Elapsed    time.Duration
}

// Result summarises a finished run.
type Result struct {
	Dir        string
	Iterations int     // iterations completed (all of them, resumed ones included)
	Checkpoint string  // latest checkpoint's weights file
	Last       Metrics // the last iteration's metrics
	Best       string  // best.safetensors, the policy of the best evaluation ("" if none)
	BC         BCStats // the behaviour-cloning warm start, if any
	// CloneEval is the cloned policy's evaluation (iteration 0); Games
	// is 0 without a warm start or evaluations, and after a resume.
	CloneEval EvalResult
	// Interrupted says the run's context ended (Ctrl-C) before its plan
	// did; everything up to the last checkpoint is saved.
	Interrupted bool
}

// trainer is a PPO run in progress: CleanRL's ppo.py, in Go, over a batched
// env with an opponent pool.
type trainer struct {
	cfg   Config
	opt   Options
	rcfg  rules.Config
	net   *neural.Net
	graph *graph.Graph
	step  *graph.Step // the train step on graph's inputs (learn makes it)
	adam  *adam
	pool  []*neural.Net
	poolI []int // iteration of each pool snapshot
	v     *env.Vec
	pl    *player
	buf   buffer
	sp    rules.Space

	start      time.Time
	elapsed0   time.Duration // time spent before a resume
	envSteps   int64
	iterations int
	saved      int     // the last iteration checkpointed
	best       float64 // the best evaluation's figure (eval.select) so far (best.safetensors)
	bc         BCStats // the warm start's result, if any
	cloneEval  EvalResult
	snap       paramSnapshot // the parameters before the update in progress

	// clone is the frozen cloned policy (checkpoint 0) where the config
	// uses it (ppo.kl_clone, opponents.clone); cloneWS and cloneMask are
	// its minibatch scratch for the KL targets, cloneP one head's
	// probabilities.
	clone     *neural.Net
	cloneWS   *neural.Workspace
	cloneMask []uint64
	cloneP    []float64
	// league is PFSP's record: the learner's win share against each
	// opponent label (exponential average), for opponents.pfsp.
	league map[string]float64
	// ex is Expert Iteration's state (exit.go; config exit.expert).
	ex *exitState
	// nowWS, nowLogp and nowValue are V-trace's scratch (policyNow): the
	// current network's log-probabilities and values of the buffer.
	nowWS             *neural.Workspace
	nowLogp, nowValue []float32
}

// Run trains a policy as cfg says, writing into opt.Dir.
func Run(ctx context.Context, cfg Config, opt Options) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	t, err := newTrainer(cfg, opt)
	if err != nil {
		return Result{}, err
	}
	defer t.v.Close()
	first := 1
	if opt.Resume {
		it, err := t.restore()
		if err != nil {
			return Result{}, err
		}
		first = it + 1
	} else {
		if opt.CloneOnly && cfg.BC.Samples == 0 {
			if err := t.create(); err != nil {
				return Result{}, err
			}
			return Result{}, fmt.Errorf("behaviour cloning: bc.samples is 0 (field bc.samples)")
		}
		if err := t.begin(ctx); err != nil {
			return Result{}, err
		}
		if opt.CloneOnly {
			return Result{Dir: opt.Dir, Checkpoint: t.latestWeights(), BC: t.bc, Interrupted: ctx.Err() != nil}, nil
		}
	}
	last, err := t.iterate(ctx, first)
	if err != nil {
		return Result{}, err
	}
	// A run stopped by its time cap or interrupted between checkpoints
	// still leaves its last iteration as a checkpoint (a resume point).
	if t.iterations > t.saved {
		if err := t.checkpoint(t.iterations); err != nil {
			return Result{}, err
		}
	}
	if err := t.writePlots(); err != nil {
		return Result{}, err
	}
	best := filepath.Join(opt.Dir, "best.safetensors")
	if _, err := os.Stat(best); err != nil {
		best = ""
	}
	return Result{Dir: opt.Dir, Iterations: t.iterations, Checkpoint: t.latestWeights(), Last: last, BC: t.bc, Best: best,
		CloneEval: t.cloneEval, Interrupted: ctx.Err() != nil}, nil
}

// begin starts a fresh run: the run folder, the warm start (bc.samples >
// 0), checkpoint 0 and, after cloning, the clone's evaluation and bc.json.
// With Options.CloneOnly it stops after the clone's bc.json.
func (t *trainer) begin(ctx context.Context) error {
	cfg, opt := t.cfg, t.opt
	if err := t.create(); err != nil {
		return err
	}
	if cfg.BC.Samples > 0 {
		if err := t.warmStart(ctx); err != nil {
			return err
		}
	}
	// Checkpoint 0, the clone (or the initial network): a run always
	// ends with a policy to export, however early it is stopped.
	if err := t.checkpoint(0); err != nil {
		return err
	}
	if t.usesClone() {
		t.clone = t.net.Clone()
	}
	if opt.CloneOnly {
		return t.writeBC()
	}
	if cfg.BC.Samples > 0 {
		if cfg.Eval.Every > 0 && ctx.Err() == nil {
			r, err := t.evaluateBest(0)
			if err != nil {
				return err
			}
			t.cloneEval = r
		}
		if err := t.writeBC(); err != nil {
			return err
		}
	}
	return nil
}

// iterate runs iterations first.. until config iterations, ctx's end or
// the time cap, and returns the last one's metrics: with a time cap, an
// iteration that would end after it is not started (judged by the longest
// iteration so far), and one that runs past it is abandoned, the network
// as before it.
func (t *trainer) iterate(ctx context.Context, first int) (Metrics, error) {
	cfg, opt := t.cfg, t.opt
	var last Metrics
	runCtx := ctx
	var budget time.Duration
	if cfg.Minutes > 0 {
		budget = time.Duration(cfg.Minutes * float64(time.Minute))
		var cancel context.CancelFunc
		runCtx, cancel = context.WithDeadline(ctx, t.start.Add(budget-t.elapsed0))
		defer cancel()
	}
	var longest time.Duration
	for it := first; it <= cfg.Iterations; it++ {
		if runCtx.Err() != nil || (budget > 0 && t.elapsed()+longest > budget) {
			break
		}
		t0 := time.Now()
		m, err := t.iteration(runCtx, it)
		if errors.Is(err, errAborted) {
			break
		}
		if err != nil {
			return last, err
		}
		longest = max(longest, time.Since(t0))
		last = m
		t.iterations = it
		if opt.Progress != nil {
			opt.Progress(Progress{Phase: "ppo", Iteration: it, Iterations: cfg.Iterations, Done: it, Of: cfg.Iterations, Metrics: m, Elapsed: t.elapsed()})
		}
	}
	return last, nil
}

func newTrainer(cfg Config, opt Options) (*trainer, error) {
	var init *neural.Net
	if opt.Init != nil {
		init = opt.Init.Clone()
	}
	t, err := newLearner(cfg, init, opt)
	if err != nil {
		return nil, err
	}
	workers := cfg.Workers
	mode, err := cfg.RewardMode()
	if err != nil {
		return nil, err
	}
	if t.v, err = env.New(env.Config{Game: t.rcfg, N: cfg.Envs, Seed: cfg.Seed, Workers: workers, MaxSteps: cfg.MaxEpisodeSteps,
		Reward: mode, Shaping: cfg.PPO.Shaping}); err != nil {
		return nil, err
	}
	if workers <= 0 {
		workers = defaultWorkers()
	}
	t.pl = newPlayer(t.v, t.rcfg, t.net, workers)
	return t, nil
}

// newLearner is the learning half of a trainer, shared by Run and
// ShardLearner: the network (net, or a fresh one initialised from cfg.Seed),
// its training graph, the optimiser and an empty buffer. It plays nothing.
func newLearner(cfg Config, net *neural.Net, opt Options) (*trainer, error) {
	rcfg, err := cfg.RulesConfig()
	if err != nil {
		return nil, err
	}
	sp := rcfg.Game().Encoder(rcfg).Space()
	if net == nil {
		arch, err := cfg.Arch()
		if err != nil {
			return nil, err
		}
		if net, err = neural.NewInit(arch, rules.InitStream(cfg.Seed)); err != nil {
			return nil, err
		}
	} else if err := net.Arch.Fits(rcfg.Game().Name, sp); err != nil {
		return nil, err
	}
	gr, err := newGraphKL(net, cfg.PPO.Minibatch, cfg.PPO.KLClone > 0)
	if err != nil {
		return nil, err
	}
	t := &trainer{cfg: cfg, opt: opt, rcfg: rcfg, net: net, graph: gr, adam: newAdam(net), sp: sp, start: time.Now(), best: -math.MaxFloat64}
	t.buf = buffer{os: sp.ObsSize(), ns: sp.Scalars, mw: sp.MaskWords(), heads: sp.Heads}
	return t, nil
}

// defaultWorkers is the actors' worker count where the config leaves it 0:
// one per core.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

func (t *trainer) elapsed() time.Duration { return t.elapsed0 + time.Since(t.start) }

// lr is the learning rate of iteration it: linear from LR to LR·LRFinal.
func (t *trainer) lr(it int) float64 {
	p := t.cfg.PPO
	frac := 0.0
	if t.cfg.Iterations > 1 {
		frac = float64(it-1) / float64(t.cfg.Iterations-1)
	}
	return p.LR * (1 - frac*(1-p.LRFinal))
}

// evaluateBest evaluates the current policy against the baselines and, if
// it is the best evaluation so far, saves it as best.safetensors: PPO is not
// monotone, and the cloned policy (iteration 0) is a candidate too.
func (t *trainer) evaluateBest(it int) (EvalResult, error) {
	r, err := t.evaluate(t.net, t.cfg.Baselines(), t.cfg.Eval.Games, rules.EvalSeed(t.cfg.Seed, it))
	if err != nil {
		return r, err
	}
	fig, name := r.Points, "eval_points"
	switch t.cfg.Eval.Select {
	case "score":
		fig, name = r.Score, "eval_score"
	case "margin":
		fig, name = r.Margin, "eval_margin"
	}
	if fig > t.best {
		t.best = fig
		meta := t.meta()
		meta["iteration"] = fmt.Sprint(it)
		meta[name] = fmt.Sprint(fig)
		if err := t.net.Save(filepath.Join(t.opt.Dir, "best.safetensors"), meta); err != nil {
			return r, err
		}
	}
	return r, nil
}

// bcRecord is bc.json in a run folder with a warm start: how cloning went
// and how the cloned policy did in its evaluation (iteration 0), the figures
// that say whether PPO later improved on the clone.
type bcRecord struct {
	BCStats
	Eval *EvalResult `json:",omitempty"`
}

// writeBC writes bc.json: the warm start's figures and, where it was
// evaluated, the cloned policy's evaluation.
func (t *trainer) writeBC() error {
	rec := bcRecord{BCStats: t.bc}
	if t.cloneEval.Games > 0 {
		rec.Eval = &t.cloneEval
	}
	return writeJSON(filepath.Join(t.opt.Dir, "bc.json"), rec)
}

// writeJSON writes v, indented, to path atomically.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return neural.WriteFileAtomic(path, append(b, '\n'))
}

// iteration plays, learns, evaluates and checkpoints once.
func (t *trainer) iteration(ctx context.Context, it int) (Metrics, error) {
	m := Metrics{Iteration: it, LR: t.lr(it)}
	t0 := time.Now()
	var st int64
	if t.cfg.ExIt.Expert != "" {
		// Expert Iteration instead of PPO's collect and update (exit.go).
		t.snapshot()
		var err error
		if st, err = t.exitIteration(ctx, it, &m); err != nil {
			if errors.Is(err, errAborted) {
				t.rollback()
			}
			return m, err
		}
	} else {
		var ok bool
		st, ok = t.collect(ctx, rules.IterationStream(t.cfg.Seed, it, rules.CollectPhase), it, &m)
		if !ok {
			return m, errAborted
		}
		m.ActSeconds = time.Since(t0).Seconds()

		t1 := time.Now()
		t.snapshot()
		if err := t.learn(ctx, it, rules.IterationStream(t.cfg.Seed, it, rules.LearnPhase), m.LR, &m); err != nil {
			if errors.Is(err, errAborted) {
				t.rollback()
			}
			return m, err
		}
		m.LearnSeconds = time.Since(t1).Seconds()
	}
	t.envSteps += st
	m.EnvSteps = t.envSteps

	m.EvalWin, m.EvalScore, m.EvalPoints, m.EvalMargin = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if e := t.cfg.Eval; e.Every > 0 && (it%e.Every == 0 || it == t.cfg.Iterations) {
		t2 := time.Now()
		r, err := t.evaluateBest(it)
		if err != nil {
			return m, err
		}
		m.EvalWin, m.EvalScore, m.EvalPoints, m.EvalMargin = r.Win, r.Score, r.Points, r.Margin
		m.EvalSeconds = time.Since(t2).Seconds()
	}
	if o := t.cfg.Opponents; o.PoolSize > 0 && it%o.PoolEvery == 0 {
		t.pool = append(t.pool, t.net.Clone())
		t.poolI = append(t.poolI, it)
		if len(t.pool) > o.PoolSize {
			t.pool, t.poolI = t.pool[1:], t.poolI[1:]
		}
	}
	m.Elapsed = t.elapsed().Seconds()
	t3 := time.Now()
	if it%t.cfg.CheckpointEvery == 0 || it == t.cfg.Iterations {
		if err := t.checkpoint(it); err != nil {
			return m, err
		}
	}
	m.WriteSeconds = time.Since(t3).Seconds()
	if err := t.appendMetrics(m); err != nil {
		return m, err
	}
	return m, nil
}

// seatEpisode assigns the actors of env i's next episode (number ep of the
// iteration): the learner in seat ep mod seats, the other seats drawn from
// the opponent pool as OpponentConfig documents.
func (t *trainer) seatEpisode(i, ep int, rng *rules.RNG) {
	o := t.cfg.Opponents
	seats := t.v.Seats
	learner := ep % seats
	for s := 0; s < seats; s++ {
		a := &t.pl.actors[i][s]
		*a = seatActor{kind: byLearner, label: "learner"}
		if s == learner {
			continue
		}
		u := rng.Float64()
		switch {
		case u < o.Self:
		case u < o.Self+o.Past && len(t.pool) > 0:
			k := t.pick(rng, len(t.pool), func(k int) string { return fmt.Sprintf("pool-%d", t.poolI[k]) })
			*a = seatActor{kind: byPool, pool: k, label: fmt.Sprintf("pool-%d", t.poolI[k])}
		case o.Clone > 0 && u >= o.Self+o.Past && u < o.Self+o.Past+o.Clone && t.clone != nil:
			*a = seatActor{kind: byClone, label: "clone"}
		default:
			name := o.Scripted[t.pick(rng, len(o.Scripted), func(k int) string { return o.Scripted[k] })]
			e, _ := agents.Lookup(t.cfg.Game, name) // Config.Validate checked every name
			*a = seatActor{kind: byScripted, bot: e.New(), label: name}
			a.bot.Reset(t.v.State(i), s, rules.Derive(rng.Uint64(), uint64(s)))
		}
	}
}

// usesClone says whether the run needs the frozen cloned policy.
func (t *trainer) usesClone() bool {
	return t.cfg.PPO.KLClone > 0 || t.cfg.Opponents.Clone > 0
}

// pick draws one of n opponents, named by label: uniformly, or with
// opponents.pfsp by PFSP's weights (1 − w)² + 0.05, w the learner's win
// share against it so far (½ before any game).
func (t *trainer) pick(rng *rules.RNG, n int, label func(int) string) int {
	if !t.cfg.Opponents.PFSP || n == 1 {
		return rng.U(n)
	}
	total := 0.0
	for k := 0; k < n; k++ {
		total += t.pfspWeight(label(k))
	}
	u := rng.Float64() * total
	for k := 0; k < n; k++ {
		if u -= t.pfspWeight(label(k)); u < 0 {
			return k
		}
	}
	return n - 1
}

// pfspWeight is PFSP's weight of an opponent: (1 − w)² + 0.05.
func (t *trainer) pfspWeight(label string) float64 {
	w := t.winShare(label)
	return (1-w)*(1-w) + 0.05
}

// winShare is the learner's averaged win share against an opponent, ½
// before any game.
func (t *trainer) winShare(label string) float64 {
	if w, ok := t.league[label]; ok {
		return w
	}
	return 0.5
}

// pfspRate is the step of PFSP's exponential average of win shares.
const pfspRate = 0.05

// record adds one game's result against each opponent seat of env i to
// the league: 1 where a learner seat finished ahead of it, ½ level, 0 behind.
func (t *trainer) record(i int, points []float64) {
	if !t.cfg.Opponents.PFSP {
		return
	}
	if t.league == nil {
		t.league = map[string]float64{}
	}
	actors := t.pl.actors[i]
	for s, a := range actors {
		if a.kind != byLearner {
			continue
		}
		for o, b := range actors {
			if b.kind == byLearner {
				continue
			}
			r := 0.5
			if points[s] > points[o] {
				r = 1
			} else if points[s] < points[o] {
				r = 0
			}
			w := t.winShare(b.label)
			t.league[b.label] = w + pfspRate*(r-w)
		}
	}
}

// collect plays whole episodes until the learner has made cfg.Decisions
// decisions, filling the buffer; it returns the env steps played, and
// ok = false if ctx ended first (the buffer is then incomplete).
func (t *trainer) collect(ctx context.Context, rng *rules.RNG, it int, m *Metrics) (int64, bool) {
	t.buf.reset()
	v, pl := t.v, t.pl
	v.Reset(rng.Uint64())
	c := &collection{t: t, it: it, m: m, last: make([]int32, v.N*v.Seats), active: make([]bool, v.N), allScripted: make([]bool, v.N)}
	c.mode, _ = t.cfg.RewardMode()
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
	var steps int64
	for c.running = v.N; c.running > 0; {
		if ctx.Err() != nil {
			return steps, false
		}
		t.request(c.active, byLearner, -1, rngs)
		pl.decide(t.net, false, rngs, c.store)
		t.opponents(c.active, rngs)
		v.Step(pl.actions)
		steps += int64(c.running)
		for i := 0; i < v.N; i++ {
			if c.active[i] {
				c.settle(i)
			}
		}
	}
	m.Decisions = t.buf.len()
	m.TrainWin = math.NaN()
	if c.winN > 0 {
		m.TrainWin = c.wins / c.winN
	}
	if c.rewardN > 0 {
		m.MeanReward = c.rewardSum / float64(c.rewardN)
	}
	return steps, true
}

// collection is one collect in progress: the envs still playing (active,
// running), each learner seat's last decision in the buffer (last, −1
// none), and the sums behind metrics.csv's train_win and mean_reward.
type collection struct {
	t           *trainer
	it          int
	m           *Metrics
	mode        env.RewardMode
	epRNG       *rules.RNG // the league's draws (seatEpisode)
	last        []int32    // [env][seat]
	active      []bool     // [env]
	allScripted []bool     // [env]: the learner's opponents are all scripted
	running     int
	episodes    int
	wins, winN  float64
	rewardSum   float64
	rewardN     int
	out         rules.Outcome
}

// start seats env i's next episode.
func (c *collection) start(i int) {
	c.t.seatEpisode(i, c.it*c.t.v.N+c.episodes, c.epRNG)
	c.allScripted[i] = c.t.onlyScripted(i)
	c.episodes++
}

// store appends the learner's decision in seat s of env i (row of the
// player's scratch sc) to the buffer, linked to the seat's previous one.
func (c *collection) store(i, s int, sc *scratch, row int, logp float64) {
	b, seats, heads := &c.t.buf, c.t.v.Seats, c.t.v.Space.Heads
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
// next one, or stops once the buffer holds enough decisions.
func (c *collection) settle(i int) {
	t, v, pl := c.t, c.t.v, c.t.pl
	seats, last := v.Seats, c.last
	for s := 0; s < seats; s++ {
		if k := i*seats + s; pl.actors[i][s].kind == byLearner && last[k] >= 0 {
			t.buf.reward[last[k]] += v.Reward[k]
			c.rewardSum += float64(v.Reward[k])
		}
	}
	if !(v.Terminated[i] || v.Truncated[i]) {
		return
	}
	c.out.Score, c.out.Points = v.FinalScore[i*seats:(i+1)*seats], v.FinalPoints[i*seats:(i+1)*seats]
	for s := 0; s < seats; s++ {
		k := i*seats + s
		if pl.actors[i][s].kind != byLearner || last[k] < 0 {
			continue
		}
		r := env.TerminalReward(c.mode, &c.out, s, v.Space.ScoreScale)
		if v.Truncated[i] { // the env gives none at truncation; the trainer scores the position as it stands
			t.buf.reward[last[k]] += float32(r)
			c.rewardSum += r
		}
		t.buf.done[last[k]] = true
		last[k] = -1
		c.rewardN++
		if c.allScripted[i] {
			c.wins += v.FinalWin[k]
			c.winN++
		}
	}
	t.record(i, c.out.Points)
	c.m.Episodes++
	if t.buf.len() >= t.cfg.Decisions {
		c.active[i] = false
		c.running--
		return
	}
	c.start(i)
}

func (t *trainer) onlyScripted(i int) bool {
	n := 0
	for _, a := range t.pl.actors[i] {
		if a.kind == byLearner {
			n++
		} else if a.kind != byScripted {
			return false
		}
	}
	return n == 1
}

// request lists the active (env, seat) pairs played by actors of kind (and
// pool index k) in pl.req*, each with a random frame of the game's
// symmetries when augmenting (ppo.augment, the learner's seats only).
func (t *trainer) request(active []bool, kind, k int, rngs []*rules.RNG) {
	t.pl.request(active, kind, k, t.cfg.PPO.Augment && kind == byLearner, rngs)
}

// opponents sets the actions of pool networks (sampling) and the moves of
// scripted bots for the next step.
func (t *trainer) opponents(active []bool, rngs []*rules.RNG) {
	pl := t.pl
	for k, net := range t.pool {
		t.request(active, byPool, k, rngs)
		pl.decide(net, false, rngs, nil)
	}
	if t.clone != nil && t.cfg.Opponents.Clone > 0 {
		t.request(active, byClone, -1, rngs)
		pl.decide(t.clone, false, rngs, nil)
	}
	pl.scripted(active)
}

// EvalResult is the greedy policy's record against baselines.
type EvalResult struct {
	Games              int
	Win, Score, Points float64 // means over the policy's games
	First              float64 // share of games finished alone in first place
	WinLo, WinHi       float64 // 95% Wilson interval of First
	ScoreLo, ScoreHi   float64 // 95% normal interval of Score
	// Margin is Score minus the highest mean score of a baseline (by name,
	// over all its seats in these games): above 0, the policy out-scored
	// every baseline.
	Margin float64
	// BaselineScore and BaselineSeats are each baseline's mean score and
	// the seats it filled, by name.
	BaselineScore map[string]float64 `json:",omitempty"`
	BaselineSeats map[string]int     `json:",omitempty"`
}

// evaluate plays games episodes: the greedy policy in seat (game mod seats),
// every other seat a baseline (drawn uniformly, or the lineup of eval.lineup).
func (t *trainer) evaluate(net *neural.Net, baselines []string, games int, seed uint64) (EvalResult, error) {
	return evaluate(t.rcfg, net, baselines, t.cfg.Eval.Lineup, games, seed, t.cfg.Workers)
}
