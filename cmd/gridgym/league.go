package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/league"
	"github.com/gridgym/gridgym/train"
)

// leagueSettingFlags are the flags that set a new league's settings; a
// resumed league keeps the ones it was created with.
var leagueSettingFlags = []string{"seed", "iterations", "snapshot-every", "draws", "payoff-games", "main-agents", "main-exploiters", "league-exploiters", "eval", "eval-games", "eval-with", "exploit-with", "anchor", "restart-optimizer"}

func newLeagueCmd() *cobra.Command {
	var (
		opt    league.Options
		s      = league.Defaults()
		config string
		quiet  bool
	)
	c := &cobra.Command{
		Use:   "league",
		Short: "Train a network in an AlphaStar-style league: main agents, exploiters, a frozen pool, PFSP",
		Long: `Train a game's network in a league (issue 54, in the spirit of AlphaStar's):
every round each learner trains --iterations PPO iterations from its weights.

  main agent        against a PFSP mixture of the pool (the opponents it loses
                    to most often) and itself (35% of the seats)
  main exploiter    against the current main agent alone; reset to the initial
                    network when it wins ≥ 70% against it or after 4 rounds
  league exploiter  against the pool with PFSP; frozen when it beats all its
                    opponents, then reset one time in four

The pool is frozen players only: the initial network, the scripted bots of
the base config's opponents, and a snapshot of every learner every
--snapshot-every rounds. After training, each learner plays --payoff-games
games against each opponent it met; the payoff table of win shares weighs
the next PFSP draws. Held-out bots never enter it; name them in --eval to
draw the main agent's learning curve against them (D/curve.csv): they are
played against after every round, never trained against. By default copies
of the eval bot fill the other seats; --eval-with names the bots that fill
them instead (the acceptance form of issue 54: the network, a held-out bot
and the two strongest scripted bots, every seating order), and the curve's
margin is then the main agent's per-game margin over the eval bot.
--exploit-with seats a company beside every main exploiter and its main
agent (field: the competition's sample bots), in training and payoff
matches, as 'gridgym exploit --with' does: a weakness that shows only
when the rest of the table is weak is found only there.

The league folder (--dir) holds league.json (members, roles, payoff table,
round counter), written atomically after each round: run the same command
again (--dir alone is enough) to resume a stopped league at the round it
was playing. The main agent's weights end in D/main/final.safetensors, for
tournament and export. Learners train at once, each on its share of the
cores, when there are as many cores as learners, else one after another on
all of them; the same seed and --workers give the same league.
Docs: docs/league.md.`,
		Example: `  gridgym league --game rising-tide --dir runs/league-rt --rounds 20 --init models/rising-tide/final.safetensors
  gridgym league --game slime --dir runs/league-slime --minutes 60 --eval surveyor,hunter
  gridgym league --game nuggets --dir runs/league-nug --init models/nuggets/final.safetensors --eval appraiser_april --eval-with fortress,greedy_tuned --eval-games 48
  gridgym league --game slime --dir runs/league-sf --init models/slime/final.safetensors --exploit-with field --eval hunter --eval-with field
  gridgym league --game bovine-borders --dir runs/league-bb --init models/bovine-borders/final.safetensors --anchor 0.1 --minutes 60
  gridgym league --dir runs/league-rt --rounds 40            # resume, go on to round 40
  gridgym tournament --game rising-tide --bots runs/league-rt/main/final.safetensors,breach_berlin,trench_tunis,wall_warsaw`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := leagueInputs(c, &opt, &s, config); err != nil {
				return err
			}
			e := c.ErrOrStderr()
			opt.Log = func(f string, a ...any) { fmt.Fprintf(e, "warning: "+f+"\n", a...) }
			if !quiet {
				opt.Progress = func(r league.RoundReport) { fmt.Fprint(e, r.String()) }
			}
			l, err := league.Open(opt)
			var ie *league.InputError
			if errors.As(err, &ie) {
				return usageError{err}
			} else if err != nil {
				return err
			}
			ctx, stop := interruptible(e, "stopping; the round in progress is played again on resume",
				func() string { return "league.json keeps the finished rounds" })
			defer stop()
			w := c.OutOrStdout()
			fmt.Fprintf(w, "== league of %s in %s: round %d, %d learners, %d pool members\n", l.State.Game, l.Dir, l.State.Round, len(l.State.Learners), len(l.State.Members))
			err = l.Run(ctx)
			l.Summary(w)
			if errors.Is(err, league.ErrInterrupted) {
				fmt.Fprintln(w, "interrupted: run the same command again to resume")
				return nil
			}
			return err
		},
	}
	leagueFlags(c, &opt, &s, &config, &quiet)
	return c
}

// leagueFlags declares the command's flags.
func leagueFlags(c *cobra.Command, opt *league.Options, s *league.Settings, config *string, quiet *bool) {
	f := c.Flags()
	f.StringVarP(&opt.Game, "game", "g", "", "a new league's game (a resumed one keeps its own)")
	f.StringVarP(&opt.Dir, "dir", "d", "", "the league folder: created, or resumed if it holds league.json")
	f.Float64Var(&opt.Minutes, "minutes", 0, "stop before a round that would end past this many minutes of the league in all")
	f.IntVar(&opt.Rounds, "rounds", 0, "stop once this many rounds are finished in all")
	f.StringVar(config, "config", "", "a new league's base training config (default: the game's train/default.yaml)")
	f.StringVar(&opt.Init, "init", "", "a weights file every learner starts from (default: a fresh network of the config's shape)")
	f.IntVar(&opt.Workers, "workers", 0, "cores to use (default: all)")
	f.Uint64Var(&s.Seed, "seed", s.Seed, "a new league's master seed")
	f.IntVar(&s.Iterations, "iterations", s.Iterations, "PPO iterations each learner trains a round")
	f.IntVar(&s.SnapshotEvery, "snapshot-every", s.SnapshotEvery, "rounds between frozen snapshots of every learner")
	f.IntVar(&s.Draws, "draws", s.Draws, "PFSP draws from the pool that make a learner's opponents for a round")
	f.IntVar(&s.PayoffGames, "payoff-games", s.PayoffGames, "games of each payoff match after a round")
	f.IntVar(&s.MainAgents, "main-agents", s.MainAgents, "main agents")
	f.IntVar(&s.MainExploiters, "main-exploiters", s.MainExploiters, "main exploiters")
	f.IntVar(&s.LeagueExploiters, "league-exploiters", s.LeagueExploiters, "league exploiters")
	f.StringSliceVar(&s.Eval, "eval", nil, "bots the main agent is evaluated against after every round (never trained against): the learning curve D/curve.csv")
	f.IntVar(&s.EvalGames, "eval-games", s.EvalGames, "games of each evaluation")
	f.StringSliceVar(&s.EvalWith, "eval-with", nil, "bots seated beside the main agent and each --eval bot, filling the table (the acceptance form: the strongest scripted bots), every seating order; the curve's margin is then the main agent's per-game margin over the eval bot (default: copies of the eval bot fill the table); field or reference: the game's bots of that name")
	f.StringSliceVar(&s.ExploitWith, "exploit-with", nil, "bots seated beside every main exploiter and its main agent, in its training and payoff matches (every seating order), instead of copies of the main agent: the game's seats − 2 bots (never a held-out one), or field (its sample bots) or reference (its strongest scripted bots), as exploit --with")
	f.Float64Var(&s.Anchor, "anchor", s.Anchor, "weight of a KL term keeping every main agent near the initial network (--init), in every round; 0: none")
	f.BoolVar(&s.RestartOptimizer, "restart-optimizer", false, "start Adam's moments from zero every round (leagues before 2026-11-30); default: each learner's round continues its last round's optimiser state")
	f.BoolVarP(quiet, "quiet", "q", false, "no progress lines")
}

// leagueInputs fills opt from the flags: a new league's base config and
// settings; on a league folder that exists, the settings flags are
// refused (league.Open refuses a base config).
func leagueInputs(c *cobra.Command, opt *league.Options, s *league.Settings, config string) error {
	if opt.Dir == "" {
		return usagef("no league folder: give --dir")
	}
	if config != "" {
		base, err := train.LoadConfigFor(config, opt.Game)
		if err != nil {
			return usageError{err}
		}
		opt.Base = &base
	}
	var changed []string
	for _, n := range leagueSettingFlags {
		if c.Flags().Changed(n) {
			changed = append(changed, "--"+n)
		}
	}
	if len(changed) > 0 || !league.Exists(opt.Dir) {
		opt.Settings = s
	}
	if len(changed) > 0 && league.Exists(opt.Dir) {
		return usagef("%s holds a league: its settings were fixed when it was created (%s); resume with --dir and --rounds, --minutes or --workers", opt.Dir, strings.Join(changed, ", "))
	}
	if opt.Init != "" && !league.Exists(opt.Dir) {
		warnLeagueInit(c, opt)
	}
	return nil
}

// warnLeagueInit warns, as train --init does, when a new league's learners
// would fine-tune a non-equivariant --init network with augmentation (its
// errors are league.Open's to report).
func warnLeagueInit(c *cobra.Command, opt *league.Options) {
	net, _, err := neural.Load(opt.Init)
	if err != nil {
		return
	}
	var cfg train.Config
	if opt.Base != nil {
		cfg = *opt.Base
	} else if cfg, err = train.DefaultConfig(net.Arch.Game); err != nil {
		return
	}
	if cfg.PPO.Augment && cfg.Game == net.Arch.Game {
		warnAsymmetric(c.ErrOrStderr(), net, opt.Init, cfg)
	}
}
