package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/export"
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// storedWeights copies game's network fixture into a temporary folder and
// stores play settings p in it (neural.WritePlay).
func storedWeights(t *testing.T, game string, p neural.Play) string {
	t.Helper()
	w, _ := rulestest.PolicyCopy(t, game, 0o644)
	if err := neural.WritePlay(w, p); err != nil {
		t.Fatal(err)
	}
	return w
}

// An export bakes in the play settings the weights store (issue 54): the
// Python bot's TEMPERATURE and TEMP_STEPS (SEED None: a seed per process),
// README.txt saying they came from the weights; a temperature given
// (--temperature, even 0) replaces them, --temp-steps alone keeps the
// stored temperature, and README.txt says the export overrode them; a
// target that cannot sample as stored (Slime's bot, told no step, with
// first-steps sampling) refuses, naming the way out. The shipped Rectangle
// network exports with its sampled placement, the shipped Slime network
// with its temperature.
func TestExportUsesStoredPlay(t *testing.T) {
	w := storedWeights(t, "rectangle", neural.Play{Temperature: 6, Steps: 1})
	seven := uint64(7)
	for _, tc := range []struct {
		name   string
		opt    export.Options
		header string
		readme string
	}{
		{"stored", export.Options{}, "TEMPERATURE = 6\nTEMP_STEPS = 1\nSEED = None\n", "These play settings (temp 6, first step) came from the weights"},
		{"seed", export.Options{Play: export.Play{Seed: &seven}}, "TEMPERATURE = 6\nTEMP_STEPS = 1\nSEED = 7\n", "came from the weights"},
		{"greedy", export.Options{PlayGiven: neural.PlayGiven{Temp: true}}, "TEMPERATURE = 0\nTEMP_STEPS = 0\nSEED = None\n", "this export overrode them: greedy"},
		{"hotter", export.Options{Play: export.Play{Temperature: 2}}, "TEMPERATURE = 2\nTEMP_STEPS = 0\n", "The weights store temp 6, first step"},
		{"steps", export.Options{Play: export.Play{Steps: 2}, PlayGiven: neural.PlayGiven{Steps: true}}, "TEMPERATURE = 6\nTEMP_STEPS = 2\n", "overrode them: temp 6, first 2 steps"},
	} {
		dir := t.TempDir()
		tc.opt.NoBinary = true
		if _, err := export.Export(w, dir, tc.opt); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		bot, err := os.ReadFile(filepath.Join(dir, exporttest.Target("rectangle").File))
		if err != nil {
			t.Fatal(err)
		}
		readme, err := os.ReadFile(filepath.Join(dir, "README.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(bot), tc.header) {
			t.Errorf("%s: the bot lacks %q", tc.name, tc.header)
		}
		if !strings.Contains(string(readme), tc.readme) {
			t.Errorf("%s: README.txt lacks %q:\n%s", tc.name, tc.readme, readme)
		}
	}

	pure := storedWeights(t, "slime", neural.Play{Temperature: 3, Steps: 2}) // Slime's bot is not told the step
	if _, err := export.Export(pure, t.TempDir(), export.Options{NoBinary: true}); err == nil || !strings.Contains(err.Error(), "--temperature 0") {
		t.Errorf("Slime with stored first-steps sampling: %v, want a refusal naming --temperature 0", err)
	}
	if _, err := export.Export(pure, t.TempDir(), export.Options{NoBinary: true, PlayGiven: neural.PlayGiven{Temp: true}}); err != nil {
		t.Errorf("Slime exported greedy over stored sampling: %v", err)
	}
	for _, shipped := range []struct{ game, header string }{
		{"rectangle", "TEMPERATURE = 6\nTEMP_STEPS = 1\nSEED = None\n"}, // its sampled placement
		{"slime", "TEMPERATURE = 0.3\nTEMP_STEPS = 0\nSEED = None\n"},
	} {
		dir := t.TempDir()
		if _, err := export.Export(filepath.Join("..", "models", shipped.game, "final.safetensors"), dir, export.Options{NoBinary: true}); err != nil {
			t.Fatal(err)
		}
		if bot, _ := os.ReadFile(filepath.Join(dir, exporttest.Target(shipped.game).File)); !strings.Contains(string(bot), shipped.header) {
			t.Errorf("the shipped %s network does not export with its stored play settings (%q)", shipped.game, shipped.header)
		}
	}
}

// The guard is baked in like the other settings: a bovine network that
// stores it exports with GUARD = 1 and README.txt saying so, --guard=false
// (PlayGiven.Guard) exports the network alone, and a game without a
// scripted guard (Rectangle) refuses it, naming the way out.
func TestExportGuard(t *testing.T) {
	w := storedWeights(t, "bovine-borders", neural.Play{Temperature: 1, Guard: true})
	for _, tc := range []struct {
		name   string
		opt    export.Options
		header string
		readme string
	}{
		{"stored", export.Options{}, "OPENING = 0\nGUARD = 1\n", "The game's scripted guard answers before the network"},
		{"off", export.Options{PlayGiven: neural.PlayGiven{Guard: true}}, "OPENING = 0\nGUARD = 0\n", "this export overrode them: temp 1."},
	} {
		dir := t.TempDir()
		if _, err := export.Export(w, dir, tc.opt); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		bot, _ := os.ReadFile(filepath.Join(dir, exporttest.Target("bovine-borders").File))
		readme, _ := os.ReadFile(filepath.Join(dir, "README.txt"))
		if !strings.Contains(string(bot), tc.header) {
			t.Errorf("%s: the bot lacks %q", tc.name, tc.header)
		}
		if !strings.Contains(string(readme), tc.readme) {
			t.Errorf("%s: README.txt lacks %q:\n%s", tc.name, tc.readme, readme)
		}
	}
	r, _ := rulestest.PolicyCopy(t, "rectangle", 0o644)
	if _, err := export.Export(r, t.TempDir(), export.Options{NoBinary: true, Play: export.Play{Guard: true}}); err == nil || !strings.Contains(err.Error(), "--guard=false") {
		t.Errorf("Rectangle with the guard: %v, want a refusal naming --guard=false", err)
	}
}
