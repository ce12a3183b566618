package host

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every hostable game has a template in its competition's form: a Python
// file defining the function the competition calls (py:), or for a program
// competition (Slime, R14) an executable whose #! line names the
// interpreter by its full path (cmd:); each cites its rules file, and
// Rising Tide's comes with the util module its bots import (R18).
func TestNewTemplate(t *testing.T) {
	cases := map[string]struct {
		file    string
		spec    string // the spec's kind
		def     string // the entry the file must define
		modules []string
	}{
		"bovine-borders": {"my_bovine_borders_bot.py", "py:", "def bot(board)", nil},
		"nuggets":        {"my_nuggets_bot.py", "py:", "def bot(board, move_num)", nil},
		"rectangle":      {"my_rectangle_bot.py", "py:", "def bot(board, robots, scores, move_num)", nil},
		"rising-tide":    {"my_rising_tide_bot.py", "py:", "def my_bot_fn(terrain, round_num)", []string{"util.py"}},
		"slime":          {"my_slime_bot.py", "cmd:", `if __name__ == "__main__":`, nil},
	}
	comps := competitions()
	if len(comps) != len(cases) {
		t.Errorf("%d hostable games, %d cases: add the new game's", len(comps), len(cases))
	}
	for _, comp := range comps {
		c, ok := cases[comp.Game]
		if !ok {
			t.Errorf("no case for %s", comp.Game)
			continue
		}
		tm, err := NewTemplate(comp.Game, "")
		if err != nil {
			if comp.Protocol == ProgramRun {
				if _, perr := Interpreter(""); perr != nil {
					continue // no Python to name in the #! line
				}
			}
			t.Errorf("%s: %v", comp.Game, err)
			continue
		}
		src := string(tm.Source)
		if tm.Game != comp.Game || tm.File != c.file {
			t.Errorf("%s: game %q, file %q; want %q", comp.Game, tm.Game, tm.File, c.file)
		}
		if got := tm.Spec("dir/" + tm.File); got != c.spec+"dir/"+tm.File {
			t.Errorf("%s: spec %q, want %s", comp.Game, got, c.spec+"dir/"+tm.File)
		}
		if !strings.Contains(src, c.def) {
			t.Errorf("%s: the template does not define %q", comp.Game, c.def)
		}
		if comp.Protocol == PythonCall && !strings.Contains(src, "def "+comp.Entry+"(") {
			t.Errorf("%s: no def %s(, the entry the competition calls (%s)", comp.Game, comp.Entry, comp.Rules)
		}
		if want := "shared/rules/" + comp.Game + ".md"; !strings.Contains(src, want) {
			t.Errorf("%s: the template does not cite %s", comp.Game, want)
		}
		if tm.Executable != (comp.Protocol == ProgramRun) {
			t.Errorf("%s: executable %v for protocol %v", comp.Game, tm.Executable, comp.Protocol)
		}
		if tm.Executable {
			first, _, _ := strings.Cut(src, "\n")
			py := strings.TrimPrefix(first, "#!")
			if py == first || !filepath.IsAbs(py) || strings.Contains(py, " ") || filepath.Base(py) == "env" {
				t.Errorf("%s: first line %q, want #! and the interpreter's full path (no /usr/bin/env)", comp.Game, first)
			}
		} else if strings.HasPrefix(src, "#!") {
			t.Errorf("%s: a py: template with a #! line", comp.Game)
		}
		var mods []string
		for _, m := range tm.Modules {
			mods = append(mods, m.File)
			if len(m.Source) == 0 {
				t.Errorf("%s: module %s is empty", comp.Game, m.File)
			}
		}
		if strings.Join(mods, ",") != strings.Join(c.modules, ",") {
			t.Errorf("%s: modules %v, want %v", comp.Game, mods, c.modules)
		}
	}
}

// A game gridgym cannot host, or an interpreter that does not exist, is an
// error naming it.
func TestNewTemplateErrors(t *testing.T) {
	cases := []struct {
		game, python, want string
	}{
		{"chess", "", "hostable: bovine-borders, nuggets, rectangle, rising-tide, slime"},
		{"slime", "/no/such/python3", "/no/such/python3"},
	}
	for _, c := range cases {
		_, err := NewTemplate(c.game, c.python)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewTemplate(%q, %q): error %v, want one mentioning %q", c.game, c.python, err, c.want)
		}
	}
}
