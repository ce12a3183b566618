// Package configs embeds the default training config of every game
// (configs/<game>.yaml): what `gridgym train --game G` runs when no --config
// is given, and the base that a user's config file overrides field by field;
// and the presets beside them (configs/<preset>/<game>.yaml, e.g. strong:
// the stabilisers for fine-tuning a clone and a league, at most 2 hours on
// a 2-core machine), which override the default the same way.
package configs

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed *.yaml
var files embed.FS

//go:embed strong/*.yaml
var presets embed.FS

// Presets lists the presets a game may have besides its default.
var Presets = []string{"strong"}

// Preset returns the embedded YAML preset of game (configs/<preset>/<game>.yaml).
func Preset(game, preset string) ([]byte, error) {
	b, err := presets.ReadFile(preset + "/" + game + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no %q preset for game %q (presets: %s)", preset, game, strings.Join(Presets, ", "))
	}
	return b, nil
}

// Default returns the embedded YAML config of game.
func Default(game string) ([]byte, error) {
	b, err := files.ReadFile(game + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no default training config for game %q (have: %s)", game, strings.Join(Games(), ", "))
	}
	return b, nil
}

// Games lists the games with an embedded config.
func Games() []string {
	ents, _ := files.ReadDir(".")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	return out
}
