package risingtide

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// naiveFlood is FloodTimes by the definition, relaxed to its fixed point
// (Bellman–Ford instead of Compute's Dijkstra): a flooded cell floods now,
// a land cell in round max(100·h + 1, its earliest neighbour's + 1), a
// border cell with no neighbour needed.
func naiveFlood(v *SeatView) (t [Size][Size]int) {
	for i := range t {
		for j := range t[i] {
			t[i][j] = FloodHorizon
			switch h := int(v.Terrain[i][j]); {
			case h < 0:
				t[i][j] = v.Round
			case OnEdge(i, j):
				t[i][j] = min(FloodHorizon, max(100*h+1, v.Round))
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range t {
			for j := range t[i] {
				if v.Terrain[i][j] < 0 {
					continue
				}
				for a := max(i-1, 0); a <= min(i+1, Size-1); a++ {
					for b := max(j-1, 0); b <= min(j+1, Size-1); b++ {
						if c := min(FloodHorizon, max(100*int(v.Terrain[i][j])+1, t[a][b]+1)); c < t[i][j] {
							t[i][j], changed = c, true
						}
					}
				}
			}
		}
	}
	return t
}

// naiveWays marks the cells of every quickest way into (i, j) by recursion
// on the definition (FloodTimes.Ways).
func naiveWays(v *SeatView, t *[Size][Size]int, i, j int, ways []uint8) {
	if v.Terrain[i][j] < 0 || OnEdge(i, j) {
		return
	}
	pt := FloodHorizon + 1
	for a := i - 1; a <= i+1; a++ {
		for b := j - 1; b <= j+1; b++ {
			if a != i || b != j {
				pt = min(pt, t[a][b])
			}
		}
	}
	for a := i - 1; a <= i+1; a++ {
		for b := j - 1; b <= j+1; b++ {
			if (a != i || b != j) && pt < t[i][j] && t[a][b] == pt && v.Terrain[a][b] >= 0 && ways[a*Size+b] == 0 {
				ways[a*Size+b] = 1
				naiveWays(v, t, a, b, ways)
			}
		}
	}
}

// refFloodPlanes is the flood planes (floodPlanes) from the naive
// functions, written after refObs's planes.
func refFloodPlanes(s *State, seat int, p []uint8) {
	v := View(s, seat)
	t := naiveFlood(&v)
	own, target, dig, safe := p[planeFloodOwn*Cells:], p[planeFloodTarget*Cells:], p[planeFloodDig*Cells:], p[planeFloodSafe*Cells:]
	if v.Terrain[5][5] >= 0 {
		naiveWays(&v, &t, 5, 5, own[:Cells])
		for c := 0; c < Cells && t[5][5] >= MaxRounds; c++ {
			safe[c] = 1
		}
	}
	best := FloodHorizon + 1
	for _, q := range settlements[1:] {
		if v.Terrain[q[0]][q[1]] >= 0 {
			best = min(best, t[q[0]][q[1]])
		}
	}
	for _, q := range settlements[1:] {
		if v.Terrain[q[0]][q[1]] >= 0 && t[q[0]][q[1]] == best {
			target[q[0]*Size+q[1]] = 1
			naiveWays(&v, &t, q[0], q[1], target[:Cells])
		}
	}
	top := int8(0)
	for c := 0; c < Cells; c++ {
		if target[c] == 1 && !isSettle[c] {
			top = max(top, v.Terrain[c/Size][c%Size])
		}
	}
	for c := 0; c < Cells && top > 0; c++ {
		if target[c] == 1 && !isSettle[c] && v.Terrain[c/Size][c%Size] == top {
			dig[c] = 1
		}
	}
}

// FloodTimes agrees with the definition relaxed to its fixed point on
// every seat's view of positions from random games.
func TestFloodTimesNaive(t *testing.T) {
	for n, s := range encStates(t, false) {
		for seat := 0; seat < Seats; seat++ {
			v := View(s, seat)
			var f FloodTimes
			f.Compute(&v)
			if want := naiveFlood(&v); f.T != want {
				t.Fatalf("state %d seat %d: flood times differ from the fixed point", n, seat)
			}
		}
	}
}

// The flood planes on the start board (E1, E6): every settlement floods
// in round 502 through its 5-high neighbours, so the own ways run from
// those neighbours out to the border and miss the 6-high inside, the three
// rivals tie as the target, the cells to dig are their 5-high neighbours,
// and the own settlement is not safe until its neighbours stand at 8 (then
// the way in is the wall itself, which floods in round 801).
func TestFloodPlanesStartBoard(t *testing.T) {
	s := newGame(t, false)
	e := NewEncoder(floodConfig(t)).(Encoder)
	p, sc := make([]uint8, e.planes()*Cells), make([]float32, NumScalars)
	e.Observe(s, 0, p, sc)
	at := func(plane, i, j int) uint8 { return p[plane*Cells+i*Size+j] }
	for _, c := range [][2]int{{4, 4}, {4, 6}, {6, 4}, {3, 3}, {0, 0}} {
		if at(planeFloodOwn, c[0], c[1]) != 1 {
			t.Errorf("own way misses (%d,%d)", c[0], c[1])
		}
	}
	if at(planeFloodOwn, 6, 6) != 0 || at(planeFloodOwn, 5, 5) != 0 {
		t.Error("own way has the 6-high (6,6) or the settlement")
	}
	for _, q := range settlements[1:] {
		if at(planeFloodTarget, q[0], q[1]) != 1 {
			t.Errorf("rival settlement %v not a target", q)
		}
	}
	if at(planeFloodDig, 4, 11) != 1 || at(planeFloodDig, 3, 10) != 0 || at(planeFloodDig, 4, 4) != 0 {
		t.Error("dig plane: want the rivals' 5-high neighbours only")
	}
	if at(planeFloodSafe, 0, 0) != 0 {
		t.Error("safe on the start board")
	}
	for _, c := range [][2]int{{4, 4}, {4, 5}, {4, 6}, {5, 4}, {5, 6}, {6, 4}, {6, 5}, {6, 6}} {
		s.h[c[0]*Size+c[1]] = MaxHeight
	}
	e.Observe(s, 0, p, sc)
	if at(planeFloodSafe, 17, 17) != 1 || at(planeFloodOwn, 4, 4) != 1 {
		t.Error("a wall of 8s: want safe, and the way through the wall (round 801)")
	}
}

func floodConfig(t testing.TB) rules.Config {
	g, _ := rules.Lookup(Name)
	cfg, err := g.Configure(map[string]string{ParamFloodPlanes: "true"})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The encoder with flood_planes passes the generic suite (its symmetries
// included: the planes keep ties, so they commute with the transpose),
// against refObs and refFloodPlanes.
func TestFloodPlanesConformance(t *testing.T) {
	e := NewEncoder(floodConfig(t))
	if sp := e.Space(); sp.Planes != NumPlanes+numFloodPlanes || len(sp.PlaneNames) != sp.Planes {
		t.Fatalf("flood_planes space %+v", sp)
	}
	c := rulestest.EncoderCase{
		Name: "flood_planes", Encoder: e, PlaneMax: 1,
		Codec: codec{}, Answer: answerOf, ScalarTolerance: 1e-6, Images: images,
		View: func(st rules.State, seat int, planes []uint8, scalars []float32) {
			p, sc := refObs(st.(*State), seat)
			clear(planes)
			copy(planes, p)
			copy(scalars, sc)
			refFloodPlanes(st.(*State), seat, planes)
		},
	}
	for _, s := range encStates(t, false) {
		c.States = append(c.States, s)
	}
	rulestest.EncoderConformance(t, c)
}
