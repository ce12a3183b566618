package configs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/configs"
	_ "github.com/gridgym/gridgym/games" // the games, each with its configs
	"github.com/gridgym/gridgym/rules"
)

// Every registered game declares a default config and every preset that
// all games have; each of its presets (those and its own, PresetsOf) is the
// file that File names in the game's folder, byte for byte.
func TestEveryGameHasItsConfigs(t *testing.T) {
	if got := configs.Games(); !slices.Equal(got, rules.Names()) || len(got) == 0 {
		t.Fatalf("games with a default config %v, registered %v", got, rules.Names())
	}
	for _, g := range rules.Names() {
		d, err := configs.Default(g)
		check(t, g, "", d, err)
		have := configs.PresetsOf(g)
		for _, p := range configs.Presets {
			if !slices.Contains(have, p) {
				t.Errorf("%s: presets %v, want %s among them", g, have, p)
			}
		}
		if slices.Contains(have, "default") || !slices.IsSorted(have) {
			t.Errorf("%s: presets %v: want them sorted, the default not among them", g, have)
		}
		for _, p := range have {
			b, err := configs.Preset(g, p)
			check(t, g, p, b, err)
			if bytes.Equal(b, d) {
				t.Errorf("%s: preset %s is the default", g, p)
			}
		}
	}
}

// check fails unless b (err) is the file configs.File names for game's
// preset ("" = the default), in the game's folder (rules.Game.Package),
// read from the module's source tree.
func check(t *testing.T, game, preset string, b []byte, err error) {
	t.Helper()
	name := configs.File(game, preset)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	want := rules.TrainDefault
	if preset != "" {
		want = rules.TrainPreset(preset)
	}
	g, _ := rules.Lookup(game)
	folder := strings.TrimPrefix(g.Package(), "github.com/gridgym/gridgym/") // rules/<game>, or the test game's
	if name != folder+"/"+want {
		t.Errorf("%s %q: file %s, want %s/%s in the game's folder", game, preset, name, folder, want)
	}
	disk, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(name)))
	if err != nil || !bytes.Equal(disk, b) || !bytes.Contains(b, []byte("game: "+game)) {
		t.Errorf("%s: the declared config is not that file for %s (%v)", name, game, err)
	}
}

// Unknown games and presets get the errors the CLI shows, listing what
// there is; "default" is no preset.
func TestConfigErrors(t *testing.T) {
	g := rules.Names()[0]
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(configs.Default("chess")), `no default training config for game "chess" (have: ` + strings.Join(rules.Names(), ", ") + ")"},
		{second(configs.Preset(g, "nonesuch")), `no "nonesuch" preset for game "` + g + `" (presets: ` + strings.Join(configs.PresetsOf(g), ", ") + ")"},
		{second(configs.Preset(g, "default")), `no "default" preset`},
		{second(configs.Preset("chess", "strong")), `no "strong" preset for game "chess" (presets: none)`},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
}

func second(_ []byte, err error) error { return err }

// Every game names, in one preset's "# measured:" line, the preset whose
// report shows it beating its clone and the strongest scripted bot, robust
// against a copy of itself and fast once exported (issue 22); `gridgym
// games` prints it. The note ends with "(models/<game>; reports/…)": the
// shipped network's folder, which holds final.safetensors and a model card
// naming the preset (the clone is not shipped: the card says how to make
// it), and the reports whose README.md exists.
func TestEveryGameNamesItsMeasuredPreset(t *testing.T) {
	for _, g := range rules.Names() {
		var want []string // the game's own (rules.Testdata.MeasuredPreset)
		if gm, _ := rules.Lookup(g); gm.Testdata == nil {
			t.Errorf("%s: no rules.Game.Testdata naming its measured preset", g)
		} else if gm.Testdata.MeasuredPreset != "" {
			want = []string{gm.Testdata.MeasuredPreset}
		}
		var noted []string
		for _, p := range configs.PresetsOf(g) {
			note := configs.PresetNote(g, p)
			if note == "" {
				continue
			}
			noted = append(noted, p)
			checkMeasured(t, g, p, note)
		}
		if !slices.Equal(noted, want) {
			t.Errorf("%s: presets with a measured note %v, want %v (Testdata.MeasuredPreset)", g, noted, want)
		}
	}
	if got := configs.PresetNote("slime", "no-such-preset"); got != "" {
		t.Errorf("an unknown preset's note %q, want none", got)
	}
}

// checkMeasured checks the files that the measured note of game g's preset p
// names: models/g/ with the network and a card that names the preset and
// how to remake its clone, and at least one report folder with its README.md.
func checkMeasured(t *testing.T, g, p, note string) {
	t.Helper()
	i, j := strings.LastIndex(note, "("), strings.LastIndex(note, ")")
	if i < 0 || j < i {
		t.Errorf("%s %s: note %q names no model and report", g, p, note)
		return
	}
	paths := strings.Split(note[i+1:j], "; ")
	model := filepath.ToSlash(filepath.Join("models", g))
	if paths[0] != model {
		t.Errorf("%s %s: note %q names %q first, want the shipped network's folder %s", g, p, note, paths[0], model)
		return
	}
	if _, err := os.Stat(filepath.Join("..", model, "final.safetensors")); err != nil {
		t.Errorf("%s %s: the shipped network: %v", g, p, err)
	}
	card, err := os.ReadFile(filepath.Join("..", model, "README.md"))
	if err != nil {
		t.Errorf("%s %s: the model card: %v", g, p, err)
	} else if !strings.Contains(string(card), "--preset "+p) || !strings.Contains(string(card), "--clone-only") {
		t.Errorf("%s %s: the model card %s/README.md does not name --preset %s and how to remake the clone (--clone-only)", g, p, model, p)
	}
	if len(paths) < 2 {
		t.Errorf("%s %s: note %q names no report after the model", g, p, note)
	}
	for _, r := range paths[1:] {
		if !strings.HasPrefix(r, "reports/") {
			t.Errorf("%s %s: note %q: %q is not a report folder", g, p, note, r)
			continue
		}
		if _, err := os.Stat(filepath.Join("..", r, "README.md")); err != nil {
			t.Errorf("%s %s: the note's report: %v", g, p, err)
		}
	}
}
