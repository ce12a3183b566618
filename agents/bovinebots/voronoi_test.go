package bovinebots

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

// TestVoronoiVera: in every seat of games against the scripted bots,
// voronoi_vera answers legal full moves (botGame checks them), and each of
// its places while the race is on is one after which its region
// (FrontierAfter) is the largest of all its places; among those, one
// nearest its barn.
func TestVoronoiVera(t *testing.T) {
	races := 0
	for gs := 0; gs < bovine.Seats; gs++ {
		seatGame(t, "voronoi_vera", gs, []string{"greedy", "centre_cleo", "defensive_dan_heng"}, uint64(gs), 400, func(st *bovine.State, m rules.Move) {
			if m.Kind == bovine.Full && checkRace(t, st, gs, m) {
				races++
			}
		})
	}
	if races < 100 {
		t.Fatalf("only %d places in a race checked", races)
	}
}

// checkRace reports whether m is a place of seat while the race is on, and
// then that it is a best place: the largest FrontierAfter of all the seat's
// places, nearest the barn among those.
func checkRace(t *testing.T, st *bovine.State, seat int, m rules.Move) bool {
	t.Helper()
	conn := st.Connected(seat)
	src, dst := int(m.Arg[0]), int(m.Arg[1])
	if st.Cell(dst/bovine.Size, dst%bovine.Size) != bovine.Empty || conn[src/bovine.Size]>>uint(src%bovine.Size)&1 == 0 {
		return false
	}
	br, bc := bovine.Barn(seat)
	best, bestDist := -1, 0
	for r := 0; r < bovine.Size; r++ {
		for c := 0; c < bovine.Size; c++ {
			if st.Cell(r, c) != bovine.Empty || !besideConnected(&conn, r, c) {
				continue
			}
			f, d := st.FrontierAfter(seat, r, c), abs(r-br)+abs(c-bc)
			if f > best || f == best && d < bestDist {
				best, bestDist = f, d
			}
		}
	}
	if best <= 0 {
		return false // the race is over: greedy's move
	}
	r, c := dst/bovine.Size, dst%bovine.Size
	if f, d := st.FrontierAfter(seat, r, c), abs(r-br)+abs(c-bc); f != best || d != bestDist {
		t.Fatalf("round %d seat %d: placed (%d,%d) with region %d at distance %d; the best is %d at distance %d", st.Round(), seat, r, c, f, d, best, bestDist)
	}
	return true
}

// TestVoronoiVeraAllocs: a decision in the opening allocates nothing once
// its candidate list has grown.
func TestVoronoiVeraAllocs(t *testing.T) { checkNoAllocs(t, "voronoi_vera") }

// checkNoAllocs fails t if the bot called name allocates deciding an
// opening position of seat 0 (two rows of cows, its own and seat 1's)
// after its first decision there.
func checkNoAllocs(t *testing.T, name string) {
	t.Helper()
	st := bovine.New(bovine.Config(false))
	a := newBot(t, name)
	a.Reset(st, 0, rules.NewRNG(1))
	for c := 0; c < 6; c++ {
		st.SetCell(1, c, 0)
		st.SetCell(5, c+8, 1)
	}
	a.Act(st)
	if n := testing.AllocsPerRun(50, func() { a.Act(st) }); n != 0 {
		t.Fatalf("%s: Act allocates %v times, want 0", name, n)
	}
}
