// Package agents holds the policies that play gridgym's games: the official
// sample bots (one package per game under agents/), simple scripted bots, the
// generic random bot, and later the neural policy and the host for a user's own
// bot. An agent sees only what a competition bot sees: the scripted bots read
// their seat's view through the game's codec and answer in view coordinates.
package agents

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gridgym/gridgym/rules"
)

// Agent plays one seat in one game at a time.
type Agent interface {
	// Reset starts a new game in which the agent plays seat; rng is the
	// agent's own generator for every random choice it makes.
	Reset(st rules.State, seat int, rng *rules.RNG)
	// Act returns the agent's move for the current position of st. It is
	// called only while the agent's seat is Active.
	Act(st rules.State) rules.Move
}

// Evaluator is an agent that can also score a position, as a network's value
// head does; the search agent (package search, value=BOT) scores the leaves
// of its tree with one. Evaluate returns seat's expected outcome at st on the
// scale of env's rank reward: −1 for last place, 1 for first.
type Evaluator interface {
	Evaluate(st rules.State, seat int) float64
}

// Ranker is an agent that can also name several good moves in order, as a
// network's policy does; the search agent (package search, top=K) takes the
// K best of its prior as candidates instead of the one it would play. Rank
// appends at most k distinct moves for the agent's seat at st, best first,
// the greedy move first.
type Ranker interface {
	Rank(st rules.State, k int, dst []rules.Move) []rules.Move
}

// Searcher is an agent that searches (package search) and counts its work
// since its Reset: the moves it searched, how many of those were not its
// prior bot's move, and the simulations it ran. A tournament reports them
// per bot, so that a search that never leaves its prior shows as one.
type Searcher interface {
	SearchCounts() (searched, departed, simulations int)
}

// Factory makes a fresh agent.
type Factory func() Agent

// Entry is a registered agent.
type Entry struct {
	Game, Name, Doc string
	New             Factory
	// Params are game parameters the bot must be played with (a network
	// trained with a parameter the state carries, rules.Param.Carried);
	// nil for bots that play in any configuration of the game.
	Params map[string]string
	// HeldOut marks a bot of the test set (issue 54): hand-written to
	// measure how well networks generalise, played in tournaments like any
	// bot, and never an opponent, teacher or baseline of any training
	// (configs' TestNoTrainingSeesAHeldOutBot holds every preset to it).
	HeldOut bool
}

var registry = map[string]map[string]Entry{}

// Register adds an agent for game under name. Registering twice panics.
func Register(game, name, doc string, f Factory) {
	if registry[game] == nil {
		registry[game] = map[string]Entry{}
	}
	if _, dup := registry[game][name]; dup {
		panic("agents: registered twice: " + game + "/" + name)
	}
	registry[game][name] = Entry{Game: game, Name: name, Doc: doc, New: f}
}

// RegisterHeldOut adds a held-out bot (Entry.HeldOut) for game under name:
// a bot of the test set, which no training may see.
func RegisterHeldOut(game, name, doc string, f Factory) {
	Register(game, name, doc, f)
	e := registry[game][name]
	e.HeldOut = true
	registry[game][name] = e
}

// HeldOut lists game's held-out bots (RegisterHeldOut), sorted.
func HeldOut(game string) []string {
	var names []string
	for n, e := range registry[game] {
		if e.HeldOut {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// references holds each game's reference bots (RegisterReference).
var references = map[string][]string{}

// RegisterReference names game's reference bots: the project's strongest
// scripted bots, which `gridgym heldout` seats beside a bot and each
// held-out bot (issue 54's acceptance table: {network, held-out bot, the two
// strongest scripted bots}). Called once, by the game's bots package, with
// bots it registers; registering twice panics.
func RegisterReference(game string, names ...string) {
	registerOnce(references, "reference bots", game, names)
}

// registerOnce stores names as game's entry of m (the reference bots or the
// field); a second call for the same game panics, naming what it is.
func registerOnce(m map[string][]string, what, game string, names []string) {
	if _, dup := m[game]; dup {
		panic("agents: " + what + " registered twice: " + game)
	}
	m[game] = slices.Clone(names)
}

// Reference lists game's reference bots (RegisterReference) in the order
// registered; nil for a game that names none.
func Reference(game string) []string { return slices.Clone(references[game]) }

// fields holds each game's field (RegisterField).
var fields = map[string][]string{}

// RegisterField names game's field: the bots the competition's own games
// seat beside an entry, its published sample bots (where it published
// none, the project's bots that issue 54's first measurements seated). A
// held-out bot beaten beside the strongest scripted bots can still win
// beside weak ones, which leave it other prey or none (reports/heldout-forms),
// so `gridgym heldout` plays its tables in this company too. Called once,
// by the game's bots package; registering twice panics.
func RegisterField(game string, names ...string) { registerOnce(fields, "field", game, names) }

// Field lists game's field (RegisterField) in the order registered; nil
// for a game that names none.
func Field(game string) []string { return slices.Clone(fields[game]) }

// Company resolves the words commands take for a company of bots beside
// the one measured: "reference" (Reference) and "field" (Field); ok is
// false for any other word.
func Company(game, word string) (bots []string, ok bool) {
	switch word {
	case "reference":
		return Reference(game), true
	case "field":
		return Field(game), true
	}
	return nil, false
}

// Lookup returns the agent name of game. Every game has "random" and "pass".
// A spec written LABEL=SPEC (SplitLabel) is SPEC, named LABEL.
func Lookup(game, name string) (Entry, error) {
	if label, spec := SplitLabel(name); label != "" {
		e, err := Lookup(game, spec)
		if err != nil {
			return Entry{}, fmt.Errorf("bot %s: %w", label, err)
		}
		e.Name = label
		return e, nil
	}
	if e, ok := registry[game][name]; ok {
		return e, nil
	}
	if e, ok := generic[name]; ok {
		e.Game = game
		return e, nil
	}
	for _, r := range resolvers {
		if e, ok, err := r(game, name); ok || err != nil {
			return e, err
		}
	}
	valid := strings.Join(Names(game), ", ")
	if h := HeldOut(game); len(h) > 0 {
		valid += "; held out: " + strings.Join(h, ", ")
	}
	return Entry{}, fmt.Errorf("unknown bot %q for game %s (valid: %s)", name, game, valid)
}

// A Resolver turns a bot spec that is not a registered name — a trained
// network's weights file, say — into an entry. It answers ok = false for
// specs that are not its kind, and an error for ones that are but fail.
type Resolver func(game, spec string) (e Entry, ok bool, err error)

var resolvers []Resolver

// RegisterResolver adds a Resolver that Lookup consults for unknown names
// (package neural registers one for weights files and run folders).
func RegisterResolver(r Resolver) { resolvers = append(resolvers, r) }

// generic are the agents every game has.
var generic = map[string]Entry{
	"random": {Name: "random", Doc: "a uniformly random legal move", New: func() Agent { return &Random{} }},
	"pass":   {Name: "pass", Doc: "always passes (the game's treatment of no answer)", New: func() Agent { return Pass{} }},
}

// Names lists the agents of game, the generic "pass" and "random" included,
// sorted; not the held-out bots (HeldOut), which are played only when named,
// so that no list of "every bot" (a tournament's default lineup, a test
// seating every bot, a training config's suggestions) takes them in.
func Names(game string) []string {
	var names []string
	for n := range generic {
		names = append(names, n)
	}
	for n, e := range registry[game] {
		if _, ok := generic[n]; !ok && !e.HeldOut {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Pass always answers rules.Pass: no answer, which each game treats as its
// rules say (a pass; Nuggets' default query (0,0); Rectangle's all-stay).
type Pass struct{}

// Reset implements Agent.
func (Pass) Reset(rules.State, int, *rules.RNG) {}

// Act implements Agent.
func (Pass) Act(rules.State) rules.Move { return rules.Move{} }

// Random plays a uniformly random legal move (rules.State.RandomMove).
type Random struct {
	seat int
	rng  *rules.RNG
}

// Reset implements Agent.
func (a *Random) Reset(_ rules.State, seat int, rng *rules.RNG) { a.seat, a.rng = seat, rng }

// Act implements Agent.
func (a *Random) Act(st rules.State) rules.Move { return st.RandomMove(a.seat, a.rng) }

// Lineups returns the seat assignments the tournament cycles through. With
// at most as many bots as seats, lineup i seats bot (s+i) mod n at seat s, so
// every bot takes every seat in turn. With more bots than seats, every
// combination of seats distinct bots is played in every cyclic rotation.
func Lineups(nBots, seats int) [][]int {
	if nBots <= seats {
		out := make([][]int, nBots)
		for i := range out {
			l := make([]int, seats)
			for s := range l {
				l[s] = (s + i) % nBots
			}
			out[i] = l
		}
		return out
	}
	var out [][]int
	comb := make([]int, seats)
	var rec func(start, k int)
	rec = func(start, k int) {
		if k == seats {
			for r := 0; r < seats; r++ {
				l := make([]int, seats)
				for s := range l {
					l[s] = comb[(s+r)%seats]
				}
				out = append(out, l)
			}
			return
		}
		for i := start; i < nBots; i++ {
			comb[k] = i
			rec(i+1, k+1)
		}
	}
	rec(0, 0)
	return out
}

// Orders returns every distinct seating order of each of lineups (a
// lineup's permutations without repeats, in lexicographic order, then the
// next lineup's not seen before). Lineups' rotations always seat a bot
// directly after the same bot, which matters in a sequential game (Slime's
// turn order): of two copies of one policy, one always moves right after
// the other. Over every order each bot sits after every other equally
// often (4 bots at 4 seats: 24 orders).
func Orders(lineups [][]int) [][]int {
	var out [][]int
	seen := map[string]bool{}
	for _, l := range lineups {
		p := slices.Clone(l)
		slices.Sort(p)
		for {
			if k := fmt.Sprint(p); !seen[k] {
				seen[k] = true
				out = append(out, slices.Clone(p))
			}
			if !rules.NextPermutation(p) {
				break
			}
		}
	}
	return out
}

// SafeAct asks a bot for its move; a bot that panics passes (the documented
// treatment of a bot error in every game) and failed is set.
func SafeAct(a Agent, st rules.State) (m rules.Move, failed bool) {
	defer func() {
		if recover() != nil {
			m, failed = rules.Move{}, true
		}
	}()
	return a.Act(st), false
}

// SafeRank calls r.Rank, recovering a panic as SafeAct does: then dst comes
// back as it was and failed is true.
func SafeRank(r Ranker, st rules.State, k int, dst []rules.Move) (out []rules.Move, failed bool) {
	n := len(dst)
	defer func() {
		if recover() != nil {
			out, failed = dst[:n], true
		}
	}()
	return r.Rank(st, k, dst), false
}
