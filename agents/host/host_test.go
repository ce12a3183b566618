package host

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	_ "github.com/gridgym/gridgym/rules/bovine"
	"github.com/gridgym/gridgym/rules/nuggets"
	_ "github.com/gridgym/gridgym/rules/rectangle"
	_ "github.com/gridgym/gridgym/rules/risingtide"
	"github.com/gridgym/gridgym/rules/slime"
)

// needPython skips a test where the default interpreter is missing.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := Interpreter(""); err != nil {
		t.Skip(err)
	}
}

// syncBuffer is a bytes.Buffer safe for the writers of a process's output.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// play plays up to steps steps of game (default parameters) with bots seated
// in order, the game's random events from seed, and returns every step's
// moves and the final state.
func play(t *testing.T, game string, seed uint64, bots []agents.Agent, steps int) ([][]rules.Move, rules.State) {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	st := g.New(g.Default())
	for s, b := range bots {
		b.Reset(st, s, rules.NewRNG(seed+uint64(s)+1))
	}
	rng := rules.NewRNG(seed)
	var log [][]rules.Move
	for !st.Done() && st.Steps() < steps {
		moves := make([]rules.Move, len(bots))
		for s, b := range bots {
			if st.Active(s) {
				moves[s] = b.Act(st)
			}
		}
		log = append(log, moves)
		st.Step(moves, rng)
	}
	return log, st
}

func closeAll(bots []agents.Agent) {
	for _, b := range bots {
		if c, ok := b.(io.Closer); ok {
			c.Close()
		}
	}
}

// nuggetsTwin is testdata/nuggets_twin.py written in Go: the same choices
// from the same view.
type nuggetsTwin struct{ seat, calls, invalid int }

func (b *nuggetsTwin) Reset(_ rules.State, seat int, _ *rules.RNG) {
	b.seat, b.calls, b.invalid = seat, 0, 0
}

func (b *nuggetsTwin) Act(st rules.State) rules.Move {
	s := st.(*nuggets.State)
	v := nuggets.ViewOf(s, b.seat)
	b.calls++
	if v.MoveNum%17 == 5 || b.calls%23 == 0 {
		b.invalid++
		return s.Invalid() // None, or a malformed answer: R6
	}
	best, bx, by := -1, 0, 0
	for k := 0; k < nuggets.Size; k++ {
		y := (k + v.MoveNum) % nuggets.Size
		for x := 0; x < nuggets.Size; x++ {
			if v.Board[y][x] != -1 {
				continue
			}
			n := 0
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				xx, yy := x+d[0], y+d[1]
				if xx >= 0 && xx < nuggets.Size && yy >= 0 && yy < nuggets.Size && v.Board[yy][xx] == 0 {
					n++
				}
			}
			if n > best {
				best, bx, by = n, x, y
			}
		}
	}
	return nuggets.Query(bx, by)
}

// TestHostedTwinPlaysTheSameGames: the same bot, once in Go in-process and
// once as a Python file hosted through the competition's protocol, plays
// identical Nuggets games on the same seed: the same moves at every step
// and the same outcome. The hosted agents are reused for a second game,
// which must start from a fresh import (the bot's call counter).
func TestHostedTwinPlaysTheSameGames(t *testing.T) {
	needPython(t)
	log := &syncBuffer{}
	native := make([]agents.Agent, 4)
	hosted := make([]agents.Agent, 4)
	for s := range hosted {
		native[s] = &nuggetsTwin{}
		a, err := NewPython("nuggets", "testdata/nuggets_twin.py", "", Options{Limit: 5 * time.Second, Log: log})
		if err != nil {
			t.Fatal(err)
		}
		hosted[s] = a
	}
	defer closeAll(hosted)
	for game, seed := range []uint64{11, 12} {
		want, wantSt := play(t, "nuggets", seed, native, 1<<30)
		got, gotSt := play(t, "nuggets", seed, hosted, 1<<30)
		if !wantSt.Done() || !gotSt.Done() {
			t.Fatalf("game %d: a game did not finish", game)
		}
		if len(got) != len(want) {
			t.Fatalf("game %d: hosted game took %d steps, in-process %d", game, len(got), len(want))
		}
		for i := range want {
			for s := range want[i] {
				if got[i][s] != want[i][s] {
					t.Fatalf("game %d, step %d, seat %d: hosted move %+v, in-process %+v", game, i, s, got[i][s], want[i][s])
				}
			}
		}
		wo, go_ := rules.NewOutcome(4), rules.NewOutcome(4)
		wantSt.Outcome(wo)
		gotSt.Outcome(go_)
		for s := 0; s < 4; s++ {
			if wo.Score[s] != go_.Score[s] || wo.Points[s] != go_.Points[s] {
				t.Errorf("game %d, seat %d: hosted score %v points %v, in-process %v %v", game, s, go_.Score[s], go_.Points[s], wo.Score[s], wo.Points[s])
			}
		}
		for s, a := range hosted {
			ev := a.(*Python).Events()
			invalid := native[s].(*nuggetsTwin).invalid
			if ev.Moves != len(want) || ev.NoAnswers() != 0 || ev.Rejected != invalid || ev.Answered+ev.Rejected != ev.Moves {
				t.Errorf("game %d, seat %d: events %v, want %d rejected", game, s, ev, invalid)
			}
		}
		t.Logf("game %d: %d steps, scores %v; seat 0: %v", game, len(want), wo.Score, hosted[0].(*Python).Events())
	}
	for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		if !strings.Contains(line, ": refused, not a tuple or list (x, y) of two integers") || !strings.Contains(line, "the query (0,0) is played (R6)") {
			t.Errorf("unexpected event: %s", line)
		}
	}
}

// TestPythonArgumentTypes: the host passes the competitions' Python types.
func TestPythonArgumentTypes(t *testing.T) {
	needPython(t)
	for _, c := range []struct {
		game  string
		steps int
	}{{"bovine-borders", 2}, {"rectangle", 3}, {"rising-tide", 2}} {
		log := &syncBuffer{}
		entry := map[string]string{"bovine-borders": "bovine", "rectangle": "rectangle", "rising-tide": "my_bot_fn"}[c.game]
		a, err := NewPython(c.game, "testdata/types.py", entry, Options{Limit: 5 * time.Second, Log: log})
		if err != nil {
			t.Fatal(err)
		}
		bots := []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}
		play(t, c.game, 1, bots, c.steps)
		a.Close()
		if ev := a.Events(); ev.Moves != c.steps || ev.NoAnswers() != 0 {
			t.Errorf("%s: events %v; log %s", c.game, ev, log)
		}
	}
}

// TestPythonFailuresArePasses: a hosted Rising Tide bot that raises, hangs,
// answers late, crashes, prints, corrupts the protocol stream or answers a
// malformed value in round 1 passes there, the event is counted and logged,
// and it plays real moves before and after.
func TestPythonFailuresArePasses(t *testing.T) {
	needPython(t)
	cases := []struct {
		entry   string
		count   func(Events) int
		log     string // in the log line of round 1
		restart bool   // the process is replaced after round 1
	}{
		{"raises", func(e Events) int { return e.Errors }, "raised ZeroDivisionError", false},
		{"hangs", func(e Events) int { return e.Hangs }, "no answer within", true},
		{"slow", func(e Events) int { return e.Timeouts }, "over the 2s limit", false},
		{"crashes", func(e Events) int { return e.Crashes }, "process died", true},
		{"corrupts", func(e Events) int { return e.Garbage }, "garbage {not json", true},
		// Refused answers are logged as the bot wrote them (Python's repr),
		// with the rule that refuses them (issue 27).
		{"malformed", func(e Events) int { return e.Rejected }, "answered ((1, 2),): refused, not (i1, j1), (i2, j2) of four Python ints, nor None (R22)", false},
		{"illegal", func(e Events) int { return e.Rejected }, "answered [(5, 5), (5, 6)]: refused, not a legal move on the bot's view of the board (R10", false},
	}
	for _, c := range cases {
		t.Run(c.entry, func(t *testing.T) {
			log := &syncBuffer{}
			a, err := NewPython("rising-tide", "testdata/risingtide_faulty.py", c.entry,
				// Limits far from every answer's time (the late
				// one sleeps 4 s, the hung one 60 s; the rest take
				// milliseconds): a loaded machine cannot move an
				// answer across them.
				Options{Limit: 2 * time.Second, HangAfter: 6 * time.Second, Log: log})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			bots := []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}
			var procs []*proc
			moves := make([][]rules.Move, 0, 4)
			g, _ := rules.Lookup("rising-tide")
			st := g.New(g.Default())
			for s, b := range bots {
				b.Reset(st, s, rules.NewRNG(1))
			}
			rng := rules.NewRNG(1)
			for r := 0; r < 4; r++ {
				m := make([]rules.Move, 4)
				m[0] = a.Act(st)
				procs = append(procs, a.h.p)
				moves = append(moves, m)
				st.Step(m, rng)
			}
			for r, m := range moves {
				if pass := m[0] == (rules.Move{}); pass != (r == 1) {
					t.Errorf("round %d: move %+v, want a pass only in round 1", r, m[0])
				}
			}
			ev := a.Events()
			if c.count(ev) != 1 || ev.Answered != 3 || ev.Moves != 4 {
				t.Errorf("events %v, want 3 answered and one failure", ev)
			}
			if got := log.String(); !strings.Contains(got, "seat 0, move 2: ") || !strings.Contains(got, c.log) {
				t.Errorf("log %q, want move 2's event with %q", got, c.log)
			}
			if restarted := procs[1] != procs[0]; restarted != c.restart {
				t.Errorf("process replaced after the failure: %v, want %v", restarted, c.restart)
			}
			if procs[2] == nil || procs[2] != procs[3] {
				t.Errorf("the process after round 1 should serve the rest of the game")
			}
			p := a.h.p
			a.Close()
			if p.running() {
				t.Errorf("Close left the process running")
			}
		})
	}
}

// TestPythonPrintsAreHarmless: what a bot prints (print, os.write on fd 1)
// goes to the output writer, never into the protocol: every answer counts.
func TestPythonPrintsAreHarmless(t *testing.T) {
	needPython(t)
	log, out := &syncBuffer{}, &syncBuffer{}
	a, err := NewPython("rising-tide", "testdata/risingtide_faulty.py", "prints", Options{Limit: 5 * time.Second, Log: log, Output: out})
	if err != nil {
		t.Fatal(err)
	}
	moves, _ := play(t, "rising-tide", 3, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 3)
	a.Close()
	for r, m := range moves {
		if m[0] == (rules.Move{}) {
			t.Errorf("round %d: a pass", r)
		}
	}
	if ev := a.Events(); ev.Answered != 3 {
		t.Errorf("events %v, want 3 answered", ev)
	}
	if n := strings.Count(out.String(), "garbage {not json\nmore garbage\n"); n != 3 {
		t.Errorf("output %q: want the bot's prints 3 times", out.String())
	}
	if log.String() != "" {
		t.Errorf("unexpected events: %s", log)
	}
}

// TestPythonGivesUpOnABrokenBot: a bot that cannot be imported is a crash
// at every start; after three in a row it is not asked again.
func TestPythonGivesUpOnABrokenBot(t *testing.T) {
	needPython(t)
	log := &syncBuffer{}
	a, err := NewPython("nuggets", "testdata/broken_import.py", "", Options{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	moves, _ := play(t, "nuggets", 1, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 5)
	a.Close()
	for r, m := range moves {
		if m[0] != nuggets.Query(0, 0) {
			t.Errorf("move %d: %+v, want the no-answer query (0,0)", r, m[0])
		}
	}
	if ev := a.Events(); ev.Crashes != 3 || ev.Skipped != 2 || ev.NoAnswers() != 5 {
		t.Errorf("events %v, want 3 crashes and 2 skipped", ev)
	}
	if got := log.String(); !strings.Contains(got, "cannot be imported") || !strings.Contains(got, "not asked again") {
		t.Errorf("log %q", got)
	}
}

// TestResolveSpecs: py: and cmd: specs become entries; the util.make_bot
// form of an entry point is accepted.
func TestResolveSpecs(t *testing.T) {
	needPython(t)
	for _, c := range []struct{ game, spec, doc string }{
		{"nuggets", "py:testdata/nuggets_twin.py", "bot() hosted"},
		{"rising-tide", "py:testdata/risingtide_faulty.py:made", "made() hosted"},
		{"slime", "cmd:sh testdata/slime.sh fixed", "run once a move"},
	} {
		e, err := agents.Lookup(c.game, c.spec)
		if err != nil {
			t.Errorf("%s: %v", c.spec, err)
			continue
		}
		if e.Name != c.spec || e.Game != c.game || !strings.Contains(e.Doc, c.doc) {
			t.Errorf("%s: entry %+v", c.spec, e)
		}
		a := e.New()
		if _, ok := a.(io.Closer); !ok {
			t.Errorf("%s: agent %T is no io.Closer", c.spec, a)
		}
		a.(io.Closer).Close()
	}
	// The make_bot form plays.
	e, _ := agents.Lookup("rising-tide", "py:testdata/risingtide_faulty.py:made")
	a := e.New()
	defer a.(io.Closer).Close()
	moves, _ := play(t, "rising-tide", 1, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 1)
	if moves[0][0] == (rules.Move{}) {
		t.Errorf("make_bot entry passed")
	}
	if _, ok, err := Resolve("nuggets", "random"); ok || err != nil {
		t.Errorf("Resolve(random) = %v, %v: not a hosted spec", ok, err)
	}
}

// TestResolveErrors: every mistake in a spec is an error that says what is
// wrong, at resolve time.
func TestResolveErrors(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	syntax := filepath.Join(dir, "syntax.py")
	if err := os.WriteFile(syntax, []byte("def bot(board:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ game, spec, want string }{
		{"nuggets", "py:testdata/no_such_bot.py", "no such bot file"},
		{"nuggets", "py:testdata", "is a folder"},
		{"nuggets", "py:", "want py:FILE"},
		{"nuggets", "py:testdata/nuggets_twin.py:my_bot_fn", "has no my_bot_fn (its functions: bot)"},
		{"rising-tide", "py:testdata/nuggets_twin.py", "has no my_bot_fn"},
		{"nuggets", "py:testdata/broken_import.py", "RuntimeError: this bot cannot be imported"},
		{"nuggets", "py:" + syntax, "SyntaxError"},
		{"slime", "py:testdata/nuggets_twin.py", "slime bots are programs"},
		{"nuggets", "cmd:sh testdata/slime.sh fixed", "nuggets bots are Python functions"},
		{"slime", "cmd:", "empty command line"},
		{"slime", "cmd:./no-such-program-here", "no-such-program-here"},
		{"no-such-game", "py:testdata/nuggets_twin.py", "unknown game"},
	} {
		_, ok, err := Resolve(c.game, c.spec)
		if !ok || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Resolve(%s, %s) = %v, %v; want an error with %q", c.game, c.spec, ok, err, c.want)
		}
	}
	t.Setenv("GRIDGYM_PYTHON", filepath.Join(dir, "no-python"))
	if _, _, err := Resolve("nuggets", "py:testdata/nuggets_twin.py"); err == nil || !strings.Contains(err.Error(), "GRIDGYM_PYTHON") {
		t.Errorf("missing interpreter: %v", err)
	}
}

func TestSplitEntry(t *testing.T) {
	for _, c := range []struct{ in, file, entry string }{
		{"bots/a.py", "bots/a.py", ""},
		{"bots/a.py:my_bot", "bots/a.py", "my_bot"},
		{"c:/bots/a.py", "c:/bots/a.py", ""},
		{"weird:dir/a.py:bot2", "weird:dir/a.py", "bot2"},
		{"a.py:2bad", "a.py:2bad", ""},
	} {
		if f, e := splitEntry(c.in); f != c.file || e != c.entry {
			t.Errorf("splitEntry(%q) = %q, %q; want %q, %q", c.in, f, e, c.file, c.entry)
		}
	}
}

// TestCommandSlime: a Slime program bot through cmd: plays its answers; a
// hang is killed at the limit, garbage and a failing program are passes,
// each logged.
func TestCommandSlime(t *testing.T) {
	log := &syncBuffer{}
	saved := Defaults
	Defaults = Options{Limit: 2 * time.Second, Log: log}
	e, err := agents.Lookup("slime", "cmd:sh testdata/slime.sh fixed")
	Defaults = saved
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]agents.Agent, 4)
	for s := range bots {
		bots[s] = e.New()
	}
	g, _ := rules.Lookup("slime")
	st := g.New(g.Default())
	for s, b := range bots {
		b.Reset(st, s, rules.NewRNG(1))
	}
	want := [4][4]int{{0, 0, 1, 1}, {0, 7, 1, 6}, {7, 0, 6, 1}, {7, 7, 6, 6}}
	for turn := 0; turn < 4; turn++ {
		m := make([]rules.Move, 4)
		m[turn] = bots[turn].Act(st)
		w := want[turn]
		if m[turn] != slime.NewMove(8, w[0], w[1], w[2], w[3]) || !st.Legal(turn, m[turn]) {
			t.Errorf("turn %d: move %+v, want the legal %v", turn, m[turn], w)
		}
		st.Step(m, rules.NewRNG(1))
	}
	closeAll(bots)
	for _, c := range []struct {
		mode  string
		count func(Events) int
		log   string
	}{
		{"hang", func(e Events) int { return e.Timeouts }, "no answer within 200ms: killed"},
		{"garbage", func(e Events) int { return e.Rejected }, `answered "hello world\n" (its first line of output): refused, not four integers r1 c1 r2 c2 followed by a newline on the first line of standard output (R15)`},
		{"illegal", func(e Events) int { return e.Rejected }, `answered "0 0 5 5\n" (its first line of output): refused, not a valid move (R8`},
		{"fail", func(e Events) int { return e.Rejected }, "exit status 1; stderr: \"slime.sh: cannot think\""},
	} {
		log := &syncBuffer{}
		// Only "hang" needs the short limit; the others answer, and under
		// load a shell can take more than 200 ms to start and exit.
		limit := 5 * time.Second
		if c.mode == "hang" {
			limit = 200 * time.Millisecond
		}
		a, err := NewCommand("slime", []string{"sh", "testdata/slime.sh", c.mode}, Options{Limit: limit, Log: log})
		if err != nil {
			t.Fatal(err)
		}
		st := g.New(g.Default())
		a.Reset(st, 0, nil)
		t0 := time.Now()
		m := a.Act(st)
		// A generous bound that only a limit not enforced at all misses
		// ("hang" never answers): the time a loaded machine takes to
		// start and kill a shell is not judged.
		if d := time.Since(t0); d > 60*time.Second {
			t.Errorf("%s: the move took %v", c.mode, d)
		}
		if m != (rules.Move{}) && (c.mode != "illegal" || st.Legal(0, m)) || c.count(a.Events()) != 1 {
			t.Errorf("%s: move %+v, events %v; want a counted pass (or an illegal move, which the game passes, R7)", c.mode, m, a.Events())
		}
		if !strings.Contains(log.String(), c.log) {
			t.Errorf("%s: log %q, want %q", c.mode, log.String(), c.log)
		}
	}
	// The game's own pass answer (what gridgym's exported slime-bot prints
	// when its policy passes) is a chosen pass (R7), not a refusal: no
	// event, no log line.
	plog := &syncBuffer{}
	pa, err := NewCommand("slime", []string{"sh", "testdata/slime.sh", "pass"}, Options{Limit: 2 * time.Second, Log: plog})
	if err != nil {
		t.Fatal(err)
	}
	st = g.New(g.Default())
	pa.Reset(st, 0, nil)
	if m := pa.Act(st); m != (rules.Move{}) || pa.Events().Rejected != 0 || pa.Events().Answered != 1 || plog.String() != "" {
		t.Errorf("pass answer: move %+v, events %+v, log %q; want an answered pass, nothing refused", m, pa.Events(), plog.String())
	}
	pa.Close()
}

// TestKillAll ends a running host process.
func TestKillAll(t *testing.T) {
	needPython(t)
	a, err := NewPython("nuggets", "testdata/nuggets_twin.py", "", Options{Limit: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	play(t, "nuggets", 1, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 1)
	p := a.h.p
	if p == nil || !p.running() {
		t.Fatal("no running process after a move")
	}
	KillAll()
	if p.running() {
		t.Errorf("KillAll left the process running")
	}
	a.Close()
}

func TestEventLogIsRateLimited(t *testing.T) {
	var buf bytes.Buffer
	l := newEventLog(&buf, "py:x.py")
	now := time.Unix(0, 0)
	l.nowFunc = func() time.Time { return now }
	for i := 0; i < 100; i++ {
		l.event(0, i+1, "boom %d", i)
		now = now.Add(time.Second)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// 20 in full, then one summary per 10 s over the remaining 80 s.
	if len(lines) != logBurst+8 {
		t.Errorf("%d lines:\n%s", len(lines), buf.String())
	}
	if !strings.Contains(lines[logBurst], "more events") {
		t.Errorf("summary line %q", lines[logBurst])
	}
}
