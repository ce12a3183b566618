package risingtide

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
	"github.com/gridgym/gridgym/rules/rulestest"
)

var enc Encoder

func maskBit(mask []uint64, a int) bool { return mask[a>>6]>>uint(a&63)&1 != 0 }

// encStates returns positions for the encoder tests: the start position,
// positions sampled from random playouts (rules.RandomMover, every seat
// active until it floods) and from playouts with garbage moves, and final
// positions (Done, every seat inactive).
func encStates(t testing.TB, nonadj bool) []*State {
	out := []*State{newGame(t, nonadj)}
	rng := rules.NewRNG(77)
	moves := make([]rules.Move, Seats)
	for g := 0; g < 6; g++ {
		s := newGame(t, nonadj)
		for !s.Done() {
			rules.RandomMover(s, rng, moves)
			s.Step(moves, rng)
			if rng.U(60) == 0 {
				out = append(out, s.Clone().(*State))
			}
		}
		out = append(out, s.Clone().(*State))
	}
	return append(out, randomStates(t, nonadj, 12)...)
}

func observe(s *State, seat int) ([]uint8, []float32) {
	p, sc := make([]uint8, NumPlanes*Cells), make([]float32, NumScalars)
	enc.Observe(s, seat, p, sc)
	return p, sc
}

func maskOf(s *State, seat int) []uint64 {
	m := make([]uint64, maskWords)
	for i := range m {
		m[i] = 0xdeadbeefdeadbeef // Mask must write every word
	}
	enc.Mask(s, seat, m)
	return m
}

func TestEncoderRegistered(t *testing.T) {
	cfg := config(t, false)
	e := cfg.Game().Encoder(cfg)
	sp := e.Space()
	if sp.Planes != NumPlanes || sp.Height != Size || sp.Width != Size || len(sp.PlaneNames) != sp.Planes ||
		sp.Scalars != NumScalars || len(sp.ScalarNames) != sp.Scalars || sp.Heads != 1 || sp.Actions != 2593 ||
		sp.MaskWords() != maskWords || sp.ScoreScale <= 0 {
		t.Fatalf("space %+v", sp)
	}
	if _, ok := e.(rules.Symmetric); !ok {
		t.Fatal("encoder is not rules.Symmetric")
	}
	if _, ok := e.(rules.Potential); !ok {
		t.Fatal("encoder is not rules.Potential")
	}
}

// TestEncoderConformance: rulestest's encoder properties under both
// settings of nonadjacent_moves: the mask is exactly the seat's legal
// neighbour moves plus pass (an inactive seat's the pass alone); every set
// bit is the move a bot answers in its view (R20, R22: the action's cells
// are the answer's view cells, legal on the bot's view), which the codec
// parses back to the decoded move; Encode inverts Decode; the observation
// is refObs; every byte is written and is 0 or 1; nothing allocates.
func TestEncoderConformance(t *testing.T) {
	var cases []rulestest.EncoderCase
	for _, nonadj := range []bool{false, true} {
		c := rulestest.EncoderCase{
			Name: fmt.Sprintf("nonadjacent_moves=%v", nonadj), Encoder: enc, PlaneMax: 1,
			Codec: codec{}, Answer: answerOf, ScalarTolerance: 1e-6, Images: images,
			View: func(st rules.State, seat int, planes []uint8, scalars []float32) {
				p, sc := refObs(st.(*State), seat)
				copy(planes, p)
				copy(scalars, sc)
			},
		}
		for _, s := range encStates(t, nonadj) {
			c.States = append(c.States, s)
		}
		cases = append(cases, c)
	}
	rulestest.EncoderConformance(t, cases...)
}

// viewOf caches the last view answerOf checked against (the states do not
// change during the test).
var viewOf struct {
	s    *State
	seat int
	v    SeatView
}

// images gives the real image of a position under the listed symmetries
// (symState), with symMove for the moves.
func images(g rules.D4, st rules.State) []rulestest.Image {
	if g != 0 && g != 4 {
		return nil
	}
	gs, sigma := symState(g, st.(*State))
	return []rulestest.Image{{State: gs, Seat: sigma[:], Move: func(_ int, m rules.Move) rules.Move { return symMove(g, m) }}}
}

// answerOf is the answer (R22) of action a in the seat's view: None for the
// pass, else ((i1, j1), (i2, j2)) from the action's cell and direction; the
// decoded move must be that move, legal on the bot's view.
func answerOf(st rules.State, seat int, a int32) ([]byte, error) {
	s := st.(*State)
	m := enc.Decode(s, seat, []int32{a})
	if a == PassAction {
		if m != (rules.Move{}) {
			return nil, fmt.Errorf("pass decodes to %+v", m)
		}
		return []byte("null"), nil
	}
	d, c := int(a)/Cells, int(a)%Cells
	i1, j1 := c/Size, c%Size
	i2, j2 := i1+dirs[d][0], j1+dirs[d][1]
	if vi1, vj1, vi2, vj2, ok := MoveToView(seat, m); !ok || vi1 != i1 || vj1 != j1 || vi2 != i2 || vj2 != j2 {
		return nil, fmt.Errorf("decodes to view (%d,%d)→(%d,%d), want cell %d direction %v", vi1, vj1, vi2, vj2, c, dirs[d])
	}
	if viewOf.s != s || viewOf.seat != seat {
		viewOf.s, viewOf.seat, viewOf.v = s, seat, View(s, seat)
	}
	if !viewOf.v.Legal(i1, j1, i2, j2) {
		return nil, fmt.Errorf("illegal on the bot's view")
	}
	I := func(x int) pyval.Value { return pyval.I(int64(x)) }
	return pyval.L(pyval.L(I(i1), I(j1)), pyval.L(I(i2), I(j2))).JSON(), nil
}

func TestEncodeOutsideSpace(t *testing.T) {
	s := newGame(t, true)
	act := []int32{0}
	for _, tc := range []struct {
		m    rules.Move
		want int32 // −1: no action
	}{
		{rules.Move{}, PassAction},
		{MakeMove(8, 8, 8, 10), -1}, // E2c: legal under nonadjacent_moves, outside the action space
		{MakeMove(8, 8, 8, 8), -1},  // src = dst
		{rules.Move{Kind: KindMove, N: 2, Arg: [8]int16{-1, 5}}, -1},
		{rules.Move{Kind: KindMove, N: 3, Arg: [8]int16{8*18 + 8, 8*18 + 9}}, -1},
		{rules.Move{Kind: 2, N: 2, Arg: [8]int16{8*18 + 8, 8*18 + 9}}, -1},
		{MakeMove(8, 8, 8, 9), 4*Cells + 8*Size + 8}, // E2a, seat 0: d = (0, 1)
		{MakeMove(0, 0, 1, 1), 7*Cells + 0},
	} {
		ok := enc.Encode(s, 0, tc.m, act)
		if ok != (tc.want >= 0) || ok && act[0] != tc.want {
			t.Errorf("Encode(%+v) = %d, %v; want %d", tc.m, act[0], ok, tc.want)
		}
	}
	if !s.Legal(0, MakeMove(8, 8, 8, 10)) {
		t.Fatal("E2c should be legal under the variant")
	}
	// E11: seat 3's answer ((4,4),(3,3)) is real (13,4)→(14,3); its action is
	// the view cell (4,4) with direction (−1,−1).
	if !enc.Encode(s, 3, MakeMove(13, 4, 14, 3), act) || act[0] != 0*Cells+4*Size+4 {
		t.Fatalf("E11: action %d", act[0])
	}
	if m := enc.Decode(s, 3, act); m != MakeMove(13, 4, 14, 3) {
		t.Fatalf("E11: decodes to %+v", m)
	}
	for _, a := range []int32{-1, PassAction, PassAction + 1, math.MaxInt32, math.MinInt32, 0 /* (0,0)→(−1,−1) */, 4*Cells + 17} {
		if m := enc.Decode(s, 1, []int32{a}); m != (rules.Move{}) {
			t.Errorf("Decode(%d) = %+v, want pass", a, m)
		}
	}
	if m := enc.Decode(s, 0, nil); m != (rules.Move{}) {
		t.Errorf("Decode(nil) = %+v", m)
	}
}

// refObs builds seat's observation from the codec's view (R20) with plain
// loops, following the package doc.
func refObs(s *State, seat int) ([]uint8, []float32) {
	v := View(s, seat)
	p := make([]uint8, NumPlanes*Cells)
	set := func(plane, i, j int, on bool) {
		if on {
			p[plane*Cells+i*Size+j] = 1
		}
	}
	r := v.Round
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			h := int(v.Terrain[i][j])
			land := h >= 0
			set(0, i, j, !land)
			for k := 0; k <= MaxHeight; k++ {
				set(1+k, i, j, h == k)
			}
			below := land && 100*h < r // R12's height test for round r
			wet := i == 0 || j == 0 || i == Size-1 || j == Size-1
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					a, b := i+di, j+dj
					if a >= 0 && a < Size && b >= 0 && b < Size && v.Terrain[a][b] < 0 {
						wet = true
					}
				}
			}
			set(10, i, j, below)
			set(11, i, j, land && wet)
			set(12, i, j, below && wet)
		}
	}
	sc := make([]float32, NumScalars)
	for k := range Seats {
		other := (seat + k) % Seats
		a, b := Settlement(other)
		i, j := RealToView(seat, a, b)
		set(13+k, i, j, s.Alive(other))
		if s.Alive(other) {
			sc[2+k] = 1
		}
	}
	level := func(r int) int { // heights under water in round r
		n := 0
		for h := 0; h <= MaxHeight; h++ {
			if 100*h < r {
				n++
			}
		}
		return n
	}
	d := 1
	for level(r+d) == level(r) {
		d++
	}
	sc[0] = float32(s.Round()) / 800
	sc[1] = float32(level(r)) / 8
	sc[6] = float32(d) / 100
	return p, sc
}

// TestObserveWaterScalars: the rounds where the water rises (R6): rise_in
// and water_height, and height-0 land below the water (refObs is checked on
// every test position by TestEncoderConformance).
func TestObserveWaterScalars(t *testing.T) {
	s := newGame(t, false)
	for _, tc := range []struct {
		r            int
		water, rise  float32
		wantBelowOK0 bool // height-0 land is below water
	}{{0, 0, 0.01, false}, {1, 1. / 8, 1, true}, {100, 1. / 8, 0.01, true}, {101, 2. / 8, 1, true}, {550, 6. / 8, 0.51, true}, {800, 1, 0.01, true}} {
		s.SetRound(tc.r)
		p, sc := observe(s, 0)
		if sc[1] != tc.water || math.Abs(float64(sc[6]-tc.rise)) > 1e-6 || (p[10*Cells+5*Size+5] == 1) != tc.wantBelowOK0 {
			t.Errorf("round %d: water_height %v rise_in %v below(5,5) %d", tc.r, sc[1], sc[6], p[10*Cells+5*Size+5])
		}
	}
}

// symState returns the real position that g (an element of Symmetries)
// describes: g = 0 is st itself; g = 4, the transpose of every view, is the
// real board transposed, (a, b) → (b, a), with seats 1 and 3 exchanged
// (σ below). Seat s of st is seat σ(s) of the result.
func symState(g rules.D4, s *State) (*State, [Seats]int) {
	t := *s
	switch g {
	case 0:
		return &t, [Seats]int{0, 1, 2, 3}
	case 4:
		sigma := [Seats]int{0, 3, 2, 1}
		for a := 0; a < Size; a++ {
			for b := 0; b < Size; b++ {
				t.h[b*Size+a] = s.h[a*Size+b]
			}
		}
		for k := range Seats {
			t.elim[sigma[k]] = s.elim[k]
		}
		t.rebuild()
		return &t, sigma
	}
	panic(fmt.Sprint("symState: no real map for ", g))
}

// symMove maps a real move under g as symState maps the board.
func symMove(g rules.D4, m rules.Move) rules.Move {
	src, dst, ok := cells(m)
	if g == 0 || !ok {
		return m
	}
	return MakeMove(src%Size, src/Size, dst%Size, dst/Size)
}

// TestSymmetries: the listed symmetries are the identity and the transpose
// (the group action of TransformObs and TransformAction on all of D4 is
// TestEncoderConformance's).
func TestSymmetries(t *testing.T) {
	if syms := enc.Symmetries(); !slices.Equal(syms, []rules.D4{0, 4}) {
		t.Fatalf("Symmetries = %v", syms)
	}
}

// TestSymmetryCommutesWithStep is the real D4 test: for g in Symmetries,
// stepping commutes with the transformation (that the transformed
// observation and mask are those of the transformed real position and the
// transformed actions decode to the transformed moves is
// TestEncoderConformance's, through images). The execution order is random
// (R8) and matters when moves interact, so both steps use a scripted RNG
// whose draws give the same order of corresponding seats: order o in st,
// σ(o) in the transformed state.
func TestSymmetryCommutesWithStep(t *testing.T) {
	rng := rules.NewRNG(5)
	var buf []uint64
	orderMattered := 0
	defer func() {
		if orderMattered < 5 {
			t.Errorf("the execution order mattered in only %d steps: the test cannot see a wrong order", orderMattered)
		}
	}()
	for n, s := range encStates(t, false) {
		for _, g := range enc.Symmetries() {
			gs, sigma := symState(g, s)
			if err := gs.Check(); err != nil {
				t.Fatal(err)
			}
			var moves, gmoves [Seats]rules.Move
			// Half of the time every seat that can plays a move through one
			// shared real cell, so that moves interact and the order matters.
			conflict := -1
			if rng.U(2) == 0 {
				var tight []int // a source that one move empties, a destination that one move fills
				for c, h := range s.h {
					if (h == 1 || h == MaxHeight-1) && !isSettle[c] {
						tight = append(tight, c)
					}
				}
				if len(tight) > 0 {
					conflict = tight[rng.U(len(tight))]
				}
			}
			for seat := range Seats {
				mask := maskOf(s, seat)
				var set []int32
				for a := int32(0); a < NumActions; a++ {
					if maskBit(mask, int(a)) {
						set = append(set, a)
					}
				}
				a := set[rng.U(len(set))]
				switch {
				case conflict < 0 && rng.U(4) == 0: // now and then a move that may be illegal
					a = int32(rng.U(NumActions))
				case conflict >= 0: // a move through the shared cell, if the seat has one
					var through []rules.Move
					for _, m := range s.LegalMoves(seat, nil) {
						if src, dst, ok := cells(m); ok && (src == conflict || dst == conflict) {
							through = append(through, m)
						}
					}
					if len(through) > 0 {
						act := []int32{0}
						if !enc.Encode(s, seat, through[rng.U(len(through))], act) {
							t.Fatal("legal neighbour move without an action")
						}
						a = act[0]
					}
				}
				moves[seat] = enc.Decode(s, seat, []int32{a})
				gmoves[sigma[seat]] = enc.Decode(gs, sigma[seat], []int32{enc.TransformAction(g, 0, a)})
			}
			if s.Done() {
				continue
			}
			var alive []int
			for seat := range Seats {
				if s.Alive(seat) {
					alive = append(alive, seat)
				}
			}
			order := slices.Clone(alive)
			for i := len(order) - 1; i >= 1; i-- {
				j := rng.U(i + 1)
				order[i], order[j] = order[j], order[i]
			}
			gorder := make([]int, len(order))
			for i, seat := range order {
				gorder[i] = sigma[seat]
			}
			after := s.Clone().(*State)
			after.Step(moves[:], rules.Scripted(drawsFor(order...)...))
			gafter := gs.Clone().(*State)
			gafter.Step(gmoves[:], rules.Scripted(drawsFor(gorder...)...))
			want, _ := symState(g, after)
			var h1, h2 uint64
			h1, buf = rules.Hash(want, buf)
			h2, buf = rules.Hash(gafter, buf)
			if h1 != h2 {
				t.Fatalf("state %d g=%d order %v: stepping the transformed state ≠ transforming the stepped state", n, g, order)
			}
			// Did the order matter here? (Then a wrong relabelling of the
			// order would have been caught.)
			rev := slices.Clone(order)
			slices.Reverse(rev)
			other := s.Clone().(*State)
			other.Step(moves[:], rules.Scripted(drawsFor(rev...)...))
			if h3, _ := rules.Hash(other, nil); h3 != func() uint64 { h, _ := rules.Hash(after, nil); return h }() {
				orderMattered++
			}
		}
	}
}

// TestSymmetryOrderMatters checks that the commuting test above can see the
// execution order: E4 (two moves on one exhausted source) transposed, with
// the orders [0,1] and [1,0] leading to different boards.
func TestSymmetryOrderMatters(t *testing.T) {
	s := newGame(t, false)
	s.SetRound(10)
	s.SetCell(8, 8, 1)
	moves := []rules.Move{MakeMove(8, 8, 8, 9), MakeMove(8, 8, 7, 8), {}, {}}
	gs, sigma := symState(4, s)
	var gmoves [Seats]rules.Move
	for seat, m := range moves {
		gmoves[sigma[seat]] = symMove(4, m)
	}
	hashes := map[uint64]bool{}
	for _, order := range [][]int{{1, 0, 2, 3}, {0, 1, 2, 3}} {
		a := s.Clone().(*State)
		a.Step(moves, rules.Scripted(drawsFor(order...)...))
		gorder := make([]int, len(order))
		for i, seat := range order {
			gorder[i] = sigma[seat]
		}
		b := gs.Clone().(*State)
		b.Step(gmoves[:], rules.Scripted(drawsFor(gorder...)...))
		want, _ := symState(4, a)
		h1, _ := rules.Hash(want, nil)
		h2, _ := rules.Hash(b, nil)
		if h1 != h2 {
			t.Fatalf("order %v: not commuting", order)
		}
		hashes[h1] = true
	}
	if len(hashes) != 2 {
		t.Fatal("E4: the two orders give the same board")
	}
}

func TestPotential(t *testing.T) {
	rng := rules.NewRNG(3)
	pass := make([]rules.Move, Seats)
	for n, s := range encStates(t, false) {
		for seat := range Seats {
			phi := enc.Potential(s, seat)
			if phi <= 0 || phi > 1 {
				t.Fatalf("state %d seat %d: Φ = %v", n, seat, phi)
			}
			// Φ is the score of seat if every seat passes from now on.
			c := s.Clone().(*State)
			for !c.Done() {
				c.Step(pass, rng)
			}
			if want := float64(c.Score(seat)) / MaxRounds; phi != want {
				t.Fatalf("state %d (round %d) seat %d: Φ = %v, all-pass score/800 = %v", n, s.Round(), seat, phi, want)
			}
			if s.Done() && phi != float64(s.Score(seat))/MaxRounds {
				t.Fatalf("final state %d seat %d: Φ = %v, score %d", n, seat, phi, s.Score(seat))
			}
		}
	}
	// E6: everyone passing, all four seats score 502.
	if phi := enc.Potential(newGame(t, false), 2); phi != 502./800 {
		t.Fatalf("E6: Φ = %v, want 502/800", phi)
	}
}

// TestForecast: Forecast is the final outcome of the game in which every seat
// passes from now on (R12, R14–R16), for every seat at once, and allocates
// nothing.
func TestForecast(t *testing.T) {
	rng := rules.NewRNG(5)
	pass := make([]rules.Move, Seats)
	got, want := rules.NewOutcome(Seats), rules.NewOutcome(Seats)
	var fc rules.Forecaster = newGame(t, false)
	for n, s := range encStates(t, false) {
		s.Forecast(got)
		c := s.Clone().(*State)
		for !c.Done() {
			c.Step(pass, rng)
		}
		c.Outcome(want)
		for seat := range Seats {
			if got.Score[seat] != want.Score[seat] || got.Points[seat] != want.Points[seat] || got.Win[seat] != want.Win[seat] {
				t.Fatalf("state %d (round %d) seat %d: forecast %v/%v/%v, all-pass outcome %v/%v/%v", n, s.Round(), seat,
					got.Score[seat], got.Points[seat], got.Win[seat], want.Score[seat], want.Points[seat], want.Win[seat])
			}
		}
	}
	// E6: everyone passing from the start, all four seats score 502 and tie.
	fc.Forecast(got)
	for seat := range Seats {
		if got.Score[seat] != 502 || got.Points[seat] != 1.5 {
			t.Fatalf("E6: seat %d forecast %v, %v points; want 502, 1.5", seat, got.Score[seat], got.Points[seat])
		}
	}
	if a := testing.AllocsPerRun(10, func() { fc.Forecast(got) }); a != 0 {
		t.Fatalf("Forecast allocates %v times", a)
	}
}

func FuzzDecode(f *testing.F) {
	for _, a := range []int32{0, 1, 2592, 2593, -1, 1000, math.MaxInt32, math.MinInt32, 4*Cells + 8*Size + 8} {
		f.Add(byte(0), a)
		f.Add(byte(7), a)
	}
	states := encStates(f, false)[:8]
	f.Fuzz(func(t *testing.T, which byte, a int32) {
		s := states[int(which/4)%len(states)]
		seat := int(which % 4)
		m := enc.Decode(s, seat, []int32{a})
		if m != (rules.Move{}) {
			if m.Kind != KindMove || m.N != 2 || m.Arg[0] < 0 || m.Arg[0] >= Cells || m.Arg[1] < 0 || m.Arg[1] >= Cells || m.Arg[2] != 0 {
				t.Fatalf("action %d → malformed %+v", a, m)
			}
			if a < 0 || a >= PassAction {
				t.Fatalf("out-of-range action %d → %+v, want pass", a, m)
			}
		}
		if a >= 0 && a < NumActions && maskBit(maskOf(s, seat), int(a)) != (s.Legal(seat, m) && (m != rules.Move{} || a == PassAction)) {
			t.Fatalf("action %d → %+v: mask and Legal disagree", a, m)
		}
		// Step gives an illegal decoded move the rules' treatment (a pass).
		moves := make([]rules.Move, Seats)
		moves[seat] = m
		c := s.Clone().(*State)
		c.Step(moves, rules.NewRNG(1))
		if err := c.Check(); err != nil {
			t.Fatal(err)
		}
	})
}

// BenchmarkObserve times Observe and Mask for every seat of mid-game
// positions; ns/seat is one seat's observation and mask.
func BenchmarkObserve(b *testing.B) {
	var states []*State
	for _, s := range encStates(b, false) {
		if !s.Done() && len(states) < 8 {
			states = append(states, s)
		}
	}
	p, sc := make([]uint8, NumPlanes*Cells), make([]float32, NumScalars)
	mask := make([]uint64, maskWords)
	var e rules.Encoder = enc
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i%len(states)]
		for seat := range Seats {
			e.Observe(s, seat, p, sc)
			e.Mask(s, seat, mask)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*Seats), "ns/seat")
}
