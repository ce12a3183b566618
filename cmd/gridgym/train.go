package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/configs"
	"github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/store"
	"github.com/gridgym/gridgym/train"
)

func newTrainCmd() *cobra.Command {
	var (
		game, config, out string
		minutes           float64
		iterations        int
		seed              int64
		resume, quiet     bool
		cloneOnly         bool
		shards, teacher   string
		initFile          string
		showConfig        bool
		preset            string
		lf                learnerFlags
	)
	c := &cobra.Command{
		Use:   "train",
		Short: "Train a policy/value network by PPO self-play (with an optional behaviour-cloning warm start)",
		Long: `Train a convolutional policy/value network for a game with PPO against an
opponent pool (the current policy, past snapshots and scripted bots), after an
optional behaviour-cloning warm start from a scripted teacher, with DAgger
rounds if bc.dagger asks (the clone plays the teacher's seat, the teacher
labels every position it reaches, and the network is cloned again on it all:
Rising Tide's siege preset).

The run's settings come from the game's embedded default config
(train/default.yaml in its folder; print it with --show-config), or from --config FILE,
whose fields override the defaults one by one. --minutes and --iterations
override the config's. Every iteration appends a row to metrics.csv in the
run folder; checkpoints (safetensors weights + optimiser state) go under
checkpoints/, and losses.png / winrate.png are drawn at the end.

Interrupting (Ctrl-C) stops at the end of the iteration in progress;
--resume continues a run folder from its latest checkpoint and gives the same
result as an uninterrupted run.

Learner mode (--from-shards LOCATION --publish LOCATION): no self-play here;
actors ('gridgym selfplay --weights') upload shards to --from-shards and this
process learns from them as they arrive, by PPO on the stored log-probabilities
and values, publishing every new version to --publish (weights/vNNNNNN.safetensors,
then the pointer weights/LATEST) with learner.csv and learner-seen.txt (the
shards taken) beside; restarted on the same --publish, it resumes from the
newest version and skips those shards. Shards played by a policy more than
--max-stale versions old are dropped. Locations are folders,
file:// or s3:// URLs; see deploy/README.md.

Locations: --out may be a URL (file:///…, s3://bucket/prefix?endpoint=…): the
run is written into a local staging folder and uploaded there, object by
object, at every checkpoint (the pointer "latest" after the checkpoint it
names) and at the end; --resume --out URL downloads the run first. --shards
(or bc.shards) and --config may be URLs too: downloaded first.`,
		Example: `  gridgym train --game slime
  gridgym train --game slime --minutes 2 --out runs/slime-quick
  gridgym train --game bovine-borders --config my.yaml
  gridgym train --game bovine-borders --preset strong --out runs/bov-strong
  gridgym train --game bovine-borders --preset exit --out runs/bov-exit
  gridgym train --game rising-tide --preset siege --clone-only --out runs/rt-siege   # DAgger (bc.dagger)
  gridgym train --resume --out runs/slime-quick
  gridgym train --game nuggets --init models/nuggets/final.safetensors --config ft.yaml --out runs/nug-ft
  gridgym train --game slime --minutes 5 --out 's3://gridgym/runs/slime?endpoint=http://minio:9000&use_path_style=true'
  gridgym train --game slime --from-shards s3://gridgym/run1/shards?endpoint=… --publish s3://gridgym/run1?endpoint=…`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var runDir string // set once the run folder is open
			ctx, stop := interruptible(c.ErrOrStderr(), "stopping after this step, then saving a checkpoint", func() string { return savedCheckpoint(runDir) })
			defer stop()
			if resume && out == "" && lf.from == "" {
				return usagef("--resume needs --out RUN_FOLDER")
			}
			if initFile != "" && (resume || cloneOnly || lf.from != "") {
				return usagef("--init starts a fresh run from a weights file: not with --resume (the run's checkpoint holds its weights), --clone-only or --from-shards")
			}
			// The run folder: a local one is written in place; a URL's is
			// staged locally (downloaded first with --resume) and uploaded
			// at every checkpoint and at the end.
			var run *output
			if out != "" && lf.from == "" {
				var err error
				if run, err = openRun(ctx, out, "", resume); err != nil {
					return err
				}
			}
			var cfg train.Config
			var err error
			switch {
			case config != "" && preset != "":
				return usagef("--config and --preset: give one (a config file may start from a preset by copying %s)", configs.File(game, preset))
			case preset != "":
				cfg, err = train.PresetConfig(game, preset)
			case config != "":
				var path string
				if path, _, err = localInput(config, ""); err == nil {
					if c.Flags().Changed("game") {
						cfg, err = train.LoadConfigFor(path, game) // the file may leave the game to --game
					} else {
						cfg, err = train.LoadConfig(path)
					}
				}
			case run != nil && resume:
				cfg, err = train.LoadConfig(filepath.Join(run.dir, "config.yaml"))
			default:
				cfg, err = train.DefaultConfig(game)
			}
			if err != nil {
				return usageError{err}
			}
			if c.Flags().Changed("minutes") {
				cfg.Minutes = minutes
			}
			if c.Flags().Changed("iterations") {
				cfg.Iterations = iterations
			}
			if c.Flags().Changed("seed") {
				if seed < 0 {
					return usagef("--seed %d: want ≥ 0", seed)
				}
				cfg.Seed = uint64(seed)
			}
			if shards != "" {
				cfg.BC.Shards = shards
			}
			if teacher != "" {
				cfg.BC.Teacher = teacher
			}
			initNet, err := initialWeights(c, &cfg, initFile)
			if err != nil {
				return err
			}
			if err := cfg.Validate(); err != nil {
				return usageError{err}
			}
			if showConfig {
				_, err := c.OutOrStdout().Write(cfg.YAML())
				return err
			}
			if lf.from != "" {
				return runLearner(ctx, c, cfg, &lf, cfg.Minutes)
			}
			if run == nil {
				out = filepath.Join("runs", fmt.Sprintf("%s-%s", cfg.Game, time.Now().Format("20060102-150405")))
				if run, err = openRun(ctx, out, "", false); err != nil {
					return err
				}
			}
			runDir = run.dir
			if err := fetchBCShards(c, &cfg, run, resume); err != nil {
				return err
			}
			res, err := runTraining(ctx, c, cfg, run, "", train.Options{Resume: resume, CloneOnly: cloneOnly, Init: initNet}, quiet)
			if err != nil {
				return err
			}
			if res.Interrupted {
				fmt.Fprintf(c.ErrOrStderr(), "interrupted after iteration %d: continue with gridgym train --resume --out %s\n", res.Iterations, shellWord(out))
			}
			return nil
		},
	}
	c.Flags().StringVarP(&game, "game", "g", games.DefaultTrainGame, "game to train for (its embedded default config; a --config file that names no game is read as this game's)")
	c.Flags().StringVarP(&config, "config", "c", "", "YAML config file or its URL (fields override the game's defaults)")
	c.Flags().StringVar(&preset, "preset", "", "an embedded preset instead of the quick default: strong (train/strong.yaml in the game's folder: the stabilisers for fine-tuning the clone and a league, at most 2 hours), exit where the game ships one (Expert Iteration's measured recipe), or another the game ships (Rising Tide's siege: DAgger from siege_sofia); 'gridgym games' lists each game's presets")
	c.Flags().StringVarP(&out, "out", "o", "", "run folder, or URL (file://, s3://…: staged locally, uploaded at every checkpoint) (default runs/<game>-<time>, git-ignored)")
	c.Flags().Float64Var(&minutes, "minutes", 0, "stop after this many minutes, at an iteration boundary (overrides the config)")
	c.Flags().IntVar(&iterations, "iterations", 0, "planned iterations (overrides the config)")
	c.Flags().Int64Var(&seed, "seed", 1, "master seed (overrides the config)")
	c.Flags().BoolVar(&resume, "resume", false, "continue the run in --out from its latest checkpoint")
	c.Flags().BoolVar(&showConfig, "show-config", false, "print the resolved config as YAML and exit")
	c.Flags().BoolVar(&cloneOnly, "clone-only", false, "behaviour cloning only: imitate the teacher (bc section), save checkpoint 0, stop")
	c.Flags().StringVar(&shards, "shards", "", "clone from these existing trajectory shards (file, folder or URL: file://, s3://…) instead of playing the teacher")
	c.Flags().StringVar(&teacher, "teacher", "", "agent to imitate, as named in the shards or registered (overrides bc.teacher)")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress bar")
	c.Flags().StringVar(&initFile, "init", "", "fine-tune these weights (a .safetensors file of the game, e.g. a shipped network) instead of a fresh network: no behaviour cloning, the network section (and, where the config sets none, the play section) follows the file, and ppo.kl_clone / opponents.clone mean these weights")
	lf.add(c)
	return c
}

// phaseNames describes the warm start's phases (train.Progress.Phase).
var phaseNames = map[string]string{"bc-play": "playing the teacher", "bc": "behaviour cloning",
	"dagger-play": "DAgger: the clone plays, the teacher labels"}

// runTraining runs train.Run into the run folder sub of the output run
// (the output's folder itself for sub "") with a progress bar and prints a
// summary. A remote output is uploaded whenever a new checkpoint appears
// and at the end.
func runTraining(ctx context.Context, c *cobra.Command, cfg train.Config, run *output, sub string, opt train.Options, quiet bool) (train.Result, error) {
	var bar *progressbar.ProgressBar
	phase := ""
	opt.Dir = filepath.Join(run.dir, sub)
	latest := ""
	synced := func() {
		if !run.remote() {
			return
		}
		b, _ := os.ReadFile(filepath.Join(opt.Dir, "latest"))
		if string(b) == latest {
			return
		}
		latest = string(b)
		if err := run.sync(ctx); err != nil { // retried at the next checkpoint and at the end
			fmt.Fprintf(c.ErrOrStderr(), "warning: %v\n", err)
		}
	}
	opt.Progress = func(p train.Progress) {
		if p.Phase == "ppo" {
			defer synced()
		}
		if quiet || !isTerminal(os.Stderr) {
			if !quiet && p.Phase != phase && p.Phase != "ppo" {
				phase = p.Phase
				fmt.Fprintf(c.ErrOrStderr(), "%s: %s (%d steps)\n", p.Phase, phaseNames[p.Phase], p.Of)
			}
			if p.Phase == "ppo" && !quiet {
				fmt.Fprintf(c.ErrOrStderr(), "iter %d/%d  %s\n", p.Iteration, p.Iterations, describe(p.Metrics))
			}
			return
		}
		if p.Phase != phase {
			if bar != nil {
				bar.Finish()
			}
			phase = p.Phase
			bar = progressbar.NewOptions(p.Of, progressbar.OptionSetWriter(os.Stderr),
				progressbar.OptionSetDescription(p.Phase), progressbar.OptionShowCount(),
				progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
		}
		desc := phaseNames[p.Phase]
		if p.Phase == "ppo" {
			desc = describe(p.Metrics)
		}
		bar.Describe(fmt.Sprintf("%-6s %s", p.Phase, desc))
		bar.Set(p.Done)
	}
	if bc := cfg.BC; cfg.Minutes > 0 && bc.Samples > 0 && bc.TimeShare > 0 && !opt.Resume && !quiet {
		fmt.Fprintf(c.ErrOrStderr(), "warm start (cloning %s): at most %.1f of the %g minutes (bc.time_share %g); PPO gets the rest\n",
			bc.Teacher, cfg.Minutes*bc.TimeShare, cfg.Minutes, bc.TimeShare)
	}
	res, err := train.Run(ctx, cfg, opt)
	if bar != nil {
		bar.Finish()
	}
	if ferr := run.finish(ctx); ferr != nil {
		if err == nil {
			return res, ferr
		}
		fmt.Fprintf(c.ErrOrStderr(), "warning: %v\n", ferr)
	}
	if err != nil {
		if run.remote() {
			err = fmt.Errorf("run %s (staged in %s): %w", run.show(opt.Dir), opt.Dir, err)
		}
		return res, err
	}
	w := c.OutOrStdout()
	if res.BC.Samples > 0 {
		rounds := ""
		if res.BC.Dagger > 0 {
			rounds = fmt.Sprintf(" after %d DAgger rounds (dagger/)", res.BC.Dagger)
		}
		fmt.Fprintf(w, "behaviour cloning%s: %d samples, %d steps, loss %.3f, teacher-action accuracy %.1f%% (%.0fs)\n",
			rounds, res.BC.Samples, res.BC.Steps, res.BC.Loss, 100*res.BC.Accuracy, res.BC.Seconds)
	}
	if e := res.CloneEval; e.Games > 0 {
		fmt.Fprintf(w, "cloned policy (iteration 0): %d evaluation games, win %.2f, score %.2f, points %.2f (bc.json)\n", e.Games, e.Win, e.Score, e.Points)
	}
	if res.BC.Stopped {
		fmt.Fprintf(w, "behaviour cloning stopped after %d of %d steps (its share of --minutes, bc.time_share, or an interruption)\n", res.BC.Steps, res.BC.Planned)
	}
	mode := "PPO"
	if cfg.ExIt.Expert != "" {
		mode = "Expert Iteration"
	}
	if res.Iterations > 0 {
		fmt.Fprintf(w, "%s: %d iterations (%s), last %s\n", cfg.Game, res.Iterations, mode, describe(res.Last))
	} else {
		fmt.Fprintf(w, "%s: no %s iteration in the time given; the policy is the clone (checkpoint 0)\n", cfg.Game, mode)
	}
	fmt.Fprintf(w, "run folder %s (%s); weights %s\n", run.show(res.Dir), strings.Join(runFiles(res.Dir), ", "), run.show(res.Checkpoint))
	if res.Best != "" {
		fmt.Fprintf(w, "the policy of the best evaluation: %s\n", run.show(res.Best))
	}
	return res, nil
}

func describe(m train.Metrics) string {
	s := fmt.Sprintf("decisions/s %.0f", float64(m.Decisions)/max(m.ActSeconds, 1e-9))
	if !math.IsNaN(m.TrainWin) {
		s += fmt.Sprintf("  win(train) %.2f", m.TrainWin)
	}
	if !math.IsNaN(m.EvalWin) {
		s += fmt.Sprintf("  win(eval) %.2f score %.2f margin %+.2f", m.EvalWin, m.EvalScore, m.EvalMargin)
	}
	return s + fmt.Sprintf("  entropy %.2f", m.Entropy)
}

// openRun opens the output location loc for a training run folder at sub
// under it ("" for loc itself). A remote run folder is staged locally, with
// its pointer "latest" uploaded after everything else; with resume it is
// downloaded first.
func openRun(ctx context.Context, loc, sub string, resume bool) (*output, error) {
	o, err := openOutput(loc, path.Join(sub, "latest"))
	if err != nil {
		return nil, err
	}
	if !resume || !o.remote() {
		return o, nil
	}
	n, err := store.FetchDir(ctx, loc, o.dir, "")
	if err == nil && n == 0 {
		err = fmt.Errorf("no objects there")
	}
	if err != nil {
		return nil, fmt.Errorf("--resume: download run %s: %w", store.Redact(loc), err)
	}
	return o, o.mirror.Mark()
}

// fetchBCShards downloads the behaviour-cloning shards of a new run when
// they are a URL (--shards, bc.shards); the run's config.yaml then names
// the local copy it cloned from. A resumed run does not clone again: it
// keeps the shards its config.yaml names.
func fetchBCShards(c *cobra.Command, cfg *train.Config, run *output, resume bool) error {
	if !store.IsURL(cfg.BC.Shards) || cfg.BC.Samples == 0 {
		return nil
	}
	if resume {
		saved, err := train.LoadConfig(filepath.Join(run.dir, "config.yaml"))
		if err == nil {
			cfg.BC.Shards = saved.BC.Shards
		}
		return nil
	}
	p, _, err := localInput(cfg.BC.Shards, ".arrow")
	if err != nil {
		return fmt.Errorf("--shards: %w", err)
	}
	fmt.Fprintf(c.ErrOrStderr(), "behaviour cloning from %s, downloaded to %s\n", store.Redact(cfg.BC.Shards), p)
	cfg.BC.Shards = p
	return nil
}

// runFiles lists the summary files present in a run folder (metrics.csv,
// the plots, bc.json): only those written, so none is named that is not
// there.
func runFiles(dir string) []string {
	var have []string
	for _, f := range []string{"metrics.csv", "losses.png", "winrate.png", "bc.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			have = append(have, f)
		}
	}
	if len(have) == 0 {
		have = []string{"checkpoints only"}
	}
	return have
}

// savedCheckpoint says what a run folder keeps: its latest checkpoint, for
// the message of a second Ctrl-C.
func savedCheckpoint(dir string) string {
	if dir == "" {
		return "nothing was saved yet"
	}
	b, err := os.ReadFile(filepath.Join(dir, "latest"))
	if err != nil {
		return "no checkpoint was saved yet in " + dir
	}
	return fmt.Sprintf("%s keeps checkpoint %s", dir, strings.TrimSpace(string(b)))
}

// initialWeights loads --init's network for a fresh run and makes cfg
// describe it: its network section becomes the file's shape, its play
// settings the file's where the config sets none, and behaviour cloning is
// skipped (the file is the warm start; checkpoint 0 is a copy of
// it, and it is the "clone" of ppo.kl_clone and opponents.clone). It is nil
// without --init.
func initialWeights(c *cobra.Command, cfg *train.Config, file string) (*neural.Net, error) {
	if file == "" {
		return nil, nil
	}
	net, meta, err := neural.Load(file)
	if err != nil {
		return nil, usageError{fmt.Errorf("--init: %w", err)}
	}
	stored, ok, err := neural.StoredPlay(meta)
	if err != nil {
		return nil, usageError{fmt.Errorf("--init %s: %w", file, err)}
	}
	if ok && !cfg.Play.Stores() {
		cfg.Play = train.PlayConfigOf(stored)
	}
	if net.Arch.Game != cfg.Game {
		return nil, usagef("--init %s: weights of %s, the run trains %s", file, net.Arch.Game, cfg.Game)
	}
	a := net.Arch
	cfg.Network.Filters, cfg.Network.Layers, cfg.Network.Hidden, cfg.Network.Coords = a.Filters, a.Layers, a.Hidden, a.Coords
	// A game parameter that adds observation planes (Bovine Borders'
	// frontier_planes): start from the network with the new planes' weights
	// at zero, so the run starts where the file stands.
	if want, err := cfg.Arch(); err == nil && want.Planes > a.Planes {
		grown, err := net.WithPlanes(want)
		if err != nil {
			return nil, usageError{fmt.Errorf("--init %s: %w", file, err)}
		}
		fmt.Fprintf(c.ErrOrStderr(), "--init: %s sees %d planes, the run's game %d: the new planes start with zero weights\n", file, a.Planes, want.Planes)
		net = grown
	}
	if cfg.BC.Samples > 0 {
		fmt.Fprintf(c.ErrOrStderr(), "--init: starting from %s; behaviour cloning (bc.samples %d) skipped\n", file, cfg.BC.Samples)
		cfg.BC.Samples = 0
	}
	if cfg.PPO.Augment {
		warnAsymmetric(c.ErrOrStderr(), net, file, *cfg)
	}
	return net, nil
}

// warnAsymmetric says when an augmented run would fine-tune a network that
// plays another policy in its game's symmetric frames (its greedy move the
// same in under 90% of 300 decisions of its own play in some frame, and
// the policies more than 0.02 apart there): such
// runs made the shipped Nuggets and Bovine Borders networks worse where
// the same runs without augmentation did not.
func warnAsymmetric(w io.Writer, net *neural.Net, file string, cfg train.Config) {
	rcfg, err := cfg.RulesConfig()
	if err != nil {
		return // Validate reports it
	}
	frames, err := train.MeasureSymmetry(net, rcfg, 300, cfg.Seed)
	if err != nil || len(frames) == 0 {
		return
	}
	worst := frames[0]
	for _, f := range frames {
		if f.Greedy < worst.Greedy {
			worst = f
		}
	}
	// Greedy moves that differ on exact ties (a policy distance near 0)
	// are not another policy.
	if worst.Greedy < 0.9 && worst.TV > 0.02 {
		fmt.Fprintf(w, "--init: %s is not equivariant (in frame %d its greedy move is the same in %.0f%% of its decisions, policy distance %.2f): with ppo.augment the run learns from another policy's play, which made such networks worse (reports/nuggets/finetune); consider ppo.augment: false (gridgym weights symmetry FILE)\n",
			file, worst.Frame, 100*worst.Greedy, worst.TV)
	}
}
