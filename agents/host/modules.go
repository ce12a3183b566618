package host

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/gridgym/gridgym/rules"
)

// Module is a helper module a competition ships beside its bots.
type Module struct {
	Name   string // the import name: util
	File   string // the file name: util.py
	Source []byte
}

// Modules returns the helper modules game's competition ships, as its
// registration declares them (rules.Competition.Modules; Rising Tide:
// util, with make_bot, allowed_moves, …), which every hosted bot of the
// game can import and `gridgym new-bot` writes beside its template; nil for
// a game whose competition ships none.
func Modules(game string) []Module {
	g, err := rules.Lookup(game)
	if err != nil || g.Competition == nil {
		return nil
	}
	var out []Module
	for file, src := range g.Competition.Modules {
		if !strings.HasSuffix(file, ".py") || strings.Contains(file, "/") {
			continue
		}
		out = append(out, Module{Name: strings.TrimSuffix(file, ".py"), File: file, Source: src})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// scriptFor returns host.py for a bot of game: with the game's helper
// modules, if any, prepended as _GRIDGYM_MODULES (host.py makes them
// importable after everything else on the path).
func scriptFor(game string) string {
	mods := Modules(game)
	if len(mods) == 0 {
		return hostScript
	}
	src := map[string]string{}
	for _, m := range mods {
		src[m.Name] = string(m.Source)
	}
	b, _ := json.Marshal(src) // a JSON object of strings is a Python dict literal
	return "_GRIDGYM_MODULES = " + string(b) + "\n" + hostScript
}
