package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/export"
	"github.com/gridgym/gridgym/export/exporttest"
)

// Export times the Python bot where the competition starts it for every
// move and counts its start-up (Slime, R14/R16): the figures go into
// README.txt, and a bot whose slowest run takes more than half the 0.1 s
// limit, or more than all of it, gets a warning that says so. The stand-in
// interpreters are shell scripts that check they were given the bot file
// and a Slime request (R14: `P,row0,…`), then take the time they are told.
// A game whose bots are called in one process (Rectangle) is not timed.
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
		readme, warning  string // "" = none
	}{
		{"fast", "slime", "exit 0", "Measured at export", ""},
		{"half", "slime", "sleep 0.06", "Measured at export", "more than half the limit"},
		{"over", "slime", "sleep 0.12", "Measured at export", "over the limit already here"},
		{"broken", "slime", "exit 3", "", "slime_bot.py was not timed"},
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
			if got := strings.Contains(string(readme), "Measured at export"); got != (c.readme != "") {
				t.Errorf("README mentions a measurement: %v, want %v:\n%s", got, c.readme != "", readme)
			}
			warned := strings.Join(rep.Warnings, "\n")
			if c.warning == "" && warned != "" || !strings.Contains(warned, c.warning) {
				t.Errorf("warnings %q, want one containing %q", rep.Warnings, c.warning)
			}
		})
	}
}
