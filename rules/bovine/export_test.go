package bovine_test

import (
	"bytes"
	"testing"

	_ "github.com/gridgym/gridgym/agents/bovinebots" // the scripted bots that play the positions
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

// TestFrontierPlanesParity: with frontier_planes=true the exported bot's
// observe() (bovine.py's _race, on Python int bitboards) equals
// Encoder.Observe plane for plane, the two race planes included, in
// positions of games between the scripted bots: openings where the race is
// open and later ones where the board is full (export's TestPlanesParity
// checks the default planes).
func TestFrontierPlanesParity(t *testing.T) {
	exporttest.NeedPython(t, bovine.Name)
	g, _ := rules.Lookup(bovine.Name)
	params := map[string]string{bovine.ParamFrontierPlanes: "true"}
	first := bovine.PlaneFirst * bovine.Cells
	both := func(planes []uint8) bool { // each side reaches some cell first
		return bytes.IndexByte(planes[first:first+bovine.Cells], 1) >= 0 &&
			bytes.IndexByte(planes[first+bovine.Cells:first+2*bovine.Cells], 1) >= 0
	}
	ps, raced := exporttest.ScriptedPlanesParams(t, g, params, []string{"greedy", "centre_cleo", "random_raven", "defensive_dan_heng"}, 300, 3, both)
	if raced < 50 {
		t.Fatalf("only %d of %d positions have cells both sides reach first: the test would prove little", raced, len(ps))
	}
	if n := exporttest.ComparePlanesParams(t, bovine.Name, params, ps); n < len(ps)*9/10 {
		t.Fatalf("the bot asked its network in only %d of %d positions", n, len(ps))
	}
	t.Logf("%d positions equal (%d with a race on)", len(ps), raced)
}
