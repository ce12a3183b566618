package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/export"
	"github.com/gridgym/gridgym/export/exporttest"
)

// Export runs the Python bot where the competition starts it for every
// move (Slime, R14/R16) and writes what it measured into README.txt; a bot
// that cannot be run gets a warning that says so. The stand-in
// interpreters are shell scripts that check they were given the bot file
// and a Slime request (R14: `P,row0,…`). How the times are judged is
// TestPythonNotesJudgesTheTimes' business (a stand-in runner with chosen
// times): nothing here depends on how fast this machine is. A game whose
// bots are called in one process (Rectangle) is not timed.
func TestExportTimesPython(t *testing.T) {
	dir := t.TempDir()
	interp := func(name, body string) string {
		p := filepath.Join(dir, name)
		script := "#!/bin/sh\n[ -f \"$1\" ] || exit 4\ncase \"$2\" in [1-4],*) ;; *) exit 5;; esac\n" + body + "\n"
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	weights := func(game string) string { return exporttest.RandomNetFile(t, dir, game, 1) }
	for _, c := range []struct {
		name, game, body string
		readme           string // a substring of README.txt ("" = no timing text)
		warning          string // a substring of the warnings ("" = no "not timed" warning)
	}{
		{"runs", "slime", "exit 0", "Measured at export", ""},
		{"broken", "slime", "exit 3", "Not measured at export", "slime_bot.py was not timed"},
		{"inprocess", "rectangle", "exit 0", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.name+"-bot")
			rep, err := export.Export(weights(c.game), out, export.Options{NoBinary: true, Python: interp(c.name, c.body)})
			if err != nil {
				t.Fatal(err)
			}
			readme, err := os.ReadFile(filepath.Join(out, "README.txt"))
			if err != nil {
				t.Fatal(err)
			}
			measured := strings.Contains(string(readme), "easured at export")
			if measured != (c.readme != "") || !strings.Contains(string(readme), c.readme) {
				t.Errorf("README (want %q):\n%s", c.readme, readme)
			}
			warned := strings.Join(rep.Warnings, "\n")
			if notTimed := strings.Contains(warned, "not timed"); notTimed != (c.warning != "") || !strings.Contains(warned, c.warning) {
				t.Errorf("warnings %q, want a \"not timed\" one: %v (%q)", rep.Warnings, c.warning != "", c.warning)
			}
		})
	}
}
