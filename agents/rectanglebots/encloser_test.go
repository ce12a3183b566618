package rectanglebots

import (
	"math"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

// TestEncloserRegistered: the bot is in the registry under its name, with
// the documented defaults.
func TestEncloserRegistered(t *testing.T) {
	e, err := agents.Lookup(rectangle.Name, "encloser")
	if err != nil {
		t.Fatal(err)
	}
	a, ok := e.New().(*Encloser)
	if !ok {
		t.Fatalf("encloser factory makes %T", e.New())
	}
	if r := rectangle.RuleOf("encloser"); a.Alpha != r.Alpha || a.Hazard != r.Hazard || a.Still != r.Still || a.Stall != r.Stall || a.Cool != r.Cool || a.MaxSide != r.MaxSide {
		t.Fatalf("encloser factory: %+v", a)
	}
}

// TestEncloserLegalAndApart: over games with several parameter sets, every
// encloser move is legal (R20) and a player's robots never share a cell
// (R10 would unpaint it).
func TestEncloserLegalAndApart(t *testing.T) {
	for _, kv := range []map[string]string{
		nil,
		{"n": "8", "players": "2", "robots": "8", "idle_limit": "30", "max_moves": "300"},
		{"n": "12", "players": "8", "robots": "3", "idle_limit": "30", "max_moves": "300"},
		{"n": "30", "players": "3", "robots": "1", "idle_limit": "30", "max_moves": "300"},
	} {
		cfg := config(t, kv)
		p := cfg.Int("players")
		bots := make([]agents.Agent, p)
		for i := range bots {
			if i%2 == 0 {
				bots[i] = NewEncloser()
			} else {
				bots[i] = &Boxer{}
			}
		}
		play(t, cfg, 7, bots, func(s *rectangle.State, moves []rules.Move) {
			for i := 0; i < p; i += 2 {
				if !s.Legal(i, moves[i]) {
					t.Fatalf("%v: encloser seat %d plays illegal %+v at move %d", kv, i, moves[i], s.MoveNum())
				}
				if s.MoveNum() == 0 {
					continue
				}
				seen := map[rectangle.Pos]bool{}
				for k := 0; k < s.Robots(); k++ {
					r, c := s.Robot(i, k)
					d := moves[i].Arg[k]
					if nr, nc := r+dRow[d], c+dCol[d]; nr >= 0 && nr < s.N() && nc >= 0 && nc < s.N() {
						r, c = nr, nc
					}
					if seen[rectangle.Pos{R: r, C: c}] {
						t.Fatalf("%v: encloser seat %d sends two robots to (%d,%d) at move %d", kv, i, r, c, s.MoveNum())
					}
					seen[rectangle.Pos{R: r, C: c}] = true
				}
			}
		})
	}
}

// TestEncloserClaimsTheOpenBoard: beside three bots that never place (R9 puts
// all their robots on (0,0), which R10 then leaves unpainted for good), the
// encloser closes one large rectangle on the open board that avoids (0,0)
// and claims at least 150 cells at once (R11, R13; the largest, 18 × 17 =
// 306, or a nearer one of fewer cells: it weighs gain against time) within
// 40 moves. Neither boxer nor planner ever claims more than 16 at once.
func TestEncloserClaimsTheOpenBoard(t *testing.T) {
	pass, err := agents.Lookup(rectangle.Name, "pass")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config(t, nil)
	for seed := uint64(1); seed <= 3; seed++ {
		s := rectangle.New(cfg)
		bots := []agents.Agent{NewEncloser(), pass.New(), pass.New(), pass.New()}
		for i, b := range bots {
			b.Reset(s, i, rules.Derive(seed, uint64(i)))
		}
		moves := make([]rules.Move, 4)
		most, at := 0, 0
		for !s.Done() && s.MoveNum() < 40 {
			for i := range moves {
				moves[i] = bots[i].Act(s)
			}
			before := s.Score(0)
			s.Step(moves, nil)
			if d := s.Score(0) - before; d > most {
				most, at = d, s.MoveNum()
			}
		}
		if most < 150 {
			t.Errorf("seed %d: largest claim in 40 moves %d cells (move %d); want ≥ 150", seed, most, at)
		}
	}
}

// TestEncloserAvoidsBlockedCells: a boundary cell holding two rival robots
// can never be painted (R10), so the encloser never picks a rectangle
// through one; a parked rival robot (Still moves in place) blocks the same.
func TestEncloserAvoidsBlockedCells(t *testing.T) {
	cfg := config(t, nil)
	for _, tc := range []struct {
		name  string
		setup func(s *rectangle.State)
		moves int // moves played before the check, to let robots count as parked
	}{
		{"two rival robots on (0,5)", func(s *rectangle.State) {
			s.SetRobot(1, 0, 0, 5)
			s.SetRobot(2, 0, 0, 5)
		}, 1},
		{"one rival robot parked on (19,7)", func(s *rectangle.State) {
			s.SetRobot(3, 0, 19, 7)
		}, rectangle.RingStill + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := rectangle.New(cfg)
			// Everyone else far inside, own robots in the corners' rows.
			for k := 0; k < 4; k++ {
				for j := 0; j < 4; j++ {
					s.SetRobot(k, j, 8+k, 6+2*j)
				}
			}
			s.SetRobot(0, 0, 1, 1)
			s.SetRobot(0, 1, 1, 18)
			s.SetRobot(0, 2, 18, 1)
			s.SetRobot(0, 3, 18, 18)
			tc.setup(s)
			a := NewEncloser()
			a.Hazard = 0 // the rivals stand still; rate by size alone
			a.Reset(s, 0, rules.Derive(1, 0))
			for m := 1; m <= tc.moves; m++ {
				s.SetClock(m, m-1)
				a.Act(s)
			}
			if a.cur.R2 < 0 {
				t.Fatal("no enclosure on an open board")
			}
			for k := 1; k < 4; k++ {
				for j := 0; j < 4; j++ {
					r, c := s.Robot(k, j)
					if (r == 0 || r == 19) && a.cur.OnBoundary(r, c) {
						t.Fatalf("enclosure %+v runs through (%d,%d), held by a blocking rival robot", a.cur, r, c)
					}
				}
			}
			if g, _ := a.ring.Valid(a.cur); g < 250 {
				t.Fatalf("enclosure %+v gains %d; the open board offers about 300", a.cur, g)
			}
		})
	}
}

// TestEncloserDeterministic: one seed, one game: the same scores and the
// same number of steps twice.
func TestEncloserDeterministic(t *testing.T) {
	cfg := config(t, nil)
	run := func() ([]int, int) {
		steps := 0
		bots := []agents.Agent{NewEncloser(), &Boxer{}, NewEncloser(), &Planner{}}
		scores := play(t, cfg, 11, bots, func(*rectangle.State, []rules.Move) { steps++ })
		return scores, steps
	}
	a, na := run()
	b, nb := run()
	if na != nb || a[0] != b[0] || a[1] != b[1] || a[2] != b[2] || a[3] != b[3] {
		t.Fatalf("same seed, two games: %v in %d steps, %v in %d", a, na, b, nb)
	}
}

// TestEncloserBeatsPlannerAmongBoxers: in 12 seeded games against three
// boxers, the encloser claims more cells on average than planner does in the
// same seats and seeds (measured over 200 games: about 120 against 70).
func TestEncloserBeatsPlannerAmongBoxers(t *testing.T) {
	cfg := config(t, nil)
	const games = 12
	boxers := func() []agents.Agent { return []agents.Agent{&Boxer{}, &Boxer{}, &Boxer{}, &Boxer{}} }
	enc, pl := inSeat(t, cfg, 300, games, boxers, func() agents.Agent { return NewEncloser() }, func() agents.Agent { return &Planner{} })
	if enc <= pl*1.2 {
		t.Fatalf("encloser %.1f cells a game, planner %.1f, against three boxers", enc/games, pl/games)
	}
	t.Logf("against three boxers: encloser %.1f cells a game, planner %.1f", enc/games, pl/games)
}

// TestEncloserActAllocs: a move allocates nothing once the bot's buffers
// have grown.
func TestEncloserActAllocs(t *testing.T) {
	bots := []agents.Agent{NewEncloser(), &Boxer{}, &Boxer{}, &Boxer{}}
	s := warmUp(t, bots)
	if n := testing.AllocsPerRun(20, func() { bots[0].Act(s) }); n != 0 {
		t.Fatalf("Act allocates %.1f times a move", n)
	}
}

// TestEncloserOnce: encloser_once is the encloser with Once set. On a 30×30
// board beside three bots that never place (as in
// TestEncloserClaimsTheOpenBoard), in the games where its one decision (its
// first move after the placement) is an enclosure, it plays the full
// encloser's moves, move for move, while it keeps that enclosure (the same
// one as the full encloser's), and claims it in some game (R11, R13). Once it
// has dropped or claimed it, it never takes another (boxer's squares from
// then on), where the full encloser does (MaxSide caps the first at 20 on
// this board); a Reset lets it decide once more. Two seeds: about 560 moves
// checked, one enclosure claimed first and three later ones of the full
// encloser (six seeds had 4 and 7, at three times the cost; issue 52).
func TestEncloserOnce(t *testing.T) {
	e, err := agents.Lookup(rectangle.Name, "encloser_once")
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := e.New().(*Encloser); !ok || !a.Once || a.Alpha != rectangle.RingAlpha || a.MaxSide != rectangle.RingMaxSide {
		t.Fatalf("encloser_once factory makes %+v", e.New())
	}
	pass, err := agents.Lookup(rectangle.Name, "pass")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config(t, map[string]string{"n": "30"})
	claims, fullAgain := 0, 0
	for seed := uint64(1); seed <= 2; seed++ {
		full, once := rectangle.New(cfg), rectangle.New(cfg)
		fb := []agents.Agent{NewEncloser(), pass.New(), pass.New(), pass.New()}
		ob := []agents.Agent{e.New(), pass.New(), pass.New(), pass.New()}
		for i := range fb {
			fb[i].Reset(full, i, rules.Derive(seed, uint64(i)))
			ob[i].Reset(once, i, rules.Derive(seed, uint64(i)))
		}
		f, a := fb[0].(*Encloser), ob[0].(*Encloser)
		fm, om := make([]rules.Move, 4), make([]rules.Move, 4)
		enclosing, fullFree := true, false
		for !once.Done() && once.MoveNum() < 300 {
			for i := range fm {
				fm[i], om[i] = fb[i].Act(full), ob[i].Act(once)
			}
			if once.MoveNum() == 1 && a.cur.R2 < 0 {
				break // its one decision was planner's squares: not this test's case
			}
			switch {
			case once.MoveNum() == 0: // the placement
			case enclosing && a.cur.R2 >= 0:
				if fm[0] != om[0] || f.cur != a.cur {
					t.Fatalf("seed %d, move %d: once plays %v for %+v, the full encloser %v for %+v", seed, once.MoveNum(), om[0], a.cur, fm[0], f.cur)
				}
			case a.cur.R2 >= 0:
				t.Fatalf("seed %d, move %d: once takes a second enclosure %+v", seed, once.MoveNum(), a.cur)
			default:
				enclosing = false
			}
			if fullFree = fullFree || once.MoveNum() > 0 && f.cur.R2 < 0; fullFree && f.cur.R2 >= 0 {
				fullAgain++
				fullFree = false
			}
			before := once.Score(0)
			full.Step(fm, nil)
			once.Step(om, nil)
			if enclosing && once.Score(0)-before > 16 { // more than a side-6 square holds
				claims++
			}
		}
		a.Reset(once, 0, rules.Derive(seed, 0))
		if a.decided {
			t.Fatal("Reset leaves the decision made")
		}
	}
	if claims == 0 || fullAgain == 0 {
		t.Fatalf("%d enclosures claimed first, %d later enclosures of the full encloser: the test shows nothing", claims, fullAgain)
	}
	t.Logf("%d enclosures claimed first; the full encloser took %d more", claims, fullAgain)
}

// TestEncloserBestMatchesScan: Rings.Best(floor), which rules rectangles out by
// upper bounds on their rate (below floor, or no better than the best so
// far), answers as a scan that rates every rectangle: the rectangle of the
// highest rate, the first in scan order among equals, when that rate is at
// least floor, and none otherwise. Checked at every third move of a game of
// an encloser among boxers (n = 20) and one among bots that never move (n =
// 30), for floors 0, the squares' (as Act uses it), the highest rate and just
// above it.
func TestEncloserBestMatchesScan(t *testing.T) {
	pass, err := agents.Lookup(rectangle.Name, "pass")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		n      string
		rivals func() agents.Agent
	}{
		{"boxers", "20", func() agents.Agent { return &Boxer{} }},
		// Rivals that never move add no hazard: the rates come close to
		// the bounds.
		{"pass", "30", pass.New},
	} {
		e := NewEncloser()
		bots := []agents.Agent{e, tc.rivals(), tc.rivals(), tc.rivals()}
		checked, some := 0, 0
		play(t, config(t, map[string]string{"n": tc.n}), 4, bots, func(s *rectangle.State, _ []rules.Move) {
			if s.MoveNum() == 0 || s.MoveNum()%3 != 0 {
				return
			}
			// e's Act at this move (play calls it before check) built the
			// view and counts that best reads.
			want, rate := e.scanAll()
			for _, floor := range []float64{0, e.Alpha * e.ring.SquaresRate(&e.box.v, e.plans[:e.box.v.Robots]), rate, math.Nextafter(rate, 2*rate+1)} {
				got, gotRate := e.ring.Best(&e.box.v, &e.moving, e.Hazard, e.MaxSide, floor)
				if rate < floor {
					if got.R2 >= 0 {
						t.Fatalf("%s, move %d, floor %v: best %+v (%v), want none (the highest rate is %v)", tc.name, s.MoveNum(), floor, got, gotRate, rate)
					}
					continue
				}
				if got != want || gotRate != rate {
					t.Fatalf("%s, move %d, floor %v: best %+v (%v), the scan %+v (%v)", tc.name, s.MoveNum(), floor, got, gotRate, want, rate)
				}
				checked++
			}
			if want.R2 >= 0 {
				some++
			}
		})
		if checked < 100 || some == 0 {
			t.Fatalf("%s: %d answers checked, %d positions with a rectangle: want more", tc.name, checked, some)
		}
		t.Logf("%s: %d answers checked, %d positions with a rectangle", tc.name, checked, some)
	}
}

// scanAll is Rings.Best without its bounds: every rectangle rated.
func (a *Encloser) scanAll() (rectangle.Rect, float64) {
	v := &a.box.v
	n, b := v.N, v.Robots
	best, bq := -1.0, rectangle.Rect{R2: -1}
	per := make([]rectangle.Pos, 0, 4*n) // one boundary buffer: a new one per rectangle was most of the test's time
	for r1 := 0; r1 < n; r1++ {
		for r2 := r1 + 2; r2 < min(n, r1+a.MaxSide); r2++ {
			for c1 := 0; c1 < n; c1++ {
				for c2 := c1 + 2; c2 < min(n, c1+a.MaxSide); c2++ {
					q := rectangle.Rect{R1: r1, C1: c1, R2: r2, C2: c2}
					g, ok := a.ring.Valid(q)
					if !ok {
						continue
					}
					painted := 0 // boundary cells painted 0
					per = q.Perimeter(per[:0])
					for _, p := range per {
						if v.Board[p.R][p.C] == 0 {
							painted++
						}
					}
					far := 0
					for i := 0; i < b; i++ {
						far = max(far, q.Dist(v.Pos[0][i].R, v.Pos[0][i].C))
					}
					t := far + (q.Length()-painted+b-1)/b
					h := 0.0
					for k := 1; k < v.Players; k++ {
						for j := 0; j < b; j++ {
							if a.still[k][j] < a.Still {
								h += float64(t) / float64(1+q.Dist(v.Pos[k][j].R, v.Pos[k][j].C))
							}
						}
					}
					t += int(a.Hazard * h)
					if rate := float64(g) / float64(t+1); rate > best {
						best, bq = rate, q
					}
				}
			}
		}
	}
	return bq, best
}

// TestMasonOpens: the mason places its robots round a side-8 square in a
// corner (rectangle.OpeningCells) and keeps that square as its enclosure
// from move 1; in every corner over a few seeds. Against the encloser and
// two boxers it claims more than the encloser in the same seat (12 games
// each): the opening and the quicker rings pay.
func TestMasonOpens(t *testing.T) {
	cfg := config(t, nil)
	corners := map[rectangle.Pos]bool{}
	for g := uint64(0); g < 16; g++ {
		st := cfg.Game().New(cfg).(*rectangle.State)
		a := NewMason()
		a.Reset(st, 1, rules.NewRNG(g))
		moves := make([]rules.Move, 4)
		moves[1] = a.Act(st)
		q, ok := a.Ring()
		if !ok || q.R2-q.R1 != MasonOpening-1 || q.C2-q.C1 != MasonOpening-1 || (q.R1 != 0 && q.R2 != 19) || (q.C1 != 0 && q.C2 != 19) {
			t.Fatalf("seed %d: enclosure %+v (%v), want a side-%d square in a corner", g, q, ok, MasonOpening)
		}
		corners[rectangle.Pos{R: q.R1, C: q.C1}] = true
		st.Step(moves, nil)
		var v rectangle.View
		st.View(1, &v)
		for i, p := range v.Pos[0][:4] {
			if !q.OnBoundary(p.R, p.C) || v.Board[p.R][p.C] != 0 {
				t.Fatalf("seed %d: robot %d at %+v, not on its painted square %+v", g, i, p, q)
			}
		}
	}
	if len(corners) != 4 {
		t.Fatalf("%d corners over 16 seeds", len(corners))
	}
	const games = 12
	others := func() []agents.Agent { return []agents.Agent{NewEncloser(), &Boxer{}, NewEncloser(), &Boxer{}} }
	mason, enc := inSeat(t, cfg, 500, games, others, func() agents.Agent { return NewMason() }, func() agents.Agent { return NewEncloser() })
	if mason <= enc*1.1 {
		t.Fatalf("mason %.1f cells a game, encloser %.1f, in the same seat", mason/games, enc/games)
	}
	t.Logf("mason %.1f cells a game, encloser %.1f, in the same seat", mason/games, enc/games)
}

// inSeat plays games games of cfg (seeds base, base+1, …), each twice: with
// a in seat g mod 4 among others(), then with b there instead, and returns
// the two bots' total scores in that seat.
func inSeat(t *testing.T, cfg rules.Config, base uint64, games int, others func() []agents.Agent, a, b func() agents.Agent) (sa, sb float64) {
	t.Helper()
	for g := 0; g < games; g++ {
		seat := g % 4
		for k, mk := range []func() agents.Agent{a, b} {
			bots := others()
			bots[seat] = mk()
			sc := float64(play(t, cfg, base+uint64(g), bots, nil)[seat])
			if k == 0 {
				sa += sc
			} else {
				sb += sc
			}
		}
	}
	return sa, sb
}
