package configs_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/configs"
	"github.com/gridgym/gridgym/rules"
)

// botTokens appends every bot-name-shaped word of every string in a YAML
// document, with the path of the field it came from: a field naming bots
// (opponents.scripted, bc.teacher, bc.opponents, eval.baselines,
// exit.opponents, a league's pools, …) or a search spec
// (search:NAME@N:roll=NAME, LABEL=NAME). Every string is read, whatever its
// field, so that a field added later is covered too.
func botTokens(node any, path string, dst [][2]string) [][2]string {
	switch x := node.(type) {
	case map[string]any:
		for k, v := range x {
			dst = botTokens(v, path+"."+k, dst)
		}
	case []any:
		for i, v := range x {
			dst = botTokens(v, fmt.Sprintf("%s[%d]", path, i), dst)
		}
	case string:
		for _, w := range strings.FieldsFunc(x, func(r rune) bool {
			return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			dst = append(dst, [2]string{path, w})
		}
	}
	return dst
}

// heldOutIn returns the held-out bots of game that config (YAML) names, as
// "field: bot".
func heldOutIn(t *testing.T, game string, config []byte) []string {
	t.Helper()
	var doc any
	if err := yaml.Unmarshal(config, &doc); err != nil {
		t.Fatalf("%s: %v", game, err)
	}
	held := agents.HeldOut(game)
	var bad []string
	for _, tok := range botTokens(doc, "", nil) {
		if slices.Contains(held, tok[1]) {
			bad = append(bad, strings.TrimPrefix(tok[0], ".")+": "+tok[1])
		}
	}
	slices.Sort(bad)
	return bad
}

// TestNoTrainingSeesAHeldOutBot: no held-out bot (agents.RegisterHeldOut,
// issue 54's test set) is named anywhere in a game's training configs —
// its default (what `gridgym train` and the pipeline run, whose eval
// baselines and opponent pool are the pipeline's baselines) and every
// preset: not as an opponent, teacher, teacher's opponent, eval baseline,
// expert's opponent, league member, nor inside a search spec.
func TestNoTrainingSeesAHeldOutBot(t *testing.T) {
	total := 0
	for _, g := range rules.Names() {
		total += len(agents.HeldOut(g))
		d, err := configs.Default(g)
		if err != nil {
			t.Fatal(err)
		}
		if bad := heldOutIn(t, g, d); len(bad) > 0 {
			t.Errorf("%s: the default config (%s) names held-out bots: %s", g, configs.File(g, ""), strings.Join(bad, ", "))
		}
		for _, p := range configs.PresetsOf(g) {
			b, err := configs.Preset(g, p)
			if err != nil {
				t.Fatal(err)
			}
			if bad := heldOutIn(t, g, b); len(bad) > 0 {
				t.Errorf("%s: preset %s (%s) names held-out bots: %s", g, p, configs.File(g, p), strings.Join(bad, ", "))
			}
		}
	}
	if total == 0 {
		t.Fatal("no held-out bot registered in any game: the test would check nothing")
	}
}

// TestHeldOutCheckFindsThem: the check finds a held-out bot wherever a
// config could name one — the pipeline's baselines, a teacher, a search
// spec's prior or rollout bot, a league pool — and passes a clean config.
func TestHeldOutCheckFindsThem(t *testing.T) {
	for _, g := range rules.Names() {
		held := agents.HeldOut(g)
		if len(held) == 0 {
			continue
		}
		h := held[0]
		for _, cfg := range []string{
			"eval:\n  baselines: [random, " + h + "]\n",
			"opponents:\n  scripted:\n    - " + h + "\n",
			"bc:\n  teacher: " + h + "\n",
			"exit:\n  opponents: [\"search:" + h + "@64:roll=random\"]\n",
			"league:\n  pools:\n    - bots: [x=" + h + "]\n",
		} {
			if bad := heldOutIn(t, g, []byte(cfg)); len(bad) != 1 {
				t.Errorf("%s: %q: found %v, want %s once", g, cfg, bad, h)
			}
		}
		if bad := heldOutIn(t, g, []byte("opponents:\n  scripted: [random, pass]\n")); len(bad) > 0 {
			t.Errorf("%s: a clean config: found %v", g, bad)
		}
	}
}
