package host

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

// A competition-form Rising Tide bot that does `import util` and ends with
// bot = util.make_bot(...) (rising-tide R18) runs: gridgym ships util, and
// its allowed_moves agrees with the engine's legality (R10) on the start
// board. A util.py in the bot's own folder takes precedence over the
// shipped one.
func TestShippedUtilModule(t *testing.T) {
	needPython(t)
	if len(Modules("rising-tide")) != 1 || Modules("slime") != nil {
		t.Fatalf("modules: rising-tide %v, slime %v; want util only for rising-tide", Modules("rising-tide"), Modules("slime"))
	}
	log := &syncBuffer{}
	a, err := NewPython("rising-tide", "testdata/util_bot.py", "bot", Options{Limit: 5 * time.Second, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	moves, _ := play(t, "rising-tide", 1, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 3)
	a.Close()
	if ev := a.Events(); ev.Answered != 3 {
		t.Fatalf("events %v, want 3 answered; log %s", ev, log)
	}
	g, _ := rules.Lookup("rising-tide")
	st := g.New(g.Default())
	// sorted(util.allowed_moves(START)): the first is ((0, 0), (0, 1)), legal
	// under R10 (border cells of height 1, neighbours, no settlement).
	want := risingtide.MoveFromView(0, 0, 0, 0, 1)
	if moves[0][0] != want || !st.Legal(0, want) {
		t.Errorf("first move %+v, want %+v (the first of util.allowed_moves)", moves[0][0], want)
	}

	// The bot's own util.py wins.
	dir := t.TempDir()
	own := "def make_bot(name, code, func):\n    return (name, code, lambda terrain, round_num: ((0, 1), (0, 2)))\n"
	if err := os.WriteFile(filepath.Join(dir, "util.py"), []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile("testdata/util_bot.py")
	if err := os.WriteFile(filepath.Join(dir, "bot.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := NewPython("rising-tide", filepath.Join(dir, "bot.py"), "my_bot_fn", Options{Limit: 5 * time.Second, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	// my_bot_fn still calls util.allowed_moves, which the own util lacks: an error.
	play(t, "rising-tide", 1, []agents.Agent{b, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 1)
	b.Close()
	if ev := b.Events(); ev.Errors != 1 {
		t.Errorf("with its own util.py: events %v, want the AttributeError of its own util (log %s)", ev, log)
	}
}
