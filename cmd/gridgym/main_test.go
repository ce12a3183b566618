package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
)

func run(args ...string) (string, error) {
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	removeTemps() // as main does
	return out.String(), err
}

func TestCommands(t *testing.T) {
	cases := []struct {
		args []string
		want []string // substrings of the output
	}{
		{[]string{"games"}, []string{"rising-tide", "nonadjacent_moves=false", "pass_perth", "simplebot", "decay_table", "boxer", "mason, measured: +", "companies: reference siege_sofia, solo_stockholm (the strongest scripted bots); field trench_tunis, nearby_new_orleans"}},
		// rising-tide E6: four passing bots all drown in round 502 and score 502.
		{[]string{"play", "--game", "rising-tide", "--bots", "pass_perth", "--seed", "3"}, []string{"503 steps", "502"}},
		// slime R5/I4: four passing seats end after 2000 turns with one cell each.
		{[]string{"play", "--game", "slime", "--bots", "pass"}, []string{"2000 steps"}},
		{[]string{"play", "-g", "slime", "-b", "simplebot,random", "--render"}, []string{"to move", "cells"}},
		{[]string{"tournament", "-g", "nuggets", "-b", "greedy,random", "-n", "4", "-q"}, []string{"greedy", "log-score", "1st"}},
		{[]string{"tournament", "-g", "slime", "-b", "g=greedy,random", "-n", "4", "-q", "--margin", "g,random"}, []string{"per-game margins", "g − random: +", "cells a game over 4 games"}},
		// slime: 4 seats × (5·8·8 planes + 4·9 scalars + 8·25 mask words) = 2224 bytes a step.
		{[]string{"bench", "-g", "slime", "--batches", "4", "--time", "20ms", "-q"}, []string{"rules Step", "NoObs", "ceiling", "writes 2224 bytes", "800 with masks only"}},
	}
	for _, c := range cases {
		out, err := run(c.args...)
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}
}

func TestSlimeAllPassOneCellEach(t *testing.T) {
	out, err := run("play", "--game", "slime", "--bots", "pass")
	if err != nil {
		t.Fatal(err)
	}
	ranking, times, _ := strings.Cut(strings.TrimSpace(out), "\n\n")
	lines := strings.Split(ranking, "\n")
	if len(lines) != 6 {
		t.Fatalf("want a title, a header and 4 seats:\n%s", out)
	}
	for _, l := range lines[2:] {
		if f := strings.Fields(l); len(f) < 5 || f[3] != "1" || f[0] != "1" {
			t.Errorf("seat line %q: want rank 1 with 1 cell", l)
		}
	}
	// then each seat's answer times: 2000 turns of a sequential game, 500 a seat
	// (a heading of two lines, the table's head, a line a seat).
	lines = strings.Split(times, "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "answer times") {
		t.Fatalf("want the answer times of 4 seats after the ranking:\n%s", out)
	}
	for s, l := range lines[3:] {
		if f := strings.Fields(l); len(f) < 4 || f[1]+" "+f[2] != fmt.Sprintf("%d: pass", s) || f[3] != "500" {
			t.Errorf("answer-time line %q: want seat %d's pass with 500 moves", l, s)
		}
	}
}

func TestBadInputIsAUsageError(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"play", "--game", "chess"}, "valid: " + strings.Join(rules.Names(), ", ")},
		{[]string{"play", "--game", "slime", "--bots", "deep_blue"}, "valid: greedy, pass, random, simplebot"},
		{[]string{"play", "--game", "slime", "-p", "board_size=9"}, "4..8"},
		{[]string{"play", "--game", "slime", "-p", "size=9"}, "valid: max_turns, board_size"},
		{[]string{"play", "--seed", "-1"}, "0..18446744073709551615"},
		{[]string{"tournament", "--games", "-1"}, "at least 1"},
		{[]string{"tournament", "-g", "slime", "-b", "greedy,random", "--margin", "greedy,simplebot"}, `no bot labelled "simplebot" (the bots: greedy, random)`},
		{[]string{"tournament", "-g", "slime", "-b", "greedy,random", "--margin", "greedy"}, "want two bot labels A,B"},
		{[]string{"tournament", "-g", "slime", "-b", "greedy,random", "--margin", "random,random"}, "two different bots"},
		{[]string{"play", "--bogus"}, "unknown flag"},
	}
	for _, c := range cases {
		_, err := run(c.args...)
		if err == nil {
			t.Errorf("%v: accepted", c.args)
			continue
		}
		var ue usageError
		if !errors.As(err, &ue) && !isFlagError(err) {
			t.Errorf("%v: %v is not a usage error (exit status 2)", c.args, err)
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %q should be one line mentioning %q", c.args, err, c.want)
		}
	}
}

// failWriter fails every write, as a closed pipe does (| head).
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// A tournament writes its report before it prints anything, so output that
// cannot be written (a reader that stopped early) does not cost the report.
func TestTournamentReportSurvivesBrokenOutput(t *testing.T) {
	dir := t.TempDir()
	root := newRoot()
	root.SetOut(failWriter{})
	root.SetErr(failWriter{})
	root.SetArgs([]string{"tournament", "-q", "-g", "slime", "-b", "simplebot,random", "-n", "4", "--report", dir})
	if err := root.Execute(); err == nil {
		t.Fatal("printing into a broken pipe reported no error")
	}
	removeTemps()
	for _, f := range []string{"report.md", "report.html", "games.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("report file %s: %v", f, err)
		}
	}
}

// A rotated table of a sequential game with two bots or more, or of any game
// with three bots or more (each keeps its neighbours), says that the seating
// can decide games and names --all-orders; every order, two bots in a
// simultaneous game or a single bot get no note.
func TestTournamentOrderNote(t *testing.T) {
	for _, c := range []struct {
		args []string
		note bool
	}{
		{[]string{"-g", "slime", "-b", "simplebot,random", "-n", "2"}, true},
		{[]string{"-g", "slime", "-b", "simplebot,random", "-n", "24", "--all-orders"}, false},
		{[]string{"-g", "slime", "-b", "simplebot", "-n", "2"}, false},
		{[]string{"-g", "nuggets", "-b", "greedy,random", "-n", "2"}, false},
		{[]string{"-g", "rising-tide", "-b", "wall_warsaw,trench_tunis,nearby_new_orleans", "-n", "2"}, true},
		{[]string{"-g", "rising-tide", "-b", "wall_warsaw,trench_tunis,nearby_new_orleans", "-n", "6", "--all-orders"}, false},
		// one bot against three copies of another: every rotation is alike
		{[]string{"-g", "rising-tide", "-b", "s=wall_warsaw,a=trench_tunis,b=trench_tunis,c=trench_tunis", "-n", "4"}, false},
		{[]string{"-g", "rising-tide", "-b", "s=wall_warsaw,a=trench_tunis,b=trench_tunis,c=nearby_new_orleans", "-n", "4"}, true},
	} {
		out, err := run(append([]string{"tournament", "-q"}, c.args...)...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got := strings.Contains(out, "--all-orders seats every order"); got != c.note {
			t.Errorf("%v: note %v, want %v:\n%s", c.args, got, c.note, out)
		}
	}
}

// Bots are shown by their LABEL= or by a short path, never a long machine
// path (issue 25: a report named /root/ggbin/bov-bc.safetensors).
func TestTournamentLabels(t *testing.T) {
	out, err := run("tournament", "-g", "nuggets", "-b", "mine=greedy,random", "-n", "2", "-q")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "mine") || strings.Contains(out, "mine=greedy") {
		t.Errorf("want the bot shown as mine:\n%s", out)
	}
	if _, err := run("tournament", "-g", "nuggets", "-b", "greedy=random,greedy", "-n", "2", "-q"); err == nil || !strings.Contains(err.Error(), "both shown as") {
		t.Errorf("a label taken by another bot: error %v, want one saying so", err)
	}
}

// TestSearchSettingsInHelp: the bot specs' help names every setting a search
// spec accepts, so that it does not fall behind the search package.
func TestSearchSettingsInHelp(t *testing.T) {
	for _, k := range search.Settings {
		if !strings.Contains(botSpecsHelp, " "+k+"=") {
			t.Errorf("the bot specs' help does not name the search setting %s=", k)
		}
	}
}

// rate pools the games.jsonl of two tournaments: twice the games, the rating
// gaps, and a report of the pooled games; a missing file, a file of another
// game's seats and no files are errors.
func TestRate(t *testing.T) {
	dir := t.TempDir()
	for _, seed := range []string{"1", "2"} {
		if out, err := run("tournament", "-q", "-g", "slime", "-b", "simplebot,random", "-n", "8", "--seed", seed, "--report", filepath.Join(dir, "t"+seed)); err != nil {
			t.Fatalf("tournament: %v\n%s", err, out)
		}
	}
	a, b := filepath.Join(dir, "t1", "games.jsonl"), filepath.Join(dir, "t2", "games.jsonl")
	out, err := run("rate", "-g", "slime", "--report", filepath.Join(dir, "pooled"), a, b)
	if err != nil {
		t.Fatalf("rate: %v\n%s", err, out)
	}
	for _, want := range []string{"slime: 16 games", "seats as recorded", "rating gaps", "simplebot", "random"} {
		if !strings.Contains(out, want) {
			t.Errorf("rate output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "pooled", "report.md")); err != nil {
		t.Errorf("pooled report: %v", err)
	}
	for _, args := range [][]string{
		{"rate", "-g", "slime", filepath.Join(dir, "nope.jsonl")},
		{"rate", "-g", "slime", "--resamples", "0", a},
		{"rate", "-g", "slime"},
		{"rate", "-g", "rectangle", "-p", "players=2", a},
	} {
		if out, err := run(args...); err == nil {
			t.Errorf("%v: no error\n%s", args, out)
		}
	}
	if _, err := run("rate", "-g", "rectangle", "-p", "players=2", a); err == nil || !strings.Contains(err.Error(), "game record 0") {
		t.Errorf("slime games rated as 2-seat rectangle: error %v, want one naming the record", err)
	}
}

// refusal is a command line that must exit 2 (bad input) with an error
// that contains want.
type refusal struct {
	args []string
	want string
}

// checkRefusals runs every case and reports those accepted, or refused
// with another exit status or message.
func checkRefusals(t *testing.T, cases []refusal) {
	t.Helper()
	for _, c := range cases {
		out, err := run(c.args...)
		if err == nil {
			t.Errorf("%v: accepted:\n%s", c.args, out)
			continue
		}
		if s := exitStatus(err); s != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: exit %d, error %q; want 2 and %q", c.args, s, err, c.want)
		}
	}
}
