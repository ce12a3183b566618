package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents/host"
	"github.com/gridgym/gridgym/rules"
)

// needPython skips a test that hosts Python bots where there is no
// interpreter (host.Interpreter's search).
func needPython(t *testing.T) {
	t.Helper()
	if _, err := host.Interpreter(""); err != nil {
		t.Skip(err)
	}
}

// lockedBuffer collects the host's event log, written from the games'
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// hostLog points the hosted bots' event log (refused answers, time-outs,
// errors, crashes: one "host: …" line each) at a buffer, and sets their
// move limit (0 = the competition's), until the test ends. The answer
// times are forgotten first, so a summary shows this test's bots only.
func hostLog(t *testing.T, limit time.Duration) *lockedBuffer {
	t.Helper()
	saved := host.Defaults
	t.Cleanup(func() { host.Defaults = saved; host.ResetTimings() })
	log := &lockedBuffer{}
	host.Defaults.Log = log
	host.Defaults.Limit = limit
	host.ResetTimings()
	return log
}

// timingOf returns the answer times of the hosted bot spec in game.
func timingOf(t *testing.T, spec, game string) host.Timing {
	t.Helper()
	for _, tm := range host.Timings() {
		if tm.Bot == spec && tm.Game == game {
			return tm
		}
	}
	t.Fatalf("no answer times for %s in %s: %+v", spec, game, host.Timings())
	return host.Timing{}
}

// TestNewBotEveryGame: for every registered game, `gridgym new-bot` writes
// the game's template (and Rising Tide's util.py beside it, R18), keeps
// existing files unless --force, and the bot spec it prints plays a short
// tournament against the game's random bot through the real host with
// every answer a legal move: no refused answer, exception, time-out,
// crash or garbage (the host logs each as a "host:" line), none over the
// limit. The tournament is the game's own (rules.Testdata.NewBot, in its
// folder: parameters that shorten the game, the number of games, whether
// -short skips it). The limit is 5 s here, not the competitions' 0.1 s, so
// that a loaded test machine cannot make a legal bot look slow;
// TestTimingSummary prints the real limit.
func TestNewBotEveryGame(t *testing.T) {
	needPython(t)
	for _, game := range rules.Names() {
		t.Run(game, func(t *testing.T) {
			g, _ := rules.Lookup(game)
			if g.Testdata == nil {
				t.Fatalf("no new-bot case for %s: declare its short tournament, Testdata.NewBot, in its folder", game)
			}
			c := g.Testdata.NewBot
			if c.Games == 0 {
				c.Games = 2
			}
			tmpl, err := host.NewTemplate(game, "")
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "mybot")
			out, err := run("new-bot", "--game", game, "--out", dir)
			if err != nil {
				t.Fatalf("new-bot: %v\n%s", err, out)
			}
			want := map[string][]byte{tmpl.File: tmpl.Source}
			for _, m := range host.Modules(game) {
				want[m.File] = m.Source
			}
			if game == "rising-tide" {
				if _, ok := want["util.py"]; !ok {
					t.Errorf("rising-tide: no util.py among the files to write (R18: bots import util)")
				}
			}
			for name, src := range want {
				p := filepath.Join(dir, name)
				b, err := os.ReadFile(p)
				if err != nil {
					t.Errorf("new-bot did not write %s: %v", name, err)
					continue
				}
				if !bytes.Equal(b, src) {
					t.Errorf("%s differs from the template", name)
				}
				if !strings.Contains(out, "wrote "+p) {
					t.Errorf("output does not name %s:\n%s", p, out)
				}
			}
			bot := filepath.Join(dir, tmpl.File)
			if fi, err := os.Stat(bot); err == nil && tmpl.Executable && fi.Mode()&0o111 == 0 {
				t.Errorf("%s: mode %v, want executable (run as cmd:)", bot, fi.Mode())
			}
			spec := tmpl.Spec(bot)
			if !strings.Contains(out, "bot spec: "+spec+"\n") {
				t.Errorf("output lacks the bot spec %q:\n%s", spec, out)
			}

			// Existing files are kept without --force, every one of them
			// (checked before anything is written), and replaced with it.
			for name := range want {
				if err := os.WriteFile(filepath.Join(dir, name), []byte("# edited\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if out, err := run("new-bot", "--game", game, "--out", dir); err == nil || !strings.Contains(err.Error(), "exists") || !strings.Contains(err.Error(), "--force") {
				t.Errorf("new-bot over existing files: error %v, want one saying it exists and naming --force\n%s", err, out)
			}
			for name := range want {
				if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != "# edited\n" {
					t.Errorf("%s overwritten without --force", name)
				}
			}
			if out, err := run("new-bot", "--game", game, "--out", dir, "--force"); err != nil {
				t.Fatalf("new-bot --force: %v\n%s", err, out)
			}
			for name, src := range want {
				if b, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(b, src) {
					t.Errorf("%s not replaced by --force", name)
				}
			}

			if c.Slow && testing.Short() {
				t.Skipf("the tournament of %s takes about 15 s", game)
			}
			log := hostLog(t, 30*time.Second)
			args := []string{"tournament", "-q", "-g", game, "-b", spec + ",random", "-n", fmt.Sprint(c.Games)}
			for _, p := range c.Params {
				args = append(args, "-p", p)
			}
			t0 := time.Now()
			out, err = run(args...)
			if err != nil {
				t.Fatalf("%v: %v\n%s", args, err, out)
			}
			// The sandbox's notes on this machine ("host: sandbox: …", e.g.
			// that the test's temporary folder is not readable by user
			// nobody, so the bot runs as root without capabilities) are no
			// verdict on the answers.
			var events []string
			for _, l := range strings.Split(strings.TrimSpace(log.String()), "\n") {
				if l != "" && !strings.HasPrefix(l, "host: sandbox: ") {
					events = append(events, l)
				}
			}
			if len(events) > 0 {
				t.Errorf("the template's answers were not all legal moves in time:\n%s", strings.Join(events, "\n"))
			}
			tm := timingOf(t, spec, game)
			if tm.Moves == 0 || tm.Over != 0 {
				t.Errorf("answer times %+v: want moves, none over the limit", tm)
			}
			if !strings.Contains(out, "random") || !strings.Contains(out, "1st") {
				t.Errorf("no tournament table:\n%s", out)
			}
			t.Logf("%s: %d games, %d moves of the template, p50 %v, p99 %v, in %v",
				game, c.Games, tm.Moves, tm.P50, tm.P99, time.Since(t0).Round(time.Millisecond))
		})
	}
}

// The util.py that new-bot writes beside the Rising Tide template makes it
// a complete competition bot outside gridgym: plain Python imports it (its
// `import util` finds the file beside it, R18) and util.make_bot gives the
// Bot object the tournament calls.
func TestNewBotRisingTideImportsUtilBesideIt(t *testing.T) {
	needPython(t)
	py, _ := host.Interpreter("")
	dir := t.TempDir()
	if out, err := run("new-bot", "-g", "rising-tide", "-o", dir); err != nil {
		t.Fatalf("new-bot: %v\n%s", err, out)
	}
	// -I: no user site, no PYTHONPATH; the bot's folder is put first on
	// the path, as the competition's runner has it.
	script := "import sys; sys.path.insert(0, sys.argv[1]); import my_rising_tide_bot as b, util; " +
		"assert callable(b.my_bot_fn); print(type(b.bot).__name__, util.__file__)"
	out, err := exec.Command(py, "-I", "-c", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("importing the template with plain Python: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), filepath.Join(dir, "util.py")) {
		t.Errorf("util came from elsewhere, not the file beside the bot: %s", out)
	}
}

// Bad input to new-bot is a usage error (exit status 2) naming what is valid.
func TestNewBotBadGame(t *testing.T) {
	for _, args := range [][]string{
		{"new-bot", "--game", "chess", "--out", t.TempDir()},
		{"new-bot", "--out", t.TempDir()},
	} {
		_, err := run(args...)
		if err == nil {
			t.Errorf("%v: accepted", args)
			continue
		}
		var ue usageError
		if !errors.As(err, &ue) && !isFlagError(err) {
			t.Errorf("%v: %v is not a usage error (exit status 2)", args, err)
		}
		if !strings.Contains(err.Error(), "rising-tide") && !strings.Contains(err.Error(), `"game"`) {
			t.Errorf("%v: error %q names neither the valid games nor the missing flag", args, err)
		}
	}
}

// The help of every command that takes bots documents the bot specs
// (py:, cmd:, search:, and new-bot to start one); the others' does not; the
// root help lists new-bot, and play and tournament have --bot-log.
func TestBotSpecsHelp(t *testing.T) {
	specs := []string{"Bot specs", "py:FILE[:ENTRY]", "cmd:PROGRAM", "search:BOT", "gridgym new-bot --game G", "p50, p99"}
	cases := []struct {
		cmd      string
		specs    bool
		extra    []string
		notExtra []string
	}{
		{"play", true, []string{"--bot-log"}, nil},
		{"tournament", true, []string{"--bot-log"}, nil},
		{"selfplay", true, nil, nil},
		{"pipeline", false, nil, nil}, // it takes no bots (issue 52)
		{"games", false, nil, []string{"--bot-log"}},
		{"replay", false, nil, []string{"--bot-log"}},
		{"new-bot", false, []string{"--force", "cmd:FILE", "py:FILE", "util.py"}, nil},
	}
	for _, c := range cases {
		out, err := run(c.cmd, "--help")
		if err != nil {
			t.Errorf("%s --help: %v", c.cmd, err)
			continue
		}
		for _, w := range specs {
			if got := strings.Contains(out, w); got != c.specs {
				t.Errorf("%s --help: contains %q = %v, want %v", c.cmd, w, got, c.specs)
			}
		}
		for _, w := range c.extra {
			if !strings.Contains(out, w) {
				t.Errorf("%s --help lacks %q", c.cmd, w)
			}
		}
		for _, w := range c.notExtra {
			if strings.Contains(out, w) {
				t.Errorf("%s --help has %q", c.cmd, w)
			}
		}
		if c.specs && strings.Count(out, "Bot specs") != 1 {
			t.Errorf("%s --help: the bot specs %d times, want once", c.cmd, strings.Count(out, "Bot specs"))
		}
	}
	out, err := run("--help")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\s+new-bot\s+\S`).MatchString(out) {
		t.Errorf("root help does not list new-bot:\n%s", out)
	}
}

// writeBot writes an executable bot file into dir.
func writeBot(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// --bot-log DIR keeps what each hosted bot prints in a file of its own,
// DIR/BOT-GAME.log (host.BotLogName): a Python bot's standard output and
// error, every call's; a program's standard error (its first line of
// standard output is its move). Without --bot-log nothing is written there.
func TestBotLogFlag(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	// Two Python bots that print differently, and a program.
	pyA := writeBot(t, dir, "alpha.py", `import sys
def bot(board, move_num):
    print("alpha stdout", move_num)
    print("alpha stderr", move_num, file=sys.stderr)
    return (move_num % 20, 3)
`)
	pyB := writeBot(t, dir, "beta.py", `def bot(board, move_num):
    print("beta says", move_num)
    return [4, move_num % 20]
`)
	sh := writeBot(t, dir, "slime.sh", "#!/bin/sh\necho \"gamma thinks about $1\" >&2\necho '-1 -1 -1 -1'\n")
	nuggets := []string{"-g", "nuggets", "-p", "setup_moves=2", "-p", "build_moves=3"} // 5 moves a game
	cases := []struct {
		name string
		args []string
		logs map[string][]string // bot spec → lines its log must hold (each with its count)
		not  map[string][]string // bot spec → text its log must not hold
	}{
		{
			name: "tournament of two Python bots",
			args: append([]string{"tournament", "-q", "-n", "2", "-b", "py:" + pyA + ",py:" + pyB}, nuggets...),
			// 2 games × 2 seats each × 5 moves.
			logs: map[string][]string{"py:" + pyA: {"alpha stdout 4\n×4", "alpha stderr 0\n×4"}, "py:" + pyB: {"beta says 2\n×4"}},
			not:  map[string][]string{"py:" + pyA: {"beta"}, "py:" + pyB: {"alpha"}},
		},
		{
			name: "play with one Python bot",
			args: append([]string{"play", "-b", "py:" + pyA + ",random,random,random"}, nuggets...),
			logs: map[string][]string{"py:" + pyA: {"alpha stdout 3\n×1", "alpha stderr 4\n×1"}},
		},
		{
			name: "tournament of a program",
			args: []string{"tournament", "-q", "-n", "1", "-g", "slime", "-p", "max_turns=8", "-b", "cmd:" + sh + ",random"},
			// 8 turns, seats 0 and 2 of 4 (players 1 and 3) the program's:
			// 4 runs, 2 each.
			logs: map[string][]string{"cmd:" + sh: {"gamma thinks about 1,×2", "gamma thinks about 3,×2", "gamma thinks about ×4"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hostLog(t, 30*time.Second)
			logDir := filepath.Join(t.TempDir(), "logs")
			out, err := run(append(c.args, "--bot-log", logDir)...)
			if err != nil {
				t.Fatalf("%v: %v\n%s", c.args, err, out)
			}
			game := c.args[slices.Index(c.args, "-g")+1]
			ents, _ := os.ReadDir(logDir)
			if len(ents) != len(c.logs) {
				t.Errorf("%s holds %d files, want one per hosted bot (%d): %v", logDir, len(ents), len(c.logs), ents)
			}
			for spec, wants := range c.logs {
				b, err := os.ReadFile(filepath.Join(logDir, host.BotLogName(spec, game)))
				if err != nil {
					t.Errorf("%s: %v", spec, err)
					continue
				}
				for _, w := range wants {
					text, count, _ := strings.Cut(w, "×")
					if n := strings.Count(string(b), text); fmt.Sprint(n) != count {
						t.Errorf("%s's log holds %q %d times, want %s:\n%s", spec, text, n, count, b)
					}
				}
				for _, w := range c.not[spec] {
					if strings.Contains(string(b), w) {
						t.Errorf("%s's log holds another bot's %q:\n%s", spec, w, b)
					}
				}
			}
			// The same run without --bot-log leaves no files.
			hostLog(t, 30*time.Second)
			if out, err := run(c.args...); err != nil {
				t.Fatalf("%v: %v\n%s", c.args, err, out)
			}
			if ents, _ := os.ReadDir(logDir); len(ents) != len(c.logs) {
				t.Errorf("a run without --bot-log changed %s: %v", logDir, ents)
			}
		})
	}
}

// After a tournament or a game with a hosted bot, gridgym prints each hosted
// bot's answer times (p50, p99, max) against the competition's limit (0.1 s,
// nuggets R20) and the moves over it; with no hosted bot, nothing.
func TestTimingSummary(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	if out, err := run("new-bot", "-g", "nuggets", "-o", dir); err != nil {
		t.Fatalf("new-bot: %v\n%s", err, out)
	}
	spec := "py:" + filepath.Join(dir, "my_nuggets_bot.py")
	params := []string{"-g", "nuggets", "-p", "setup_moves=10", "-p", "build_moves=20"} // 30 moves a game
	cases := []struct {
		name  string
		args  []string
		moves int // the hosted bot's moves; 0 = no summary
	}{
		// 2 games, the template in 2 of 4 seats of each: 4 × 30 moves.
		{"tournament", append([]string{"tournament", "-q", "-n", "2", "-b", spec + ",random"}, params...), 120},
		{"play", append([]string{"play", "-b", "random," + spec + ",random," + spec}, params...), 60},
		{"tournament without hosted bots", append([]string{"tournament", "-q", "-n", "2", "-b", "greedy,random"}, params...), 0},
	}
	row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(spec) + `\s+(\d+)\s+([\d.]+) ms\s+([\d.]+) ms\s+([\d.]+) ms\s+100\.0 ms\s+(\d+)`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hostLog(t, 0) // the competition's limit
			out, err := run(c.args...)
			if err != nil {
				t.Fatalf("%v: %v\n%s", c.args, err, out)
			}
			has := strings.Contains(out, "hosted bots' answer times")
			if c.moves == 0 {
				if has {
					t.Errorf("a summary with no hosted bot:\n%s", out)
				}
				return
			}
			if !has || !strings.Contains(out, "p50") || !strings.Contains(out, "p99") || !strings.Contains(out, "limit") {
				t.Fatalf("no answer-time summary:\n%s", out)
			}
			m := row.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no line for %s with moves, p50, p99, max and the 100.0 ms limit:\n%s", spec, out)
			}
			if m[1] != fmt.Sprint(c.moves) {
				t.Errorf("%s: %s moves timed, want %d:\n%s", spec, m[1], c.moves, out)
			}
			var p50, p99, mx float64
			fmt.Sscan(m[2], &p50)
			fmt.Sscan(m[3], &p99)
			fmt.Sscan(m[4], &mx)
			if p50 > p99 || p99 > mx {
				t.Errorf("p50 %v ms, p99 %v ms, max %v ms: want p50 ≤ p99 ≤ max", p50, p99, mx)
			}
			if tm := timingOf(t, spec, "nuggets"); tm.Limit != 100*time.Millisecond {
				t.Errorf("limit %v, want the competition's 100ms (nuggets R20)", tm.Limit)
			}
			t.Logf("%s: %s", c.name, m[0])
		})
	}
}
