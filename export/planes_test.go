package export_test

import (
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/export"
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules"
)

// Every exported NumPy bot's own feature code builds exactly the planes and
// scalars of the game's Go encoder (Encoder.Observe), byte for byte, in
// positions of games between the game's scripted bots (every registered
// bot but pass, cycled over the seats), which play as trained bots do: its
// entry point's observation, as it hands it to the shared network, is
// compared at 400 positions, and every plane is set somewhere (else the
// positions would prove little of it). What the positions of scripted games
// do not reach is tested in the game's folder (rules/rectangle's synthetic
// positions, rules/nuggets' tied best squares).
func TestPlanesParity(t *testing.T) {
	for _, game := range export.TargetGames() {
		if target(game).Pure {
			continue // its own network in pure Python (TestPythonParity)
		}
		t.Run(game, func(t *testing.T) {
			exporttest.NeedPython(t, game)
			g, _ := rules.Lookup(game)
			sp := g.Encoder(g.Default()).Space()
			names := slices.DeleteFunc(agents.Names(game), func(n string) bool { return n == "pass" })
			hw := sp.Height * sp.Width
			set := make([]int, sp.Planes) // positions in which each plane has a 1
			ps, _ := exporttest.ScriptedPlanes(t, g, names, 400, 7, func(planes []uint8) bool {
				for k := range set {
					if slices.ContainsFunc(planes[k*hw:(k+1)*hw], func(v uint8) bool { return v != 0 }) {
						set[k]++
					}
				}
				return false
			})
			for k, n := range set {
				if n == 0 {
					t.Errorf("plane %s is never set in %d positions: the test would prove little of it", sp.PlaneNames[k], len(ps))
				}
			}
			n := exporttest.ComparePlanes(t, game, ps)
			if n < len(ps)*9/10 {
				t.Fatalf("the bot asked its network in only %d of %d positions", n, len(ps))
			}
			t.Logf("%d of %d positions equal (bots %v)", n, len(ps), names)
		})
	}
}
