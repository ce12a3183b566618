package league

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train"
)

// The league folder's fixed names.
const (
	poolDir     = "pool"                // frozen snapshots, pool/<member>.safetensors
	initialFile = "initial.safetensors" // the initial network
	finalFile   = "final.safetensors"   // <learner>/final.safetensors: its weights after the last round
)

// plan is one learner's round: who it trains against and where it writes.
type plan struct {
	learner *Learner
	index   int // the learner's index in the state (its seed stream)
	// opponents are the round's opponents by name — pool members or, for
	// a main exploiter, its main agent — with repeats: each takes an equal
	// share of the opponent seats that are not self-play.
	opponents []string
	self      float64 // share of opponent seats that are the learner itself
	// beside are the bots that fill the other seats beside the opponent,
	// in training and the payoff match: a main exploiter's
	// Settings.ExploitWith; none, copies of the opponents.
	beside  []string
	config  train.Config
	run     string // the round's training run folder, league-relative
	weights string // the weights it ends the round with, league-relative
	trained int    // iterations trained this round
	optim   string // the checkpoint folder it ends the round with, league-relative
}

// Step plays one round of the league, AlphaStar's loop at the scale of a
// round (every learner trains Settings.Iterations iterations), and
// records it in league.json:
//
//	for every learner:   opponents ← PFSP over the pool (main agents,
//	                     league exploiters) or its main agent (main
//	                     exploiters); train.Run from its current weights
//	for every learner:   payoff matches against each opponent it met
//	every K rounds:      freeze every learner into the pool
//	main exploiter won, or out of budget:   freeze if it won; reset
//	league exploiter won against all:       freeze; reset sometimes
//	learning curve:      the main agent against the eval bots
//	commit:              league.json, atomically
func (l *League) Step(ctx context.Context) (RoundReport, error) {
	t0 := time.Now()
	round := l.State.Round + 1
	rng := rules.Derive(l.State.Settings.Seed, uint64(round))
	if err := l.clearRound(round); err != nil {
		return RoundReport{}, err
	}
	plans, err := l.plans(rng, round)
	if err != nil {
		return RoundReport{}, err
	}
	if err := l.trainAll(ctx, plans); err != nil {
		return RoundReport{}, err
	}
	if err := l.measure(ctx, round, plans); err != nil {
		return RoundReport{}, err
	}
	rep := l.report(round, plans) // the win shares before any reset forgets them
	events, err := l.snapshotAndReset(rng, round, plans)
	if err != nil {
		return RoundReport{}, err
	}
	curve, err := l.evaluate(ctx, round, time.Since(t0))
	if err != nil {
		return RoundReport{}, err
	}
	l.State.Round = round
	l.State.ElapsedS += time.Since(t0).Seconds()
	l.State.Curve = append(l.State.Curve, curve...)
	if err := l.commit(); err != nil {
		return RoundReport{}, err
	}
	rep.Elapsed = time.Duration(l.State.ElapsedS * float64(time.Second))
	rep.Events, rep.Pool, rep.Curve = events, len(l.State.Members), curve
	return rep, nil
}

// plans chooses every learner's opponents for round and derives its
// training config.
func (l *League) plans(rng *rules.RNG, round int) ([]*plan, error) {
	st, s := l.State, l.State.Settings
	var plans []*plan
	for i := range st.Learners {
		ln := &st.Learners[i]
		p := &plan{learner: ln, index: i,
			run:     filepath.Join(ln.Name, fmt.Sprintf("run-r%04d", round)),
			weights: filepath.Join(ln.Name, fmt.Sprintf("weights-r%04d.safetensors", round))}
		var err error
		switch ln.Role {
		case RoleMain:
			p.self = s.MainSelf
			p.opponents, err = st.Payoff.Draw(rng, ln.Name, st.memberNames(), Hard, s.Draws)
		case RoleMainExploiter:
			p.opponents, p.beside = []string{ln.Target}, s.ExploitWith
		case RoleLeagueExploiter:
			p.opponents, err = st.Payoff.Draw(rng, ln.Name, st.memberNames(), Hard, s.Draws)
		default:
			err = fmt.Errorf("learner %s: unknown role %q", ln.Name, ln.Role)
		}
		if err != nil {
			return nil, err
		}
		if p.config, err = l.roundConfig(p, round); err != nil {
			return nil, err
		}
		plans = append(plans, p)
	}
	return plans, nil
}

// roundConfig derives a learner's training config for round from the
// base config: its network, PPO, envs and decisions as they are; the
// opponent pool the plan's opponents (as bot specs: a member's weights
// file or scripted bot, a main agent's current weights) and the plan's
// self-play share (a main exploiter with Settings.ExploitWith: the table
// of its main agent and those bots), nothing else — no past snapshots of
// the run's own, no frozen clone, no warm start, no Expert Iteration, no
// evaluations, no KL term but a main agent's Settings.Anchor — at a
// constant learning rate; Settings.Iterations iterations, one checkpoint
// at the end. It refuses a config that names a held-out bot.
func (l *League) roundConfig(p *plan, round int) (train.Config, error) {
	cfg := l.base
	cfg.Seed = rules.Derive(l.State.Settings.Seed, uint64(round)<<8|uint64(p.index)+1).Uint64()
	cfg.Iterations, cfg.Minutes = l.State.Settings.Iterations, 0
	specs := make([]string, len(p.opponents))
	for i, name := range p.opponents {
		spec, err := l.spec(name)
		if err != nil {
			return train.Config{}, err
		}
		specs[i] = spec
	}
	if len(p.beside) > 0 {
		// Its opponent and the company, every episode; the scripted list,
		// which a table does not draw from, names the opponent as without one.
		cfg.Opponents = train.OpponentConfig{Scripted: specs, Table: slices.Concat(specs, p.beside), PoolEvery: 1}
	} else {
		cfg.Opponents = train.OpponentConfig{Scripted: specs, Self: p.self, PoolEvery: 1}
	}
	cfg.PPO.LRFinal = 1
	cfg.PPO.KLClone, cfg.PPO.KLAnneal, cfg.PPO.CriticWarmup = 0, 0, 0
	if p.learner.Role == RoleMain && l.State.Settings.Anchor > 0 {
		cfg.PPO.KLClone, cfg.PPO.KLAnneal = l.State.Settings.Anchor, 1e6 // towards the initial network: trainOne
	}
	cfg.BC, cfg.ExIt, cfg.Eval = train.BCConfig{}, train.ExItConfig{}, train.EvalConfig{}
	cfg.CheckpointEvery = cfg.Iterations
	if err := cfg.Validate(); err != nil {
		return train.Config{}, fmt.Errorf("learner %s, round %d: %w", p.learner.Name, round, err)
	}
	if err := CheckNoHeldOut(cfg); err != nil {
		return train.Config{}, fmt.Errorf("learner %s, round %d: %w", p.learner.Name, round, err)
	}
	return cfg, nil
}

// spec is the bot spec of a pool member or learner, by name: a scripted
// bot's name, or LABEL=FILE for a network (a learner's current weights).
func (l *League) spec(name string) (string, error) {
	if m := l.State.member(name); m != nil {
		if m.Bot != "" {
			return m.Bot, nil
		}
		return name + "=" + l.abs(m.Weights), nil
	}
	if ln := l.State.learner(name); ln != nil {
		return name + "=" + l.abs(ln.Weights), nil
	}
	return "", fmt.Errorf("no pool member or learner %q", name)
}

// clearRound removes what an earlier attempt at round left (a run killed
// before it committed the round), so that the round is played afresh.
func (l *League) clearRound(round int) error {
	for _, ln := range l.State.Learners {
		for _, p := range []string{fmt.Sprintf("run-r%04d", round), fmt.Sprintf("weights-r%04d.safetensors", round)} {
			if err := os.RemoveAll(filepath.Join(l.Dir, ln.Name, p)); err != nil {
				return fmt.Errorf("clear round %d: %w", round, err)
			}
		}
	}
	return nil
}

// copyWeights copies the weights file src to dst atomically (league
// folder paths, relative).
func (l *League) copyWeights(src, dst string) error {
	b, err := os.ReadFile(l.abs(src))
	if err != nil {
		return fmt.Errorf("copy weights: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(l.abs(dst)), 0o755); err != nil {
		return fmt.Errorf("copy weights: %w", err)
	}
	return neural.WriteFileAtomic(l.abs(dst), b)
}

// commit writes league.json, then removes what the round left behind:
// each learner's weights files other than its current one, and its run
// folders other than the last round's.
func (l *League) commit() error {
	if err := l.State.save(l.Dir); err != nil {
		return err
	}
	last := fmt.Sprintf("run-r%04d", l.State.Round)
	for _, ln := range l.State.Learners {
		entries, err := os.ReadDir(filepath.Join(l.Dir, ln.Name))
		if err != nil {
			continue
		}
		for _, e := range entries {
			n := e.Name()
			stale := (e.IsDir() && len(n) == len(last) && n[:5] == "run-r" && n != last) ||
				(!e.IsDir() && filepath.Ext(n) == ".safetensors" && len(n) > 9 && n[:9] == "weights-r" && filepath.Join(ln.Name, n) != ln.Weights)
			if stale {
				if err := os.RemoveAll(filepath.Join(l.Dir, ln.Name, n)); err != nil {
					return fmt.Errorf("league: %w", err)
				}
			}
		}
	}
	if err := l.writeCurve(); err != nil {
		return err
	}
	return l.writeCurvePlot()
}

// writeFinals copies every learner's current weights to
// <learner>/final.safetensors, the file to export or enter in a
// tournament.
func (l *League) writeFinals() error {
	for _, ln := range l.State.Learners {
		if err := l.copyWeights(ln.Weights, filepath.Join(ln.Name, finalFile)); err != nil {
			return err
		}
	}
	return nil
}

// MainWeights is the first main agent's final weights file
// (<dir>/main/final.safetensors), written by Run.
func (l *League) MainWeights() string { return l.abs(filepath.Join(RoleMain, finalFile)) }

// distinct is names sorted without repeats.
func distinct(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}
