package export_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/export"
	"github.com/gridgym/gridgym/export/exporttest"
	_ "github.com/gridgym/gridgym/games" // the games and their bots (the default configs name them)
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// Every test here runs on every registered game with an exporter (or every
// one of the kind it is about: NumPy, Pure, with an executable), with no
// case of its own for a game; what is particular to a game is tested in
// its folder with package exporttest (rules/slime, rules/nuggets,
// rules/rectangle).

var target = exporttest.Target

// The exported Python bot of every game answers exactly as the Go policy
// (greedy, mapped through the game's codec) on 600 random reachable
// positions, 200 for a pure-Python bot (issue 7).
func TestPythonParity(t *testing.T) {
	for _, game := range export.TargetGames() {
		t.Run(game, func(t *testing.T) {
			exporttest.NeedPython(t, game)
			// 600 positions (Bovine Borders' random network plays 32
			// distinct moves in 300, and checkParity demands 50); pure
			// Python takes ~25 ms a move.
			n := 600
			if target(game).Pure {
				n = 200
			}
			checkParity(t, game, neural.Play{}, n)
		})
	}
}

// With play-time sampling baked in (export.Play: temperature, seed, first
// steps only), the exported bot of every game still answers exactly as the
// Go policy with the same settings (neural.Agent Temperature, Seed,
// TempSteps) on 400 random reachable positions per case (60 for a pure
// Python bot), and the draws matter: at least a tenth of the sampled
// answers differ from the greedy move, and with Steps (games whose bot is
// told the step) every later answer is the greedy one (issue 22).
func TestPythonParityTemperature(t *testing.T) {
	for _, game := range export.TargetGames() {
		plays := []neural.Play{{Temperature: 1, Seed: 12345}}
		if target(game).Steps {
			plays = append(plays, neural.Play{Temperature: 0.3, Seed: 1<<63 + 7, Steps: 1})
		}
		for _, play := range plays {
			t.Run(fmt.Sprintf("%s/T=%g,steps=%d", game, play.Temperature, play.Steps), func(t *testing.T) {
				exporttest.NeedPython(t, game)
				checkTemperature(t, game, play)
			})
		}
	}
}

// TestPythonParityOpening: with a scripted opening baked in (export.Play's
// Opening, the weights' play settings), the exported bot of every game that
// has one (rules.Export.Opening: Rectangle) places exactly as the Go policy
// with the same settings (neural.Agent's Opening and Seed), seed by seed,
// and plays the network alike after the placement; the draws matter: the
// seeds give several placements, none of them the network's own.
func TestPythonParityOpening(t *testing.T) {
	for _, game := range export.TargetGames() {
		if !target(game).Opening {
			continue
		}
		t.Run(game, func(t *testing.T) {
			exporttest.NeedPython(t, game)
			g, _ := rules.Lookup(game)
			net, _, _ := exporttest.RandomNet(t, game, 3)
			plain, err := neural.NewAgent(net, g.Default(), false)
			if err != nil {
				t.Fatal(err)
			}
			placements := map[rules.Move]bool{}
			for s := uint64(1); s <= 6; s++ {
				seed := s * 7919
				p := neural.Play{Temperature: 6, Steps: 1, Seed: seed, Opening: 8}
				net, bot := exporttest.Bot(t, game, 3, export.Play{Temperature: 6, Steps: 1, Seed: &seed, Opening: 8})
				for _, q := range checkBotParity(t, g.Default(), net, bot, p, 12, false) {
					if q.St.Steps() != 0 {
						continue
					}
					placements[q.Want] = true
					plain.Reset(q.St, q.Seat, nil)
					if plain.Act(q.St) == q.Want {
						t.Fatalf("seed %d: the placement is the network's own", seed)
					}
				}
			}
			if len(placements) < 3 {
				t.Fatalf("6 seeds gave %d placements: the test would prove little", len(placements))
			}
			t.Logf("6 seeds, %d placements", len(placements))
		})
	}
}

// checkTemperature is TestPythonParityTemperature's check of one game and
// setting.
func checkTemperature(t *testing.T, game string, play neural.Play) {
	t.Helper()
	n := 400
	if target(game).Pure {
		n = 60 // pure Python: a few ms a move
	}
	pos := checkParity(t, game, play, n)
	g, _ := rules.Lookup(game)
	net, _, _ := exporttest.RandomNet(t, game, 3)
	greedy, err := neural.NewAgent(net, g.Default(), false)
	if err != nil {
		t.Fatal(err)
	}
	differ, hot, late := 0, 0, 0 // late: greedy steps after play.Steps that differ
	for _, p := range pos {
		greedy.Reset(p.St, p.Seat, nil)
		d := greedy.Act(p.St) != p.Want
		if play.Steps > 0 && p.St.Steps() >= play.Steps {
			if d {
				late++
			}
			continue
		}
		hot++
		if d {
			differ++
		}
	}
	if late > 0 {
		t.Fatalf("%d moves after the first %d steps differ from the greedy ones", late, play.Steps)
	}
	if differ < max(4, hot/10) {
		t.Fatalf("only %d of %d sampled moves differ from the greedy ones: the test would prove little", differ, hot)
	}
	t.Logf("%d of %d sampled moves differ from the greedy ones", differ, hot)
}

// checkParity runs the exported bot of a random network for game, with
// play-time sampling p baked in, on n random reachable positions and fails
// where it answers other than the Go policy with the same settings. It
// returns the positions.
func checkParity(t *testing.T, game string, p neural.Play, n int) []exporttest.Position {
	t.Helper()
	var seed *uint64
	if p.Temperature > 0 {
		seed = &p.Seed
	}
	net, bot := exporttest.Bot(t, game, 3, export.Play{Temperature: p.Temperature, Steps: p.Steps, Seed: seed})
	g, _ := rules.Lookup(game)
	return checkBotParity(t, g.Default(), net, bot, p, n, true)
}

// checkBotParity is checkParity's comparison for a given network and its
// exported bot file, in the game configured by cfg; with variety it also
// demands enough distinct moves for the comparison to prove something of a
// random network.
func checkBotParity(t *testing.T, cfg rules.Config, net *neural.Net, bot string, p neural.Play, n int, variety bool) []exporttest.Position {
	t.Helper()
	g := cfg.Game()
	game := g.Name
	pos := exporttest.Positions(t, cfg, net, p, n, 11)
	reqs := make([][]byte, len(pos))
	for i, p := range pos {
		reqs[i] = exporttest.Request(g, p.St, p.Seat)
	}
	res := exporttest.Run(t, game, bot, reqs)
	var us []int64
	bad := 0
	distinct := map[rules.Move]bool{}
	for _, p := range pos {
		distinct[p.Want] = true
	}
	// 50 distinct moves, or half the actions of a game with fewer (the
	// test game's 4×4 board has 17): fewer would prove little.
	if need := min(50, g.Encoder(cfg).Space().MaskBits()/2); variety && len(distinct) < need {
		t.Fatalf("only %d distinct policy moves in %d positions, want %d: the test would prove little", len(distinct), len(pos), need)
	}
	for i, r := range res {
		us = append(us, r.US)
		if r.Error != "" {
			t.Fatalf("position %d: the bot raised %s", i, r.Error)
		}
		got := g.Codec.ParseAnswer(pos[i].St, pos[i].Seat, exporttest.Answer(g, r.Answer))
		if got != pos[i].Want {
			if bad++; bad <= 5 {
				var b strings.Builder
				pos[i].St.Render(&b, false)
				t.Errorf("position %d seat %d: Python answered %s = %+v, Go policy %+v\n%s", i, pos[i].Seat, r.Answer, got, pos[i].Want, b.String())
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d answers differ", bad, len(res))
	}
	t.Logf("%s: %d positions equal; latency p50 %d µs, p99 %d µs", game, len(res), exporttest.Percentile(us, 0.5), exporttest.Percentile(us, 0.99))
	return pos
}

// Every game's stand-alone executable (its Export.Runner with the weights
// appended) answers as the Go policy, arguments that are no request get
// the game's pass line (Program.Pass), and near misses of real requests an
// answer line.
func TestExecutables(t *testing.T) { eachExecutableGame(t, checkExecutable) }

// eachExecutableGame runs check as a subtest for every game whose export
// has a stand-alone executable (not in -short: each builds its runner), and
// fails if there is none.
func eachExecutableGame(t *testing.T, check func(t *testing.T, game string)) {
	if testing.Short() {
		t.Skip("builds each game's runner")
	}
	n := 0
	for _, game := range export.TargetGames() {
		if target(game).Executable == "" {
			continue
		}
		n++
		t.Run(game, func(t *testing.T) { check(t, game) })
	}
	if n == 0 {
		t.Fatal("no game exports an executable: the test would prove nothing")
	}
}

func checkExecutable(t *testing.T, game string) {
	g, _ := rules.Lookup(game)
	tg := target(game)
	dir := t.TempDir()
	net, wp := exporttest.RandomNetInFile(t, dir, game, 3)
	out := filepath.Join(dir, "bot")
	rep, err := export.Export(wp, out, export.Options{}) // builds the runner
	if err != nil || len(rep.Warnings) > 0 {
		t.Fatal(err, rep.Warnings)
	}
	exe := filepath.Join(out, tg.Executable)
	if !slices.Contains(rep.Files, exe) {
		t.Fatalf("export wrote %v, no %s", rep.Files, tg.Executable)
	}
	run := func(arg string) []byte {
		t.Helper()
		b, err := exec.Command(exe, arg).Output()
		if err != nil {
			t.Fatalf("%s %q: %v", tg.Executable, arg, err)
		}
		return b
	}
	pos := exporttest.Positions(t, g.Default(), net, neural.Play{}, 1000, 5)
	var us []int64
	for i, p := range pos {
		arg := string(g.Codec.AppendRequest(nil, p.St, p.Seat))
		t0 := time.Now()
		b := run(arg)
		us = append(us, time.Since(t0).Microseconds())
		if got := g.Codec.ParseAnswer(p.St, p.Seat, b); got != p.Want {
			t.Fatalf("position %d: %s answered %q = %+v, Go policy %+v", i, tg.Executable, b, got, p.Want)
		}
	}
	t.Logf("%s: %d positions equal; wall time per move (process start included) p50 %d µs, p99 %d µs", tg.Executable, len(pos), exporttest.Percentile(us, 0.5), exporttest.Percentile(us, 0.99))
	pass := g.Competition.Program.Pass
	for _, arg := range []string{"", "x", strings.Repeat("1,", 40), "{}"} {
		if b := run(arg); string(b) != pass {
			t.Errorf("%s %q: %q; want the pass line %q", tg.Executable, arg, b, pass)
		}
	}
	for _, req := range nearMisses(t, g, 100) {
		var args []string
		if json.Unmarshal(req, &args) != nil || len(args) != 1 {
			continue // not one string: not a command line
		}
		if b := run(args[0]); bytes.Count(b, []byte("\n")) != 1 || !bytes.HasSuffix(b, []byte("\n")) {
			t.Errorf("%s %q: %q, want one answer line", tg.Executable, args[0], b)
		}
	}
}

// Malformed and adversarial requests — wrong arity, wrong types, wrong
// shapes, values out of range, near misses of real requests — never make an
// exported Python bot raise (issue 7); it answers something the codec reads
// (a pass or a legal move), greedy and with play-time sampling.
func TestPythonRobustness(t *testing.T) {
	// Adversarial argument values, put in every argument position in turn
	// (the others 0).
	values := []string{`null`, `"x"`, `1.5`, `-3`, `99999999999`, `true`, `[]`, `[[]]`, `[[1, 2], [3]]`,
		`[[1e9, -1e9]]`, `{"a": 1}`, `[["a", "b"]]`, strings.Repeat(`[`, 50) + strings.Repeat(`]`, 50),
		`[` + strings.Repeat(`[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],`, 19) + `[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]`,
		`[` + strings.Repeat(`[-7, 99, -7, 99, -7, 99, -7, 99, -7, 99, -7, 99, -7, 99, -7, 99, -7, 99],`, 17) + `[-7, 99, -7, 99, -7, 99, -7, 99, -7, 99, -7, 99, -7, 99, -7, 99, -7, 99]]`,
	}
	for _, game := range export.TargetGames() {
		t.Run(game, func(t *testing.T) {
			exporttest.NeedPython(t, game)
			g, _ := rules.Lookup(game)
			tg := target(game)
			_, bot := exporttest.Bot(t, game, 1, export.Play{})
			var reqs [][]byte
			for pos := 0; pos < tg.Args; pos++ {
				for _, v := range values {
					args := make([]string, tg.Args)
					for j := range args {
						args[j] = "0"
					}
					args[pos] = v
					reqs = append(reqs, []byte("["+strings.Join(args, ", ")+"]"))
				}
			}
			reqs = append(reqs, nearMisses(t, g, 120)...)
			// and with play-time sampling (SEED = None: os.urandom)
			_, hot := exporttest.Bot(t, game, 1, export.Play{Temperature: 1})
			bots := []string{bot, hot}
			for _, bot := range bots {
				for i, r := range exporttest.Run(t, game, bot, reqs) {
					if r.Error != "" {
						t.Errorf("request %s: the bot raised %s", reqs[i], r.Error)
					}
				}
			}
		})
	}
}

// nearMisses returns n requests (entry point argument lists, JSON) of g
// made from real ones of random games by one change to one argument: a number out of
// range, a list cut short, lengthened or emptied, a text cut, a character
// replaced, a field dropped or repeated, or every copy of one character
// replaced by another (a full board, a player without pieces).
func nearMisses(t testing.TB, g *rules.Game, n int) [][]byte {
	t.Helper()
	rng := rules.NewRNG(17)
	var real [][]byte
	cfg := g.Default()
	for len(real) < n {
		st := g.New(cfg)
		moves := make([]rules.Move, st.Spec().Seats)
		for step := 0; !st.Done() && step < 3000 && len(real) < n; step++ {
			if rng.U(8) == 0 {
				for s := range moves {
					if st.Active(s) {
						real = append(real, exporttest.Request(g, st, s))
					}
				}
			}
			for s := range moves {
				moves[s] = st.RandomMove(s, rng)
			}
			st.Step(moves, rng)
		}
	}
	out := make([][]byte, 0, n)
	for _, req := range real[:n] {
		dec := json.NewDecoder(bytes.NewReader(req))
		dec.UseNumber()
		var args []any // the competition passes them all, always
		if err := dec.Decode(&args); err != nil || len(args) == 0 {
			t.Fatalf("request %s: %v", req, err)
		}
		i := rng.U(len(args))
		args[i] = mutate(args[i], rng)
		b, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// mutate changes one random leaf or list of v (a decoded JSON value).
func mutate(v any, rng *rules.RNG) any {
	switch x := v.(type) {
	case []any:
		if len(x) > 0 && rng.U(3) != 0 {
			i := rng.U(len(x))
			x[i] = mutate(x[i], rng)
			return x
		}
		switch rng.U(3) {
		case 0:
			return x[:len(x)/2]
		case 1:
			if len(x) > 0 {
				return append(x, x[rng.U(len(x))])
			}
		}
		return []any{}
	case json.Number:
		return []any{json.Number("-1"), json.Number("99"), json.Number("100000"), json.Number("1.5")}[rng.U(4)]
	case string:
		return mutateText(x, rng)
	}
	return nil
}

// mutateText changes a request text (a program competition's argument) by
// one of nearMisses' changes.
func mutateText(s string, rng *rules.RNG) string {
	if s == "" {
		return "x"
	}
	fields := strings.Split(s, ",")
	switch rng.U(5) {
	case 0:
		return s[:rng.U(len(s))]
	case 1:
		i := rng.U(len(s))
		return s[:i] + string(".x1-9, "[rng.U(7)]) + s[i+1:]
	case 2:
		i := rng.U(len(fields))
		return strings.Join(append(fields[:i:i], fields[i+1:]...), ",")
	case 3:
		i := rng.U(len(fields))
		return strings.Join(slices.Insert(fields, i, fields[i]), ",")
	}
	a, b := s[rng.U(len(s))], s[rng.U(len(s))]
	return strings.ReplaceAll(s, string(a), string(b))
}

// Export refuses networks of another game or encoding version, and specs
// that are neither weights nor run folders, with errors that say why.
func TestExportRefuses(t *testing.T) {
	games := export.TargetGames()
	if len(games) < 2 {
		t.Fatalf("exporters for %v: want two games", games)
	}
	game, other := games[0], games[1]
	dir := t.TempDir()
	_, w, _ := exporttest.RandomNet(t, game, 1)
	good := filepath.Join(dir, "good.safetensors")
	if err := os.WriteFile(good, w, 0o644); err != nil {
		t.Fatal(err)
	}
	net, _, _ := neural.Decode(w)
	old := net.Clone()
	old.Arch.Encoding = neural.EncodingVersion - 1
	oldPath := filepath.Join(dir, "old.safetensors")
	if err := old.Save(oldPath, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec string
		opt  export.Options
		want string
	}{
		{good, export.Options{Game: other, NoBinary: true}, "plays " + game + ", not " + other},
		{oldPath, export.Options{NoBinary: true}, "encoding version"},
		{filepath.Join(dir, "nope.safetensors"), export.Options{}, "no such file"},
		{dir, export.Options{}, "neither a .safetensors file, a checkpoint folder nor a training run folder"},
	} {
		if _, err := export.Export(tc.spec, filepath.Join(dir, "out"), tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Export(%s, %+v) = %v, want an error mentioning %q", tc.spec, tc.opt, err, tc.want)
		}
	}
	rep, err := export.Export(good, filepath.Join(dir, "out"), export.Options{Game: game, NoBinary: true})
	if err != nil || len(rep.Files) != 3 {
		t.Fatalf("export: %v %v", rep.Files, err)
	}
}

// The exported Python bot of every shipped network (models/<game>/final.safetensors,
// for every game with a measured preset) answers exactly as the Go policy on
// 300 reachable positions of its own play (24 for a pure-Python bot): the
// kernels the Go side runs for the shipped shapes (Winograd convolutions,
// issue 55) round differently from NumPy's, and a flip of the greedy move
// on a near tie would make the exported bot play another game than the one
// measured. It plays greedy, behind the scripted guard where the weights
// store it (Bovine Borders). A network trained with a parameter the bot
// carries from move to move (Rectangle's ring_memory) is skipped: its parity
// needs whole games, which the game's own folder tests.
func TestShippedParity(t *testing.T) {
	for _, game := range export.TargetGames() {
		g, _ := rules.Lookup(game)
		if g.Testdata == nil || g.Testdata.MeasuredPreset == "" {
			continue
		}
		t.Run(game, func(t *testing.T) {
			exporttest.NeedPython(t, game)
			file := filepath.Join("..", "models", game, "final.safetensors")
			net, meta, err := neural.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := neural.TrainedConfig(net, meta)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range g.Params {
				if p.Carried && cfg.Get(p.Name) != p.Default {
					// The bot remembers across moves what the state carries,
					// so positions out of their games' order prove nothing;
					// the game's folder tests that parity over whole games.
					t.Skipf("trained with %s=%s, which the exported bot carries from move to move", p.Name, cfg.Get(p.Name))
				}
			}
			w, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			stored, _, err := neural.StoredPlay(meta)
			if err != nil {
				t.Fatal(err)
			}
			src, err := export.PythonBotPlay(game, w, meta, export.Play{Guard: stored.Guard})
			if err != nil {
				t.Fatal(err)
			}
			bot := filepath.Join(t.TempDir(), target(game).File)
			if err := os.WriteFile(bot, src, 0o644); err != nil {
				t.Fatal(err)
			}
			n := 300
			if target(game).Pure {
				n = 24 // a 64-filter network in pure Python: ~0.3 s a move
			}
			checkBotParity(t, cfg, net, bot, neural.Play{Guard: stored.Guard}, n, false)
		})
	}
}

// The network fixtures in the games' folders (testdata/policy.safetensors,
// rulestest.Policy) and the shipped networks (models/<game>/final.safetensors,
// for every game with a measured preset) load and fit their games under this
// encoding version, and export.
func TestShippedPolicies(t *testing.T) {
	var files [][2]string // game, weights
	for _, game := range export.TargetGames() {
		files = append(files, [2]string{game, rulestest.Policy(t, game)})
		if g, _ := rules.Lookup(game); g.Testdata != nil && g.Testdata.MeasuredPreset != "" {
			files = append(files, [2]string{game, filepath.Join("..", "models", game, "final.safetensors")})
		}
	}
	for _, f := range files {
		game, p := f[0], f[1]
		if _, _, err := neural.LoadFor(game, p); err != nil {
			t.Errorf("%s: %v (retrain with gridgym train --game %s and copy the weights to %s)", game, err, game, p)
			continue
		}
		if _, err := export.Export(p, t.TempDir(), export.Options{NoBinary: true}); err != nil {
			t.Errorf("%s: export: %v", game, err)
		}
	}
}

// A Pure exported bot imports no NumPy (issue 27: importing it alone took
// Slime's bot 0.15-0.19 s of the 0.1 s a move, R16): run as the
// competition runs it (a program: a fresh process per move), `python3 -X
// importtime` lists every module it imports, and none is numpy; it still
// answers the Go policy's move.
func TestPureBotsImportNoNumPy(t *testing.T) {
	n := 0
	for _, game := range export.TargetGames() {
		if !target(game).Pure {
			continue
		}
		n++
		t.Run(game, func(t *testing.T) {
			exporttest.NeedPython(t, game)
			g, _ := rules.Lookup(game)
			if g.Competition.Protocol != rules.ProgramRun {
				t.Fatalf("a Pure bot of a %v competition: run it here as the competition does", g.Competition.Protocol)
			}
			net, bot := exporttest.Bot(t, game, 3, export.Play{})
			for _, p := range exporttest.Positions(t, g.Default(), net, neural.Play{}, 3, 7) {
				req := string(g.Codec.AppendRequest(nil, p.St, p.Seat))
				cmd := exec.Command(exporttest.Python, "-X", "importtime", bot, req)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s %s: %v\n%s", bot, req, err, stderr.String())
				}
				if !strings.Contains(stderr.String(), "| site") {
					t.Fatalf("-X importtime listed no imports (not even site):\n%s", stderr.String())
				}
				for _, line := range strings.Split(stderr.String(), "\n") {
					if f := strings.Split(line, "|"); len(f) == 3 && strings.HasPrefix(strings.TrimSpace(f[2]), "numpy") {
						t.Fatalf("the %s bot imports NumPy: %s", game, line)
					}
				}
				if got := g.Codec.ParseAnswer(p.St, p.Seat, out); got != p.Want {
					t.Errorf("%s: answered %q = %+v, Go policy %+v", req, out, got, p.Want)
				}
			}
		})
	}
	if n == 0 {
		t.Skip("no Pure exported bot")
	}
}

// Export bakes play-time sampling into the bot file (a pure Python one
// too) and says so in its README; it refuses what a target cannot do:
// first-steps-only sampling in a bot not told the step, and temperatures
// out of range.
func TestExportPlay(t *testing.T) {
	kind := func(f func(export.Target) bool) string {
		for _, g := range export.TargetGames() {
			if f(target(g)) {
				return g
			}
		}
		t.Fatal("no exported game of that kind")
		return ""
	}
	steps := kind(func(t export.Target) bool { return t.Steps && !t.Pure })
	noSteps := kind(func(t export.Target) bool { return !t.Steps && !t.Pure })
	pure := kind(func(t export.Target) bool { return t.Pure })
	dir := t.TempDir()
	weights := func(game string) string { return exporttest.RandomNetFile(t, dir, game, 1) }
	seed := uint64(42)
	out := filepath.Join(dir, "steps")
	if _, err := export.Export(weights(steps), out, export.Options{Play: export.Play{Temperature: 0.5, Steps: 1, Seed: &seed}}); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(filepath.Join(out, target(steps).File))
	readme, _ := os.ReadFile(filepath.Join(out, "README.txt"))
	for _, want := range []string{"\nTEMPERATURE = 0.5\n", "\nTEMP_STEPS = 1\n", "\nSEED = 42\n"} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("bot file lacks %q", want)
		}
	}
	if !bytes.Contains(readme, []byte("softmax(logits / 0.5)")) || !bytes.Contains(readme, []byte("SEED = 42")) {
		t.Errorf("README does not describe the sampling:\n%s", readme)
	}
	if _, err := export.Export(weights(noSteps), filepath.Join(dir, "hot"), export.Options{Play: export.Play{Temperature: 1}}); err != nil {
		t.Fatal(err)
	}
	src, _ = os.ReadFile(filepath.Join(dir, "hot", target(noSteps).File))
	if !bytes.Contains(src, []byte("\nSEED = None\n")) {
		t.Error("without a seed the bot does not draw one per process (SEED = None)")
	}
	// A pure Python bot samples too (its parity: TestPythonParityTemperature).
	if _, err := export.Export(weights(pure), filepath.Join(dir, "pure"), export.Options{NoBinary: true, Play: export.Play{Temperature: 0.3, Seed: &seed}}); err != nil {
		t.Fatal(err)
	}
	src, _ = os.ReadFile(filepath.Join(dir, "pure", target(pure).File))
	for _, want := range []string{"\nTEMPERATURE = 0.3\n", "\nSEED = 42\n"} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("the pure Python bot file lacks %q", want)
		}
	}
	for _, tc := range []struct {
		game string
		play export.Play
		want string
	}{
		{pure, export.Play{Temperature: 1, Steps: 2}, "not told the game's step"},
		{noSteps, export.Play{Temperature: 1, Steps: 2}, "not told the game's step"},
		{steps, export.Play{Temperature: -1}, "want a temperature"},
		{steps, export.Play{Temperature: math.NaN()}, "want a temperature"},
	} {
		_, err := export.Export(weights(tc.game), filepath.Join(dir, "x"), export.Options{NoBinary: true, Play: tc.play})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %+v: err %v, want one mentioning %q", tc.game, tc.play, err, tc.want)
		}
	}
}

// TestExportReadmeMemory: a network trained with a parameter the game state
// carries (Rectangle's ring_memory) is exported with a README that says the
// bot keeps memory between calls and must be called once a move, in order;
// one without says nothing of it.
func TestExportReadmeMemory(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		params map[string]string
		want   bool
	}{
		{map[string]string{"rings": "true", "ring_memory": "true"}, true},
		{map[string]string{"rings": "true"}, false},
	} {
		_, b, _ := exporttest.RandomNetParams(t, "rectangle", c.params, 1)
		w := filepath.Join(dir, "w.safetensors")
		if err := os.WriteFile(w, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, fmt.Sprint(c.want))
		if _, err := export.Export(w, out, export.Options{}); err != nil {
			t.Fatal(err)
		}
		readme, _ := os.ReadFile(filepath.Join(out, "README.txt"))
		if got := bytes.Contains(readme, []byte("trained with ring_memory=true")) && bytes.Contains(readme, []byte("once a move, in order")); got != c.want {
			t.Errorf("params %v: README mentions the memory = %v, want %v:\n%s", c.params, got, c.want, readme)
		}
	}
}

// The executable of a network exported with play-time sampling answers as
// the Go policy with the same temperature and seed (neural.Agent, PerSeat
// off: the executable is told no seat) on 150 positions of random games,
// as the Python bot does (TestPythonParityTemperature), and its draws
// matter (a tenth of the answers differ from the greedy ones). Without a
// baked seed it draws one per process: the request whose most probable move
// has the smallest probability (under 0.25, so that 12 processes drawing
// alike by chance has odds below 0.25¹¹ ≈ 2e-7), answered 12 times, gets
// more than one move. Exported greedy (temperature 0 over weights that
// store a temperature) it answers greedy.
func TestSampledExecutable(t *testing.T) { eachExecutableGame(t, checkSampledExecutable) }

func checkSampledExecutable(t *testing.T, game string) {
	g, _ := rules.Lookup(game)
	tg := target(game)
	dir := t.TempDir()
	net, wp := exporttest.RandomNetInFile(t, dir, game, 3)
	if err := neural.WritePlay(wp, neural.Play{Temperature: 0.7}); err != nil {
		t.Fatal(err)
	}
	export1 := func(name string, opt export.Options) string {
		t.Helper()
		out := filepath.Join(dir, name)
		if rep, err := export.Export(wp, out, opt); err != nil || len(rep.Warnings) > 0 {
			t.Fatal(err, rep.Warnings)
		}
		return filepath.Join(out, tg.Executable)
	}
	run := func(exe, arg string) string {
		t.Helper()
		b, err := exec.Command(exe, arg).Output()
		if err != nil {
			t.Fatalf("%s %q: %v", exe, arg, err)
		}
		return string(b)
	}
	seed := uint64(77)
	hot := export1("hot", export.Options{Play: export.Play{Seed: &seed}}) // the stored temperature 0.7
	if readme, err := os.ReadFile(filepath.Join(filepath.Dir(hot), "README.txt")); err != nil || !strings.Contains(string(readme), tg.Executable+" samples alike") {
		t.Errorf("README.txt does not say the executable samples: %v\n%s", err, readme)
	}
	greedy := export1("greedy", export.Options{Play: export.Play{}, PlayGiven: neural.PlayGiven{Temp: true}})
	unseeded := export1("unseeded", export.Options{})
	pos := exporttest.Positions(t, g.Default(), net, neural.Play{Temperature: 0.7, Seed: seed}, 150, 5)
	plain, err := neural.NewAgent(net, g.Default(), false)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	flat, flatP := -1, 1.0 // the position whose most probable move is least probable, and that probability
	for i, p := range pos {
		arg := string(g.Codec.AppendRequest(nil, p.St, p.Seat))
		if got := g.Codec.ParseAnswer(p.St, p.Seat, []byte(run(hot, arg))); got != p.Want {
			t.Fatalf("position %d: %s answered %+v, the Go policy at temperature 0.7, seed %d: %+v", i, tg.Executable, got, seed, p.Want)
		}
		plain.Reset(p.St, p.Seat, nil)
		want := plain.Act(p.St)
		if got := g.Codec.ParseAnswer(p.St, p.Seat, []byte(run(greedy, arg))); got != want {
			t.Fatalf("position %d: %s exported greedy answered %+v, the greedy Go policy %+v", i, tg.Executable, got, want)
		}
		if p.Want != want {
			differ++
		}
		if q := topProbability(g.Default(), net, p.St, p.Seat, 0.7); q < flatP {
			flat, flatP = i, q
		}
	}
	if differ < len(pos)/10 {
		t.Fatalf("only %d of %d sampled answers differ from the greedy ones: the test would prove little", differ, len(pos))
	}
	if flatP >= 0.25 {
		t.Fatalf("every position's most probable move has probability ≥ %.2f at temperature 0.7: 12 unseeded answers could agree by chance", flatP)
	}
	p := pos[flat]
	arg := string(g.Codec.AppendRequest(nil, p.St, p.Seat))
	seen := map[string]bool{}
	for range 12 {
		seen[run(unseeded, arg)] = true
	}
	if len(seen) < 2 {
		t.Errorf("without a baked seed, 12 processes answered %q alike: no seed is drawn per process", arg)
	}
	t.Logf("%s: %d positions equal, %d sampled answers differ from the greedy ones; unseeded, %d distinct answers in 12 runs (most probable move %.3f)", tg.Executable, len(pos), differ, len(seen), flatP)
}

// topProbability is the probability of seat's most probable legal move at
// st, in the game configured by cfg, under net's softmax(logits/temperature)
// (one head).
func topProbability(cfg rules.Config, net *neural.Net, st rules.State, seat int, temperature float64) float64 {
	enc := cfg.Game().Encoder(cfg)
	sp := enc.Space()
	planes, scalars, mask := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars), make([]uint64, sp.MaskWords())
	enc.Observe(st, seat, planes, scalars)
	enc.Mask(st, seat, mask)
	w := neural.NewWorkspace(net.Arch, 1)
	neural.FillInput(net.Arch, w.Input, planes, scalars)
	net.Forward(w, 1, mask, len(mask))
	l := w.Logits[:net.Arch.Actions]
	for i := range l {
		l[i] /= float32(temperature) // −Inf (illegal) stays −Inf
	}
	return slices.Max(neural.Softmax(nil, l))
}
