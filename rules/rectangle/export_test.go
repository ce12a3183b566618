package rectangle_test

import (
	"bytes"
	"testing"

	_ "github.com/gridgym/gridgym/agents/rectanglebots" // the scripted bots that play the positions
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

// The exported bot's NumPy observe() (rectangle.py) equals Encoder.Observe
// plane for plane, the plan and step planes (rectangle.Plans, the part with
// real logic) included, in positions of games between the scripted bots,
// which draw and contest squares as trained bots do, and in synthetic ones
// that games rarely reach: random paint in blobs and robots on random
// cells, so that robots often stand on their own target (the wait rule)
// and robots of other players on targets (the last-resort targets).
// export's TestPlanesParity checks every game's planes in general.
func TestPlanesParitySynthetic(t *testing.T) {
	exporttest.NeedPython(t, rectangle.Name)
	g, _ := rules.Lookup(rectangle.Name)
	cfg := g.Default()
	enc := g.Encoder(cfg)
	ps, planned := exporttest.ScriptedPlanes(t, g, []string{"planner", "boxer", "random", "planner"}, 600, 7, func(planes []uint8) bool {
		return bytes.IndexByte(planes[(2*4+4+1)*400:], 2) >= 0 // a plan with a target
	})
	rng := rules.NewRNG(5)
	for k := 0; k < 400; k++ {
		st := g.New(cfg).(*rectangle.State)
		for r := 0; r < 20; r++ {
			for c := 0; c < 20; c++ {
				v := rectangle.Unpainted
				switch x := rng.U(100); {
				case x < 4:
					v = rectangle.Unpaintable
				case x < 40:
					v = (r/4 + c/5 + k) % 4 // blobs of one colour
				}
				st.SetCell(r, c, v)
			}
		}
		for seat := 0; seat < 4; seat++ {
			r, c := rng.U(20), rng.U(20)
			stack := rng.U(3) == 0 // all on one cell, as R9 parks a failed bot's
			for i := 0; i < 4; i++ {
				if !stack {
					r, c = rng.U(20), rng.U(20)
				}
				st.SetRobot(seat, i, r, c)
			}
		}
		st.SetClock(1+rng.U(1999), 0)
		ps = append(ps, exporttest.Observe(g, enc, st, rng.U(4)))
	}
	if planned < 300 {
		t.Fatalf("only %d of %d positions have a plan target: the test would prove little", planned, len(ps))
	}
	if n := exporttest.ComparePlanes(t, rectangle.Name, ps); n != len(ps) {
		t.Fatalf("the bot asked its network in %d of %d positions", n, len(ps))
	}
	t.Logf("%d positions equal (%d with a plan target)", len(ps), planned)
}
