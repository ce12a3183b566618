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
// for best, at least 100 of them; export's TestPlanesParity checks every
// game's planes in general.
func TestPlanesParityTiedBest(t *testing.T) {
	exporttest.NeedPython(t, nuggets.Name)
	g, _ := rules.Lookup(nuggets.Name)
	ps, several := exporttest.ScriptedPlanes(t, g, []string{"greedy_tuned", "greedy", "random", "greedy_tuned"}, 800, 3, func(planes []uint8) bool {
		n := bytes.Count(planes[nuggets.PlaneGreedyBest*nuggets.Cells:(nuggets.PlaneGreedyBest+1)*nuggets.Cells], []byte{1})
		return n > 1 && n < 50
	})
	if several < 100 {
		t.Fatalf("only %d of %d positions have a few tied best squares: the test would prove little", several, len(ps))
	}
	if n := exporttest.ComparePlanes(t, nuggets.Name, ps); n != len(ps) {
		t.Fatalf("the bot asked its network in %d of %d positions", n, len(ps))
	}
	t.Logf("%d positions equal (%d with 2..49 best squares)", len(ps), several)
}
