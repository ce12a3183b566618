package rectangle

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// encShape is a game shape (R1) for the encoder tests: odd sides exercise
// rows that do not end on a byte and mask words straddled by a head, n = 64
// full-word rows, n = 63 row bits carried past a word, b = 8 the widest
// multi-discrete space.
type encShape struct{ n, p, b int }

var encShapes = []encShape{
	{20, 4, 4}, {8, 2, 1}, {9, 3, 3}, {13, 5, 2}, {11, 8, 5}, {10, 2, 8}, {64, 3, 2}, {17, 4, 6}, {63, 2, 3},
}

func encFor(s *State) *Encoder { return newEncoder(s.n, s.p, s.b, false) }

// positions plays games of shape c, half of them with rules.RandomMover and
// half with loopers (many claims), and calls f on the start position, the
// first moves, every 7th position and the final one (Done).
func positions(c encShape, seed uint64, games int, f func(s *State)) {
	for g := 0; g < games; g++ {
		rng := rules.NewRNG(seed + uint64(g))
		s := NewSized(c.n, c.p, c.b, 30, 150)
		l := &looper{noise: 10}
		moves := make([]rules.Move, c.p)
		for {
			if t := s.Steps(); t < 3 || t%7 == 0 || s.Done() {
				f(s)
			}
			if s.Done() {
				break
			}
			if g%2 == 0 {
				rules.RandomMover(s, rng, moves)
			} else {
				l.moves(s, rng, moves)
			}
			s.Step(moves, nil)
		}
	}
}

func bit(mask []uint64, b int) bool { return mask[b>>6]>>uint(b&63)&1 != 0 }

// headBits lists the set bits of head h as actions.
func headBits(sp rules.Space, mask []uint64, h int) []int32 {
	var out []int32
	for a := 0; a < sp.Actions; a++ {
		if bit(mask, h*sp.Actions+a) {
			out = append(out, int32(a))
		}
	}
	return out
}

// randomActions draws one set bit per head (heads with none get 0).
func randomActions(sp rules.Space, mask []uint64, rng *rules.RNG, dst []int32) {
	for h := 0; h < sp.Heads; h++ {
		set := headBits(sp, mask, h)
		dst[h] = 0
		if len(set) > 0 {
			dst[h] = set[rng.U(len(set))]
		}
	}
}

// TestSpaceLayout pins the sizes of the documented layout and the registration.
func TestSpaceLayout(t *testing.T) {
	g, err := rules.Lookup(Name)
	if err != nil || g.Encoder == nil {
		t.Fatalf("rectangle registers no encoder (%v)", err)
	}
	sp := g.Encoder(g.Default()).Space()
	if sp.Planes != 26 || sp.Height != 20 || sp.Width != 20 || sp.Scalars != 6 || sp.Heads != 4 || sp.Actions != 405 ||
		len(sp.PlaneNames) != sp.Planes || len(sp.ScalarNames) != sp.Scalars || sp.ScoreScale != 81 || sp.ActionDoc == "" {
		t.Fatalf("default space %+v", sp)
	}
	want := []string{"unpaintable", "unpainted", "paint_0", "paint_1", "paint_2", "paint_3",
		"own_robot_0", "own_robot_1", "own_robot_2", "own_robot_3", "robots_1", "robots_2", "robots_3",
		"plan_0", "plan_1", "plan_2", "plan_3", "step_0", "step_1", "step_2", "step_3",
		"go_N", "go_E", "go_S", "go_W", "go_X"}
	if fmt.Sprint(sp.PlaneNames) != fmt.Sprint(want) {
		t.Fatalf("planes %v, want %v", sp.PlaneNames, want)
	}
	if fmt.Sprint(sp.ScalarNames) != "[placement move_num score_0 score_1 score_2 score_3]" {
		t.Fatalf("scalars %v", sp.ScalarNames)
	}
	for _, c := range encShapes {
		sp := newEncoder(c.n, c.p, c.b, false).Space()
		if sp.Planes != 2*c.p+3*c.b+6 || sp.Scalars != 2+c.p || sp.Heads != c.b || sp.Actions != c.n*c.n+5 {
			t.Fatalf("%+v: space %+v", c, sp)
		}
	}
}

// TestMaskIsLegalMoves: on random positions (start, mid-game, end; every
// seat) the mask is exactly the legal actions. Every set bit, with set bits
// of the other heads, decodes to a move Legal accepts; every unset bit decodes
// to one it rejects; per head, the set bits are the distinct actions of the
// moves of LegalMoves (all of which Encode accepts), and RandomMove's draws
// (all placements, not LegalMoves' partial list) are set. Seats of a finished
// game are not Active and get an empty mask.
func TestMaskIsLegalMoves(t *testing.T) {
	checked, done := 0, 0
	for ci, c := range encShapes {
		rng := rules.NewRNG(uint64(ci))
		var e *Encoder
		var sp rules.Space
		var mask []uint64
		var acts, enc []int32
		var legal []rules.Move
		positions(c, uint64(100*ci), 2, func(s *State) {
			if e == nil {
				e = encFor(s)
				sp = e.Space()
				mask = make([]uint64, sp.MaskWords())
				acts, enc = make([]int32, sp.Heads), make([]int32, sp.Heads)
			}
			for seat := 0; seat < c.p; seat++ {
				for i := range mask {
					mask[i] = 0xdeadbeef
				}
				e.Mask(s, seat, mask)
				if last := sp.MaskBits() & 63; last != 0 && mask[len(mask)-1]>>uint(last) != 0 {
					t.Fatalf("%+v: bits beyond MaskBits set", c)
				}
				if !s.Active(seat) {
					done++
					for _, w := range mask {
						if w != 0 {
							t.Fatalf("%+v seat %d: finished game, mask not empty", c, seat)
						}
					}
					if len(s.LegalMoves(seat, nil)) != 0 {
						t.Fatalf("finished game lists legal moves")
					}
					continue
				}
				checked++
				// Every bit: set ⇔ its decoded move is legal.
				for h := 0; h < sp.Heads; h++ {
					randomActions(sp, mask, rng, acts)
					for a := 0; a < sp.Actions; a++ {
						acts[h] = int32(a)
						m := e.Decode(s, seat, acts)
						if got := s.Legal(seat, m); got != bit(mask, h*sp.Actions+a) {
							t.Fatalf("%+v step %d seat %d head %d action %d: mask %v, decoded %+v legal %v",
								c, s.Steps(), seat, h, a, !got, m, got)
						}
					}
				}
				// Per head: the set bits are the distinct actions of LegalMoves.
				if c.b > 6 && !s.Placement() {
					continue // 5⁸ moves: the bit-by-bit check above covers it
				}
				legal = s.LegalMoves(seat, legal[:0])
				seen := make([]map[int32]bool, sp.Heads)
				for h := range seen {
					seen[h] = map[int32]bool{}
				}
				for _, m := range legal {
					if !e.Encode(s, seat, m, enc) {
						t.Fatalf("%+v: Encode rejects the legal move %+v", c, m)
					}
					for h, a := range enc {
						if !bit(mask, h*sp.Actions+int(a)) {
							t.Fatalf("%+v: legal move %+v has head %d action %d unset", c, m, h, a)
						}
						seen[h][a] = true
					}
				}
				for h := 0; h < sp.Heads; h++ {
					if n := len(headBits(sp, mask, h)); n != len(seen[h]) {
						t.Fatalf("%+v step %d: head %d has %d bits, LegalMoves %d distinct actions", c, s.Steps(), h, n, len(seen[h]))
					}
				}
				for k := 0; k < 5; k++ {
					m := s.RandomMove(seat, rng)
					if !e.Encode(s, seat, m, enc) {
						t.Fatalf("Encode rejects RandomMove's %+v", m)
					}
					for h, a := range enc {
						if !bit(mask, h*sp.Actions+int(a)) {
							t.Fatalf("RandomMove's %+v: head %d action %d unset", m, h, a)
						}
					}
				}
			}
		})
	}
	t.Logf("%d active seats, %d finished seats", checked, done)
	if checked < 500 || done == 0 {
		t.Fatalf("only %d active and %d finished seats checked", checked, done)
	}
}

// answerFor renders decoded actions as the bot's answer in the seat's view
// (R20): a list of (r, c) tuples at the placement, a string of direction
// letters at a move. The view has no rotation (R19): view cells are the
// action's cells.
func answerFor(e *Encoder, s *State, acts []int32) ([]byte, rules.Move) {
	if s.Placement() {
		pos := make([]Pos, e.b)
		items := make([]pyval.Value, e.b)
		for i := range pos {
			pos[i] = Pos{int(acts[i]) / e.n, int(acts[i]) % e.n}
			items[i] = pyval.T(pyval.I(int64(pos[i].R)), pyval.I(int64(pos[i].C)))
		}
		return pyval.L(items...).JSON(), PlaceMove(e.n, pos)
	}
	letters := make([]byte, e.b)
	dirs := make([]Dir, e.b)
	for i := range letters {
		dirs[i] = Dir(int(acts[i]) - e.nn)
		letters[i] = DirLetters[dirs[i]]
	}
	return pyval.S(string(letters)).JSON(), DirsMove(dirs)
}

// TestDecodeIsCompetitionMove: legal actions decode to the move the
// competition makes of the same answer written in the seat's view (through
// Codec.ParseAnswer, and the codec's PlaceMove/DirsMove), and Encode undoes
// Decode for every set bit.
func TestDecodeIsCompetitionMove(t *testing.T) {
	n := 0
	for ci, c := range encShapes {
		rng := rules.NewRNG(uint64(50 + ci))
		positions(c, uint64(300*ci), 2, func(s *State) {
			e := encFor(s)
			sp := e.Space()
			mask := make([]uint64, sp.MaskWords())
			acts, back := make([]int32, sp.Heads), make([]int32, sp.Heads)
			for seat := 0; seat < c.p; seat++ {
				if !s.Active(seat) {
					continue
				}
				e.Mask(s, seat, mask)
				for h := 0; h < sp.Heads; h++ {
					set := headBits(sp, mask, h)
					for x := 0; x < 6; x++ {
						randomActions(sp, mask, rng, acts)
						acts[h] = set[rng.U(len(set))]
						if x < len(set) && len(set) <= 5 {
							acts[h] = set[x] // every direction
						}
						m := e.Decode(s, seat, acts)
						ans, view := answerFor(e, s, acts)
						if got := (Codec{}).ParseAnswer(s, seat, ans); got != m || view != m || !s.Legal(seat, m) {
							t.Fatalf("%+v seat %d actions %v: Decode %+v, answer %s parses to %+v, view move %+v", c, seat, acts, m, ans, got, view)
						}
						if !e.Encode(s, seat, m, back) || fmt.Sprint(back) != fmt.Sprint(acts) {
							t.Fatalf("%+v: Encode(Decode(%v)) = %v", c, acts, back)
						}
						n++
					}
				}
			}
		})
	}
	// Moves outside the space (and of the wrong phase) have no actions.
	s := NewSized(9, 2, 2, 30, 150)
	e := encFor(s)
	acts := make([]int32, 2)
	for _, m := range []rules.Move{{}, DirsMove([]Dir{North, South}), PlaceMove(9, []Pos{{1, 1}}), PlaceMove(9, []Pos{{1, 1}, {9, 0}})} {
		if e.Encode(s, 0, m, acts) {
			t.Errorf("placement: Encode accepts %+v", m)
		}
	}
	s.Step([]rules.Move{PlaceMove(9, []Pos{{1, 1}, {2, 2}}), {}}, nil)
	for _, m := range []rules.Move{{}, PlaceMove(9, []Pos{{1, 1}, {2, 2}}), DirsMove([]Dir{North}), DirsMove([]Dir{North, 5})} {
		if e.Encode(s, 0, m, acts) {
			t.Errorf("move: Encode accepts %+v", m)
		}
	}
	t.Logf("%d decodes", n)
	if n < 1000 {
		t.Fatalf("only %d decodes checked", n)
	}
}

// TestObserveIsView: the planes agree cell by cell with the codec's View of
// the seat (R19's relabelling, no rotation), and the scalars with the state's
// accessors.
func TestObserveIsView(t *testing.T) {
	checked := 0
	for ci, c := range encShapes {
		positions(c, uint64(500*ci), 2, func(s *State) {
			e := encFor(s)
			sp := e.Space()
			planes := make([]uint8, sp.ObsSize())
			scalars := make([]float32, sp.Scalars)
			var v View
			n, nn := c.n, c.n*c.n
			for seat := 0; seat < c.p; seat++ {
				e.Observe(s, seat, planes, scalars)
				s.View(seat, &v)
				var plans [MaxRobots]Plan
				Plans(&v, plans[:c.b])
				at := func(plane, r, col int) int { return int(planes[plane*nn+r*n+col]) }
				var robots [maxSeats][MaxN][MaxN]int // robots[k][r][c]: player k's robots there
				var own [MaxRobots][MaxN][MaxN]int
				if v.MoveNum > 0 {
					for k := 0; k < c.p; k++ {
						for i := 0; i < c.b; i++ {
							robots[k][v.Pos[k][i].R][v.Pos[k][i].C]++
							if k == 0 {
								own[i][v.Pos[0][i].R][v.Pos[0][i].C] = 1
							}
						}
					}
				}
				for r := 0; r < n; r++ {
					for col := 0; col < n; col++ {
						cell := int(v.Board[r][col])
						want := func(plane int, x bool) {
							if w := b2i(x); at(plane, r, col) != w {
								t.Fatalf("%+v step %d seat %d: plane %s at (%d,%d) = %d, want %d (view cell %d)",
									c, s.Steps(), seat, sp.PlaneNames[plane], r, col, at(plane, r, col), w, cell)
							}
						}
						want(0, cell == Unpaintable)
						want(1, cell == Unpainted)
						for k := 0; k < c.p; k++ {
							want(2+k, cell == k)
						}
						for i := 0; i < c.b; i++ {
							want(2+c.p+i, own[i][r][col] == 1)
						}
						for i := 0; i < c.b; i++ {
							p := plans[i]
							w := b2i(p.K > 0 && p.OnBoundary(r, col))
							if p.TR == r && p.TC == col {
								w = 2
							}
							if got := at(2*c.p+c.b+1+i, r, col); got != w {
								t.Fatalf("%+v seat %d: plan_%d at (%d,%d) = %d, want %d (plan %+v)", c, seat, i, r, col, got, w, p)
							}
							to := [2]int{p.R, p.C}
							if v.MoveNum > 0 {
								to = [2]int{v.Pos[0][i].R + dRow[p.Step], v.Pos[0][i].C + dCol[p.Step]}
							}
							if got := at(2*c.p+2*c.b+1+i, r, col); got != b2i(p.K > 0 && to == [2]int{r, col}) {
								t.Fatalf("%+v seat %d: step_%d at (%d,%d) = %d (plan %+v)", c, seat, i, r, col, got, p)
							}
						}
						for d := 0; d < 5; d++ {
							want := 0
							for i := 0; i < c.b && v.MoveNum > 0; i++ {
								if plans[i].Step == Dir(d) && v.Pos[0][i] == (Pos{r, col}) {
									want++
								}
							}
							if got := at(2*c.p+3*c.b+1+d, r, col); got != want {
								t.Fatalf("%+v seat %d: go_%c at (%d,%d) = %d, want %d", c, seat, DirLetters[d], r, col, got, want)
							}
						}
						for k := 1; k < c.p; k++ {
							if got := at(1+c.p+c.b+k, r, col); got != robots[k][r][col] {
								t.Fatalf("%+v seat %d: robots_%d at (%d,%d) = %d, want %d", c, seat, k, r, col, got, robots[k][r][col])
							}
						}
					}
				}
				want := []float32{float32(b2i(s.Placement())), float32(s.MoveNum()) / float32(s.MaxMoves())}
				for k := 0; k < c.p; k++ {
					want = append(want, float32(v.Scores[k])/float32(nn))
				}
				if fmt.Sprint(scalars) != fmt.Sprint(want) {
					t.Fatalf("%+v seat %d: scalars %v, want %v", c, seat, scalars, want)
				}
				if got := e.Potential(s, seat); got != float64(s.Score(seat))/float64(nn) {
					t.Fatalf("potential %v", got)
				}
				checked++
			}
		})
	}
	t.Logf("%d observations", checked)
	if checked < 300 {
		t.Fatalf("only %d observations checked", checked)
	}
}

func b2i(x bool) int {
	if x {
		return 1
	}
	return 0
}

// TestEncoderConformance: rulestest's encoder properties that hold for a
// multi-head space, on every shape: Observe and Mask write every byte,
// scalar and word whatever the buffers held, no mask bit past MaskBits is
// set, Observe, Mask, Decode, Encode and Potential allocate nothing, at
// the placement, at moves and at the end, and TransformObs and
// TransformAction are undone by g⁻¹, on every shape and along played games;
// on the played games (sides up to 20), the observation and the masks of
// each position's image under each element of D4 are the transformed ones
// (the per-head mask is TestMaskIsLegalMoves'). The positions are spaced
// for cost (issue 52: 5.8 s at load 6, now about a third): on the 63- and
// 64-cell sides every 28th move, not every 7th (a position there costs 10–40
// of a 20×20 one); one played game per shape, not 12 games (the first three
// shapes twice), sampled at every 12th step, not every 4th; the ring games
// at every 20th step, not every 10th.
func TestEncoderConformance(t *testing.T) {
	var cases []rulestest.EncoderCase
	for ci, c := range encShapes {
		ec := rulestest.EncoderCase{Name: fmt.Sprintf("%+v", c)}
		positions(c, uint64(700*ci), 1, func(s *State) {
			if ec.Encoder == nil {
				ec.Encoder = encFor(s)
			}
			if c.n > 20 && s.Steps() >= 3 && s.Steps()%28 != 0 && !s.Done() {
				return
			}
			ec.States = append(ec.States, s.Clone())
		})
		cases = append(cases, ec)
	}
	// Games played as TestSymmetryD4 plays them.
	for gi := 0; gi < len(encShapes); gi++ {
		rng := rules.NewRNG(uint64(900 + gi))
		c := encShapes[gi]
		if c.n > 20 {
			c.n = 12
		}
		s := NewSized(c.n, c.p, c.b, 40, 160)
		ec := rulestest.EncoderCase{Name: fmt.Sprintf("%+v played", c), Encoder: encFor(s), Images: images}
		l := &looper{noise: 12}
		moves := make([]rules.Move, c.p)
		for !s.Done() {
			if s.Steps()%12 == 0 { // all 8 elements on every 12th step
				ec.States = append(ec.States, s.Clone())
			}
			l.moves(s, rng, moves)
			s.Step(moves, nil)
		}
		cases = append(cases, ec)
	}
	// The default game's placement and first moves.
	s := NewSized(20, 4, 4, 100, 2000)
	ec := rulestest.EncoderCase{Name: "default", Encoder: NewEncoder(cfgOf(t, nil))}
	rng := rules.NewRNG(3)
	moves := make([]rules.Move, 4)
	for step := 0; step < 3; step++ {
		ec.States = append(ec.States, s.Clone())
		rules.RandomMover(s, rng, moves)
		s.Step(moves, nil)
	}
	cases = append(cases, ec)
	// The ring planes (rings=true) along a default-size game, where the
	// open board offers rings.
	s = NewSized(20, 4, 4, 100, 2000)
	ec = rulestest.EncoderCase{Name: "default rings", Encoder: NewEncoder(cfgOf(t, map[string]string{"rings": "true"}))}
	l := &looper{noise: 12}
	for !s.Done() && s.Steps() < 200 {
		if s.Steps()%20 == 0 {
			ec.States = append(ec.States, s.Clone())
		}
		l.moves(s, rng, moves)
		s.Step(moves, nil)
	}
	cases = append(cases, ec)
	// The same with the ring memory (ring_memory=true, RingKept), which the
	// state carries: its clones keep it.
	cfgM := cfgOf(t, map[string]string{"rings": "true", "ring_memory": "true"})
	s = New(cfgM)
	ec = rulestest.EncoderCase{Name: "default ring memory", Encoder: NewEncoder(cfgM)}
	for !s.Done() && s.Steps() < 200 {
		if s.Steps()%20 == 0 {
			ec.States = append(ec.States, s.Clone())
		}
		l.moves(s, rng, moves)
		s.Step(moves, nil)
	}
	rulestest.EncoderConformance(t, append(cases, ec)...)
}

// images gives the real image of a position under g (symStateD4: no seat
// relabelled), whose plan and step planes are equivariant only up to Plans'
// tie-breaks (package doc), the planes before them exactly.
func images(g rules.D4, st rules.State) []rulestest.Image {
	s := st.(*State)
	seats := make([]int, s.p)
	for i := range seats {
		seats[i] = i
	}
	return []rulestest.Image{{State: symStateD4(g, s), Seat: seats, Planes: (2*s.p + s.b + 1) * s.n * s.n}}
}

// symStateD4 returns g applied to s as a real position: every cell and robot
// moved by g (rules.D4's convention), players, robots, scores and the clock
// kept (the game has no seat positions, so g relabels nobody). Before the
// placement no robot is on the board, and the position is the start.
func symStateD4(g rules.D4, s *State) *State {
	t := NewSized(s.n, s.p, s.b, s.idleK, s.maxMoves)
	if s.steps == 0 {
		return t
	}
	for r := 0; r < s.n; r++ {
		for c := 0; c < s.n; c++ {
			tr, tc := g.Point(s.n, r, c)
			t.SetCell(tr, tc, s.Cell(r, c))
		}
	}
	for i := 0; i < s.p; i++ {
		t.SetScore(i, s.Score(i))
		for k := 0; k < s.b; k++ {
			r, c := s.Robot(i, k)
			tr, tc := g.Point(s.n, r, c)
			t.SetRobot(i, k, tr, tc)
		}
	}
	t.SetClock(s.Steps(), s.Idle())
	return t
}

// equalGains reports whether the last Step met two candidates of equal gain,
// where R12's tie-break may break the symmetry (I7's exception).
func equalGains(s *State) bool {
	keys := s.sc.cand[:s.sc.candN]
	seen := map[uint64]bool{}
	for _, k := range keys {
		if seen[k>>40] {
			return true
		}
		seen[k>>40] = true
	}
	return false
}

// TestSymmetryD4: for every g, TransformAction keeps each action's phase
// and X, and stepping G(s) with the transformed actions gives G of the
// stepped position (compared by rules.Hash), except in steps with
// equal-gain candidates (I7). (That TransformObs and TransformAction are
// undone by g⁻¹, TransformAction is a bijection of each head's actions, and
// G(s) has the transformed observations and masks is
// TestEncoderConformance's.)
// Rectangle has no random events (R6: Step never draws), so no RNG is needed.
func TestSymmetryD4(t *testing.T) {
	// Group properties of the action map, on shapes with odd and even sides.
	for _, c := range encShapes {
		e := newEncoder(c.n, c.p, c.b, false)
		sp := e.Space()
		if len(e.Symmetries()) != 8 {
			t.Fatalf("%d symmetries", len(e.Symmetries()))
		}
		for _, g := range e.Symmetries() {
			// (A bijection inverted by g⁻¹: TestEncoderConformance.)
			for a := int32(0); a < int32(sp.Actions); a++ {
				if b := e.TransformAction(g, 0, a); (a < int32(e.nn)) != (b < int32(e.nn)) {
					t.Fatalf("g=%d maps action %d across the phases to %d", g, a, b)
				}
			}
			if x := e.TransformAction(g, 0, int32(e.nn)+int32(Stay)); x != int32(e.nn)+int32(Stay) {
				t.Fatalf("g=%d moves X to %d", g, x)
			}
		}
	}
	// Directions: rot90 (g = 1, counter-clockwise) turns N into W.
	if e := newEncoder(8, 2, 1, false); e.TransformAction(1, 0, 64+int32(North)) != 64+int32(West) || e.TransformAction(4, 0, 64+int32(East)) != 64+int32(South) {
		t.Fatalf("direction map: rot90(N) = %d, transpose(E) = %d", e.TransformAction(1, 0, 64), e.TransformAction(4, 0, 65))
	}

	compared, withClaims, skipped := 0, 0, 0
	var buf []uint64
	for gi := 0; gi < 12; gi++ {
		rng := rules.NewRNG(uint64(900 + gi))
		c := encShapes[gi%len(encShapes)]
		if c.n > 20 {
			c.n = 12
		}
		s := NewSized(c.n, c.p, c.b, 40, 160)
		e := encFor(s)
		sp := e.Space()
		l := &looper{noise: 12}
		moves := make([]rules.Move, c.p)
		gmoves := make([]rules.Move, c.p)
		acts, gacts := make([]int32, sp.Heads), make([]int32, sp.Heads)
		for !s.Done() {
			g := rules.D4(rng.U(8))
			gs := symStateD4(g, s)
			// The loopers' moves, as actions. Their garbage moves (only at
			// moves) have none: they become cell actions, illegal at a move,
			// which decode to Pass (R9: all robots stay) in both positions.
			// (R9's placement default, (0,0), is not symmetric; loopers
			// always place validly.)
			l.moves(s, rng, moves)
			for seat := range moves {
				if !e.Encode(s, seat, moves[seat], acts) {
					for h := range acts {
						acts[h] = int32(rng.U(e.nn))
					}
				}
				for h, a := range acts {
					gacts[h] = e.TransformAction(g, h, a)
				}
				moves[seat] = e.Decode(s, seat, acts)
				gmoves[seat] = e.Decode(gs, seat, gacts)
			}
			s.Step(moves, nil)
			gs.Step(gmoves, nil)
			if equalGains(s) || equalGains(gs) {
				skipped++
				continue
			}
			var want, got uint64
			want, buf = rules.Hash(symStateD4(g, s), buf)
			got, buf = rules.Hash(gs, buf)
			if want != got || gs.Done() != s.Done() {
				t.Fatalf("%+v step %d g=%d: stepping G(s) differs from G(stepping s)", c, s.Steps(), g)
			}
			compared++
			if s.ClaimCount() > 0 {
				withClaims++
			}
		}
	}
	t.Logf("%d steps compared, %d with claims, %d skipped", compared, withClaims, skipped)
	if compared < 500 || withClaims < 30 {
		t.Fatalf("only %d steps compared, %d with claims (%d skipped)", compared, withClaims, skipped)
	}
}

// FuzzDecode feeds arbitrary action values to Decode at the placement, at a
// move and after the end: it never panics, and gives a legal move or Pass
// (R9's default), which Step accepts.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 1, 0, 0, 0, 0x40, 0, 0, 0})
	f.Add([]byte{0x45, 0, 0, 0, 0x44, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0x80})
	f.Add([]byte{})
	place := NewSized(8, 3, 3, 5, 10)
	move := NewSized(8, 3, 3, 5, 10)
	move.Step(make([]rules.Move, 3), nil)
	over := NewSized(8, 3, 3, 1, 1)
	over.Step(make([]rules.Move, 3), nil)
	over.Step(make([]rules.Move, 3), nil)
	e := encFor(place)
	f.Fuzz(func(t *testing.T, data []byte) {
		acts := make([]int32, len(data)/4)
		for i := range acts {
			acts[i] = int32(binary.LittleEndian.Uint32(data[4*i:]))
		}
		back := make([]int32, 3)
		for _, s := range []*State{place, move, over} {
			m := e.Decode(s, 1, acts)
			if m != (rules.Move{}) && s.Active(1) && !s.Legal(1, m) {
				t.Fatalf("%v → %+v: neither Pass nor legal", acts, m)
			}
			if m != (rules.Move{}) && (!e.Encode(s, 1, m, back) || fmt.Sprint(back) != fmt.Sprint(acts[:3])) {
				t.Fatalf("%v → %+v: Encode gives %v", acts, m, back)
			}
			c := s.Clone().(*State)
			c.Step([]rules.Move{{}, m, {}}, nil)
			if err := c.Check(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// BenchmarkObserve times Observe and Mask of one seat (ns/op = ns per seat)
// in a mid-game position at the defaults (20×20, 4 players, 4 robots).
func BenchmarkObserve(b *testing.B) {
	s := NewSized(20, 4, 4, 100, 2000)
	rng := rules.NewRNG(1)
	l := &looper{noise: 10}
	moves := make([]rules.Move, 4)
	for s.Steps() < 60 {
		l.moves(s, rng, moves)
		s.Step(moves, nil)
	}
	e := encFor(s)
	sp := e.Space()
	planes, scalars, mask := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars), make([]uint64, sp.MaskWords())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		seat := i & 3
		e.Observe(s, seat, planes, scalars)
		e.Mask(s, seat, mask)
	}
}
