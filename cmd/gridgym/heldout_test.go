package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// gridgym heldout on the test game (two seats: the reference bot does not
// fit, each table is the bot and the held-out bot): its margin is the one a
// tournament of the same two bots in every order prints, the verdict
// follows the interval, and --report writes each table's report.
func TestHeldoutCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ho")
	out, err := run("heldout", "-g", "four-square", "--bot", "first", "-n", "8", "--workers", "1", "--report", dir, "-q")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tour, err := run("tournament", "-g", "four-square", "-b", "first,last", "-n", "8", "--all-orders", "--workers", "1", "-q", "--margin", "first,last")
	if err != nil {
		t.Fatalf("%v\n%s", err, tour)
	}
	// "first − last: +M [+L, +H] largest group a game over 8 games"
	m := regexp.MustCompile(`first − last: ([-+]\d+\.\d\d) \[([-+]\d+\.\d\d), ([-+]\d+\.\d\d)\]`).FindStringSubmatch(tour)
	if m == nil {
		t.Fatalf("no margin in the tournament's output:\n%s", tour)
	}
	row := regexp.MustCompile(`(?m)^ *last +8 +\S+ +\S+ +(\S+) \[(\S+), (\S+)\] +(above|level|below)$`).FindStringSubmatch(out)
	if row == nil {
		t.Fatalf("no row for the held-out bot last:\n%s", out)
	}
	if row[1] != m[1] || row[2] != m[2] || row[3] != m[3] {
		t.Errorf("heldout's margin %s [%s, %s], the tournament's %s [%s, %s]", row[1], row[2], row[3], m[1], m[2], m[3])
	}
	verdict := "level"
	if strings.HasPrefix(m[2], "+") && m[2] != "+0.00" {
		verdict = "above"
	} else if strings.HasPrefix(m[3], "-") {
		verdict = "below"
	}
	if row[4] != verdict {
		t.Errorf("verdict %s for %s [%s, %s]", row[4], m[1], m[2], m[3])
	}
	for _, want := range []string{"first against four-square's held-out bots, each alone, every seating order, seed 1", "(largest group a game)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if verdict == "above" != strings.Contains(out, "beats every held-out bot (1 of 1") {
		t.Errorf("the last line does not follow the verdict %s:\n%s", verdict, out)
	}
	for _, f := range []string{"last/report.md", "last/games.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// A network by file name plays too.
	if out, err := run("heldout", "-g", "four-square", "--bot", rulestest.Policy(t, "four-square"), "-n", "4", "--workers", "1", "-q"); err != nil || !strings.Contains(out, "held-out bot") {
		t.Errorf("a network: %v\n%s", err, out)
	}
}

func TestHeldoutCommandRefuses(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-g", "four-square"}, "--bot: which bot"},
		{[]string{"-g", "four-square", "--bot", "last"}, "is a held-out bot of four-square"},
		{[]string{"-g", "four-square", "--bot", "x=last"}, "is a held-out bot of four-square"},
		{[]string{"-g", "four-square", "--bot", "first", "--against", "first"}, "not a held-out bot of four-square (they are: last)"},
		{[]string{"-g", "four-square", "--bot", "nosuch"}, "unknown bot"},
		{[]string{"-g", "four-square", "--bot", "first", "-n", "-1"}, "--games -1"},
	} {
		out, err := run(append([]string{"heldout"}, c.args...)...)
		if err == nil || exitStatus(err) != 2 || !strings.Contains(out+err.Error(), c.want) {
			t.Errorf("%v: %v (status %d), want exit 2 and %q\n%s", c.args, err, exitStatus(err), c.want, out)
		}
	}
}

// Every game's reference bots (agents.RegisterReference: the company of
// gridgym heldout's tables) are bots of the game that training may use
// — none held out — and fit its seats beside the bot and a held-out bot.
func TestReferenceBots(t *testing.T) {
	for _, name := range rules.Names() {
		ref := agents.Reference(name)
		if len(ref) == 0 {
			t.Errorf("%s names no reference bots (agents.RegisterReference in its bots package)", name)
		}
		g, _ := rules.Lookup(name)
		seats := g.New(g.Default()).Spec().Seats
		if seats > 2 && len(ref) != seats-2 {
			t.Errorf("%s: %d reference bots for %d seats, want %d", name, len(ref), seats, seats-2)
		}
		for _, r := range ref {
			if !slices.Contains(agents.Names(name), r) {
				t.Errorf("%s: reference bot %s is not one of its bots %v (held out: %v)", name, r, agents.Names(name), agents.HeldOut(name))
			}
		}
	}
}
