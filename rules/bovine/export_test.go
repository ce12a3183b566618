package bovine_test

import (
	"bytes"
	"testing"

	_ "github.com/gridgym/gridgym/agents/bovinebots" // the scripted bots that play the positions
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/export"
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

// TestGuardParity: with the barn guard baked in (export.Play.Guard: GUARD =
// 1 in the module), the exported bot answers exactly as the Go policy with
// Guard set (neural.Agent), on random boards of every density (every cell
// empty or any seat's, the barns their seats'), and the guard matters: a
// good share of the answers are the guard's and differ from the network's.
func TestGuardParity(t *testing.T) {
	exporttest.NeedPython(t, bovine.Name)
	g, _ := rules.Lookup(bovine.Name)
	cfg := g.Default()
	net, bot := exporttest.Bot(t, bovine.Name, 3, export.Play{Guard: true})
	guarded, err := neural.NewAgent(net, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	guarded.Guard = true
	plain, _ := neural.NewAgent(net, cfg, false)
	rng := rules.NewRNG(17)
	type pos struct {
		st         *bovine.State
		seat       int
		want       rules.Move
		guard, own bool // the guard answered; and differently from the network
	}
	var ps []pos
	var reqs [][]byte
	for n := 0; n < 120; n++ {
		st := bovine.New(cfg)
		empty := 3 + rng.U(30) // of 34: a share of 9% to 97% empty
		for r := 0; r < bovine.Size; r++ {
			for c := 0; c < bovine.Size; c++ {
				if o := rng.U(34); o >= empty {
					st.SetCell(r, c, o%bovine.Seats)
				}
			}
		}
		for seat := 0; seat < bovine.Seats; seat++ {
			r, c := bovine.Barn(seat)
			st.SetCell(r, c, seat)
		}
		if err := st.Check(); err != nil {
			t.Fatal(err)
		}
		for seat := 0; seat < bovine.Seats; seat++ {
			guarded.Reset(st, seat, nil)
			plain.Reset(st, seat, nil)
			want := guarded.Act(st)
			_, gd := st.Guard(seat)
			ps = append(ps, pos{st, seat, want, gd, gd && plain.Act(st) != want})
			reqs = append(reqs, exporttest.Request(g, st, seat))
		}
	}
	res := exporttest.Run(t, bovine.Name, bot, reqs)
	guards, own, bad := 0, 0, 0
	for i, r := range res {
		p := ps[i]
		if r.Error != "" {
			t.Fatalf("position %d: the bot raised %s", i, r.Error)
		}
		if got := g.Codec.ParseAnswer(p.st, p.seat, exporttest.Answer(g, r.Answer)); got != p.want {
			if bad++; bad <= 5 {
				t.Errorf("position %d seat %d: Python answered %s, Go %s", i, p.seat, r.Answer, p.st.MoveText(p.seat, p.want))
			}
		}
		if p.guard {
			guards++
		}
		if p.own {
			own++
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d answers differ", bad, len(res))
	}
	if guards < len(res)/4 || own < len(res)/5 || guards > len(res)*9/10 {
		t.Fatalf("the guard answered %d of %d positions (%d unlike the network): the test would prove little", guards, len(res), own)
	}
	t.Logf("%d positions equal; the guard answered %d (%d unlike the network)", len(res), guards, own)
}
