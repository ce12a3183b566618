package eval

import (
	"bytes"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	_ "github.com/gridgym/gridgym/games" // links every game and its bots
	"github.com/gridgym/gridgym/rules"
)

// recordGame plays one game of cfg with random bots in every seat and returns
// its replay.
func recordGame(t testing.TB, cfg rules.Config, seed uint64, index int) *Replay {
	t.Helper()
	e, err := agents.Lookup(cfg.Game().Name, "random")
	if err != nil {
		t.Fatal(err)
	}
	seats := cfg.Game().New(cfg).Spec().Seats
	lineup := make([]int, seats)
	bots := make([]string, seats)
	for s := range bots {
		bots[s] = "random"
	}
	var positions [][]uint64
	var moves [][]rules.Move
	var hash uint64
	r := playGame(cfg, []agents.Entry{e}, lineup, seed, uint64(index), func(st rules.State) {
		positions = append(positions, st.AppendWords(nil))
	}, func(st rules.State, ms []rules.Move) {
		if ms == nil {
			hash, _ = rules.Hash(st, nil)
			return
		}
		moves = append(moves, slices.Clone(ms))
	})
	if len(positions) != r.Steps+1 || len(moves) != r.Steps {
		t.Fatalf("%d positions and %d moves for %d steps", len(positions), len(moves), r.Steps)
	}
	return &Replay{Config: cfg, Bots: bots, Seed: seed, Index: index, Moves: moves, Hash: hash,
		Positions: positions, Outcome: r.Outcome, Errors: r.Errors}
}

// sameFloats compares float slices, NaN equal to NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) })
}

func checkSameReplay(t *testing.T, got, want *Replay) {
	t.Helper()
	if got.Config.Game() != want.Config.Game() || got.Config.String() != want.Config.String() {
		t.Errorf("config %s %s, want %s %s", got.Config.Game().Name, got.Config, want.Config.Game().Name, want.Config)
	}
	if !slices.Equal(got.Bots, want.Bots) || got.Seed != want.Seed || got.Index != want.Index {
		t.Errorf("bots %v seed %d index %d, want %v %d %d", got.Bots, got.Seed, got.Index, want.Bots, want.Seed, want.Index)
	}
	if !slices.EqualFunc(got.Moves, want.Moves, slices.Equal) || got.Hash != want.Hash {
		t.Errorf("moves or hash differ: %d steps hash %x, want %d steps hash %x", got.Steps(), got.Hash, want.Steps(), want.Hash)
	}
	if len(got.Positions) != len(want.Positions) {
		t.Fatalf("%d positions, want %d", len(got.Positions), len(want.Positions))
	}
	for n := range want.Positions {
		if !slices.Equal(got.Positions[n], want.Positions[n]) {
			t.Fatalf("step %d: words %x, want %x", n, got.Positions[n], want.Positions[n])
		}
	}
	o, w := got.Outcome, want.Outcome
	if !sameFloats(o.Score, w.Score) || !sameFloats(o.Points, w.Points) || !sameFloats(o.Win, w.Win) {
		t.Errorf("outcome %+v, want %+v", *o, *w)
	}
	if !slices.Equal(got.Errors, want.Errors) {
		t.Errorf("errors %v, want %v", got.Errors, want.Errors)
	}
}

// Every registered game's replay survives the file: its moves played again
// from its seed (v2 stores no positions) give every position of the game as
// it was played, the final one with the recorded hash, and each position
// restores (SetWords) to a state whose words (AppendWords) are the same.
func TestReplayRoundTrip(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.Name, func(t *testing.T) {
			want := recordGame(t, g.Default(), math.MaxUint64-7, 3) // a seed beyond 2^53
			path := filepath.Join(t.TempDir(), "game.jsonl")
			if err := SaveReplay(path, want); err != nil {
				t.Fatal(err)
			}
			got, err := ReadReplay(path)
			if err != nil {
				t.Fatal(err)
			}
			checkSameReplay(t, got, want)
			for n := range got.Positions {
				st, err := got.State(n)
				if err != nil {
					t.Fatal(err)
				}
				if w := st.AppendWords(nil); !slices.Equal(w, want.Positions[n]) {
					t.Fatalf("step %d: SetWords+AppendWords gives %x, want %x", n, w, want.Positions[n])
				}
			}
			if _, err := got.State(len(got.Positions)); err == nil {
				t.Error("State beyond the last step accepted")
			}
		})
	}
}

// Run saves exactly the first K games, and each replay is that game.
func TestRunSavesReplays(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := g.Configure(map[string]string{"board_size": "5"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "replays")
	res, err := Run(t.Context(), Config{Game: cfg, Bots: []string{"random", "greedy"}, Games: 4, Seed: 5, Workers: 2, Replays: 2, ReplayDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "replay-0000.jsonl"), filepath.Join(dir, "replay-0001.jsonl")}
	if !slices.Equal(res.Replays, want) {
		t.Fatalf("replays %v, want %v", res.Replays, want)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 2 {
		t.Errorf("%d files in the replay folder, want 2 (no temporary files left)", len(files))
	}
	for i, p := range res.Replays {
		r, err := ReadReplay(p)
		if err != nil {
			t.Fatal(err)
		}
		gr := res.Games[i]
		if r.Index != i || r.Seed != 5 || r.Steps() != gr.Steps || !slices.Equal(r.Bots, GameRecords(res)[i].Lineup) {
			t.Errorf("%s: index %d seed %d steps %d bots %v; game %+v", p, r.Index, r.Seed, r.Steps(), r.Bots, gr)
		}
		if !sameFloats(r.Outcome.Score, gr.Outcome.Score) || !slices.Equal(r.Errors, gr.Errors) {
			t.Errorf("%s: outcome %v errors %v, want %v %v", p, r.Outcome.Score, r.Errors, gr.Outcome.Score, gr.Errors)
		}
		// The game played again alone from (seed, index) passes the same positions.
		entries := make([]agents.Entry, 2)
		for b, name := range res.Config.Bots {
			entries[b], _ = agents.Lookup("slime", name)
		}
		n := 0
		PlayGame(cfg, entries, gr.Lineup, 5, uint64(i), func(st rules.State) {
			if n < len(r.Positions) && !slices.Equal(st.AppendWords(nil), r.Positions[n]) {
				t.Errorf("%s step %d differs from the game played again", p, n)
			}
			n++
		})
		if n != len(r.Positions) {
			t.Errorf("%s: %d positions, the game played again has %d", p, len(r.Positions), n)
		}
	}
	if _, err := Run(t.Context(), Config{Game: cfg, Bots: []string{"random"}, Games: 1, Replays: 1}); err == nil {
		t.Error("replays without a folder accepted")
	}
}

// validReplay is a short game's replay file.
func validReplay(t testing.TB) []byte {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := g.Configure(map[string]string{"board_size": "4", "max_turns": "6"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteReplay(&b, recordGame(t, cfg, 1, 0)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// hashRe finds the final position's hash in an outcome line.
var hashRe = regexp.MustCompile(`"hash":"[0-9a-f]*"`)

// badReplays are corrupt variants of a valid replay file, with a substring
// of the error each must give.
func badReplays(valid []byte) map[string]struct {
	data []byte
	want string
} {
	lines := strings.SplitAfter(strings.TrimSuffix(string(valid), "\n"), "\n")
	join := func(ls ...string) []byte { return []byte(strings.Join(ls, "")) }
	rest := func(from int) string { return strings.Join(lines[from:], "") }
	last := len(lines) - 1
	return map[string]struct {
		data []byte
		want string
	}{
		"empty":            {nil, "empty file"},
		"not JSON":         {[]byte("PK\x03\x04 a zip file\n"), "line 1: not a gridgym-replay-v2 replay"},
		"foreign JSON":     {[]byte(`{"index":3,"lineup":["a","b"]}` + "\n"), `line 1: not a gridgym-replay-v2 replay: the header has no "format"`},
		"other version":    {join(strings.Replace(lines[0], "-v2", "-v9", 1), rest(1)), `line 1: format "gridgym-replay-v9"`},
		"version 1":        {join(strings.Replace(lines[0], "-v2", "-v1", 1), rest(1)), `line 1: format "gridgym-replay-v1" is an older version that this program no longer reads`},
		"unknown game":     {join(strings.Replace(lines[0], `"slime"`, `"chess"`, 1), rest(1)), `line 1: unknown game "chess"`},
		"bad params":       {join(strings.Replace(lines[0], "board_size=4", "board_size=99", 1), rest(1)), "line 1: game slime: parameter board_size"},
		"bad seed":         {join(strings.Replace(lines[0], `"seed":"1"`, `"seed":"-1"`, 1), rest(1)), `line 1: seed "-1"`},
		"too few bots":     {join(strings.Replace(lines[0], `"random",`, "", 1), rest(1)), "line 1: 3 bots, want one per seat (4)"},
		"no steps":         {join(lines[0]), "truncated after line 1 (step 0): no outcome line"},
		"truncated":        {join(lines[:last]...), "no outcome line"},
		"cut mid-line":     {valid[:len(valid)-len(lines[last])-5], "line " + strconv.Itoa(last) + ": the line is cut short"},
		"bad move":         {join(lines[0], strings.Replace(lines[1], `"moves":[[`, `"moves":[[1,2,3,4,5,6,7,8,9,10,`, 1), rest(2)), "line 2: step 1 seat 0: a move is [kind, n, up to 8 args]"},
		"big kind":         {join(lines[0], strings.Replace(lines[1], `"moves":[[`, `"moves":[[300,`, 1), rest(2)), "line 2: step 1 seat 0: move kind 300"},
		"big arg":          {join(lines[0], `{"step":1,"moves":[[1,1,40000],[0,0],[0,0],[0,0]]}`+"\n", rest(2)), "line 2: step 1 seat 0: move arg 40000"},
		"text move":        {join(lines[0], strings.Replace(lines[1], `"moves":[[`, `"moves":[["a",`, 1), rest(2)), "line 2:"},
		"other move":       {join(lines[0], `{"step":1,"moves":[[0,0],[0,0],[0,0],[0,0]]}`+"\n", rest(2)), "the moves played again end in a position with hash"},
		"bad hash":         {join(append(slices.Clone(lines[:last]), hashRe.ReplaceAllString(lines[last], `"hash":"zz"`))...), `hash "zz"`},
		"no hash":          {join(append(slices.Clone(lines[:last]), strings.Replace(lines[last], `"hash"`, `"hush"`, 1))...), `hash ""`},
		"moves for 3":      {join(lines[0], `{"step":1,"moves":[[0,0],[0,0],[0,0]]}`+"\n", rest(2)), "line 2: step 1 has 3 moves, want one per seat (4)"},
		"step skipped":     {join(lines[0], lines[1], rest(3)), "line 3: step 3, want step 2"},
		"no moves":         {join(lines[0], `{"step":1}`+"\n", rest(2)), "line 2: step 1 has 0 moves"},
		"neither":          {join(lines[0], `{"hello":1}`+"\n", rest(1)), "line 2: neither a step"},
		"outcome first":    {join(lines[0], lines[last]), "the moves played again end in a position with hash"},
		"short outcome":    {join(lines[0], lines[1], `{"outcome":{"score":[1],"points":[1],"win":[1]}}`+"\n"), "line 3: outcome with 1 scores"},
		"steps after end":  {join(append(slices.Clone(lines[:last]), `{"step":7,"moves":[[0,0],[0,0],[0,0],[0,0]]}`+"\n", lines[last])...), "the game ended after step 6 but 7 steps are recorded"},
		"line after":       {join(string(valid), `{"step":1,"moves":[]}`+"\n"), "line " + strconv.Itoa(last+2) + ": a line after the outcome"},
		"step and outcome": {join(lines[0], `{"step":1,"moves":[],"outcome":{}}`+"\n"), "line 2: both a step and the outcome"},
	}
}

// Bad files give one-line errors naming the file (and the line, where there
// is one).
func TestReadReplayErrors(t *testing.T) {
	dir := t.TempDir()
	for name, c := range badReplays(validReplay(t)) {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".jsonl")
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := ReadReplay(path)
			if err == nil {
				t.Fatalf("accepted: %+v", r)
			}
			msg := err.Error()
			t.Log(msg)
			if !strings.Contains(msg, path) || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line naming %s and saying %q", msg, path, c.want)
			}
		})
	}
	if _, err := ReadReplay(filepath.Join(dir, "missing.jsonl")); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("missing file: %v", err)
	}
}

// A replay's positions follow from its seed where the game has chance events
// (rules/README.md "Randomness": Slime and Rectangle have none; Bovine
// Borders' execution order and sources (bovine-borders R8) and Nuggets'
// contests and decay (nuggets R12) are drawn from the game's stream): the
// same moves read under another seed end in another position and are
// refused; in a game without chance they are the same game and are read.
// Rising Tide is left out: its only chance is the execution order
// (rising-tide R8), which changes nothing unless two seats' moves touch the
// same cells, and random bots' games need not have such a round.
func TestReplayOtherSeed(t *testing.T) {
	cases := []struct {
		game   string
		chance bool
	}{
		{"bovine-borders", true},
		{"nuggets", true},
		{"slime", false},
		{"rectangle", false},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			g, err := rules.Lookup(c.game)
			if err != nil {
				t.Fatal(err)
			}
			rec := recordGame(t, g.Default(), 1, 0)
			var b bytes.Buffer
			if err := WriteReplay(&b, rec); err != nil {
				t.Fatal(err)
			}
			other := strings.Replace(b.String(), `"seed":"1"`, `"seed":"2"`, 1)
			if other == b.String() {
				t.Fatal("no seed in the header")
			}
			r, err := DecodeReplay(strings.NewReader(other), "other-seed.jsonl")
			switch {
			case c.chance && err == nil:
				t.Fatalf("a %d-step replay read under another seed was accepted", rec.Steps())
			case c.chance && !strings.Contains(err.Error(), "the moves played again end in a position with hash"):
				t.Fatalf("error %q, want the hash mismatch", err)
			case !c.chance && err != nil:
				t.Fatalf("a game without chance refused under another seed: %v", err)
			case !c.chance:
				checkSameReplay(t, r, &Replay{Config: rec.Config, Bots: rec.Bots, Seed: 2, Index: rec.Index,
					Moves: rec.Moves, Outcome: rec.Outcome, Errors: rec.Errors, Hash: rec.Hash, Positions: rec.Positions})
			}
		})
	}
}

// FuzzReadReplay: no input panics the reader, and whatever it accepts writes
// back to a file that reads the same.
func FuzzReadReplay(f *testing.F) {
	valid := validReplay(f)
	f.Add(valid)
	bad := badReplays(valid)
	for _, name := range slices.Sorted(maps.Keys(bad)) {
		f.Add(bad[name].data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeReplay(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.jsonl") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		var b bytes.Buffer
		if err := WriteReplay(&b, r); err != nil {
			t.Fatalf("accepted replay does not write: %v", err)
		}
		again, err := DecodeReplay(&b, "again.jsonl")
		if err != nil {
			t.Fatalf("written replay does not read: %v", err)
		}
		checkSameReplay(t, again, r)
	})
}
