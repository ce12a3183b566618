package league

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/exploit"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train"
)

// Options are one run of a league: where it lives, what a new league is
// made of, and how long this run goes on.
type Options struct {
	// Dir is the league folder. If it holds league.json the league is
	// resumed and Game, Base, Init and Settings must be left empty (or
	// agree with it): they are fixed when a league is created.
	Dir string
	// Game is a new league's game; Base its base training config (nil =
	// the game's default config, train/default.yaml in its folder): its
	// network, PPO, envs and decisions sections, and its opponents'
	// scripted bots, which join the pool. Init is a weights file every
	// learner starts from ("" = a fresh network of Base's shape, from the
	// seed). Settings are its settings (nil = Defaults()).
	Game     string
	Base     *train.Config
	Init     string
	Settings *Settings
	// Rounds stops the league once it has finished that many rounds in
	// all (0 = no limit). Minutes (0..1e6, 0 = none) caps its total wall
	// time, counted over every run: a round that would end past it is not
	// started. At least one of them must be set.
	Rounds  int
	Minutes float64
	// Workers is the cores the league uses, 0 = GOMAXPROCS. With at least
	// as many cores as learners every learner trains at once, each on its
	// share; with fewer they train one after another on all of them. A
	// league gives the same bits for the same seed and Workers.
	Workers int
	// Progress receives each finished round's report; Log the training's
	// warnings (it may be called from several goroutines at once). Either
	// may be nil.
	Progress func(RoundReport)
	Log      func(format string, args ...any)
}

// League is an open league folder, ready to play rounds.
type League struct {
	Dir   string // absolute
	State *State
	base  train.Config
	rcfg  rules.Config
	opt   Options
	// workers is the cores to use (Options.Workers or GOMAXPROCS).
	workers int
}

// InputError is a league input that cannot be used (a value out of range,
// a held-out bot in the base config, a folder that holds another league):
// the command reports it as bad input.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

func inputf(format string, a ...any) error { return &InputError{fmt.Errorf(format, a...)} }

// ErrInterrupted says a round was cut short by its context's end: it is
// not recorded, and the next run of the league plays it again.
var ErrInterrupted = errors.New("league: round interrupted; the next run plays it again")

// baseFile is the league folder's copy of its base training config.
const baseFile = "base.yaml"

// Open creates the league in opt.Dir, or resumes the one there. Errors
// in opt are *InputError.
func Open(opt Options) (*League, error) {
	if opt.Dir == "" {
		return nil, inputf("no league folder")
	}
	if opt.Rounds < 0 || !(opt.Minutes >= 0 && opt.Minutes <= 1e6) || opt.Workers < 0 || opt.Workers > 256 {
		return nil, inputf("rounds %d, minutes %v, workers %d: want rounds ≥ 0, minutes 0..1000000, workers 0..256", opt.Rounds, opt.Minutes, opt.Workers)
	}
	if opt.Rounds == 0 && opt.Minutes == 0 {
		return nil, inputf("no budget: give rounds, minutes or both")
	}
	dir, err := filepath.Abs(opt.Dir)
	if err != nil {
		return nil, err
	}
	l := &League{Dir: dir, opt: opt, workers: opt.Workers}
	if l.workers == 0 {
		l.workers = runtime.GOMAXPROCS(0)
	}
	if Exists(dir) {
		err = l.resume()
	} else {
		err = l.create()
	}
	if err != nil {
		return nil, err
	}
	if l.rcfg, err = l.base.RulesConfig(); err != nil {
		return nil, err
	}
	return l, nil
}

// resume reads the league in l.Dir, refusing creation inputs that
// disagree with it.
func (l *League) resume() error {
	st, err := loadState(l.Dir)
	if err != nil {
		return &InputError{err}
	}
	opt := l.opt
	if opt.Settings != nil { // compared as create stored them
		s := *opt.Settings
		s.resolveCompanies(st.Game)
		opt.Settings = &s
	}
	switch {
	case opt.Game != "" && opt.Game != st.Game:
		return inputf("%s holds a league of %s, not %s", l.Dir, st.Game, opt.Game)
	case opt.Base != nil || opt.Init != "":
		return inputf("%s holds a league: its base config and initial network were fixed when it was created; resume it with the folder alone", l.Dir)
	case opt.Settings != nil && !equalSettings(*opt.Settings, st.Settings):
		return inputf("%s holds a league with other settings (%s): they are fixed when it is created", l.Dir, StateFile)
	}
	base, err := train.LoadConfigFor(filepath.Join(l.Dir, baseFile), st.Game)
	if err != nil {
		return &InputError{err}
	}
	l.State, l.base = st, base
	return nil
}

// equalSettings compares two settings field by field.
func equalSettings(a, b Settings) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// create checks a new league's inputs and writes its folder: base.yaml,
// the initial network, and league.json at round 0 — the learners all at
// the initial network, the pool the initial network and the base
// config's scripted bots.
func (l *League) create() error {
	s, err := l.newSettings()
	if err != nil {
		return err
	}
	base, err := l.baseConfig()
	if err != nil {
		return err
	}
	s.resolveCompanies(base.Game)
	if err := checkEval(base, s.Eval, s.EvalWith); err != nil {
		return err
	}
	if err := checkExploitWith(base, s); err != nil {
		return err
	}
	net, err := initialNet(&base, l.opt.Init, s.Seed)
	if err != nil {
		return &InputError{err}
	}
	if err := os.MkdirAll(filepath.Join(l.Dir, poolDir), 0o755); err != nil {
		return fmt.Errorf("league folder: %w", err)
	}
	if err := neural.WriteFileAtomic(filepath.Join(l.Dir, baseFile), base.YAML()); err != nil {
		return err
	}
	if err := net.Save(filepath.Join(l.Dir, initialFile), weightsMeta(base, "initial")); err != nil {
		return err
	}
	l.base = base
	l.State = newState(base, s)
	return l.State.save(l.Dir)
}

// newSettings is Options.Settings (or Defaults) checked.
func (l *League) newSettings() (Settings, error) {
	s := Defaults()
	if l.opt.Settings != nil {
		s = *l.opt.Settings
	}
	if err := s.Validate(); err != nil {
		return Settings{}, &InputError{err}
	}
	return s, nil
}

// baseConfig is Options.Base (or the game's default) checked: a valid
// config of Options.Game that names no held-out bot.
func (l *League) baseConfig() (train.Config, error) {
	game := l.opt.Game
	if game == "" && l.opt.Base != nil {
		game = l.opt.Base.Game
	}
	if game == "" {
		return train.Config{}, inputf("no game: name the league's game")
	}
	if _, err := rules.Lookup(game); err != nil {
		return train.Config{}, &InputError{err}
	}
	var base train.Config
	if l.opt.Base != nil {
		base = *l.opt.Base
	} else {
		var err error
		if base, err = train.DefaultConfig(game); err != nil {
			return train.Config{}, &InputError{err}
		}
	}
	if base.Game != game {
		return train.Config{}, inputf("the base config is for %s, not %s", base.Game, game)
	}
	if err := base.Validate(); err != nil {
		return train.Config{}, &InputError{fmt.Errorf("base config: %w", err)}
	}
	if err := CheckNoHeldOut(base); err != nil {
		return train.Config{}, &InputError{fmt.Errorf("base config: %w", err)}
	}
	return base, nil
}

// checkEval checks the learning curve's bots: each a bot of base's game
// (a held-out one too: they are evaluated against, never trained against),
// and with the bots beside them (Settings.EvalWith) one for every seat.
func checkEval(base train.Config, bots, with []string) error {
	for _, b := range slices.Concat(bots, with) {
		if _, err := agents.Lookup(base.Game, b); err != nil {
			return inputf("eval: %w", err)
		}
	}
	if len(with) == 0 {
		return nil
	}
	if len(bots) == 0 {
		return inputf("eval-with %s: name the bots to evaluate against (--eval)", strings.Join(with, ","))
	}
	rcfg, err := base.RulesConfig()
	if err != nil {
		return err
	}
	if seats := rcfg.Game().New(rcfg).Spec().Seats; 2+len(with) != seats {
		return inputf("eval-with %s: %s seats %d, so the main agent and an eval bot want %d beside them, not %d", strings.Join(with, ","), base.Game, seats, seats-2, len(with))
	}
	return nil
}

// checkExploitWith checks Settings.ExploitWith (resolved) as `gridgym
// exploit --with` does (exploit.CheckCompany: the game's seats − 2 bots,
// none held out), in a league that has a main exploiter to seat beside
// them.
func checkExploitWith(base train.Config, s Settings) error {
	if len(s.ExploitWith) == 0 {
		return nil
	}
	if s.MainExploiters == 0 {
		return inputf("exploit-with %s: the league has no main exploiter to seat beside them (main_exploiters 0)", strings.Join(s.ExploitWith, ","))
	}
	rcfg, err := base.RulesConfig()
	if err != nil {
		return err
	}
	if err := exploit.CheckCompany(rcfg, s.ExploitWith); err != nil {
		return inputf("exploit-with: %w", err)
	}
	return nil
}

// initialNet is the network every learner starts from: the weights file
// init (its shape must fit base's game), or a fresh network of base's
// network section from seed. Where base sets no play settings, it takes
// init's stored ones (as `train --init` does), so that the league's
// matches, learning curve and weights play the network as its users do.
func initialNet(base *train.Config, init string, seed uint64) (*neural.Net, error) {
	if init == "" {
		arch, err := base.Arch()
		if err != nil {
			return nil, err
		}
		return neural.NewInit(arch, rules.InitStream(seed))
	}
	net, meta, err := neural.Load(init)
	if err != nil {
		return nil, fmt.Errorf("init: %w", err)
	}
	stored, ok, err := neural.StoredPlay(meta)
	if err != nil {
		return nil, fmt.Errorf("init %s: %w", init, err)
	}
	if ok && !base.Play.Stores() {
		base.Play = train.PlayConfigOf(stored)
	}
	rcfg, err := base.RulesConfig()
	if err != nil {
		return nil, err
	}
	if err := net.Arch.Fits(base.Game, rcfg.Game().Encoder(rcfg).Space()); err != nil {
		return nil, fmt.Errorf("init %s: %w", init, err)
	}
	return net, nil
}

// weightsMeta is the metadata of a weights file the league writes itself:
// the game parameters and play settings, as a training run's.
func weightsMeta(base train.Config, run string) map[string]string {
	params, _ := json.Marshal(base.Params)
	m := map[string]string{"params": string(params), "run": run}
	if p := base.Play; p.Stores() {
		m[neural.PlayKey] = neural.EncodePlay(p.Neural())
	}
	return m
}

// newState is a new league's round 0: the learners of every role at the
// initial network; the pool the initial network and base's scripted bots.
func newState(base train.Config, s Settings) *State {
	st := &State{Version: stateVersion, Game: base.Game, Settings: s, Payoff: Payoff{}}
	st.Members = append(st.Members, Member{Name: InitialName, Role: RoleInitial, Weights: initialFile})
	for _, b := range base.Opponents.Scripted {
		if st.member(b) == nil {
			st.Members = append(st.Members, Member{Name: b, Role: RoleScripted, Bot: b})
		}
	}
	add := func(role string, n int) {
		for i := 1; i <= n; i++ {
			name := role
			if i > 1 {
				name = fmt.Sprintf("%s-%d", role, i)
			}
			st.Learners = append(st.Learners, Learner{Name: name, Role: role, Weights: initialFile})
		}
	}
	add(RoleMain, s.MainAgents)
	add(RoleMainExploiter, s.MainExploiters)
	add(RoleLeagueExploiter, s.LeagueExploiters)
	mains := st.Learners[:s.MainAgents]
	for i := range st.Learners {
		if st.Learners[i].Role == RoleMainExploiter {
			st.Learners[i].Target = mains[(i-s.MainAgents)%len(mains)].Name
		}
	}
	return st
}

// Run plays rounds until Options.Rounds are finished in all, the time
// cap, or ctx's end (then ErrInterrupted: the round in progress is played
// again by the next run, and State is put back to the last finished
// round's, as league.json holds it). It writes every learner's
// final.safetensors, the last finished round's weights, before it returns.
func (l *League) Run(ctx context.Context) error {
	var longest time.Duration
	for l.opt.Rounds == 0 || l.State.Round < l.opt.Rounds {
		if l.opt.Minutes > 0 {
			guess := max(longest, l.meanRound())
			if time.Duration(l.State.ElapsedS*float64(time.Second))+guess > time.Duration(l.opt.Minutes*float64(time.Minute)) {
				break
			}
		}
		t0 := time.Now()
		rep, err := l.Step(ctx)
		if errors.Is(err, ErrInterrupted) {
			// The round in progress changed State in memory (weights,
			// payoffs, members) before its commit: back to the commit.
			st, lerr := loadState(l.Dir)
			if lerr != nil {
				return errors.Join(err, lerr)
			}
			l.State = st
			return errors.Join(err, l.writeFinals())
		}
		if err != nil {
			return err
		}
		longest = max(longest, time.Since(t0))
		if l.opt.Progress != nil {
			l.opt.Progress(rep)
		}
	}
	return l.writeFinals()
}

// meanRound is the mean wall time of the rounds finished so far.
func (l *League) meanRound() time.Duration {
	if l.State.Round == 0 {
		return 0
	}
	return time.Duration(l.State.ElapsedS / float64(l.State.Round) * float64(time.Second))
}

// abs is a league-relative path made absolute.
func (l *League) abs(rel string) string { return filepath.Join(l.Dir, rel) }

// learnerIndex is the index of a learner of the state (for seeds).
func (l *League) learnerIndex(name string) int {
	return slices.IndexFunc(l.State.Learners, func(x Learner) bool { return x.Name == name })
}
