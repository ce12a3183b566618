package risingtide_test

import (
	"bytes"
	"testing"

	_ "github.com/gridgym/gridgym/agents/risingtidebots" // the scripted bots that play the positions
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

// TestFloodPlanesParity: with flood_planes=true the exported bot's
// observe() (risingtide.py's flood_times and flood_ways) equals
// Encoder.Observe plane for plane, the four flood planes included, in
// positions of games between the scripted bots, where walls stand, rivals
// dig and the sea comes in (export's TestPlanesParity checks the default
// planes).
func TestFloodPlanesParity(t *testing.T) {
	exporttest.NeedPython(t, risingtide.Name)
	g, _ := rules.Lookup(risingtide.Name)
	params := map[string]string{risingtide.ParamFloodPlanes: "true"}
	const dig = (risingtide.NumPlanes + 2) * risingtide.Cells // plane 19
	safe := func(planes []uint8) bool { return planes[(risingtide.NumPlanes+3)*risingtide.Cells] == 1 }
	digs := func(planes []uint8) bool { return bytes.IndexByte(planes[dig:dig+risingtide.Cells], 1) >= 0 }
	ps, walled := exporttest.ScriptedPlanesParams(t, g, params, []string{"siege_sofia", "sapper_seoul", "wall_warsaw", "trench_tunis"}, 300, 7, safe)
	if walled < 30 || walled > len(ps)-30 {
		t.Fatalf("%d of %d positions have the own settlement safe: want both kinds", walled, len(ps))
	}
	n := 0
	for _, p := range ps {
		if digs(p.Planes) {
			n++
		}
	}
	if n < len(ps)/2 {
		t.Fatalf("only %d of %d positions have a cell to dig: the test would prove little", n, len(ps))
	}
	if got := exporttest.ComparePlanesParams(t, risingtide.Name, params, ps); got < len(ps)*9/10 {
		t.Fatalf("the bot asked its network in only %d of %d positions", got, len(ps))
	}
	t.Logf("%d positions equal (%d with the own settlement safe, %d with a cell to dig)", len(ps), walled, n)
}
