package league

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/exploit"
	"github.com/gridgym/gridgym/rules"
)

// match plays games games of the bot spec a in one seat against copies of
// the spec b in every other seat, seats rotated (as exploit's
// evaluation), and returns the result.
func (l *League) match(ctx context.Context, a, b string, games int, seed uint64) (*eval.Result, error) {
	seats := l.rcfg.Game().New(l.rcfg).Spec().Seats
	bots := []string{a}
	for len(bots) < seats {
		bots = append(bots, b)
	}
	return l.play(ctx, eval.Config{Game: l.rcfg, Bots: bots, Games: games, Seed: seed, Workers: l.workers})
}

// table plays games games of bots, one a seat, in every seating order.
func (l *League) table(ctx context.Context, bots []string, games int, seed uint64) (*eval.Result, error) {
	return l.play(ctx, eval.Config{Game: l.rcfg, Bots: bots, Games: games, Seed: seed, Workers: l.workers, AllOrders: true})
}

// play runs a tournament of the league's, ErrInterrupted if ctx ended it.
func (l *League) play(ctx context.Context, cfg eval.Config) (*eval.Result, error) {
	r, err := eval.Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}
	return r, nil
}

// measure plays the round's payoff matches — every learner, at its new
// weights, against each distinct opponent it trained against (a main
// exploiter with Settings.ExploitWith: beside those bots, every seating
// order) — and adds them to the payoff table (Payoff.Add with
// Settings.PayoffDecay). A game counts the share of the learner's seat
// comparisons with the opponent's seats that it won (eval.ComputePairwise).
func (l *League) measure(ctx context.Context, round int, plans []*plan) error {
	s := l.State.Settings
	for _, p := range plans {
		me := p.learner.Name + "=" + l.abs(p.learner.Weights)
		for j, opp := range distinct(p.opponents) {
			spec, err := l.spec(opp)
			if err != nil {
				return err
			}
			seed := rules.Derive(s.Seed, uint64(round)<<16|uint64(p.index)<<8|uint64(j)).Uint64()
			var r *eval.Result
			if len(p.beside) > 0 {
				r, err = l.table(ctx, slices.Concat([]string{me, spec}, p.beside), s.PayoffGames, seed)
			} else {
				r, err = l.match(ctx, me, spec, s.PayoffGames, seed)
			}
			if err != nil {
				return fmt.Errorf("payoff match %s vs %s: %w", p.learner.Name, opp, err)
			}
			pw := eval.ComputePairwise(r)
			rec := pw.Pairs[0][1]
			l.State.Payoff.Add(p.learner.Name, opp, rec.Score, float64(rec.Games), s.PayoffDecay)
		}
	}
	return nil
}

// snapshotAndReset applies the league's rules for frozen snapshots and
// resets after round's payoff matches, and returns what it did in words:
//
//	every SnapshotEvery rounds  every learner is frozen into the pool
//	main exploiter              beat its main agent (win share ≥ WinThreshold):
//	                            frozen, reset to the initial network; or reset
//	                            after ExploiterBudget rounds without success
//	league exploiter            beat every opponent of its round: frozen, and
//	                            reset with probability LeagueReset
func (l *League) snapshotAndReset(rng *rules.RNG, round int, plans []*plan) ([]string, error) {
	s := l.State.Settings
	var events []string
	for _, p := range plans {
		ln := p.learner
		frozen := round%s.SnapshotEvery == 0
		if frozen {
			if err := l.freeze(ln, round); err != nil {
				return nil, err
			}
		}
		won, reset := false, false
		switch ln.Role {
		case RoleMainExploiter:
			won = l.State.Payoff.Rate(ln.Name, ln.Target) >= s.WinThreshold
			reset = won || ln.Since >= s.ExploiterBudget
		case RoleLeagueExploiter:
			won = l.beatAll(ln.Name, p.opponents)
			reset = won && rng.Float64() < s.LeagueReset
		}
		if won {
			events = append(events, fmt.Sprintf("%s beat %s (≥ %.2f)", ln.Name, strings.Join(distinct(p.opponents), ", "), s.WinThreshold))
			if !frozen {
				if err := l.freeze(ln, round); err != nil {
					return nil, err
				}
			}
		}
		if reset {
			events = append(events, fmt.Sprintf("%s reset to the initial network after %d rounds", ln.Name, ln.Since))
			l.reset(ln)
		}
	}
	return events, nil
}

// beatAll says whether learner's win share against every one of
// opponents is at least the threshold.
func (l *League) beatAll(learner string, opponents []string) bool {
	for _, o := range opponents {
		if l.State.Payoff.Rate(learner, o) < l.State.Settings.WinThreshold {
			return false
		}
	}
	return true
}

// freeze adds a snapshot of a learner's current weights to the pool as
// <learner>-r<round> (pool/<name>.safetensors).
func (l *League) freeze(ln *Learner, round int) error {
	name := fmt.Sprintf("%s-r%04d", ln.Name, round)
	file := filepath.Join(poolDir, name+".safetensors")
	if err := l.copyWeights(ln.Weights, file); err != nil {
		return err
	}
	l.State.Members = append(l.State.Members, Member{Name: name, Role: ln.Role, Weights: file, Round: round})
	ln.Snapshots++
	return nil
}

// reset starts a learner again from the initial network, as a new player:
// its payoff records are forgotten.
func (l *League) reset(ln *Learner) {
	ln.Weights, ln.Iterations, ln.Since, ln.Optim = initialFile, 0, 0, ""
	ln.Resets++
	l.State.Payoff.Forget(ln.Name)
}

// evaluate plays the first main agent against each bot of Settings.Eval
// (the learning curve), Settings.EvalGames games each: with
// Settings.EvalWith beside them in every seating order, the margin the
// main agent's per-game margin over the bot (eval.PairMargin); without,
// copies of the bot in every other seat, seats rotated, the figures
// exploit.Measure's (the margin over the bot's mean). Either way the
// margin is of competition scores, with its 95% interval.
func (l *League) evaluate(ctx context.Context, round int, spent time.Duration) ([]CurvePoint, error) {
	s := l.State.Settings
	var out []CurvePoint
	main := l.State.Learners[0]
	me := main.Name + "=" + l.abs(main.Weights)
	for j, bot := range s.Eval {
		seed := rules.Derive(s.Seed^0xe7a1, uint64(round)<<8|uint64(j)).Uint64()
		p := CurvePoint{Round: round, Minutes: (l.State.ElapsedS + spent.Seconds()) / 60, Bot: bot}
		if len(s.EvalWith) > 0 {
			r, err := l.table(ctx, append([]string{me, bot}, s.EvalWith...), s.EvalGames, seed)
			if err != nil {
				return nil, fmt.Errorf("evaluation against %s: %w", bot, err)
			}
			m, err := eval.PairMargin(r, main.Name, bot)
			if err != nil {
				return nil, fmt.Errorf("evaluation against %s: %w", bot, err)
			}
			p.Games, p.Main, p.Opponent, p.Margin, p.MarginLo, p.MarginHi, p.ScoreName = m.Games, m.MeanA, m.MeanB, m.Mean, m.Lo, m.Hi, m.Score
		} else {
			r, err := l.match(ctx, me, bot, s.EvalGames, seed)
			if err != nil {
				return nil, fmt.Errorf("evaluation against %s: %w", bot, err)
			}
			m := exploit.Measure(r, eval.RatingOptions{Resamples: -1})
			p.Games, p.Main, p.Opponent, p.Margin, p.MarginLo, p.MarginHi, p.ScoreName = m.Games, m.Exploiter, m.Target, m.Mean, m.Lo, m.Hi, m.Score
		}
		out = append(out, p)
	}
	return out, nil
}
