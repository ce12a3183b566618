// Package agentstest holds what the tests of the bot packages share:
// configuring a game, making a registered bot, checking a held-out bot's
// registration and playing one seeded game with a hook on every answer. Only
// test files import it.
package agentstest

import (
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

// Config is the configuration of the registered game with parameters kv
// (nil: the written rules); a bad name or parameter fails the test.
func Config(t testing.TB, game string, kv map[string]string) rules.Config {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	c, err := g.Configure(kv)
	if err != nil {
		t.Fatalf("%s %v: %v", game, kv, err)
	}
	return c
}

// Fresh is a new instance of the game's registered bot name (held-out bots
// included); an unknown name fails the test.
func Fresh(t testing.TB, game, name string) agents.Agent {
	t.Helper()
	e, err := agents.Lookup(game, name)
	if err != nil {
		t.Fatal(err)
	}
	return e.New()
}

// CheckHeldOut fails the test unless every one of names is a documented
// held-out bot of game (agents.RegisterHeldOut) that no list of the bots
// training may draw from (agents.Names) contains.
func CheckHeldOut(t testing.TB, game string, names []string) {
	t.Helper()
	got := agents.HeldOut(game)
	for _, n := range names {
		if !slices.Contains(got, n) {
			t.Errorf("%s not among the held-out bots %v", n, got)
		}
		e, err := agents.Lookup(game, n)
		if err != nil {
			t.Fatal(err)
		}
		if !e.HeldOut || e.Doc == "" {
			t.Errorf("%s: HeldOut %v, doc %q: want a documented held-out bot", n, e.HeldOut, e.Doc)
		}
		if slices.Contains(agents.Names(game), n) {
			t.Errorf("%s listed by agents.Names", n)
		}
	}
}

// Play plays st from its current position to the end: seat i is bots[i]
// (nil: agents.Random, filled into bots), Reset with rules.Derive(seed, i);
// rng draws the game's chance (nil for a game without any). check, if not
// nil, sees every answer of an active seat, with the state it answered, before
// the step is played.
func Play(st rules.State, seed uint64, rng *rules.RNG, bots []agents.Agent, check func(seat int, m rules.Move)) {
	for i := range bots {
		if bots[i] == nil {
			bots[i] = &agents.Random{}
		}
		bots[i].Reset(st, i, rules.Derive(seed, uint64(i)))
	}
	moves := make([]rules.Move, len(bots))
	for !st.Done() {
		for i := range moves {
			moves[i] = rules.Move{}
			if !st.Active(i) {
				continue
			}
			moves[i] = bots[i].Act(st)
			if check != nil {
				check(i, moves[i])
			}
		}
		st.Step(moves, rng)
	}
}
