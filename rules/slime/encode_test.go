package slime

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// encFor returns the encoder of a state's board size and cap.
func encFor(s *State) *Encoder { return newEncoder(s.n, s.maxTurns) }

// encStates calls f on many positions of every board size: positions of
// random playouts (rules.RandomMover) to their end (every third of the first
// 60 turns, then every 25th, and the end position); playouts with a small max_turns, which end with empty cells; and
// random boards (randomState) with random densities and turns, where some
// players have no slime; and full boards.
func encStates(t testing.TB, f func(s *State)) {
	t.Helper()
	rng := rules.NewRNG(11)
	moves := make([]rules.Move, Seats)
	for n := 4; n <= 8; n++ {
		for game := 0; game < 3; game++ {
			maxTurns := 2000
			if game == 2 {
				maxTurns = 10 + rng.U(30)
			}
			s := newState(n, maxTurns)
			for i := 0; ; i++ {
				if i < 60 && i%3 == 0 || i%25 == 0 || s.Done() {
					f(s)
				}
				if s.Done() {
					break
				}
				rules.RandomMover(s, rng, moves)
				s.Step(moves, rng)
			}
		}
		for i := 0; i < 60; i++ {
			f(randomState(t, rng, n))
		}
		for i := 0; i < 4; i++ { // full boards: the game is over (R5)
			s := newState(n, 2000)
			for c := 0; c < n*n; c++ {
				s.SetCell(c/n, c%n, 1+rng.U(Seats-i))
			}
			s.SetTurn(rng.U(100))
			f(s)
		}
	}
}

// setBits calls f with every set bit of mask.
func setBits(mask []uint64, f func(a int)) {
	for w, x := range mask {
		for ; x != 0; x &= x - 1 {
			f(w*64 + bits.TrailingZeros64(x))
		}
	}
}

// TestEncoderSpace: the registered encoder has the documented shape: 5 planes
// and 10 scalars with names, one head of 24·N²+1 actions (1537 at N = 8).
func TestEncoderSpace(t *testing.T) {
	cfg := config(t)
	enc := cfg.Game().Encoder(cfg)
	sp := enc.Space()
	if sp.Planes != 5 || sp.Height != 8 || sp.Width != 8 || len(sp.PlaneNames) != sp.Planes {
		t.Fatalf("planes %d×%d×%d, names %v", sp.Planes, sp.Height, sp.Width, sp.PlaneNames)
	}
	if sp.Scalars != 9 || len(sp.ScalarNames) != sp.Scalars {
		t.Fatalf("scalars %d, names %v", sp.Scalars, sp.ScalarNames)
	}
	if sp.Heads != 1 || sp.Actions != 1537 || sp.MaskWords() != 25 || sp.ActionDoc == "" || sp.ScoreScale != 16 {
		t.Fatalf("space %+v", sp)
	}
	if _, ok := enc.(rules.Potential); !ok {
		t.Fatalf("no potential")
	}
	if _, ok := enc.(rules.Symmetric); !ok {
		t.Fatalf("not symmetric")
	}
	for n := 4; n <= 8; n++ {
		cfg := config(t, "board_size", string(rune('0'+n)))
		if sp := cfg.Game().Encoder(cfg).Space(); sp.Actions != 24*n*n+1 || sp.Height != n || sp.Width != n {
			t.Fatalf("n=%d: %+v", n, sp)
		}
	}
}

// encCases groups the positions of encStates by encoder (board size and
// turn cap) for rulestest.EncoderConformance.
func encCases(t *testing.T) []rulestest.EncoderCase {
	t.Helper()
	type key struct{ n, maxTurns int }
	byKey := map[key]int{}
	var cases []rulestest.EncoderCase
	positions := 0
	encStates(t, func(s *State) {
		positions++
		k := key{s.n, s.maxTurns}
		i, ok := byKey[k]
		if !ok {
			i = len(cases)
			byKey[k] = i
			cases = append(cases, rulestest.EncoderCase{
				Name: fmt.Sprintf("n=%d max_turns=%d", s.n, s.maxTurns), Encoder: encFor(s), PlaneMax: 1,
				Codec: Codec{}, Answer: slimeAnswer, View: slimeView, ScalarTolerance: 1e-6, Images: slimeImages,
			})
		}
		cases[i].States = append(cases[i].States, s.Clone())
	})
	if positions < 300 {
		t.Fatalf("only %d positions", positions)
	}
	return cases
}

// TestEncoderConformance: rulestest's encoder properties on every board
// size: the mask is the legal moves (an inactive seat's the pass alone);
// every masked action, written as R15's answer in real coordinates (the
// view has no rotation, R14; the pass is no output), is read back by the
// codec as the decoded move, and Encode undoes Decode on every action whose
// target is on the board (the others decode to Pass, as an off-board answer
// does); the planes and scalars are slimeView; every byte is written; no
// allocation.
func TestEncoderConformance(t *testing.T) {
	rulestest.EncoderConformance(t, encCases(t)...)
}

// slimeImages gives, for every element g of D4 (the observation is
// equivariant under all of them), each seat's real image of the position:
// the real symmetry realSym(seat, g) (state.Transform), which relabels no
// seat, with SymMove for the moves of the seat to move.
func slimeImages(g rules.D4, st rules.State) []rulestest.Image {
	s := st.(*State)
	var out []rulestest.Image
	for seat := 0; seat < Seats; seat++ {
		h := realSym(seat, g)
		gs := new(State)
		gs.Transform(s, h)
		only := []int{-1, -1, -1, -1}
		only[seat] = seat
		im := rulestest.Image{State: gs, Seat: only}
		if seat == s.ToMove() { // the moves of the seat to move (the others' decode to no-ops)
			im.Move = func(_ int, m rules.Move) rules.Move { return SymMove(s.n, h, m) }
		}
		out = append(out, im)
	}
	return out
}

// slimeAnswer is the competition answer (R15) of action a: the decoded
// move's real coordinates, or no output for the pass action.
func slimeAnswer(st rules.State, seat int, a int32) ([]byte, error) {
	s := st.(*State)
	enc := encFor(s)
	m := enc.Decode(s, seat, []int32{a})
	if a == enc.pass {
		if m != (rules.Move{}) {
			return nil, fmt.Errorf("the pass action decodes to %+v", m)
		}
		return nil, nil // no output: a pass (R15)
	}
	r1, c1, r2, c2, ok := Coords(s.n, m)
	if !ok {
		return nil, fmt.Errorf("a masked action decodes to %+v", m)
	}
	return AppendAnswer(nil, r1, c1, r2, c2), nil
}

// slimeView is seat's observation built from the codec's view (ViewOf: real
// board, player digits) turned by R18's rotation for the seat and relabelled
// by turn order after it; the scalars from the state's accessors.
func slimeView(st rules.State, seat int, planes []uint8, scal []float32) {
	s := st.(*State)
	n, nn := s.n, s.n*s.n
	v := ViewOf(s, seat)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			cr, cc := CanonicalSym(seat).Point(n, r, c)
			p := 4 // empty
			if ch := v.Cell(r, c); ch != '.' {
				p = (int(ch-'1') - seat + 4) % 4
			}
			planes[p*nn+cr*n+cc] = 1
		}
	}
	if !s.Done() {
		scal[(s.ToMove()-seat+4)%4] = 1
	}
	for i := 0; i < 4; i++ {
		scal[4+i] = float32(s.Count((seat+i)%4)) / float32(nn)
	}
	scal[8] = float32(bits.OnesCount64(s.EmptyCells())) / float32(nn)
}

// TestEncoderEncodeRejects: moves outside the action space have no action.
func TestEncoderEncodeRejects(t *testing.T) {
	s := newState(8, 2000)
	enc := encFor(s)
	act := make([]int32, 1)
	for _, m := range []rules.Move{
		NewMove(8, 0, 0, 0, 0), // distance 0: a pass in effect, not Legal
		NewMove(8, 0, 0, 3, 0), // distance 3
		NewMove(8, 7, 7, 4, 5),
		{Kind: KindMove, N: 2, Arg: [8]int16{0, 64}},
		{Kind: KindMove, N: 2, Arg: [8]int16{-1, 1}},
		{Kind: KindMove, N: 3, Arg: [8]int16{0, 1}},
		{Kind: 2, N: 2, Arg: [8]int16{0, 1}},
		{Kind: KindMove, N: 2, Arg: [8]int16{0, 1, 5}},
	} {
		if enc.Encode(s, 0, m, act) {
			t.Errorf("Encode(%+v) = %d, want none", m, act[0])
		}
	}
	if enc.Encode(s, 0, rules.Move{}, nil) {
		t.Errorf("Encode into no actions")
	}
}

// TestEncoderDecodeOutOfRange: garbage actions decode to Pass.
func TestEncoderDecodeOutOfRange(t *testing.T) {
	s := newState(8, 2000)
	enc := encFor(s)
	for _, a := range []int32{-1, 1537, 1538, 1 << 30, math.MaxInt32, math.MinInt32} {
		if m := enc.Decode(s, 0, []int32{a}); m != (rules.Move{}) {
			t.Errorf("Decode(%d) = %+v", a, m)
		}
	}
	if m := enc.Decode(s, 0, nil); m != (rules.Move{}) {
		t.Errorf("Decode(no action) = %+v", m)
	}
	// Source (0, 0), offset 0 = (−2, −2): off the board.
	if m := enc.Decode(s, 0, []int32{0}); m != (rules.Move{}) {
		t.Errorf("off-board target: %+v", m)
	}
	// Offset 17 = (+1, +1) from (0, 0): the opening spread of E4, and for
	// player 2 (k = 1) the canonical (0, 0) is its real corner (0, 7), so the
	// same action is (0, 7) → (1, 6).
	if m := enc.Decode(s, 0, []int32{17 * 64}); m != NewMove(8, 0, 0, 1, 1) {
		t.Errorf("seat 0: %+v", m)
	}
	if m := enc.Decode(s, 1, []int32{17 * 64}); m != NewMove(8, 0, 7, 1, 6) {
		t.Errorf("seat 1: %+v", m)
	}
}

// TestEncoderObserveView: beyond rulestest's comparison with slimeView,
// to_move_own agrees with Active, the potential is the seat's share of the
// board, and the observation is a function of the competition's request
// (R14): the same board at another turn count observes the same.
func TestEncoderObserveView(t *testing.T) {
	encStates(t, func(s *State) {
		enc := encFor(s)
		sp := enc.Space()
		planes := make([]uint8, sp.ObsSize())
		scal := make([]float32, sp.Scalars)
		for seat := 0; seat < Seats; seat++ {
			enc.Observe(s, seat, planes, scal)
			if scal[0] == 1 != s.Active(seat) {
				t.Fatalf("to_move_own disagrees with Active")
			}
			if p := enc.Potential(s, seat); math.Abs(p-float64(s.Count(seat))/float64(s.n*s.n)) > 1e-12 || p < 0 || p > 1 {
				t.Fatalf("potential %v", p)
			}
		}
	})
	s := newState(6, 0)
	s.SetTurn(12345)
	enc := encFor(s)
	scal, scal2 := make([]float32, 9), make([]float32, 9)
	enc.Observe(s, 1, make([]uint8, 5*36), scal)
	s.SetTurn(12345 + 4*77)
	enc.Observe(s, 1, make([]uint8, 5*36), scal2)
	if !slices.Equal(scal, scal2) || scal[1] != 0 || scal[0] != 1 {
		t.Fatalf("turn 12345 and 12653, seat 1: %v, %v", scal, scal2)
	}
}

// realSym returns the real-board symmetry h that acts on seat's canonical
// frame as g: R·h = g·R for the canonical rotation R, so h is "R, then g,
// then R⁻¹". No seat is relabelled: turn order is by player (I5).
func realSym(seat int, g rules.D4) rules.D4 {
	r := CanonicalSym(seat)
	return r.Then(g).Then(r.Inverse())
}

// TestEncoderSymmetry checks rules.Symmetric: the listed symmetries, the
// real symmetry of the transpose, and (the group properties, and the
// equivariance of Observe, Mask and Decode on slimeImages, are
// TestEncoderConformance's) for every g (the listed {identity, transpose}
// and, since the observation is equivariant under all of D4, the other six
// too), on many positions: with G the real symmetry realSym(seat, g) of the
// seat to move, the transformed action decodes to G of the move, and
// stepping G(st) with the transformed action gives G of stepping st
// (rules.Hash). Slime draws no
// random numbers (R6), so no scripted RNG is needed.
func TestEncoderSymmetry(t *testing.T) {
	s8 := newState(8, 2000)
	e8 := encFor(s8)
	if got := e8.Symmetries(); len(got) != 2 || got[0] != 0 || got[1] != 4 {
		t.Fatalf("Symmetries %v", got)
	}
	// The transpose fixes the own corner: it is the real transpose for
	// players 1 and 4 and the anti-transpose (g = 6) for players 2 and 3.
	for seat, want := range []rules.D4{4, 6, 6, 4} {
		if h := realSym(seat, 4); h != want {
			t.Fatalf("seat %d: real symmetry %d, want %d", seat, h, want)
		}
	}
	// The transpose of player 1's start view is player 3's start view.
	{
		p0, p2, tp := make([]uint8, 5*64), make([]uint8, 5*64), make([]uint8, 5*64)
		sc := make([]float32, 10)
		e8.Observe(s8, 0, p0, sc)
		e8.Observe(s8, 2, p2, sc)
		e8.TransformObs(4, tp, make([]float32, 10), p0, sc)
		if string(tp) != string(p2) {
			t.Fatalf("transposed start view of player 1 is not player 3's")
		}
	}

	var hashBuf []uint64
	hash := func(s *State) uint64 {
		var h uint64
		h, hashBuf = rules.Hash(s, hashBuf)
		return h
	}
	rng := rules.NewRNG(3)
	act := make([]int32, 1)
	moves := make([]rules.Move, Seats)
	checked := 0
	encStates(t, func(s *State) {
		enc := encFor(s)
		sp := enc.Space()
		n := s.n
		mask := make([]uint64, sp.MaskWords())
		for g := rules.D4(0); g < 8; g++ {
			for seat := 0; seat < Seats; seat++ {
				if seat != s.ToMove() || s.Done() {
					continue
				}
				h := realSym(seat, g)
				var gs State
				gs.Transform(s, h)
				enc.Mask(s, seat, mask)
				// Step with every legal action and some random ones.
				try := func(a int32) {
					act[0] = a
					m := enc.Decode(s, seat, act)
					act[0] = enc.TransformAction(g, 0, a)
					gm := enc.Decode(&gs, seat, act)
					if gm != SymMove(n, h, m) {
						t.Fatalf("g=%d seat %d action %d: %+v, want G(%+v)", g, seat, a, gm, m)
					}
					after, gafter := *s, gs
					moves[seat] = m
					after.Step(moves, nil)
					moves[seat] = gm
					gafter.Step(moves, nil)
					var want State
					want.Transform(&after, h)
					if hash(&gafter) != hash(&want) {
						t.Fatalf("g=%d seat %d action %d: step(G(st)) ≠ G(step(st))", g, seat, a)
					}
					checked++
				}
				setBits(mask, func(a int) { try(int32(a)) })
				for i := 0; i < 20; i++ {
					try(int32(rng.U(sp.Actions)))
				}
			}
		}
	})
	if checked < 10000 {
		t.Fatalf("only %d steps checked", checked)
	}
}

// FuzzDecode feeds arbitrary actions for any seat of a position reached by
// random play: Decode never panics, gives Pass or a well-formed move, every
// masked action gives a Legal move, and a move that is not Legal gets the
// rules' treatment (R7): stepping it changes the board exactly as a pass.
func FuzzDecode(f *testing.F) {
	f.Add(int32(0), uint8(8), uint16(0), uint8(0), uint64(1))
	f.Add(int32(1536), uint8(8), uint16(30), uint8(2), uint64(2))
	f.Add(int32(-7), uint8(5), uint16(200), uint8(1), uint64(3))
	f.Add(int32(17*16+5), uint8(4), uint16(3), uint8(3), uint64(4))
	f.Fuzz(func(t *testing.T, a int32, size uint8, steps uint16, seat uint8, seed uint64) {
		n := 4 + int(size%5)
		s := newState(n, 2000)
		rng := rules.NewRNG(seed)
		moves := make([]rules.Move, Seats)
		for i := 0; i < int(steps%400) && !s.Done(); i++ {
			rules.RandomMover(s, rng, moves)
			s.Step(moves, rng)
		}
		enc := encFor(s)
		st := int(seat % Seats)
		m := enc.Decode(s, st, []int32{a})
		if m != (rules.Move{}) {
			if _, _, _, _, ok := Coords(n, m); !ok || m.Arg[2] != 0 {
				t.Fatalf("action %d → malformed %+v", a, m)
			}
		}
		mask := make([]uint64, enc.Space().MaskWords())
		enc.Mask(s, st, mask)
		if a >= 0 && int(a) < enc.Space().Actions && mask[a>>6]>>uint(a&63)&1 != 0 && !s.Legal(st, m) {
			t.Fatalf("masked action %d → %+v not legal", a, m)
		}
		if !s.Legal(st, m) && st == s.ToMove() && !s.Done() {
			played, passed := *s, *s
			moves[st] = m
			played.Step(moves, nil)
			moves[st] = rules.Move{}
			passed.Step(moves, nil)
			if played.slime != passed.slime || played.turn != passed.turn {
				t.Fatalf("illegal %+v is not a pass", m)
			}
		}
	})
}

// BenchmarkObserve: Observe and Mask for all four seats of a mid-game 8×8
// position; ns/seat is the time per seat.
func BenchmarkObserve(b *testing.B) {
	cfg := config(b)
	var st rules.State = New(cfg)
	rng := rules.NewRNG(5)
	moves := make([]rules.Move, Seats)
	for i := 0; i < 60; i++ {
		rules.RandomMover(st, rng, moves)
		st.Step(moves, rng)
	}
	enc := cfg.Game().Encoder(cfg)
	sp := enc.Space()
	planes, scal, mask := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars), make([]uint64, sp.MaskWords())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for seat := 0; seat < Seats; seat++ {
			enc.Observe(st, seat, planes, scal)
			enc.Mask(st, seat, mask)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*Seats), "ns/seat")
}
