package league

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train"
)

// TestLeagueNeverTrainsAgainstAHeldOutBot: for every game with held-out
// bots (agents.HeldOut), a league on the game's default config with the
// held-out bots as its learning curve's eval bots — where they belong —
// has none of them in its pool, and no training config it derives for
// any learner names one anywhere (every word of the config is read, as
// configs' TestNoTrainingSeesAHeldOutBot reads the presets).
func TestLeagueNeverTrainsAgainstAHeldOutBot(t *testing.T) {
	checked := 0
	for _, g := range rules.Names() {
		held := agents.HeldOut(g)
		if len(held) == 0 {
			continue
		}
		s := Defaults()
		s.Eval = held
		l, err := Open(Options{Dir: t.TempDir(), Game: g, Settings: &s, Rounds: 1, Workers: 1})
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		for _, m := range l.State.Members {
			if slices.Contains(held, m.Name) || slices.Contains(held, m.Bot) {
				t.Errorf("%s: held-out bot %s in the pool", g, m.Name)
			}
		}
		plans, err := l.plans(rules.Derive(s.Seed, 1), 1)
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		for _, p := range plans {
			for _, tok := range botTokens(string(p.config.YAML())) {
				if slices.Contains(held, tok) {
					t.Errorf("%s: %s's round config names the held-out bot %s", g, p.learner.Name, tok)
				}
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no game has held-out bots: the test checked nothing")
	}
}

// A base config naming a held-out bot — as an opponent, a teacher, in a
// search spec, behind a label — is refused before anything is written.
func TestLeagueRefusesAHeldOutBot(t *testing.T) {
	for _, g := range rules.Names() {
		held := agents.HeldOut(g)
		if len(held) == 0 {
			continue
		}
		h := held[0]
		for name, edit := range map[string]func(c *train.Config){
			"opponent":   func(c *train.Config) { c.Opponents.Scripted = append(c.Opponents.Scripted, h) },
			"labelled":   func(c *train.Config) { c.Opponents.Scripted = append(c.Opponents.Scripted, "x="+h) },
			"baseline":   func(c *train.Config) { c.Eval.Baselines = []string{h} },
			"teacher":    func(c *train.Config) { c.BC.Teacher, c.BC.Samples = h, 100 },
			"searchspec": func(c *train.Config) { c.Opponents.Scripted = append(c.Opponents.Scripted, "search:"+h+"@4") },
		} {
			base, err := train.DefaultConfig(g)
			if err != nil {
				t.Fatal(err)
			}
			edit(&base)
			_, err = Open(Options{Dir: t.TempDir(), Game: g, Base: &base, Rounds: 1, Workers: 1})
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), h) {
				t.Errorf("%s, held-out %s as %s: %v, want an input error naming it", g, h, name, err)
			}
		}
		return // one game is enough for the refusal; every game's pool is checked above
	}
}
