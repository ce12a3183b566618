// Package configs embeds the default training config of every game
// (configs/<game>.yaml): what `gridgym train --game G` runs when no --config
// is given, and the base that a user's config file overrides field by field.
package configs

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed *.yaml
var files embed.FS

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
