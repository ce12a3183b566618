// Package configs reads the training configs each game declares on its
// registration (rules.Game.Train, YAML files in the game's own folder):
// the default, train/default.yaml, what `gridgym train --game G` runs when
// no --config is given and the base that a user's config file overrides
// field by field; and the presets beside it (train/<preset>.yaml, e.g.
// strong: the stabilisers for fine-tuning a clone and a league, at most 2
// hours on a 2-core machine), which override the default the same way.
// It names no game: a game is trained once it is registered with its
// configs.
package configs

import (
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"strings"

	"github.com/gridgym/gridgym/rules"
)

// Presets lists the presets every game has besides its default. A game
// may ship more (PresetsOf): exit, Expert Iteration's measured recipe, in
// the games where it beats its clone.
var Presets = []string{"strong"}

// PresetsOf lists game's presets, sorted: the train/*.yaml files in its
// folder other than the default.
func PresetsOf(game string) []string {
	g, err := rules.Lookup(game)
	if err != nil || g.Train == nil {
		return nil
	}
	names, _ := fs.Glob(g.Train, rules.TrainPreset("*"))
	var out []string
	for _, n := range names {
		if p := strings.TrimSuffix(path.Base(n), ".yaml"); n != rules.TrainDefault {
			out = append(out, p)
		}
	}
	return out // fs.Glob sorts
}

// PresetNote returns what a preset's file says it measured — the text of
// its comment line "# measured: …", for `gridgym games` — or "" if it has
// none. The presets that meet issue 22 (a network above its own clone and
// the game's strongest scripted bot, two copies robust at one table, a
// fast exact export) carry one, with the report that shows it.
func PresetNote(game, preset string) string {
	b, err := Preset(game, preset)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if note, ok := strings.CutPrefix(line, "# measured:"); ok {
			return strings.TrimSpace(note)
		}
	}
	return ""
}

// Preset returns the YAML preset of game (train/<preset>.yaml in its
// folder).
func Preset(game, preset string) ([]byte, error) {
	b, err := read(game, rules.TrainPreset(preset))
	if err != nil || preset == "default" {
		have := strings.Join(PresetsOf(game), ", ")
		if have == "" {
			have = "none"
		}
		return nil, fmt.Errorf("no %q preset for game %q (presets: %s)", preset, game, have)
	}
	return b, nil
}

// Default returns the default YAML config of game (train/default.yaml in
// its folder).
func Default(game string) ([]byte, error) {
	b, err := read(game, rules.TrainDefault)
	if err != nil {
		return nil, fmt.Errorf("no default training config for game %q (have: %s)", game, strings.Join(Games(), ", "))
	}
	return b, nil
}

// read returns the file name of game's training configs.
func read(game, name string) ([]byte, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, err
	}
	if g.Train == nil {
		return nil, fmt.Errorf("game %s declares no training configs", game)
	}
	return fs.ReadFile(g.Train, name)
}

// Games lists the registered games with a default config, sorted.
func Games() []string {
	var out []string
	for _, g := range rules.Names() {
		if _, err := read(g, rules.TrainDefault); err == nil {
			out = append(out, g)
		}
	}
	return out
}

// File names game's default config (preset "") or preset in messages: its
// path from the module root (rules/slime/train/strong.yaml), in the folder
// of the package that declares the game (rules.Game.Package).
func File(game, preset string) string {
	name := rules.TrainDefault
	if preset != "" {
		name = rules.TrainPreset(preset)
	}
	g, err := rules.Lookup(game)
	if err != nil {
		return game + " " + name
	}
	pkg := g.Package()
	module := path.Dir(reflect.TypeFor[marker]().PkgPath())
	return path.Join(strings.TrimPrefix(pkg, module+"/"), name)
}

// marker gives File this package's import path, and so the module's.
type marker struct{}
