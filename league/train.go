package league

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/train"
)

// Shares splits workers cores among learners: with at least as many
// cores as learners each learner gets an equal share (the first ones one
// more where it does not divide) and they all train at once (concurrent
// true); with fewer, each trains on all of them, one after another. The
// split depends only on the two counts, so a league gives the same bits
// for the same seed and cores (train.Run does for the same workers).
func Shares(workers, learners int) (shares []int, concurrent bool) {
	shares = make([]int, learners)
	if workers < learners {
		for i := range shares {
			shares[i] = max(workers, 1)
		}
		return shares, false
	}
	for i := range shares {
		shares[i] = workers / learners
		if i < workers%learners {
			shares[i]++
		}
	}
	return shares, true
}

// trainAll trains every learner of the round (train.Run from its current
// weights), concurrently where the cores allow (Shares), and points each
// learner at its new weights. An interrupted run ends the round with
// ErrInterrupted.
func (l *League) trainAll(ctx context.Context, plans []*plan) error {
	shares, concurrent := Shares(l.workers, len(plans))
	errs := make([]error, len(plans))
	if concurrent {
		var wg sync.WaitGroup
		for i, p := range plans {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = l.trainOne(ctx, p, shares[i])
			}()
		}
		wg.Wait()
	} else {
		for i, p := range plans {
			if errs[i] = l.trainOne(ctx, p, shares[i]); errs[i] != nil {
				break
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		if errors.Is(err, ErrInterrupted) {
			return ErrInterrupted
		}
		return err
	}
	for _, p := range plans {
		ln := p.learner
		ln.Weights, ln.Optim = p.weights, p.optim
		ln.Iterations += p.trained
		ln.Since++
	}
	return nil
}

// trainOne runs one learner's round: train.Run of its config on workers
// cores, started from its current weights, into the plan's run folder;
// the last checkpoint is copied to the plan's weights file.
func (l *League) trainOne(ctx context.Context, p *plan, workers int) error {
	net, _, err := neural.Load(l.abs(p.learner.Weights))
	if err != nil {
		return fmt.Errorf("learner %s: %w", p.learner.Name, err)
	}
	cfg := p.config
	cfg.Workers = workers
	opt := train.Options{Dir: l.abs(p.run), Init: net, Log: l.opt.Log}
	if p.learner.Optim != "" && !l.State.Settings.RestartOptimizer {
		opt.InitOptim = l.abs(p.learner.Optim)
	}
	if cfg.PPO.KLClone > 0 { // a main agent's anchor (roundConfig)
		if opt.Anchor, _, err = neural.Load(l.abs(initialFile)); err != nil {
			return fmt.Errorf("learner %s: the anchor: %w", p.learner.Name, err)
		}
	}
	res, err := train.Run(ctx, cfg, opt)
	if err != nil {
		return fmt.Errorf("learner %s: %w", p.learner.Name, err)
	}
	if res.Interrupted || res.Iterations < cfg.Iterations {
		return ErrInterrupted
	}
	p.trained = res.Iterations
	rel, err := relTo(l.Dir, res.Checkpoint)
	if err != nil {
		return err
	}
	p.optim = filepath.Dir(rel)
	return l.copyWeights(rel, p.weights)
}
