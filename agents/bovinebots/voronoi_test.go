package bovinebots

import (
	"testing"

	"github.com/gridgym/gridgym/agents"
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
		others := []string{"greedy", "centre_cleo", "defensive_dan_heng"}
		st := bovine.New(bovine.Config(false))
		bots := make([]agents.Agent, bovine.Seats)
		for s := range bots {
			n := "voronoi_vera"
			if s != gs {
				n = others[(s-gs+3)%4]
			}
			bots[s] = newBot(t, n)
			bots[s].Reset(st, s, rules.Derive(uint64(gs), uint64(s)))
		}
		rng := rules.NewRNG(uint64(gs))
		moves := make([]rules.Move, bovine.Seats)
		for r := 0; r < 400 && !st.Done(); r++ {
			for s, b := range bots {
				moves[s] = rules.Move{}
				if !st.Active(s) {
					continue
				}
				moves[s] = b.Act(st)
				if !st.Legal(s, moves[s]) {
					t.Fatalf("round %d seat %d: illegal %+v", r, s, moves[s])
				}
				if s == gs && moves[s].Kind == bovine.Full && checkRace(t, st, s, moves[s]) {
					races++
				}
			}
			st.Step(moves, rng)
		}
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
func TestVoronoiVeraAllocs(t *testing.T) {
	st := bovine.New(bovine.Config(false))
	v := newBot(t, "voronoi_vera")
	v.Reset(st, 0, rules.NewRNG(1))
	for c := 0; c < 6; c++ {
		st.SetCell(1, c, 0)
		st.SetCell(5, c+8, 1)
	}
	v.Act(st)
	if n := testing.AllocsPerRun(50, func() { v.Act(st) }); n != 0 {
		t.Fatalf("Act allocates %v times, want 0", n)
	}
}
