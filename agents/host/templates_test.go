package host

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// Every hostable game has a template in its competition's form, checked
// against what its registration declares: a Python file
// my_<game>_bot.py defining the function the competition calls
// (Competition.Entry) with as many parameters as the competition passes
// arguments (the codec's request at the start, a JSON array; the exported
// bot's Export.Args), run as py:FILE; or for a program competition (Slime,
// R14) an executable, run as cmd:FILE, whose #! line names the interpreter
// by its full path and that runs as a script; each cites its rules file and
// comes with the competition's helper modules (Competition.Modules: Rising
// Tide's util, R18).
func TestNewTemplate(t *testing.T) {
	comps := competitions()
	if len(comps) == 0 {
		t.Fatal("no hostable game: the test would prove nothing")
	}
	for _, comp := range comps {
		g, _ := rules.Lookup(comp.Game)
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
		if file := "my_" + strings.ReplaceAll(comp.Game, "-", "_") + "_bot.py"; tm.Game != comp.Game || tm.File != file {
			t.Errorf("%s: game %q, file %q; want %q", comp.Game, tm.Game, tm.File, file)
		}
		kind := "py:"
		if comp.Protocol == ProgramRun {
			kind = "cmd:"
		}
		if got := tm.Spec("dir/" + tm.File); got != kind+"dir/"+tm.File {
			t.Errorf("%s: spec %q, want %s", comp.Game, got, kind+"dir/"+tm.File)
		}
		if comp.Protocol == PythonCall {
			var args []json.RawMessage
			if err := json.Unmarshal(g.Codec.AppendRequest(nil, g.New(g.Default()), 0), &args); err != nil {
				t.Fatalf("%s: the request is no JSON array of arguments: %v", comp.Game, err)
			}
			m := regexp.MustCompile(`(?m)^def ` + regexp.QuoteMeta(comp.Entry) + `\(([^)]*)\):`).FindStringSubmatch(src)
			switch {
			case m == nil:
				t.Errorf("%s: no def %s(...):, the entry the competition calls (%s)", comp.Game, comp.Entry, comp.Rules)
			case len(strings.Split(m[1], ",")) != len(args):
				t.Errorf("%s: def %s(%s) takes %d parameters; the competition passes %d arguments", comp.Game, comp.Entry, m[1], len(strings.Split(m[1], ",")), len(args))
			case g.Competition.Export != nil && g.Competition.Export.Args != len(args):
				t.Errorf("%s: the exported bot takes %d arguments, the competition passes %d", comp.Game, g.Competition.Export.Args, len(args))
			}
		} else if !strings.Contains(src, `if __name__ == "__main__":`) {
			t.Errorf("%s: a program template that does not run as a script", comp.Game)
		}
		// Its rules file, or for the test game, whose rules are its package
		// doc, its folder.
		folder := strings.TrimPrefix(g.Package(), "github.com/gridgym/gridgym/")
		if want := "shared/rules/" + comp.Game + ".md"; !strings.Contains(src, want) && !strings.Contains(src, folder+"'s package doc") {
			t.Errorf("%s: the template cites neither %s nor %s's package doc", comp.Game, want, folder)
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
		var mods, want []string
		for _, m := range tm.Modules {
			mods = append(mods, m.File)
			if len(m.Source) == 0 || string(m.Source) != string(g.Competition.Modules[m.File]) {
				t.Errorf("%s: module %s is not the competition's", comp.Game, m.File)
			}
		}
		for f := range g.Competition.Modules {
			want = append(want, f)
		}
		slices.Sort(mods)
		slices.Sort(want)
		if !slices.Equal(mods, want) {
			t.Errorf("%s: modules %v, want %v", comp.Game, mods, want)
		}
	}
}

// A game gridgym cannot host, or an interpreter that does not exist, is an
// error naming it.
func TestNewTemplateErrors(t *testing.T) {
	var hostable, program []string
	for _, c := range competitions() {
		hostable = append(hostable, c.Game)
		if c.Protocol == ProgramRun {
			program = append(program, c.Game)
		}
	}
	cases := []struct {
		game, python, want string
	}{
		{"chess", "", "hostable: " + strings.Join(hostable, ", ")},
	}
	for _, g := range program { // the interpreter is named in a program's #! line
		cases = append(cases, struct{ game, python, want string }{g, "/no/such/python3", "/no/such/python3"})
	}
	for _, c := range cases {
		_, err := NewTemplate(c.game, c.python)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewTemplate(%q, %q): error %v, want one mentioning %q", c.game, c.python, err, c.want)
		}
	}
}
