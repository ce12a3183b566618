package search

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

// Prefix starts every search bot spec.
const Prefix = "search:"

// defaultBudget is the simulation budget of a spec without @N.
var defaultBudget atomic.Int64

func init() {
	defaultBudget.Store(DefaultBudget)
	agents.RegisterResolver(resolve)
}

// DefaultBudget is the simulations per move of a spec without @N until
// SetDefaultBudget changes it.
const DefaultBudget = 400

// SetDefaultBudget sets the simulations per move of the search specs without
// @N that are looked up afterwards (a program's --search-budget flag). It
// returns an error for n < 1.
func SetDefaultBudget(n int) error {
	if n < 1 {
		return fmt.Errorf("search budget %d: want at least 1 simulation per move", n)
	}
	defaultBudget.Store(int64(n))
	return nil
}

// MaxTrees bounds Params.Trees: 64 trees for each of 16 cores.
const MaxTrees = 1024

// MaxLanes bounds Params.Lanes: 4 lanes for each of 16 cores.
const MaxLanes = 64

// Settings are the keys of a spec's key=value settings (package doc), for
// help texts and error messages.
var Settings = []string{"trees", "lanes", "depth", "extra", "top", "alt", "keyed", "c", "prior", "roll", "opp", "value", "leaf", "margin", "crn", "ms"}

// Params are the settings of a search agent; the spec's key=value settings
// (package doc) override the defaults of DefaultParams.
type Params struct {
	Prior  string // prior bot: candidates and, unless Roll is set, rollouts
	Roll   string // rollout bot; "random" plays RandomMove; "" = Prior
	Budget int    // simulations per move, summed over the trees
	Trees  int    // independent trees searched in parallel (root parallelism); 0 (trees=auto): one per core, GOMAXPROCS when the agent is made
	// Lanes is the simulations of one tree run at once (leaf parallelism
	// with virtual loss): each round, Lanes descents chosen in turn, each
	// path counted as visited before its value is known so the next descent
	// goes elsewhere, then their expansions and rollouts on up to Lanes
	// cores, then their backups in order. One tree then uses several cores
	// and grows deeper in a given time, where more trees (root parallelism)
	// only add shallow trees. The search stays deterministic for a seed,
	// whatever the core count. 1 (the default): the sequential search.
	Lanes int
	Depth int           // rollout length in steps after the tree
	Extra int           // random legal candidates per seat per node (simultaneous games)
	Top   int           // the prior's best moves taken as candidates (a prior that ranks, agents.Ranker); 1 = its move alone
	Alt   []string      // bots whose moves are candidates too, after the prior's (simultaneous games)
	C     float64       // PUCT exploration constant
	Mass  float64       // prior probability mass on the prior bot's move
	Limit time.Duration // wall-clock limit per move, 0 for none (not deterministic)
	// Model: the other seats play the prior bot's move at every node (one
	// candidate each) instead of being searched; the tree then branches
	// only on the agent's own candidates and grows deeper for a budget.
	Model bool
	// Key, when not 0, keys the random candidates (Extra) on the position:
	// they are drawn from a generator seeded by the position's digest
	// (rules.Hash) and Key alone, not from the search's own generator. The
	// same position then gives a seat the same random candidates in every
	// search, game and agent seed, and seats with the same legal moves the
	// same ones (in Rectangle, where no seat has a position of its own, every
	// seat's placements at the start), so that Expert Iteration's labels at a
	// repeated position (a game's start) weigh the same moves each time.
	Key uint64
	// Value, if set, is a bot that can score positions (agents.Evaluator: a
	// network's value head); a rollout that ends before the game does is
	// then scored by it, as (1+v)/2, instead of by the function Value on the
	// provisional outcome: the agent's own seat with Model, every seat
	// without.
	Value string
	// Forecast: a rollout that ends before the game does is scored by the
	// function Value on the game's forecast of the final outcome
	// (rules.Forecaster, Rising Tide's flood replayed to the end) instead
	// of on the provisional outcome. Only for games whose states forecast;
	// not with Value.
	Forecast bool
	// Margin (0..1, 0 = off): the agent plays its prior's move (the first
	// root candidate) unless the most visited candidate's mean value beats
	// the prior move's by at least Margin (values 0..1, as search.Value).
	// Then it departs from its prior only where the search is sure, and
	// Expert Iteration's labels of the move played (exit.policy played)
	// single out those decisions.
	Margin float64
	// CRN (common random numbers): each simulation plays in a world named
	// by how often the agent's root candidate it tries has been tried
	// before, and steps with the game's keyed chance (rules.KeyedStepper),
	// so the k-th simulation of every root candidate meets the same chance
	// events wherever the candidates do not change them; the generator of
	// the bots' own draws is reseeded by the world too. The candidates are
	// then compared on the same worlds, and the chance that a move does
	// not touch cancels out of the comparison instead of drowning it
	// (Nuggets, whose decay draws each move are louder than the difference
	// between its best squares). Only for games whose states step keyed.
	CRN bool
}

// Bots returns the names of the bots the settings name: the prior, the
// rollout bot, the alternatives and the value bot, the unset ones left out.
// A check that every bot is of some kind (the exported executable links
// only registered bots) reads them here, so that none is forgotten.
func (p Params) Bots() []string {
	bots := []string{p.Prior}
	if p.Roll != "" {
		bots = append(bots, p.Roll)
	}
	bots = append(bots, p.Alt...)
	if p.Value != "" {
		bots = append(bots, p.Value)
	}
	return bots
}

// DefaultParams returns the defaults for prior bot bot.
func DefaultParams(bot string) Params {
	return Params{Prior: bot, Budget: int(defaultBudget.Load()), Trees: 2, Lanes: 1, Depth: 8, Extra: 3, Top: 1, C: 1, Mass: 0.5}
}

// ParseSpec parses a spec search:BOT[@N][:key=value…] (package doc). ok is
// false for a spec without the search: prefix. A spec with ms= and no trees=
// gets trees=auto (Params.Trees 0): one tree per core.
func ParseSpec(spec string) (p Params, ok bool, err error) {
	rest, ok := strings.CutPrefix(spec, Prefix)
	if !ok {
		return Params{}, false, nil
	}
	parts := strings.Split(rest, ":")
	bot, budget, hasBudget := strings.Cut(parts[0], "@")
	if bot == "" {
		return Params{}, true, fmt.Errorf("search spec %q: want search:BOT[@N][:key=value…]", spec)
	}
	p = DefaultParams(bot)
	if hasBudget {
		n, err := strconv.Atoi(budget)
		if err != nil || n < 1 {
			return Params{}, true, fmt.Errorf("search spec %q: budget %q: want a positive number of simulations", spec, budget)
		}
		p.Budget = n
	}
	trees := false // a trees= setting
	for _, kv := range parts[1:] {
		k, v, found := strings.Cut(kv, "=")
		if !found {
			return Params{}, true, fmt.Errorf("search spec %q: setting %q: want key=value", spec, kv)
		}
		if err := p.set(k, v); err != nil {
			return Params{}, true, fmt.Errorf("search spec %q: %w", spec, err)
		}
		trees = trees || k == "trees"
	}
	if p.Limit > 0 && !trees {
		// A search stopped by the clock is not deterministic anyway: every
		// core adds simulations in the time a move has.
		p.Trees = 0
	}
	return p, true, nil
}

// set applies one key=value setting.
func (p *Params) set(k, v string) error {
	num := func(lo, hi int) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("%s=%q: want an integer in %d..%d", k, v, lo, hi)
		}
		return n, nil
	}
	frac := func(lo, hi float64) (float64, error) {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x >= lo && x <= hi) {
			return 0, fmt.Errorf("%s=%q: want a number in %g..%g", k, v, lo, hi)
		}
		return x, nil
	}
	either := func(off, on string) (bool, error) { // a setting with two values
		if v != off && v != on {
			return false, fmt.Errorf("%s=%q: want %s or %s", k, v, off, on)
		}
		return v == on, nil
	}
	var err error
	switch k {
	case "trees":
		if v == "auto" {
			p.Trees = 0
			return nil
		}
		p.Trees, err = num(1, MaxTrees)
	case "lanes":
		p.Lanes, err = num(1, MaxLanes)
	case "depth":
		p.Depth, err = num(0, 100000)
	case "extra":
		p.Extra, err = num(0, 64)
	case "top":
		p.Top, err = num(1, 64)
	case "c":
		p.C, err = frac(0, 100)
	case "prior":
		p.Mass, err = frac(0, 1)
	case "roll":
		if v == "" {
			return errors.New("roll=: want a bot name or random")
		}
		p.Roll = v
	case "opp":
		p.Model, err = either("search", "prior")
	case "alt":
		p.Alt = nil
		for _, b := range strings.Split(v, "+") {
			if b == "" {
				return fmt.Errorf("alt=%q: want bot names joined by +", v)
			}
			p.Alt = append(p.Alt, b)
		}
	case "keyed":
		var n int
		n, err = num(0, 1<<31-1)
		p.Key = uint64(n)
	case "value":
		if v == "" {
			return errors.New("value=: want a bot that scores positions (a network)")
		}
		p.Value = v
	case "leaf":
		p.Forecast, err = either("outcome", "forecast")
	case "margin":
		p.Margin, err = frac(0, 1)
	case "crn":
		p.CRN, err = either("0", "1")
	case "ms":
		var n int
		n, err = num(1, 3600000)
		p.Limit = time.Duration(n) * time.Millisecond
	default:
		return fmt.Errorf("unknown setting %q (valid: %s)", k, strings.Join(Settings, ", "))
	}
	return err
}

// resolve is the agents.Resolver for search specs.
func resolve(game, spec string) (agents.Entry, bool, error) {
	p, ok, err := ParseSpec(spec)
	if !ok || err != nil {
		return agents.Entry{}, ok, err
	}
	f, params, err := p.build(game)
	if err != nil {
		return agents.Entry{}, true, fmt.Errorf("search spec %q: %w", spec, err)
	}
	trees := strconv.Itoa(p.Trees)
	if p.Trees == 0 {
		trees = "one per core (trees=auto)"
	}
	doc := fmt.Sprintf("search: %d simulations per move in %s trees, prior and rollouts %s", p.Budget, trees, p.Prior)
	return agents.Entry{Game: game, Name: spec, Doc: doc, New: f, Params: params}, true, nil
}

// Factory checks p's bots for game and returns a factory of search agents.
func (p Params) Factory(game string) (agents.Factory, error) {
	f, _, err := p.build(game)
	return f, err
}

// build is Factory, and it also merges the game parameters that the
// search's bots must be played with (their agents.Entry Params: a network
// trained with a carried parameter), so that the search plays in the games
// they need. It looks every bot up once.
func (p Params) build(game string) (agents.Factory, map[string]string, error) {
	var params map[string]string
	lookup := func(bot string) (agents.Entry, error) {
		e, err := agents.Lookup(game, bot)
		for k, v := range e.Params {
			if params == nil {
				params = map[string]string{}
			}
			params[k] = v
		}
		return e, err
	}
	if strings.HasPrefix(p.Prior, Prefix) || strings.HasPrefix(p.Roll, Prefix) || strings.HasPrefix(p.Value, Prefix) {
		return nil, nil, errors.New("a search agent's prior, rollout or value bot cannot be a search agent")
	}
	for _, b := range p.Alt {
		if strings.HasPrefix(b, Prefix) {
			return nil, nil, errors.New("a search agent's alternative bot cannot be a search agent")
		}
	}
	if p.Budget < 1 || p.Trees < 0 || p.Trees > MaxTrees {
		return nil, nil, fmt.Errorf("budget %d in %d trees: want at least 1 simulation in 1..%d trees (0: one per core)", p.Budget, p.Trees, MaxTrees)
	}
	if p.Forecast && p.Value != "" {
		return nil, nil, errors.New("leaf=forecast and value= both score the leaves: choose one")
	}
	if p.Forecast || p.CRN {
		// The optional interfaces these settings need, on a position of the game.
		g, err := rules.Lookup(game)
		if err != nil {
			return nil, nil, err
		}
		st := g.New(g.Default())
		if _, ok := st.(rules.Forecaster); p.Forecast && !ok {
			return nil, nil, fmt.Errorf("leaf=forecast: %s cannot forecast its outcome (no rules.Forecaster); use leaf=outcome or value=", game)
		}
		if _, ok := st.(rules.KeyedStepper); p.CRN && !ok {
			return nil, nil, fmt.Errorf("crn=1: %s cannot draw its chance by event (no rules.KeyedStepper)", game)
		}
	}
	pe, err := lookup(p.Prior)
	if err != nil {
		return nil, nil, fmt.Errorf("prior bot: %w", err)
	}
	if _, ok := pe.New().(agents.Ranker); p.Top > 1 && !ok {
		return nil, nil, fmt.Errorf("top=%d: the prior %s cannot rank its moves: want a network (weights file or run folder)", p.Top, p.Prior)
	}
	var roll agents.Factory = pe.New
	switch p.Roll {
	case "":
	case "random":
		roll = nil
	default:
		re, err := lookup(p.Roll)
		if err != nil {
			return nil, nil, fmt.Errorf("rollout bot: %w", err)
		}
		roll = re.New
	}
	props := []agents.Factory{pe.New}
	for _, b := range p.Alt {
		ae, err := lookup(b)
		if err != nil {
			return nil, nil, fmt.Errorf("alternative bot: %w", err)
		}
		props = append(props, ae.New)
	}
	var value agents.Factory
	if p.Value != "" {
		ve, err := lookup(p.Value)
		if err != nil {
			return nil, nil, fmt.Errorf("value bot: %w", err)
		}
		if _, ok := ve.New().(agents.Evaluator); !ok {
			return nil, nil, fmt.Errorf("value bot %s cannot score positions: want a network (weights file or run folder)", p.Value)
		}
		value = ve.New
	}
	return func() agents.Agent {
		a := New(p, props, roll)
		a.value = value
		return a
	}, params, nil
}

// Agent is the search agent (package doc). Its Act is deterministic for the
// generator given to Reset.
type Agent struct {
	p         Params
	props     []agents.Factory // the prior and the alternatives (Params.Alt)
	roll      agents.Factory
	value     agents.Factory // the leaves' Evaluator (Params.Value), nil for none
	seat      int
	rng       *rules.RNG
	bots      proposers // the proposers for every seat on the real positions
	prop      []rules.Move
	trees     []*tree
	rootCands [][]cand
	legal     []rules.Move
	keyed     keyedRNG  // the root's random candidates with Params.Key
	total     []int32   // own root candidates' visits summed over trees
	wsum      []float64 // and their values
	stats     Stats
	// The search in progress (Act), read by its workers: the position, the
	// move's seed, its start, the next tree to take and the workers to
	// wait for.
	st   rules.State
	seed uint64
	t0   time.Time
	next atomic.Int32
	wg   sync.WaitGroup
}

// Stats counts an agent's work since its Reset.
type Stats struct {
	Moves       int           // Act calls that searched
	Departed    int           // of them, moves other than the prior's
	Kept        int           // of them, the prior's move kept by Params.Margin over a more visited one
	Simulations int           // simulations over all trees
	Time        time.Duration // wall time of those Act calls
}

// PerSecond is simulations per second of wall time.
func (s Stats) PerSecond() float64 {
	if s.Time <= 0 {
		return 0
	}
	return float64(s.Simulations) / s.Time.Seconds()
}

// New returns a search agent with settings p, prior bots made by props[0]
// (and, where p.Alt names alternatives, their bots by props[1:]) and rollout
// bots made by roll (nil: RandomMove). p.Trees 0 (trees=auto) becomes
// runtime.GOMAXPROCS(0) now, so the agent's moves are deterministic for a
// seed and the core count it was made with. Invalid settings are clamped to
// the nearest valid ones.
func New(p Params, props []agents.Factory, roll agents.Factory) *Agent {
	p.Budget = max(p.Budget, 1)
	if p.Trees == 0 {
		p.Trees = runtime.GOMAXPROCS(0)
	}
	p.Trees = min(max(p.Trees, 1), MaxTrees)
	p.Lanes = min(max(p.Lanes, 1), MaxLanes)
	p.Extra = max(p.Extra, 0)
	p.Top = max(p.Top, 1)
	p.Depth = max(p.Depth, 0)
	p.Mass = min(max(p.Mass, 0), 1)
	return &Agent{p: p, props: props, roll: roll}
}

// Params returns the agent's settings.
func (a *Agent) Params() Params { return a.p }

// Stats returns the work done since Reset.
func (a *Agent) Stats() Stats { return a.stats }

// SearchCounts implements agents.Searcher from Stats.
func (a *Agent) SearchCounts() (searched, departed, simulations int) {
	return a.stats.Moves, a.stats.Departed, a.stats.Simulations
}

// Reset implements agents.Agent.
func (a *Agent) Reset(st rules.State, seat int, rng *rules.RNG) {
	a.seat, a.rng = seat, rng
	spec := st.Spec()
	if len(a.bots) != spec.Seats {
		a.bots = newProposers(spec.Seats, a.props)
		a.rootCands = make([][]cand, spec.Seats)
		a.trees = nil
	}
	a.bots.reset(st, rng)
	a.stats = Stats{}
}

// Act implements agents.Agent: it searches the position and plays the root
// candidate of its seat with the most visits over all trees (ties: the best
// mean value, then the earlier candidate, the prior's move first); with
// Params.Margin, the prior's move unless that candidate's mean value is
// higher by the margin.
func (a *Agent) Act(st rules.State) rules.Move {
	if a.rng == nil {
		a.Reset(st, 0, rules.NewRNG(0))
	}
	t0 := time.Now()
	a.fillRoot(st)
	own := a.rootCands[a.seat]
	if len(own) <= 1 {
		if len(own) == 1 {
			return own[0].m
		}
		return rules.Move{}
	}
	a.st, a.seed, a.t0 = st, a.rng.Uint64(), t0
	if a.trees == nil {
		a.trees = make([]*tree, a.p.Trees)
		for i := range a.trees {
			a.trees[i] = newTree(&a.p, st, a.props, a.roll, a.value, a.p.Budget/a.p.Trees+1)
		}
	}
	// Up to GOMAXPROCS workers, this goroutine one of them, each search the
	// next tree not yet taken until none is left. A tree's search depends
	// only on its seed and budget, so the move does not depend on which
	// worker searched which tree, nor on how many there were.
	a.next.Store(0)
	workers := min(len(a.trees), runtime.GOMAXPROCS(0))
	a.wg.Add(workers - 1)
	for range workers - 1 {
		go a.work(true)
	}
	a.work(false)
	a.wg.Wait()
	a.st = nil
	a.total, a.wsum = a.total[:0], a.wsum[:0]
	for range own {
		a.total = append(a.total, 0)
		a.wsum = append(a.wsum, 0)
	}
	w := a.wsum
	for _, t := range a.trees {
		a.stats.Simulations += t.sims
		root := &t.nodes[0]
		cs := t.cands[root.cs[a.seat] : root.cs[a.seat]+root.cn[a.seat]]
		for i := range cs {
			a.total[i] += cs[i].n
			w[i] += cs[i].w
		}
	}
	bi := 0
	for i := range own {
		if a.total[i] > a.total[bi] || a.total[i] == a.total[bi] && a.total[i] > 0 &&
			w[i]/float64(a.total[i]) > w[bi]/float64(a.total[bi]) {
			bi = i
		}
	}
	if bi != 0 && a.p.Margin > 0 && a.total[0] > 0 && w[bi]/float64(a.total[bi])-w[0]/float64(a.total[0]) < a.p.Margin {
		bi = 0
		a.stats.Kept++
	}
	if bi != 0 {
		a.stats.Departed++
	}
	a.stats.Moves++
	a.stats.Time += time.Since(t0)
	return own[bi].m
}

// budget is tree i's share of the simulations per move: the budget split
// evenly over the trees, the first ones one more for the remainder.
func (a *Agent) budget(i int) int {
	n := a.p.Budget / len(a.trees)
	if i < a.p.Budget%len(a.trees) {
		n++
	}
	return n
}

// work searches the trees of the move in progress that no other worker has
// taken, each from its own seed (the move's, mixed with the tree's index);
// done: a worker of its own, which tells a.wg when it is done.
func (a *Agent) work(done bool) {
	if done {
		defer a.wg.Done()
	}
	for {
		i := int(a.next.Add(1)) - 1
		if i >= len(a.trees) {
			return
		}
		t := a.trees[i]
		t.reset(a.st, a.seat, a.rootCands, mix(a.seed, uint64(i)))
		t.run(a.budget(i), a.t0, a.p.Limit)
	}
}

// run plays budget simulations, or fewer if limit (> 0) passes since t0:
// none if it has passed already (a tree that a worker takes late). With
// Params.Lanes > 1 they run in rounds of that many, on up to as many
// goroutines (this one and helpers started for the move), and the clock is
// read before every round.
func (t *tree) run(budget int, t0 time.Time, limit time.Duration) {
	k := len(t.lanes)
	if k == 1 {
		for i := 0; i < budget; i++ {
			if limit > 0 && i%16 == 0 && time.Since(t0) > limit {
				return
			}
			t.simulate()
		}
		return
	}
	h := min(k, runtime.GOMAXPROCS(0)) - 1
	t.startHelpers(h)
	for i := 0; i < budget; i += k {
		if limit > 0 && time.Since(t0) > limit {
			break
		}
		t.rounds(min(k, budget-i))
	}
	t.stopHelpers()
}

// mix derives tree k's seed from a move's seed (splitmix64 of both).
func mix(seed, k uint64) uint64 {
	return rules.Mix64(seed ^ (k+1)*rules.Golden)
}

// fillRoot makes every active seat's root candidates at st (candidates).
func (a *Agent) fillRoot(st rules.State) {
	seq := st.Spec().Sequential
	for s := range a.rootCands {
		a.rootCands[s] = a.rootCands[s][:0]
		if !st.Active(s) {
			continue
		}
		only := a.p.Model && s != a.seat
		a.prop = a.bots.propose(a.prop[:0], s, st, only, a.p.Top)
		a.rootCands[s], a.legal = candidates(a.rootCands[s], a.legal, st, s, a.prop, seq, only, &a.p, a.rng, &a.keyed)
	}
}
