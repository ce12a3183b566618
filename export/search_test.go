package export_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/export"
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
)

// searchPrior is a scripted bot of game to search with: its first bot by
// name other than the generic pass and random (random if it has none).
func searchPrior(game string) string {
	for _, n := range agents.Names(game) {
		if n != "pass" && n != "random" && !strings.Contains(n, ":") {
			return n
		}
	}
	return "random"
}

// requestPosition is the position the competition's request req shows, as
// the executable rebuilds it (Program.Params, Configure, Position).
func requestPosition(t *testing.T, g *rules.Game, req string) (rules.State, int) {
	t.Helper()
	vals, err := g.Competition.Program.Params(req)
	if err != nil {
		t.Fatalf("request %q: %v", req, err)
	}
	cfg, err := g.Configure(vals)
	if err != nil {
		t.Fatalf("request %q: %v", req, err)
	}
	st := g.New(cfg)
	seat, err := g.Competition.Program.Position(st, req)
	if err != nil {
		t.Fatalf("request %q: %v", req, err)
	}
	return st, seat
}

// Every game's executable exported with --search answers with the Go
// search agent's move (same spec, seeded by RequestSeed) on positions of
// random games, a legal move (Slime R8, or a pass where the search passes,
// R7), the same answer to the same request twice, and a different seed is
// baked in on request.
func TestSearchExecutable(t *testing.T) { eachExecutableGame(t, checkSearchExecutable) }

func checkSearchExecutable(t *testing.T, game string) {
	g, _ := rules.Lookup(game)
	tg := target(game)
	dir := t.TempDir()
	net, wp := exporttest.RandomNetInFile(t, dir, game, 5)
	spec := searchPrior(game) + "@300:trees=1:opp=prior"
	const seed = 11
	out := filepath.Join(dir, "bot")
	rep, err := export.Export(wp, out, export.Options{Search: spec, SearchSeed: seed})
	if err != nil || len(rep.Warnings) > 0 {
		t.Fatal(err, rep.Warnings)
	}
	exe := filepath.Join(out, tg.Executable)
	if !slices.Contains(rep.Files, exe) {
		t.Fatalf("export wrote %v, no %s", rep.Files, tg.Executable)
	}
	readme, err := os.ReadFile(filepath.Join(out, "README.txt"))
	if err != nil || !strings.Contains(string(readme), export.SearchSpec(spec)) {
		t.Errorf("README.txt does not name the search %s: %v\n%s", export.SearchSpec(spec), err, readme)
	}
	run := func(arg string) string {
		t.Helper()
		b, err := exec.Command(exe, arg).Output()
		if err != nil {
			t.Fatalf("%s %q: %v", tg.Executable, arg, err)
		}
		return string(b)
	}
	p, _, err := search.ParseSpec(export.SearchSpec(spec))
	if err != nil {
		t.Fatal(err)
	}
	f, err := p.Factory(game)
	if err != nil {
		t.Fatal(err)
	}
	prog := g.Competition.Program
	pos := exporttest.Positions(t, g.Default(), net, neural.Play{}, 40, 9)
	var us []int64
	moved := 0
	for i, ps := range pos {
		req := string(g.Codec.AppendRequest(nil, ps.St, ps.Seat))
		st, seat := requestPosition(t, g, req)
		ag := f()
		ag.Reset(st, seat, rules.NewRNG(export.RequestSeed(seed, req)))
		m := ag.Act(st)
		want, ok := prog.AppendAnswer(nil, st, m)
		if !ok {
			want = []byte(prog.Pass)
		}
		t0 := time.Now()
		got := run(req)
		us = append(us, time.Since(t0).Microseconds())
		if got != string(want) {
			t.Fatalf("position %d (%s): %s answered %q, the Go search agent %q", i, req, tg.Executable, got, want)
		}
		if got != prog.Pass {
			moved++
			if am := g.Codec.ParseAnswer(ps.St, ps.Seat, []byte(got)); !ps.St.Legal(ps.Seat, am) {
				t.Fatalf("position %d: %s answered %q = %+v, not a legal move", i, tg.Executable, got, am)
			}
		}
		if i%10 == 0 {
			if again := run(req); again != got {
				t.Fatalf("position %d: %s answered %q, then %q to the same request", i, tg.Executable, got, again)
			}
		}
	}
	if moved < len(pos)/2 {
		t.Errorf("%s moved in %d of %d positions: want most answers to be moves", tg.Executable, moved, len(pos))
	}
	t.Logf("%s with %s: %d positions equal to the Go search; wall time per move (process start included) p50 %d µs, p99 %d µs",
		tg.Executable, spec, len(pos), exporttest.Percentile(us, 0.5), exporttest.Percentile(us, 0.99))

	// Another seed is baked in: some request gets another move.
	out2 := filepath.Join(dir, "bot2")
	if _, err := export.Export(wp, out2, export.Options{Search: spec, SearchSeed: seed + 1, Runner: exe}); err != nil {
		t.Fatal(err)
	}
	exe2 := filepath.Join(out2, tg.Executable)
	differ := false
	for _, ps := range pos {
		req := string(g.Codec.AppendRequest(nil, ps.St, ps.Seat))
		b, err := exec.Command(exe2, req).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != run(req) {
			differ = true
			break
		}
	}
	if !differ {
		t.Errorf("seeds %d and %d answered every request alike: the seed is not baked in", seed, seed+1)
	}

	// A wall-clock limit binds the executable: 200,000 simulations (20 s
	// or so of CPU) with ms=30 answer with a move after a small fraction of
	// a second of CPU. CPU time, not wall time, is checked: on a busy
	// machine the process may wait its turn for seconds.
	out3 := filepath.Join(dir, "bot3")
	slow := searchPrior(game) + "@200000:trees=1:opp=prior:ms=30"
	if _, err := export.Export(wp, out3, export.Options{Search: slow, Runner: exe}); err != nil {
		t.Fatal(err)
	}
	ps := pos[0]
	req := string(g.Codec.AppendRequest(nil, ps.St, ps.Seat))
	t0 := time.Now()
	cmd := exec.Command(filepath.Join(out3, tg.Executable), req)
	b, err := cmd.Output()
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if am := g.Codec.ParseAnswer(ps.St, ps.Seat, b); string(b) != prog.Pass && !ps.St.Legal(ps.Seat, am) {
		t.Errorf("%s answered %q, not a legal move", slow, b)
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if cpu > time.Second {
		t.Errorf("%s used %v of CPU: the limit ms=30 does not bind", slow, cpu)
	}
	t.Logf("%s answered after %v of CPU, %v of wall time", slow, cpu, took)
}

// Export refuses a search it cannot bake in, with an error that says why: a
// malformed spec, an unknown prior bot, a weights file as the prior or
// rollout bot (the executable carries no files), an export
// without the executable, and a game whose export has no executable runner.
func TestExportSearchRefuses(t *testing.T) {
	var withExe, without string
	for _, game := range export.TargetGames() {
		if target(game).Executable != "" {
			withExe = game
		} else {
			without = game
		}
	}
	if withExe == "" || without == "" {
		t.Fatalf("exporters %v: want a game with an executable and one without", export.TargetGames())
	}
	dir := t.TempDir()
	weights := func(game string) string { return exporttest.RandomNetFile(t, dir, game, 1) }
	good, other := weights(withExe), weights(without)
	for _, tc := range []struct {
		spec   string
		search string
		opt    export.Options
		want   string
	}{
		{good, "random@x", export.Options{}, "budget \"x\""},
		{good, "random@0", export.Options{}, "want a positive number"},
		{good, "random:depth", export.Options{}, "want key=value"},
		{good, "random:bogus=1", export.Options{}, "unknown setting \"bogus\""},
		{good, "random:opp=nobody", export.Options{}, "opp=\"nobody\""},
		{good, "search:", export.Options{}, "want search:BOT"},
		{good, "no-such-bot@10", export.Options{}, "prior bot"},
		{good, good + "@10", export.Options{}, "not a registered bot"},
		{good, "random@10:roll=" + good, export.Options{}, "not a registered bot"},
		{good, "random@10:alt=" + good, export.Options{}, "not a registered bot"},
		{good, "random@10:value=" + good, export.Options{}, "not a registered bot"},
		{good, "random@10", export.Options{NoBinary: true}, "skips it"},
		{other, "random@10", export.Options{}, "no executable runner"},
	} {
		tc.opt.Search = tc.search
		out := filepath.Join(dir, "out")
		_, err := export.Export(tc.spec, out, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Export(%s, --search %q, %+v) = %v, want an error mentioning %q", filepath.Base(tc.spec), tc.search, tc.opt, err, tc.want)
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Errorf("--search %q refused, yet %s was written", tc.search, out)
			os.RemoveAll(out)
		}
	}
}

// RequestSeed depends on the seed and on the request, not on the spaces
// around it (the competition's argument may end in a newline).
func TestRequestSeed(t *testing.T) {
	a := export.RequestSeed(1, "1,ab")
	if b := export.RequestSeed(1, " 1,ab\n"); b != a {
		t.Errorf("RequestSeed differs for a trimmed request: %d, %d", a, b)
	}
	if b := export.RequestSeed(2, "1,ab"); b == a {
		t.Errorf("RequestSeed(1, r) = RequestSeed(2, r) = %d", a)
	}
	if b := export.RequestSeed(1, "2,ab"); b == a {
		t.Errorf("RequestSeed(1, r1) = RequestSeed(1, r2) = %d", a)
	}
}
