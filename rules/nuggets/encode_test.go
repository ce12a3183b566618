package nuggets

import (
	"fmt"
	"math"
	"math/bits"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// encConfigs are the configs the encoder tests run on: the written rules,
// the pass variant, and tables with high bases, N = 4 bases and short phases.
var encConfigs = []map[string]string{
	nil,
	{"invalid_query": "pass"},
	{"setup_moves": "0", "build_moves": "30", "decay_table": "1-30:100,100,50,20,0"},
	{"setup_moves": "25", "build_moves": "0"},
	{"setup_moves": "5", "build_moves": "300", "decay_table": "1-150:3,2,1,0,0;151-300:9,9,9,9,9", "invalid_query": "pass"},
}

// encStates plays random games (rules.RandomMover) of cfg and returns n states
// stopped at random move numbers, the end position included (one in eight
// games is played to its end).
func encStates(cfg rules.Config, n int, seed uint64) []*State {
	rng := rules.NewRNG(seed)
	var out []*State
	moves := make([]rules.Move, Seats)
	for len(out) < n {
		s := New(cfg)
		stop := rng.U(s.cfg.total + 1)
		if rng.U(8) == 0 {
			stop = s.cfg.total
		}
		for s.t < stop {
			rules.RandomMover(s, rng, moves)
			s.Step(moves, rng)
		}
		out = append(out, s)
	}
	return out
}

func encoderOf(t testing.TB, cfg rules.Config) (*Encoder, rules.Space) {
	t.Helper()
	e, ok := Game.Encoder(cfg).(*Encoder)
	if !ok {
		t.Fatalf("Game.Encoder gives %T", Game.Encoder(cfg))
	}
	return e, e.Space()
}

func TestEncoderSpace(t *testing.T) {
	for _, vals := range encConfigs {
		cfg := mustConfig(vals)
		_, sp := encoderOf(t, cfg)
		wantActions := Cells
		if cfg.Get("invalid_query") == "pass" {
			wantActions = Cells + 1
		}
		if sp.Planes != NumPlanes || len(sp.PlaneNames) != NumPlanes || sp.Height != Size || sp.Width != Size ||
			sp.Scalars != NumScalars || len(sp.ScalarNames) != NumScalars || sp.Heads != 1 ||
			sp.Actions != wantActions || sp.MaskWords() != 7 || sp.ScoreScale <= 0 || sp.ActionDoc == "" {
			t.Errorf("%s: space %+v", cfg, sp)
		}
	}
}

// TestEncoderConformance: rulestest's encoder properties on every config:
// the mask is the legal moves (every set bit decodes to a move Legal
// accepts and Encode maps back; an inactive seat has Pass alone under
// invalid_query=pass, nothing otherwise; every legal move that has an
// action has its bit; no bit beyond Actions), and an active seat has every
// action; the answer (x, y) of the view square a = y·20+x (R20), parsed by
// the codec, is the decoded move, and that square is the view's
// board[y][x] in the planes; Pass is the answer None, which
// invalid_query=pass turns into Pass (R6); every byte is written; nothing
// allocates; on the image of each position under each element of D4
// (gImage) the observation, the mask and the decoded queries are the
// transformed ones.
func TestEncoderConformance(t *testing.T) {
	var cases []rulestest.EncoderCase
	for ci, vals := range encConfigs {
		cfg := mustConfig(vals)
		e, sp := encoderOf(t, cfg)
		c := rulestest.EncoderCase{Name: cfg.String(), Encoder: e, PartialEncode: true, Codec: Codec{},
			Answer: (&answerer{e: e}).answer, Images: func(g rules.D4, st rules.State) []rulestest.Image {
				move := func(_ int, m rules.Move) rules.Move { // the query of the image square
					x, y, ok := QueryXY(m)
					if !ok {
						return m
					}
					r, c := g.Point(Size, y, x)
					return Query(c, r)
				}
				return []rulestest.Image{{State: gImage(st.(*State), g), Seat: []int{0, 1, 2, 3}, Move: move}}
			}}
		// From the seeds the mask, decode, every-byte and symmetry tests
		// had, and the allocation test's: 27 positions a config, not 73
		// (each is answered for its 401 actions in 4 seats, the bulk of
		// the time; issue 52).
		for _, set := range []struct {
			n    int
			seed uint64
		}{{14, 100}, {4, 200}, {4, 400}, {4, 600}, {1, 7 - uint64(ci)}} {
			for _, s := range encStates(cfg, set.n, set.seed+uint64(ci)) {
				c.States = append(c.States, s)
			}
		}
		mask := make([]uint64, sp.MaskWords())
		inactive := 0
		for i, st := range c.States {
			for seat := 0; seat < Seats; seat++ {
				if !st.Active(seat) {
					inactive++
					continue
				}
				e.Mask(st, seat, mask)
				set := 0
				for _, w := range mask {
					set += bits.OnesCount64(w)
				}
				if set != sp.Actions {
					t.Fatalf("%s state %d seat %d: %d bits, want all %d", cfg, i, seat, set, sp.Actions)
				}
			}
		}
		if inactive == 0 {
			t.Errorf("%s: no finished game among the states", cfg)
		}
		cases = append(cases, c)
	}
	rulestest.EncoderConformance(t, cases...)
}

// answerer writes the answer of action a (R20): (x, y) for the view square
// a = y·20+x, which must be the view's board[y][x] in the planes, or None.
// It keeps the last position's planes and view.
type answerer struct {
	e      *Encoder
	s      *State
	seat   int
	planes []uint8
	view   View
}

func (w *answerer) answer(st rules.State, seat int, a int32) ([]byte, error) {
	if a >= Cells {
		return []byte("null"), nil
	}
	s := st.(*State)
	if w.s != s || w.seat != seat {
		sp := w.e.Space()
		w.s, w.seat, w.planes = s, seat, make([]uint8, sp.ObsSize())
		w.e.Observe(s, seat, w.planes, make([]float32, sp.Scalars))
		w.view = ViewOf(s, seat)
	}
	x, y := int(a)%Size, int(a)/Size
	label := w.view.Board[y][x]
	if label < 0 && w.planes[PlaneEmpty*Cells+int(a)] != 1 || label >= 0 && w.planes[int(label)*Cells+int(a)] != 1 {
		return nil, fmt.Errorf("action %d is not the view square (%d,%d)", a, x, y)
	}
	return pyval.T(pyval.I(int64(x)), pyval.I(int64(y))).JSON(), nil
}

// TestEncoderOutsideSpace: moves outside the action space have no action,
// Pass has one exactly under invalid_query=pass, and actions outside the
// space get R6's treatment.
func TestEncoderOutsideSpace(t *testing.T) {
	act := make([]int32, 1)
	for _, vals := range encConfigs {
		cfg := mustConfig(vals)
		e, _ := encoderOf(t, cfg)
		s := New(cfg)
		for _, m := range []rules.Move{{Kind: 2, N: 1}, {Kind: KindQuery, N: 2, Arg: [8]int16{5}}, {Kind: KindQuery, N: 1, Arg: [8]int16{400}}, {Kind: KindQuery, N: 1, Arg: [8]int16{-1}}} {
			if e.Encode(s, 0, m, act) {
				t.Errorf("%s: malformed %+v encodes to %d", cfg, m, act[0])
			}
		}
		if e.Encode(s, 0, rules.Move{}, act) != e.pass {
			t.Errorf("%s: Encode(Pass) = %v", cfg, !e.pass)
		}
		// Actions outside the space get R6's treatment.
		for _, a := range []int32{-1, Cells + 1, math.MaxInt32, math.MinInt32} {
			if m := e.Decode(s, 1, []int32{a}); m != s.Invalid() {
				t.Errorf("%s: Decode(%d) = %+v, want %+v", cfg, a, m, s.Invalid())
			}
		}
		if m := e.Decode(s, 1, []int32{PassAction}); m != s.Invalid() {
			t.Errorf("%s: Decode(400) = %+v", cfg, m)
		}
		if m := e.Decode(s, 1, nil); m != s.Invalid() {
			t.Errorf("%s: Decode(no action) = %+v", cfg, m)
		}
	}
	if m := (&Encoder{}).Decode(fakeState{}, 0, []int32{5}); m != (rules.Move{}) {
		t.Errorf("foreign state: %+v", m)
	}
}

// Observation = the codec's view (R18, R19) plane by plane, cell by cell; the
// N and decay planes agree with SameNeighbours and DecayThreshold, the
// scalars with the state's accessors.
func TestEncoderObservationIsView(t *testing.T) {
	for ci, vals := range encConfigs {
		cfg := mustConfig(vals)
		e, sp := encoderOf(t, cfg)
		planes := make([]uint8, sp.ObsSize())
		scalars := make([]float32, sp.Scalars)
		decaying := 0
		for i, s := range encStates(cfg, 30, uint64(300+ci)) {
			p := s.Colored()
			for seat := 0; seat < Seats; seat++ {
				e.Observe(s, seat, planes, scalars)
				v := ViewOf(s, seat)
				for y := 0; y < Size; y++ {
					for x := 0; x < Size; x++ {
						c := y*Size + x
						for pl := 0; pl < 5; pl++ {
							want := uint8(0)
							if pl < 4 && int(v.Board[y][x]) == pl || pl == PlaneEmpty && v.Board[y][x] == -1 {
								want = 1
							}
							if planes[pl*Cells+c] != want {
								t.Fatalf("%s state %d seat %d: plane %s at (%d,%d) = %d, view %d", cfg, i, seat, planeNames[pl], x, y, planes[pl*Cells+c], v.Board[y][x])
							}
						}
						if got, want := int(planes[PlaneSameNeighbours*Cells+c]), s.SameNeighbours(x, y); got != want {
							t.Fatalf("%s state %d: N(%d,%d) = %d, want %d", cfg, i, x, y, got, want)
						}
						base := int(planes[PlaneDecayBase*Cells+c])
						if base > MaxBase || base*(p+100) != s.DecayThreshold(x, y) {
							t.Fatalf("%s state %d (t=%d): decay base at (%d,%d) = %d, threshold %d, P = %d", cfg, i, s.t, x, y, base, s.DecayThreshold(x, y), p)
						}
						if base > 0 {
							decaying++
						}
					}
				}
				total, setup := float64(s.TotalMoves()), float64(s.SetupMoves())
				build := total - setup
				t0 := float64(v.MoveNum)
				want := [NumScalars]float64{
					ScalarMoveNum:   t0 / total,
					ScalarColored:   float64(p) / 400,
					ScalarBuildLeft: 0,
				}
				if t0 >= setup {
					want[ScalarBuild] = 1
				} else {
					want[ScalarSetupLeft] = (setup - t0) / setup
				}
				if build > 0 {
					want[ScalarBuildLeft] = math.Min(total-t0, build) / build
				}
				for k := 0; k < Seats; k++ {
					want[ScalarScoreOwn+k] = s.LogScore((seat+k)%Seats) / LogScoreScale
				}
				for k, w := range want {
					if math.Abs(float64(scalars[k])-w) > 1e-6 {
						t.Fatalf("%s state %d seat %d: scalar %s = %v, want %v", cfg, i, seat, scalarNames[k], scalars[k], w)
					}
				}
				if got, want := e.Potential(s, seat), s.LogScore(seat)/LogScoreScale; got != want {
					t.Fatalf("%s state %d seat %d: potential %v, want %v", cfg, i, seat, got, want)
				}
			}
		}
		if decaying == 0 && s0(cfg).cfg.total > s0(cfg).cfg.setup {
			t.Errorf("%s: no square with a decay base seen", cfg)
		}
	}
}

func s0(cfg rules.Config) *State { return New(cfg) }

// fastLogScore (LogScore's union-find over row runs) equals the sum over the
// flood-filled nuggets of EachNugget bit for bit, on played and on dense
// random boards (long runs that merge far below their first row).
func TestFastLogScore(t *testing.T) {
	states := randomStates(50, 11)
	rng := rules.NewRNG(12)
	for k := 0; k < 200; k++ {
		s := NewDefault()
		density := rng.U(101)
		for c := 0; c < Cells; c++ {
			if rng.U(100) < density {
				s.SetCell(c%Size, c/Size, rng.U(1+rng.U(Seats)))
			}
		}
		states = append(states, s)
	}
	full := NewDefault()
	for c := 0; c < Cells; c++ {
		full.SetCell(c%Size, c/Size, 2)
	}
	states = append(states, full)
	for i, s := range states {
		for seat := 0; seat < Seats; seat++ {
			want := 0.0
			s.EachNugget(seat, func(size int) { want += logSize[size] })
			if got := s.LogScore(seat); got != want {
				t.Fatalf("state %d seat %d: %v, flood-fill sum %v", i, seat, got, want)
			}
		}
	}
	if got := fastLogScore(&full.own[2]); got != math.Log(400) {
		t.Fatalf("full board: %v", got)
	}
}

// gImage returns the real state under the board symmetry g: the square in
// row y, column x moves to g.Point(20, y, x). Seats keep their colours (the
// view has no seat positions, so no relabelling goes with g).
func gImage(s *State, g rules.D4) *State {
	d := &State{cfg: s.cfg, t: s.t}
	for seat := range s.own {
		for y, w := range s.own[seat] {
			for ; w != 0; w &= w - 1 {
				x := bits.TrailingZeros64(w)
				r, c := g.Point(Size, y, x)
				d.own[seat][r] |= 1 << uint(c)
			}
		}
	}
	return d
}

// constRNG returns a scripted generator all of whose draws are v mod n.
func constRNG(v int) *rules.RNG {
	script := make([]int, 2*Cells)
	for i := range script {
		script[i] = v
	}
	return rules.Scripted(script...)
}

// D4 (TransformObs and TransformAction inverted by g⁻¹, and the
// observation and mask of the image state the transformed ones, are
// TestEncoderConformance's): stepping the image with the transformed
// actions gives the image of the step.
//
// The stepping check draws from a scripted generator whose draws are all
// equal (U(n) = v mod n, whatever the position in the stream). Step draws for
// the queried squares and then for the decaying squares in row-major order
// (R8), and a symmetry reorders the squares, so with a real stream the image
// squares would receive other draws; with all draws equal each square gets
// the same draw in both orders. The winner draw C[U(k)] picks among the
// contesters in seat order, which the symmetry keeps. Several values v cover
// recolours that happen and that do not, every winner index, and squares
// that decay and that do not.
func TestEncoderSymmetries(t *testing.T) {
	values := []int{0, 1, 3, 4, 7, 500, 2999, 109999}
	for ci, vals := range encConfigs {
		cfg := mustConfig(vals)
		e, sp := encoderOf(t, cfg)
		if got := e.Symmetries(); len(got) != 8 {
			t.Fatalf("symmetries %v", got)
		}
		rng := rules.NewRNG(uint64(500 + ci))
		moves, gmoves := make([]rules.Move, Seats), make([]rules.Move, Seats)
		var buf []uint64
		changed, steps := 0, 0
		for i, s := range encStates(cfg, 12, uint64(600+ci)) {
			for _, g := range e.Symmetries() {
				gs := gImage(s, g)
				if s.Done() {
					continue
				}
				for _, v := range values {
					a, b := *s, *gs
					for k := 0; k < 4 && !a.Done(); k++ {
						// Queries from a few squares, so that contests happen.
						pool := [3]int32{int32(rng.U(sp.Actions)), int32(rng.U(Cells)), int32(rng.U(Cells))}
						for seat := range moves {
							act := pool[rng.U(3)]
							moves[seat] = e.Decode(&a, seat, []int32{act})
							gmoves[seat] = e.Decode(&b, seat, []int32{e.TransformAction(g, 0, act)})
						}
						before := a.own
						a.Step(moves, constRNG(v))
						b.Step(gmoves, constRNG(v))
						var h1, h2 uint64
						h1, buf = rules.Hash(gImage(&a, g), buf)
						h2, buf = rules.Hash(&b, buf)
						if h1 != h2 {
							t.Fatalf("%s state %d g=%d v=%d step %d: stepping the image ≠ the image of the step", cfg, i, g, v, k)
						}
						steps++
						if a.own != before {
							changed++
						}
					}
				}
			}
		}
		if steps == 0 || 4*changed < steps {
			t.Errorf("%s: %d of %d steps changed the board", cfg, changed, steps)
		}
	}
}

// FuzzDecode feeds arbitrary actions: Decode never panics, an active seat's
// move is Legal, and actions outside the space get R6's treatment; the move
// steps without panic.
func FuzzDecode(f *testing.F) {
	for _, a := range []int32{0, 19, 20, 399, 400, 401, -1, math.MaxInt32, math.MinInt32} {
		f.Add(a, uint8(0), false, uint8(0))
		f.Add(a, uint8(3), true, uint8(2))
	}
	states := map[bool][]*State{}
	for _, pass := range []bool{false, true} {
		cfg := Game.Default()
		if pass {
			cfg = mustConfig(map[string]string{"invalid_query": "pass"})
		}
		s := New(cfg)
		end := New(cfg)
		end.SetMoveNum(end.cfg.total)
		states[pass] = append(encStates(cfg, 6, 8), s, end)
	}
	f.Fuzz(func(t *testing.T, a int32, seat uint8, pass bool, which uint8) {
		cfg := Game.Default()
		if pass {
			cfg = mustConfig(map[string]string{"invalid_query": "pass"})
		}
		e, sp := encoderOf(t, cfg)
		ss := states[pass]
		s := ss[int(which)%len(ss)]
		st := int(seat) % Seats
		m := e.Decode(s, st, []int32{a})
		inSpace := a >= 0 && a < int32(sp.Actions)
		if !inSpace && m != s.Invalid() {
			t.Fatalf("action %d → %+v, want R6's %+v", a, m, s.Invalid())
		}
		if s.Active(st) && !s.Legal(st, m) {
			t.Fatalf("action %d → illegal %+v", a, m)
		}
		e.Decode(s, int(seat), []int32{a}) // any seat number
		c := *s
		moves := make([]rules.Move, Seats)
		moves[st] = m
		c.Step(moves, rules.NewRNG(uint64(a)))
		if err := c.Check(); err != nil {
			t.Fatal(err)
		}
	})
}

// BenchmarkObserve times Observe+Mask for every seat of mid-game positions;
// ns/seat is the time per (position, seat).
func BenchmarkObserve(b *testing.B) {
	cfg := Game.Default()
	e, sp := encoderOf(b, cfg)
	states := encStates(cfg, 32, 9)
	planes, scalars, mask := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars), make([]uint64, sp.MaskWords())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i%len(states)]
		for seat := 0; seat < Seats; seat++ {
			e.Observe(s, seat, planes, scalars)
			e.Mask(s, seat, mask)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*Seats), "ns/seat")
}

// refNuggetPlanes computes planes 7–10 from seat's view by flood fill, square
// by square: the reference for nuggetPlanes' bitboard components.
func refNuggetPlanes(v *View) (own, rival, join, count [Cells]int) {
	// nugget returns the size of the nugget holding (x0, y0) and its first
	// square in row-major order, which names it.
	nugget := func(x0, y0 int) (size, first int) {
		lab := v.Board[y0][x0]
		first = y0*Size + x0
		seen := map[int]bool{first: true}
		stack := []int{first}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			first = min(first, c)
			x, y := c%Size, c/Size
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+d[0], y+d[1]
				if nx >= 0 && nx < Size && ny >= 0 && ny < Size && !seen[ny*Size+nx] && v.Board[ny][nx] == lab {
					seen[ny*Size+nx] = true
					stack = append(stack, ny*Size+nx)
				}
			}
		}
		return len(seen), first
	}
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			c := y*Size + x
			switch lab := v.Board[y][x]; {
			case lab == 0:
				n, _ := nugget(x, y)
				own[c] = min(n, SizeCap)
				continue
			case lab > 0:
				n, _ := nugget(x, y)
				rival[c] = min(n, SizeCap)
			}
			roots := map[int]bool{}
			total := 1
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+d[0], y+d[1]
				if nx >= 0 && nx < Size && ny >= 0 && ny < Size && v.Board[ny][nx] == 0 {
					if n, first := nugget(nx, ny); !roots[first] {
						roots[first] = true
						total += n
					}
				}
			}
			join[c], count[c] = min(total, SizeCap), len(roots)
		}
	}
	return
}

// Planes 7–10 (own_size, rival_size, join_size, join_count) agree with a
// flood fill of the view on played boards and on dense random boards whose
// nuggets exceed SizeCap; and E8's board gives the sizes worked out by hand.
func TestEncoderNuggetPlanes(t *testing.T) {
	cfg := mustConfig(nil)
	e, sp := encoderOf(t, cfg)
	planes := make([]uint8, sp.ObsSize())
	scalars := make([]float32, sp.Scalars)
	states := encStates(cfg, 20, 900)
	rng := rules.NewRNG(901)
	for k := 0; k < 10; k++ { // dense boards: seat 0 holds about 5/8 of the squares
		s := NewDefault()
		for c := 0; c < Cells; c++ {
			if o := rng.U(8); o < 5 {
				s.own[0][c/Size] |= 1 << uint(c%Size)
			} else if o < 8 && o != 5 {
				s.own[o-4][c/Size] |= 1 << uint(c%Size)
			}
		}
		states = append(states, s)
	}
	capped := 0
	for i, s := range states {
		for seat := 0; seat < Seats; seat++ {
			e.Observe(s, seat, planes, scalars)
			v := ViewOf(s, seat)
			own, rival, join, count := refNuggetPlanes(&v)
			for c := 0; c < Cells; c++ {
				got := [4]int{int(planes[PlaneOwnSize*Cells+c]), int(planes[PlaneRivalSize*Cells+c]),
					int(planes[PlaneJoinSize*Cells+c]), int(planes[PlaneJoinCount*Cells+c])}
				if want := [4]int{own[c], rival[c], join[c], count[c]}; got != want {
					t.Fatalf("state %d seat %d square (%d,%d): own/rival/join size, join count = %v, want %v", i, seat, c%Size, c/Size, got, want)
				}
				if got[0] == SizeCap {
					capped++
				}
			}
		}
	}
	if capped == 0 {
		t.Error("no capped nugget size seen")
	}

	// E8: seat 0 owns (0,0), (1,0), (0,1), (5,5), (6,5) and (7,6).
	s := NewDefault()
	for _, p := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {5, 5}, {6, 5}, {7, 6}} {
		s.own[0][p[1]] |= 1 << uint(p[0])
	}
	s.own[1][10] |= 3 << 10 // seat 1's 2×2 block at (10..11, 10..11)
	s.own[1][11] |= 3 << 10
	e.Observe(s, 0, planes, scalars)
	at := func(plane, x, y int) int { return int(planes[plane*Cells+y*Size+x]) }
	for _, c := range []struct{ plane, x, y, want int }{
		{PlaneOwnSize, 0, 1, 3}, {PlaneOwnSize, 6, 5, 2}, {PlaneOwnSize, 7, 6, 1}, {PlaneOwnSize, 10, 10, 0},
		{PlaneRivalSize, 11, 11, 4}, {PlaneRivalSize, 0, 0, 0},
		{PlaneJoinSize, 1, 1, 4}, {PlaneJoinCount, 1, 1, 1}, // touches the 3-nugget twice
		{PlaneJoinSize, 6, 6, 4}, {PlaneJoinCount, 6, 6, 2}, // merges the pair and the singleton
		{PlaneJoinSize, 15, 15, 1}, {PlaneJoinCount, 15, 15, 0},
		{PlaneJoinSize, 10, 9, 1}, {PlaneJoinSize, 0, 0, 0},
	} {
		if got := at(c.plane, c.x, c.y); got != c.want {
			t.Errorf("E8: plane %s at (%d,%d) = %d, want %d", planeNames[c.plane], c.x, c.y, got, c.want)
		}
	}
}

// TestHolding: Holding is the log-score (R15) with each singleton nugget
// worth the weights' Singleton, except on the last move, where it is the
// log-score itself, as Evaluate values the nuggets a query merges.
func TestHolding(t *testing.T) {
	w := Weights{Singleton: 0.15}
	for i, s := range randomStates(60, 13) {
		for seat := 0; seat < Seats; seat++ {
			singles := 0
			s.EachNugget(seat, func(size int) {
				if size == 1 {
					singles++
				}
			})
			want := s.LogScore(seat) + w.Singleton*float64(singles)
			if s.TotalMoves()-s.MoveNum() <= 1 {
				want = s.LogScore(seat)
			}
			if got := s.Holding(seat, w); math.Abs(got-want) > 1e-9 {
				t.Fatalf("state %d (move %d) seat %d: holding %v, want %v (%d singletons)", i, s.MoveNum(), seat, got, want, singles)
			}
		}
	}
	s := NewDefault()
	s.SetCell(3, 3, 1)
	s.SetCell(9, 9, 1)
	s.SetCell(9, 10, 1)
	for _, tc := range []struct {
		t    int
		want float64
	}{{100, 0.15 + math.Log(2)}, {258, 0.15 + math.Log(2)}, {259, math.Log(2)}} {
		s.SetMoveNum(tc.t)
		if got := s.Holding(1, w); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("move %d: holding %v, want %v", tc.t, got, tc.want)
		}
	}
}

// TestStanding: Standing adds to Holding Compact per side-adjacent pair of
// own squares and Room per own square's empty side-neighbour, counted here
// square by square.
func TestStanding(t *testing.T) {
	w := Weights{Singleton: 0.15, Compact: 0.07, Room: 0.001}
	for i, s := range randomStates(60, 14) {
		for seat := 0; seat < Seats; seat++ {
			pairs, room := 0, 0
			for y := 0; y < Size; y++ {
				for x := 0; x < Size; x++ {
					if s.Owner(x, y) != seat {
						continue
					}
					for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
						nx, ny := x+d[0], y+d[1]
						if nx < 0 || nx >= Size || ny < 0 || ny >= Size {
							continue
						}
						switch s.Owner(nx, ny) {
						case seat:
							pairs++ // each pair twice
						case -1:
							room++
						}
					}
				}
			}
			want := s.Holding(seat, w) + w.Compact*float64(pairs/2) + w.Room*float64(room)
			if got := s.Standing(seat, w); math.Abs(got-want) > 1e-9 {
				t.Fatalf("state %d seat %d: standing %v, want %v (%d pairs, %d room)", i, seat, got, want, pairs/2, room)
			}
		}
	}
}
