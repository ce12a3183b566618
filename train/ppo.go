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
	// Anchor, if set, is the frozen policy that ppo.kl_clone pulls towards
	// (and the clone seat of opponents.clone plays) instead of checkpoint 0,
	// in a fresh run and on resume alike: a league's main agent keeps a KL
	// term towards the league's initial network across rounds, each round
	// a new run from the last round's weights (AlphaStar's main agents
	// keep theirs towards the supervised policy). Its shape must be the
	// network's.
	Anchor *neural.Net
	// InitOptim, if set, is a checkpoint folder (runs/x/checkpoints/iter-N)
	// whose optimiser state — Adam's moments and step count — a fresh run
	// starts from instead of zeros; it must be for the network the run
	// starts from (Init, usually that checkpoint's own weights). A league
	// trains each learner in rounds, each round a new run, and this lets a
	// round continue the last one's optimiser as one long run would. A
	// resumed run takes its own checkpoint's state over it.
	InitOptim string
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
	// actors play the rollouts (actors.go); v is the first one's games,
	// for the game's seats and spec.
	actors []*actor
	v      *env.Vec
	buf    buffer
	sp     rules.Space

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
	league leagueRecord
	// ahead is the next iteration's rollout in progress (ppo.overlap),
	// nil if none; acting is the frozen policy and pool it plays with,
	// played the one that played this iteration's rollout (a checkpoint
	// keeps the one for the iteration after it: acting.safetensors).
	ahead          *rollout
	acting, played actingPolicy
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
	defer t.close()
	if a := opt.Anchor; a != nil && a.Arch != t.net.Arch {
		return Result{}, fmt.Errorf("the anchor's architecture %+v is not the network's %+v", a.Arch, t.net.Arch)
	}
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
		ref := t.net // checkpoint 0
		if t.opt.Anchor != nil {
			ref = t.opt.Anchor // its shape checked by Run
		}
		t.clone = ref.Clone()
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
	defer t.dropAhead()
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
	if opt.InitOptim != "" {
		if err := t.loadOptim(opt.InitOptim); err != nil {
			return nil, fmt.Errorf("initial optimiser state: %w", err)
		}
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = defaultWorkers()
	}
	t.league.pfsp = cfg.Opponents.PFSP
	if err := t.newActors(workers); err != nil {
		return nil, err
	}
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
		if st, ok = t.play(ctx, it, &m); !ok {
			return m, errAborted
		}

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

// usesClone says whether the run needs the frozen cloned policy.
func (t *trainer) usesClone() bool {
	return t.cfg.PPO.KLClone > 0 || t.cfg.Opponents.Clone > 0
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

// evaluate plays games episodes: the policy with the run's play settings
// (Config.Play: greedy, or sampling as its weights will tell every command
// to play it, so that best.safetensors is picked on the play its users get)
// in seat (game mod seats), every other seat a baseline (drawn uniformly, or
// the lineup of eval.lineup).
func (t *trainer) evaluate(net *neural.Net, baselines []string, games int, seed uint64) (EvalResult, error) {
	return evaluate(t.rcfg, net, baselines, t.cfg.Eval.Lineup, games, seed, t.cfg.Workers, t.cfg.Play)
}
