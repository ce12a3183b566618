package nuggets_test

import (
	"bytes"
	"testing"

	_ "github.com/gridgym/gridgym/agents/nuggetsbots" // the scripted bots that play the positions
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/nuggets"
)

// The exported bot's NumPy observe() (nuggets.py) equals Encoder.Observe
// in positions of games between the scripted bots where greedy_best — the
// one-ply evaluation, the part with real logic — ties a few squares (2..49)
// for best, at least a quarter of them; export's TestPlanesParity checks
// every game's planes in general. 264 positions at every 9th move, the
// stretch of game that 800 at every 3rd covered (100 with tied best squares;
// 302 of the 800): the Python bot's observe() of each is most of the time
// (issue 52).
func TestPlanesParityTiedBest(t *testing.T) {
	exporttest.NeedPython(t, nuggets.Name)
	g, _ := rules.Lookup(nuggets.Name)
	ps, several := exporttest.ScriptedPlanes(t, g, []string{"greedy_tuned", "greedy", "random", "greedy_tuned"}, 264, 9, func(planes []uint8) bool {
		n := bytes.Count(planes[nuggets.PlaneGreedyBest*nuggets.Cells:(nuggets.PlaneGreedyBest+1)*nuggets.Cells], []byte{1})
		return n > 1 && n < 50
	})
	if several < len(ps)/4 {
		t.Fatalf("only %d of %d positions have a few tied best squares: the test would prove little", several, len(ps))
	}
	if n := exporttest.ComparePlanes(t, nuggets.Name, ps); n != len(ps) {
		t.Fatalf("the bot asked its network in %d of %d positions", n, len(ps))
	}
	t.Logf("%d positions equal (%d with 2..49 best squares)", len(ps), several)
}
