package rectangle

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// plansOf returns seat 0's plans in s.
func plansOf(s *State) []Plan {
	var v View
	s.View(0, &v)
	out := make([]Plan, s.b)
	Plans(&v, out)
	return out
}

// TestPlansPlacement: on the empty board every 6×6 square has the best value
// 16/21 (no distance at the placement), so robot 0 takes the first in scan
// order but the one at (0,0), where R9 parks failed placements, and each
// next robot the first that overlaps none before it; the step plane's cell
// is the top-left corner (R7).
func TestPlansPlacement(t *testing.T) {
	s := NewSized(20, 4, 4, 100, 2000)
	got := plansOf(s)
	want := []Plan{{0, 1, 6, -1, -1, Stay}, {0, 7, 6, -1, -1, Stay}, {0, 13, 6, -1, -1, Stay}, {6, 0, 6, -1, -1, Stay}}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("robot %d: plan %+v, want %+v", i, got[i], want[i])
		}
	}
}

// Maps shared by the golden cases (n = 8; '#' unpaintable, digits paint).
var (
	// column: the 3×3 square (2,2)–(4,4), the only one that fits, painted 0
	// but for its middle column, (2,3) and (4,3) on the boundary.
	column = []string{
		"########",
		"########",
		"##0.0###",
		"##0.0###",
		"##0.0###",
		"########",
		"########",
		"########",
	}
	// ring: E4's enclosure, player 0's 5×5 ring (1,1)–(5,5) around an
	// earlier claim (3,3), painted but for (1,3).
	ring = []string{
		"........",
		".00.00..",
		".0...0..",
		".0.#.0..",
		".0...0..",
		".00000..",
		"........",
		"........",
	}
)

// TestPlansGolden pins the plan, target and step of hand-made positions
// (b = 1 or 2, n = 8, p = 2; maps as in the rules' examples).
func TestPlansGolden(t *testing.T) {
	// Only the 3×3 square (2,2)–(4,4) fits among unpaintable cells, and it
	// lacks (4,4): E3's smallest claim.
	e3 := []string{
		"########",
		"########",
		"##000###",
		"##0.0###",
		"##00..##",
		"########",
		"########",
		"########",
	}
	for _, tc := range []struct {
		name   string
		rows   []string
		b      int
		robots [][4]int // player, robot, r, c
		clock  int
		want   []Plan
	}{
		// The robot east of the gap steps W onto it (closer, and on the
		// boundary): R11's candidate after the move.
		{"E3", e3, 1, [][4]int{{0, 0, 4, 5}}, 10, []Plan{{2, 2, 3, 4, 4, West}}},
		// On its own target (unpainted: it arrived with another robot)
		// it waits at this move …
		{"wait", e3, 1, [][4]int{{0, 0, 4, 4}, {1, 0, 4, 4}}, 12, []Plan{{2, 2, 3, 4, 4, Stay}}},
		// … and at this one steps off, preferring the boundary: N (3,4)
		// and W (4,3) are boundary cells, N comes first.
		{"step off", e3, 1, [][4]int{{0, 0, 4, 4}, {1, 0, 4, 4}}, 10, []Plan{{2, 2, 3, 4, 4, North}}},
		// Two gaps at distance 1 from the centre: the first clockwise
		// from the top-left corner is (2,3) …
		{"clockwise", column, 1, [][4]int{{0, 0, 3, 3}}, 10, []Plan{{2, 2, 3, 2, 3, North}}},
		// … unless a robot of another player stands on it (R10: a shared
		// cell is not painted): then (4,3).
		{"dodge", column, 1, [][4]int{{0, 0, 3, 3}, {1, 0, 2, 3}}, 10, []Plan{{2, 2, 3, 4, 3, South}}},
		// Robot 1 is on the nearly closed square (2,2)–(4,4); robot 0, two
		// cells away, also values it most (cost 1 + 2 against 1 + 0). The
		// global order gives it to robot 1 and robot 0 the only square
		// left that does not overlap it, (2,5)–(4,7): robot 0 stands in its
		// middle, and (2,6) is the first cell at distance 1 clockwise.
		// Robot 1, on its target, does not wait at move 10 and steps off N.
		{"assignment", []string{
			"########",
			"########",
			"##000...",
			"##0.0...",
			"##00....",
			"########",
			"########",
			"########",
		}, 2, [][4]int{{0, 0, 3, 6}, {0, 1, 4, 4}}, 10, []Plan{{2, 5, 3, 2, 6, North}, {2, 2, 3, 4, 4, North}}},
		// E4's enclosure: the 5×5 ring (1,1)–(5,5) around player 0's old
		// claim, 8 paintable interior cells (R13), all painted but (1,3):
		// value 8/3 from (0,3) (one cell to paint, one step away), far
		// above any square of unpainted cells.
		{"enclose", ring, 1, [][4]int{{0, 0, 0, 3}}, 10, []Plan{{1, 1, 5, 1, 3, South}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := build(t, 2, tc.b, tc.rows)
			robots(s, tc.robots...)
			s.SetClock(tc.clock, 0)
			got := plansOf(s)
			for i, w := range tc.want {
				if got[i] != w {
					t.Fatalf("robot %d: plan %+v, want %+v", i, got[i], w)
				}
			}
		})
	}
}

// TestPlansParked: two robots of player 1 parked on (1,3), the gap of the
// enclosure above, keep it unpainted (R10), so no plan has (1,3) on its
// boundary; with one robot there (it may move on) the ring stays the plan.
func TestPlansParked(t *testing.T) {
	for _, parked := range []int{1, 2} {
		s := build(t, 2, 2, ring)
		list := [][4]int{{0, 0, 0, 3}}
		for i := 0; i < parked; i++ {
			list = append(list, [4]int{1, i, 1, 3})
		}
		robots(s, list...)
		p := plansOf(s)[0]
		ring := Plan{R: 1, C: 1, K: 5}
		if onRing := p.R == ring.R && p.C == ring.C && p.K == ring.K; onRing != (parked == 1) {
			t.Fatalf("%d robots parked on (1,3): plan %+v", parked, p)
		}
		if parked == 2 && p.OnBoundary(1, 3) {
			t.Fatalf("plan %+v has the parked cell (1,3) on its boundary", p)
		}
	}
}

// TestPlansInvariants: in games of scripted-like play the plans of a seat
// never overlap, hold no unpaintable cell, have their target on the
// boundary and not painted 0, and send no robot off the grid or onto a cell
// another robot of the seat holds (later robots) or is sent to (earlier
// ones). Plans is deterministic and allocates nothing. Two games, about
// 13,000 plans (six had 43,000 at three times the cost; issue 52).
func TestPlansInvariants(t *testing.T) {
	s := NewSized(20, 4, 4, 100, 600)
	var v View
	plans := make([]Plan, 4)
	again := make([]Plan, 4)
	rng := rules.NewRNG(3)
	moves := make([]rules.Move, 4)
	checked := 0
	for game := 0; game < 2; game++ {
		s.Reset()
		for !s.Done() {
			for seat := 0; seat < 4; seat++ {
				s.View(seat, &v)
				Plans(&v, plans)
				Plans(&v, again)
				for i, p := range plans {
					if again[i] != p {
						t.Fatalf("Plans is not deterministic: %+v then %+v", p, again[i])
					}
					if p.K == 0 {
						continue
					}
					checked++
					gain := 0
					for y := p.R; y < p.R+p.K; y++ {
						for x := p.C; x < p.C+p.K; x++ {
							switch {
							case v.Board[y][x] != Unpaintable && !p.OnBoundary(y, x):
								gain++
							case v.Board[y][x] == Unpaintable && p.OnBoundary(y, x):
								t.Fatalf("plan %+v: unpaintable boundary cell (%d,%d)", p, y, x)
							}
						}
					}
					if gain == 0 {
						t.Fatalf("plan %+v has no paintable interior cell (R11: no gain)", p)
					}
					for j := 0; j < i; j++ {
						if plans[j].K > 0 && plans[j].overlaps(p) {
							t.Fatalf("plans %+v and %+v overlap", plans[j], p)
						}
					}
					if v.MoveNum == 0 {
						continue
					}
					if p.TR >= 0 && (!p.OnBoundary(p.TR, p.TC) || v.Board[p.TR][p.TC] == 0) {
						t.Fatalf("plan %+v: target (%d,%d) = %d", p, p.TR, p.TC, v.Board[p.TR][p.TC])
					}
					if p.Step == Stay {
						continue
					}
					y, x := v.Pos[0][i].R+dRow[p.Step], v.Pos[0][i].C+dCol[p.Step]
					if y < 0 || y >= 20 || x < 0 || x >= 20 {
						t.Fatalf("robot %d steps off the grid", i)
					}
					for j := range plans {
						to := v.Pos[0][j]
						if j < i {
							to = Pos{to.R + dRow[plans[j].Step], to.C + dCol[plans[j].Step]}
						}
						if j != i && to == (Pos{y, x}) {
							t.Fatalf("robot %d steps onto robot %d's cell (%d,%d)", i, j, y, x)
						}
					}
				}
				// Play the plans, with some noise so that plans get spoilt.
				m := rules.Move{Kind: KindMove, N: 4}
				if v.MoveNum == 0 {
					m.Kind = KindPlace
					for i, p := range plans {
						m.Arg[i] = int16(p.R*20 + p.C + rng.U(3))
					}
				} else {
					for i, p := range plans {
						m.Arg[i] = p.Step
						if rng.U(10) == 0 {
							m.Arg[i] = Dir(rng.U(5))
						}
					}
				}
				moves[seat] = m
			}
			s.Step(moves, rng)
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d plans checked", checked)
	}
	t.Logf("%d plans checked", checked)
	s.View(0, &v)
	if a := testing.AllocsPerRun(20, func() { Plans(&v, plans) }); a != 0 {
		t.Fatalf("Plans allocates %.0f times", a)
	}
}

// BenchmarkPlans times the plans of one seat in positions of a game under
// way (the bulk of Observe's time).
func BenchmarkPlans(b *testing.B) {
	s := NewSized(20, 4, 4, 100, 2000)
	rng := rules.NewRNG(1)
	moves := make([]rules.Move, 4)
	for s.Steps() < 40 {
		for i := range moves {
			moves[i] = s.RandomMove(i, rng)
		}
		s.Step(moves, rng)
	}
	var v View
	s.View(0, &v)
	plans := make([]Plan, 4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Plans(&v, plans)
	}
}

// TestTransformGoPlanes: a symmetry moves a go plane's mark and relabels the
// plane by its direction map: rot90 (g = 1, counter-clockwise) turns a
// robot's N step into W, and its E step into N.
func TestTransformGoPlanes(t *testing.T) {
	e := newEncoder(8, 2, 1, false)
	sp := e.Space()
	goN := 2*2 + 3*1 + 1 // first go plane
	obs, dst := make([]uint8, sp.ObsSize()), make([]uint8, sp.ObsSize())
	sc := make([]float32, sp.Scalars)
	for _, tc := range []struct{ from, to Dir }{{North, West}, {East, North}, {Stay, Stay}} {
		clear(obs)
		obs[(goN+int(tc.from))*64+2*8+5] = 1 // (2,5)
		e.TransformObs(1, dst, sc, obs, sc)
		r, c := rules.D4(1).Point(8, 2, 5)
		if got := dst[(goN+int(tc.to))*64+r*8+c]; got != 1 {
			t.Fatalf("go_%c at (2,5) under rot90: go_%c at (%d,%d) = %d", DirLetters[tc.from], DirLetters[tc.to], r, c, got)
		}
	}
}

// TestCandidateMatchesBruteForce: a robot's best square (candidate), which
// passes over squares by upper bounds on their value before counting their
// cells, is the one a plain count of every square's cells finds: the
// highest gain/(cost+1), the first (largest side, then top row, then left
// column) among equals, with no unpaintable or blocked boundary cell and some
// interior gain (R11), at placements and at moves of random games.
func TestCandidateMatchesBruteForce(t *testing.T) {
	s := NewSized(20, 4, 4, 100, 600)
	var v View
	var pl planner
	plans := make([]Plan, 4)
	rng := rules.NewRNG(5)
	moves := make([]rules.Move, 4)
	checked := 0
	for game := 0; game < 2; game++ {
		s.Reset()
		for step := 0; !s.Done(); step++ {
			if step%7 == 0 {
				for seat := 0; seat < 4; seat++ {
					s.View(seat, &v)
					pl = planner{}
					pl.plan(&v, plans) // builds the counts
					pl.given = [MaxRobots]bool{}
					for i := 0; i < v.Robots; i++ {
						got, gotV := pl.candidate(&v, i, v.MoveNum == 0)
						want, wantV := bruteCandidate(&v, i)
						if got != want || gotV != wantV {
							t.Fatalf("game %d step %d seat %d robot %d: candidate %+v (%v), brute force %+v (%v)",
								game, step, seat, i, got, gotV, want, wantV)
						}
						checked++
					}
				}
			}
			for i := range moves {
				moves[i] = s.RandomMove(i, rng)
			}
			s.Step(moves, rng)
		}
	}
	t.Logf("%d candidates checked", checked)
}

// bruteCandidate is candidate without given plans, counting each square's
// cells one by one.
func bruteCandidate(v *View, i int) (Plan, float64) {
	n, placing := v.N, v.MoveNum == 0
	foreign := func(y, x int) int {
		k := 0
		for p := 1; p < v.Players && !placing; p++ {
			for j := 0; j < v.Robots; j++ {
				if v.Pos[p][j] == (Pos{R: y, C: x}) {
					k++
				}
			}
		}
		return k
	}
	best, bestV := Plan{}, -1.0
	for k := planMaxSide; k >= planMinSide; k-- {
		for pr := 0; pr+k <= n; pr++ {
		squares:
			for pc := 0; pc+k <= n; pc++ {
				p := Plan{R: pr, C: pc, K: k}
				if placing && pr == 0 && pc == 0 {
					continue
				}
				gain, cost := 0, 0
				for y := pr; y < pr+k; y++ {
					for x := pc; x < pc+k; x++ {
						cell := v.Board[y][x]
						switch {
						case !p.OnBoundary(y, x):
							if cell != Unpaintable {
								gain++
							}
						case cell == Unpaintable, cell != 0 && foreign(y, x) >= 2:
							continue squares
						case cell != 0:
							cost++
						}
					}
				}
				if gain == 0 {
					continue
				}
				if !placing {
					cost += p.dist(v.Pos[0][i].R, v.Pos[0][i].C)
				}
				if val := float64(gain) / float64(cost+1); val > bestV {
					best, bestV = p, val
				}
			}
		}
	}
	return best, bestV
}
