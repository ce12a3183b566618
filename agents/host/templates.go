package host

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gridgym/gridgym/rules"
)

// Template is a starting bot for a game's competition: a file that plays
// legally as it is, to be edited.
type Template struct {
	Game string
	// File is the file's name: my_<game>_bot.py.
	File string
	// Source is its text.
	Source []byte
	// Executable is true for a program competition's bot (Slime): the file
	// starts with a #! line naming the interpreter and is run directly.
	Executable bool
	// Modules are the competition's helper modules to write beside it.
	Modules []Module
}

// Spec returns the bot spec that runs the template written at path.
func (t Template) Spec(path string) string {
	if t.Executable {
		return "cmd:" + path
	}
	return "py:" + path
}

// NewTemplate returns game's template, the starting bot its registration
// declares (rules.Competition.Template) in the competition's form, with the
// request and answer format in comments. A program competition's template is a
// Python program whose #! line names python, the interpreter gridgym runs
// Python bots with ("" = Interpreter's choice), by its full path: a
// `#!/usr/bin/env python3` line may go through a slow shim (pyenv), and the
// competitions count the start in the time limit.
func NewTemplate(game, python string) (Template, error) {
	g, err := rules.Lookup(game)
	comp, ok := Competition{}, false
	if err == nil {
		comp, ok = competitionOf(g)
	}
	if !ok {
		return Template{}, fmt.Errorf("new bot: gridgym cannot host bots of %q (hostable: %s)", game, strings.Join(hostable(), ", "))
	}
	if len(g.Competition.Template) == 0 {
		return Template{}, fmt.Errorf("new bot: no template for %s", game)
	}
	src := append([]byte(nil), g.Competition.Template...)
	t := Template{Game: game, File: "my_" + strings.ReplaceAll(game, "-", "_") + "_bot.py", Modules: Modules(game)}
	if comp.Protocol == ProgramRun {
		py, err := Interpreter(python)
		if err != nil {
			return Template{}, fmt.Errorf("new bot: %w", err)
		}
		t.Executable = true
		src = append([]byte("#!"+filepath.Clean(py)+"\n"), src...)
	}
	t.Source = src
	return t, nil
}

// hostable lists the games with a competition protocol.
func hostable() []string {
	var gs []string
	for _, c := range competitions() {
		gs = append(gs, c.Game)
	}
	return gs
}
