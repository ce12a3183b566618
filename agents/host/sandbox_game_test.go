//go:build linux

package host_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/host"
	"github.com/gridgym/gridgym/eval"
	_ "github.com/gridgym/gridgym/games" // every game and its bots
	"github.com/gridgym/gridgym/rules"
)

// recorder plays an agent and records its moves.
type recorder struct {
	agents.Agent
	moves *[]rules.Move
}

func (r recorder) Act(st rules.State) rules.Move {
	m := r.Agent.Act(st)
	*r.moves = append(*r.moves, m)
	return m
}

// lockedBuffer is a strings.Builder for the writers of a bot's output and
// its event log, which write from different goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
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

// noAnswer is a Rising Tide seat that never answers: the no-answer move,
// a pass (rising-tide R20).
type noAnswer struct{}

func (noAnswer) Reset(rules.State, int, *rules.RNG) {}
func (noAnswer) Act(rules.State) rules.Move         { return rules.Move{} }

// TestHostileSeatLeavesOthersAlone: a real Rising Tide game (eval's game
// loop) with testdata/hostile/hostile.py's all_out in seat 0 (a setsid
// child, a daemon, snooping, allocating past its memory limit, never an
// answer) plays the other seats exactly as the same seed with a seat that
// never answers: same moves, same scores; and the hostile processes are gone
// after the game.
func TestHostileSeatLeavesOthersAlone(t *testing.T) {
	if _, err := host.Interpreter(""); err != nil {
		t.Skip(err)
	}
	marker := fmt.Sprintf("gridgym-hostile-%d-game", os.Getpid())
	other, _ := filepath.Abs("testdata/opponent/secret.py")
	// The bot's settings go in hostile.json beside a copy of it, in a
	// folder user nobody may read: the sandbox passes no variable of the
	// test's environment, and runs the bot as nobody when the test is root.
	dir, err := os.MkdirTemp("", "gridgym-hostile-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	src, err := os.ReadFile("testdata/hostile/hostile.py")
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(map[string]string{"marker": marker, "other": other, "parent": strconv.Itoa(os.Getpid()),
		"outside": filepath.Join(t.TempDir(), "report.md")})
	if os.Chmod(dir, 0o755) != nil || os.WriteFile(filepath.Join(dir, "hostile.py"), src, 0o644) != nil ||
		os.WriteFile(filepath.Join(dir, "hostile.json"), js, 0o644) != nil {
		t.Fatal("writing the hostile bot's copy")
	}
	g, err := rules.Lookup("rising-tide")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range agents.Names("rising-tide") {
		if !strings.HasPrefix(n, "pass") && len(names) < 3 {
			names = append(names, n)
		}
	}
	if len(names) < 3 {
		t.Fatalf("rising-tide bots %v: want three that move", agents.Names("rising-tide"))
	}
	log := &lockedBuffer{}
	type game struct {
		moves [3][]rules.Move
		res   eval.GameResult
	}
	playOne := func(seat0 agents.Factory, seed uint64) game {
		var gm game
		entries := []agents.Entry{{Game: "rising-tide", Name: "seat0", New: seat0}}
		for i, n := range names {
			e, err := agents.Lookup("rising-tide", n)
			if err != nil {
				t.Fatal(err)
			}
			moves := &gm.moves[i]
			entries = append(entries, agents.Entry{Game: "rising-tide", Name: n, New: func() agents.Agent {
				return recorder{e.New(), moves}
			}})
		}
		gm.res = eval.PlayGame(g.Default(), entries, []int{0, 1, 2, 3}, seed, 0, nil)
		return gm
	}
	hostile := func() agents.Agent {
		a, err := host.NewPython("rising-tide", filepath.Join(dir, "hostile.py"), "all_out",
			host.Options{Limit: 2 * time.Second, Memory: 256 << 20, Log: log, Output: log})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, seed := range []uint64{1, 2} {
		start := time.Now()
		h := playOne(hostile, seed)
		took := time.Since(start)
		n := playOne(func() agents.Agent { return noAnswer{} }, seed)
		t.Logf("seed %d: %d steps, hostile seat answered nothing in %d moves (%v); scores %v", seed, h.res.Steps, h.res.Errors[0], took, h.res.Outcome.Score)
		if h.res.Errors[0] == 0 {
			t.Errorf("seed %d: the hostile seat had no failed move: the test tests nothing (log %q)", seed, log)
		}
		if h.res.Steps != n.res.Steps || !reflect.DeepEqual(h.res.Outcome.Score, n.res.Outcome.Score) {
			t.Errorf("seed %d: %d steps, scores %v with the hostile seat; %d steps, %v without", seed,
				h.res.Steps, h.res.Outcome.Score, n.res.Steps, n.res.Outcome.Score)
		}
		for s := range h.moves {
			if !reflect.DeepEqual(h.moves[s], n.moves[s]) {
				t.Errorf("seed %d: seat %d (%s) played other moves beside the hostile seat", seed, s+1, names[s])
			}
		}
	}
	if !strings.Contains(log.String(), "over its memory limit") {
		t.Errorf("log %q: want the memory limit named", log)
	}
	deadline := time.Now().Add(30 * time.Second) // liveness: a loaded machine reaps slowly
	for {
		left := 0
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			if b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && strings.Contains(string(b), marker) {
				left++
			}
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("%d hostile processes outlived the games", left)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
}
