package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/export/exporttest"
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
// gridgym heldout's tables) and its field (agents.RegisterField: the sample
// bots its competition seats, the second company) are bots of the game
// that training may use — none held out — and fit its seats beside the
// bot and a held-out bot.
func TestReferenceBots(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		seats := g.New(g.Default()).Spec().Seats
		for _, c := range []struct {
			what, register string
			bots           []string
		}{{"reference bots", "RegisterReference", agents.Reference(name)}, {"field", "RegisterField", agents.Field(name)}} {
			if len(c.bots) == 0 {
				t.Errorf("%s names no %s (agents.%s in its bots package)", name, c.what, c.register)
			}
			if seats > 2 && len(c.bots) != seats-2 {
				t.Errorf("%s: %d bots in its %s for %d seats, want %d", name, len(c.bots), c.what, seats, seats-2)
			}
			for _, r := range c.bots {
				if !slices.Contains(agents.Names(name), r) {
					t.Errorf("%s: %s bot %s is not one of its bots %v (held out: %v)", name, c.what, r, agents.Names(name), agents.HeldOut(name))
				}
			}
		}
	}
}

// gridgym heldout plays its tables in the game's reference company and in
// its field by default, each as --with names it (the same margins), with
// each company's reports in its own folder, and ends with the tables
// where the bot did not beat the held-out bot; --with field is refused
// for a game without one, and a learning curve plays one company.
func TestHeldoutCompanies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ho")
	args := []string{"heldout", "-g", "slime", "--bot", "greedy", "--against", "hunter,surveyor", "-n", "24", "--workers", "1", "-q"}
	out, err := run(append(args, "--report", dir)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for i, with := range []string{"reference", "greedy,simplebot", "field"} {
		one, err := run(append(args, "--with", with)...)
		if err != nil {
			t.Fatalf("--with %s: %v\n%s", with, err, one)
		}
		table := one[:strings.Index(one, "(cells a game)")]
		if !strings.Contains(out, table) {
			t.Errorf("--with %s plays another table than the default's company %d:\n%s\nthe default:\n%s", with, i%2+1, one, out)
		}
	}
	for _, want := range []string{"each beside greedy, simplebot, every seating order", "each beside simplebot, simplebot, every seating order"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The last lines name every company where a held-out bot was not beaten, and only those.
	rows := regexp.MustCompile(`(?m)^ *(hunter|surveyor) +24 +\S+ +\S+ +\S+ \[\S+, \S+\] +(above|level|below)$`).FindAllStringSubmatch(out, -1)
	if len(rows) != 4 {
		t.Fatalf("%d table rows, want 4:\n%s", len(rows), out)
	}
	missed := 0
	for i, r := range rows {
		company := []string{"greedy, simplebot", "simplebot, simplebot"}[i/2]
		if r[2] != "above" {
			missed++
			if !regexp.MustCompile(`(?m)^  beside ` + company + `: .*` + r[1]).MatchString(out) {
				t.Errorf("%s %s beside %s, not in the summary:\n%s", r[2], r[1], company, out)
			}
		}
	}
	if (missed == 0) != strings.Contains(out, "in every company (2): beats every held-out bot") || (missed > 0) != strings.Contains(out, "not in every company") {
		t.Errorf("the summary does not follow the %d tables missed:\n%s", missed, out)
	}
	for _, f := range []string{"reference/hunter/report.md", "field/surveyor/games.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"heldout", "-g", "slime", "--bot", "greedy", "--with", "reference", "--with", "field", "--curve", "2"}, "a learning curve plays its tables in one company"},
		{[]string{"heldout", "-g", "slime", "--bot", "greedy", "--with", "nosuch"}, "nosuch"},
	} {
		out, err := run(c.args...)
		if err == nil || exitStatus(err) != 2 || !strings.Contains(out+err.Error(), c.want) {
			t.Errorf("%v: %v (status %d), want exit 2 and %q\n%s", c.args, err, exitStatus(err), c.want, out)
		}
	}
}

// curveRun writes a training run folder of the test game with checkpoints
// at iterations 0, 10 and 20, each another random network.
func curveRun(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	for i, it := range []int{0, 10, 20} {
		cp := filepath.Join(dir, "checkpoints", fmt.Sprintf("iter-%06d", it))
		if err := os.MkdirAll(cp, 0o755); err != nil {
			t.Fatal(err)
		}
		w := exporttest.RandomNetFile(t, t.TempDir(), "four-square", uint64(i+1))
		if err := os.Rename(w, filepath.Join(cp, "weights.safetensors")); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// gridgym heldout --curve: the learning curve of a run folder plays the
// checkpoints evenly spaced from the first to the last (--iterations names
// them), each point the margin that gridgym heldout prints for that
// checkpoint's weights file, and --report writes curve.csv with those
// margins, curve.png and each table's report.
func TestHeldoutCurve(t *testing.T) {
	runDir := curveRun(t)
	rep := filepath.Join(t.TempDir(), "curve")
	out, err := run("heldout", "-g", "four-square", "--bot", runDir, "--curve", "2", "-n", "8", "--workers", "1", "--report", rep, "-q")
	rowRe := regexp.MustCompile(`(?m)^ *(\d+) +([-+]\d+\.\d\d) \[([-+]\d+\.\d\d), ([-+]\d+\.\d\d)\] (above|level|below)$`)
	rows := rowRe.FindAllStringSubmatch(out, -1)
	if err != nil || len(rows) != 2 || rows[0][1] != "0" || rows[1][1] != "20" {
		t.Fatalf("--curve 2 of checkpoints 0, 10, 20: want rows 0 and 20: %v\n%s", err, out)
	}
	single := regexp.MustCompile(`(?m)^ *last +8 +\S+ +\S+ +(\S+) \[(\S+), (\S+)\] +(above|level|below)$`)
	for _, r := range rows {
		w := filepath.Join(runDir, "checkpoints", "iter-"+fmt.Sprintf("%06s", r[1]), "weights.safetensors")
		alone, err := run("heldout", "-g", "four-square", "--bot", w, "-n", "8", "--workers", "1", "-q")
		m := single.FindStringSubmatch(alone)
		if err != nil || m == nil {
			t.Fatalf("heldout of %s: %v\n%s", w, err, alone)
		}
		if m[1] != r[2] || m[2] != r[3] || m[3] != r[4] || m[4] != r[5] {
			t.Errorf("iteration %s: the curve's %s [%s, %s] %s, heldout's of its weights %s [%s, %s] %s", r[1], r[2], r[3], r[4], r[5], m[1], m[2], m[3], m[4])
		}
	}
	b, err := os.ReadFile(filepath.Join(rep, "curve.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "iteration,held_out,games,") || !strings.HasPrefix(lines[2], "20,last,8,") {
		t.Errorf("curve.csv:\n%s", b)
	}
	if f := strings.Split(lines[1], ","); len(f) < 7 || fmt.Sprintf("%+.2f", atof(t, f[6])) != rows[0][2] {
		t.Errorf("curve.csv row %q, the printed margin %s", lines[1], rows[0][2])
	}
	if png, err := os.ReadFile(filepath.Join(rep, "curve.png")); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("curve.png: %v", err)
	}
	for _, f := range []string{"iter-000000/last/report.md", "iter-000020/last/games.jsonl"} {
		if _, err := os.Stat(filepath.Join(rep, f)); err != nil {
			t.Error(err)
		}
	}
	out, err = run("heldout", "-g", "four-square", "--bot", runDir, "--iterations", "10", "-n", "4", "--workers", "1", "-q")
	if rows := rowRe.FindAllStringSubmatch(out, -1); err != nil || len(rows) != 1 || rows[0][1] != "10" {
		t.Errorf("--iterations 10: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bot", "first", "--curve", "3"}, "not a training run folder with checkpoints"},
		{[]string{"--bot", runDir, "--iterations", "5"}, "no checkpoint of iteration 5 (the run has [0 10 20])"},
		{[]string{"--bot", runDir, "--iterations", "x"}, `invalid argument "x" for "--iterations" flag`},
		{[]string{"--bot", runDir, "--iterations=10,-5"}, "--iterations -5: want checkpoint iterations"},
		{[]string{"--bot", runDir, "--curve", "-1"}, "--curve -1"},
	} {
		out, err := run(append([]string{"heldout", "-g", "four-square", "-n", "4"}, c.args...)...)
		if err == nil || exitStatus(err) != 2 || !strings.Contains(out+err.Error(), c.want) {
			t.Errorf("%v: %v (status %d), want exit 2 and %q\n%s", c.args, err, exitStatus(err), c.want, out)
		}
	}
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}
