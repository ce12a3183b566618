package rectanglebots

import (
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

// play runs one game with the given bots (nil = random) and returns the
// scores. check, if set, runs before every step with the moves chosen.
func play(t *testing.T, cfg rules.Config, seed uint64, bots []agents.Agent, check func(s *rectangle.State, moves []rules.Move)) []int {
	t.Helper()
	s := rectangle.New(cfg)
	n := s.Players()
	for i, b := range bots {
		if b == nil {
			bots[i] = &agents.Random{}
		}
		bots[i].Reset(s, i, rules.Derive(seed, uint64(i)))
	}
	moves := make([]rules.Move, n)
	for !s.Done() {
		for i := range moves {
			moves[i] = bots[i].Act(s)
		}
		if check != nil {
			check(s, moves)
		}
		s.Step(moves, nil)
	}
	out := make([]int, n)
	for i := range out {
		out[i] = s.Score(i)
	}
	return out
}

func config(t *testing.T, kv map[string]string) rules.Config {
	t.Helper()
	g, err := rules.Lookup(rectangle.Name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := g.Configure(kv)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBoxerRegistered: the bot is in the registry under its name.
func TestBoxerRegistered(t *testing.T) {
	e, err := agents.Lookup(rectangle.Name, "boxer")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.New().(*Boxer); !ok {
		t.Fatalf("boxer factory makes %T", e.New())
	}
}

// TestBoxerLegalAndApart: over games with several parameter sets, every
// boxer move is legal and a player's boxer robots never share a cell.
func TestBoxerLegalAndApart(t *testing.T) {
	for _, kv := range []map[string]string{
		nil,
		{"n": "8", "players": "2", "robots": "8", "idle_limit": "30", "max_moves": "300"},
		{"n": "12", "players": "8", "robots": "3", "idle_limit": "30", "max_moves": "300"},
		{"n": "40", "players": "3", "robots": "1", "idle_limit": "30", "max_moves": "400"},
	} {
		cfg := config(t, kv)
		for g := 0; g < 2; g++ {
			p := cfg.Int("players")
			bots := make([]agents.Agent, p)
			for i := 0; i < p; i += 2 {
				bots[i] = &Boxer{}
			}
			play(t, cfg, uint64(g), bots, func(s *rectangle.State, moves []rules.Move) {
				for i := 0; i < p; i += 2 {
					if !s.Legal(i, moves[i]) {
						t.Fatalf("%v: boxer seat %d plays illegal %+v at move %d", cfg, i, moves[i], s.MoveNum())
					}
				}
			})
			// Check robots apart after each step with a second run.
			for i := range bots {
				bots[i] = nil
				if i%2 == 0 {
					bots[i] = &Boxer{}
				}
			}
			s := rectangle.New(cfg)
			for i, b := range bots {
				if b == nil {
					bots[i] = &agents.Random{}
				}
				bots[i].Reset(s, i, rules.Derive(uint64(g), uint64(i)))
			}
			moves := make([]rules.Move, p)
			for !s.Done() {
				for i := range moves {
					moves[i] = bots[i].Act(s)
				}
				s.Step(moves, nil)
				for i := 0; i < p; i += 2 {
					seen := map[[2]int]bool{}
					for k := 0; k < s.Robots(); k++ {
						r, c := s.Robot(i, k)
						if seen[[2]int{r, c}] {
							t.Fatalf("%v: boxer seat %d has two robots on (%d,%d) after step %d", cfg, i, r, c, s.Steps())
						}
						seen[[2]int{r, c}] = true
					}
				}
			}
		}
	}
}

// TestBoxerPlans: plans are squares of side 3..6 with paintable cells that do
// not overlap, placed robots start on their plan's corner, and each step is
// one the package doc allows: toward the target (onto the plan's boundary
// when such a step exists), off the target when standing on it, and X only
// when every allowed step is blocked by the player's own robots.
func TestBoxerPlans(t *testing.T) {
	cfg := config(t, nil)
	var v rectangle.View
	checked, stays := 0, 0
	for g := 0; g < 4; g++ {
		b := &Boxer{}
		bots := []agents.Agent{nil, nil, nil, nil}
		bots[g] = b
		play(t, cfg, uint64(5+g), bots, func(s *rectangle.State, moves []rules.Move) {
			s.View(g, &v)
			n := s.N()
			var dest [rectangle.MaxRobots][2]int
			blocked := func(i, y, x int) bool {
				for j := 0; j < s.Robots(); j++ {
					if j < i && dest[j] == [2]int{y, x} {
						return true
					}
					if r, c := s.Robot(g, j); j > i && r == y && c == x {
						return true
					}
				}
				return false
			}
			for i := 0; i < s.Robots(); i++ {
				p := b.plans[i]
				if p.K != 0 && (p.K < minSide || p.K > maxSide || p.R < 0 || p.C < 0 || p.R+p.K > n || p.C+p.K > n) {
					t.Fatalf("robot %d plan %+v", i, p)
				}
				for j := 0; j < i && p.K > 0; j++ {
					if b.plans[j].K > 0 && b.plans[j].overlaps(p) {
						t.Fatalf("plans of robots %d and %d overlap: %+v %+v", j, i, b.plans[j], p)
					}
				}
				if s.Placement() {
					if m := moves[g]; p.K > 0 && int(m.Arg[i]) != p.R*n+p.C {
						t.Fatalf("robot %d placed on cell %d, not its plan's corner %+v", i, m.Arg[i], p)
					}
					continue
				}
				r, c := s.Robot(g, i)
				d := moves[g].Arg[i]
				y, x := r+dRow[d], c+dCol[d]
				dest[i] = [2]int{y, x}
				if p.K == 0 {
					continue
				}
				// The target distance: the nearest boundary cell not painted 0.
				td := -1
				p.perimeter(func(yy, xx int) bool {
					if v.Board[yy][xx] != 0 {
						if dd := abs(yy-r) + abs(xx-c); td < 0 || dd < td {
							td = dd
						}
					}
					return true
				})
				if td < 0 {
					t.Fatalf("robot %d's plan %+v is complete but unclaimed", i, p)
				}
				// ok(y, x) = the step is allowed; pref = 2 on the boundary.
				target := func(yy, xx int) (tr, tc int) {
					tr, tc = -1, -1
					p.perimeter(func(py, px int) bool {
						if v.Board[py][px] != 0 && abs(py-r)+abs(px-c) == td {
							tr, tc = py, px
							return false
						}
						return true
					})
					return
				}
				tr, tc := target(r, c)
				ok := func(yy, xx int) bool {
					if yy < 0 || yy >= n || xx < 0 || xx >= n || blocked(i, yy, xx) {
						return false
					}
					return td == 0 || abs(yy-tr)+abs(xx-tc) < td
				}
				best := 0
				for dd := rectangle.North; dd < rectangle.Stay; dd++ {
					yy, xx := r+dRow[dd], c+dCol[dd]
					if ok(yy, xx) {
						best = max(best, 1)
						if p.onBoundary(yy, xx) {
							best = 2
						}
					}
				}
				switch {
				case d == rectangle.Stay:
					if best != 0 {
						t.Fatalf("move %d robot %d at (%d,%d) stays though a step is allowed", s.MoveNum(), i, r, c)
					}
					stays++
				case !ok(y, x):
					t.Fatalf("move %d robot %d at (%d,%d) plan %+v target (%d,%d): step %c not allowed", s.MoveNum(), i, r, c, p, tr, tc, rectangle.DirLetters[d])
				case best == 2 && !p.onBoundary(y, x):
					t.Fatalf("move %d robot %d: step %c leaves the boundary though a boundary step exists", s.MoveNum(), i, rectangle.DirLetters[d])
				}
				checked++
			}
		})
	}
	if checked < 1000 {
		t.Fatalf("only %d robot steps checked", checked)
	}
	t.Logf("%d robot steps checked, %d stays", checked, stays)
}

// TestBoxerTieBreakUniform: among equally good steps the choice is uniform
// (a loose frequency check): a robot at the top-left corner of an empty
// board with target (0,1) vs a free choice.
func TestBoxerTieBreakUniform(t *testing.T) {
	b := &Boxer{rng: rules.NewRNG(3)}
	b.v.N, b.v.Robots = 8, 1
	var count [5]int
	const draws = 4000
	never := func(int, int, int) bool { return false }
	for k := 0; k < draws; k++ {
		count[b.pick(0, 3, 3, func(y, x int) int { return 1 }, never)]++
	}
	for d := 0; d < 4; d++ {
		if f := float64(count[d]) / draws; f < 0.2 || f > 0.3 {
			t.Errorf("direction %c chosen %.3f of the time, want about 0.25 (%v)", rectangle.DirLetters[d], f, count)
		}
	}
	// Placement on an empty 20×20 board: the first robot's side-6 square is
	// uniform over the 15×15 positions: each quarter of the positions gets
	// about a quarter of the draws.
	cfg := config(t, nil)
	var quarter [4]int
	for k := 0; k < 800; k++ {
		s := rectangle.New(cfg)
		b := &Boxer{}
		b.Reset(s, 0, rules.NewRNG(uint64(k)))
		b.Act(s)
		p := b.plans[0]
		if p.K != 6 {
			t.Fatalf("first plan %+v, want side 6", p)
		}
		quarter[(p.R*15+p.C)*4/225]++
	}
	for q, c := range quarter {
		if c < 140 || c > 260 {
			t.Errorf("quarter %d of the positions got %d of 800 first plans (%v)", q, c, quarter)
		}
	}
}

// TestBoxerBeatsRandom: over 12 seeded games at the defaults, 1 boxer and 3
// random bots, boxer's mean score is higher than every random seat's.
func TestBoxerBeatsRandom(t *testing.T) {
	cfg := config(t, nil)
	const games = 12
	var sum [4]float64
	for g := 0; g < games; g++ {
		seat := g % 4 // boxer plays every seat in turn
		bots := make([]agents.Agent, 4)
		bots[seat] = &Boxer{}
		scores := play(t, cfg, uint64(100+g), bots, nil)
		// Accumulate by role: slot 0 = boxer, 1..3 = the random seats in order.
		slot := 1
		for i, sc := range scores {
			if i == seat {
				sum[0] += float64(sc)
			} else {
				sum[slot] += float64(sc)
				slot++
			}
		}
	}
	for k := 1; k < 4; k++ {
		if sum[0] <= sum[k] {
			t.Fatalf("boxer mean %.1f not above random seat %d's %.1f", sum[0]/games, k, sum[k]/games)
		}
	}
	t.Logf("mean scores: boxer %.1f, random %.1f %.1f %.1f", sum[0]/games, sum[1]/games, sum[2]/games, sum[3]/games)
}

// TestBoxerActAllocs: a move allocates nothing once the bot's buffers (its
// list of free squares among them) have grown, robots re-planning included.
func TestBoxerActAllocs(t *testing.T) {
	bots := []agents.Agent{&Boxer{}, &Boxer{}, &Boxer{}, &Boxer{}}
	s := warmUp(t, bots)
	b := bots[0].(*Boxer)
	if n := testing.AllocsPerRun(20, func() {
		b.plans = [rectangle.MaxRobots]plan{} // every robot chooses again
		b.Act(s)
	}); n != 0 {
		t.Fatalf("Act allocates %.1f times a move", n)
	}
}

// warmUp resets bots for a default game and plays its first 30 moves, so
// that the bots' buffers have grown before an allocation count.
func warmUp(t *testing.T, bots []agents.Agent) *rectangle.State {
	t.Helper()
	s := rectangle.New(config(t, nil))
	for i, b := range bots {
		b.Reset(s, i, rules.Derive(5, uint64(i)))
	}
	moves := make([]rules.Move, len(bots))
	for s.MoveNum() < 30 {
		for i := range moves {
			moves[i] = bots[i].Act(s)
		}
		s.Step(moves, nil)
	}
	return s
}
