package bovine

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// registered returns the encoder as the env gets it, through the registry.
func registered(t testing.TB) rules.Encoder {
	t.Helper()
	g, err := rules.Lookup(Name)
	if err != nil || g.Encoder == nil {
		t.Fatalf("game %s has no registered encoder (%v)", Name, err)
	}
	return g.Encoder(g.Default())
}

// encodeStates returns positions for the encoder tests: the start, random
// playouts (garbage mixed in, and rules.RandomMover alone) early, mid-game and
// finished after 10 000 rounds, both variants, and custom positions with
// eliminated seats (so inactive seats appear mid-game and at the end).
func encodeStates(t testing.TB) []*State {
	t.Helper()
	out := []*State{newState(false)}
	for g, rounds := range []int{3, 20, 80, 300, 1200, 4000} {
		out = append(out, randomState(g%3 == 2, uint64(100+g), rounds))
	}
	for g, rounds := range []int{10, 150, 700, MaxRounds} {
		st := newState(false)
		rng := rules.NewRNG(uint64(200 + g))
		var m [Seats]rules.Move
		for i := 0; i < rounds && !st.Done(); i++ {
			rules.RandomMover(st, rng, m[:])
			st.Step(m[:], rng)
		}
		out = append(out, st)
	}
	one := randomState(false, 300, 500)
	one.SetEliminated(2, 120)
	two := randomState(false, 301, 900)
	two.SetEliminated(1, 400)
	two.SetEliminated(3, 650)
	over := randomState(false, 302, 200) // three seats out: Done
	over.SetEliminated(0, 50)
	over.SetEliminated(1, 60)
	over.SetEliminated(3, 60)
	stale := randomState(false, 303, 700) // connected sets to be refilled
	stale.connOK = 0
	out = append(out, one, two, over, stale)
	// Scrambled boards: every cell of a random owner, so cows of every seat
	// reach every edge and corner of every view.
	for g, density := range []int{2, 5, 9} {
		rng := rules.NewRNG(uint64(400 + g))
		st := newState(g == 2)
		st.SetRound(5000)
		for r := 0; r < Size; r++ {
			for c := 0; c < Size; c++ {
				if rng.U(10) < density {
					st.SetCell(r, c, rng.U(Seats))
				}
			}
		}
		for seat := 0; seat < Seats; seat++ {
			st.SetCell(barnRow[seat], barnCol[seat], seat)
		}
		if g == 1 {
			st.SetEliminated(3, 4000)
		}
		out = append(out, st)
	}
	for n, st := range out {
		if err := st.Check(); err != nil {
			t.Fatalf("state %d: %v", n, err)
		}
	}
	return out
}

func bit(mask []uint64, b int) bool { return mask[b>>6]>>uint(b&63)&1 != 0 }

// setBits lists the set bits of mask.
func setBits(mask []uint64) []int {
	var out []int
	for w, x := range mask {
		for ; x != 0; x &= x - 1 {
			out = append(out, 64*w+bits.TrailingZeros64(x))
		}
	}
	return out
}

// TestSpace: the sizes the package doc gives.
func TestSpace(t *testing.T) {
	sp := registered(t).Space()
	if sp.Planes != 10 || sp.Height != Size || sp.Width != Size || len(sp.PlaneNames) != sp.Planes ||
		sp.Scalars != 8 || len(sp.ScalarNames) != sp.Scalars || sp.Heads != 1 || sp.Actions != 1601 ||
		sp.MaskWords() != 26 || sp.ActionDoc == "" || sp.ScoreScale != 1.5 {
		t.Fatalf("space %+v", sp)
	}
}

// TestEncoderConformance: rulestest's encoder properties on every test
// position, for every seat (inactive ones too): the mask is exactly the
// legal moves (Pass always set, one bit per move, every listed move has an
// action under the default rules; an inactive seat has Pass alone, and
// LegalMoves lists only it); every set bit is the competition answer of the
// action's cells in the seat's view (R20), which the codec parses to the
// decoded move, and Encode maps it back; the observation is bovineView;
// every byte is written and is 0 or 1; nothing allocates, the stale
// connected sets of a position included; TransformObs and TransformAction
// are undone by g⁻¹; on the board mirrored along either diagonal the
// observations, masks and decoded moves are the transposed ones.
func TestEncoderConformance(t *testing.T) {
	e := registered(t)
	c := rulestest.EncoderCase{Name: "default", Encoder: e, PlaneMax: 1, Codec: Codec{}, View: bovineView, Images: bovineImages,
		Answer: func(st rules.State, seat int, a int32) ([]byte, error) { return bovineAnswer(e, st, seat, a) }}
	// The test positions, and 25 rounds of random play from each (the
	// positions TestSymmetries steps through).
	var states []*State
	var m [Seats]rules.Move
	for n, st := range encodeStates(t) {
		states = append(states, st)
		rng := rules.NewRNG(uint64(7*n) + 1)
		st = st.Clone().(*State)
		for round := 0; round < 25 && !st.Done(); round++ {
			rules.RandomMover(st, rng, m[:])
			st.Step(m[:], rng)
			states = append(states, st.Clone().(*State))
		}
	}
	for _, st := range states {
		c.States = append(c.States, st)
		for seat := 0; seat < Seats; seat++ {
			if legal := st.LegalMoves(seat, nil); !st.Active(seat) && len(legal) != 1 {
				t.Fatalf("seat %d: inactive seat has %d legal moves", seat, len(legal))
			}
		}
	}
	rulestest.EncoderConformance(t, c)
	// The same with frontier_planes: two planes more, checked against one
	// breadth-first search per seat (naiveRace).
	g, _ := rules.Lookup(Name)
	cfg, err := g.Configure(map[string]string{ParamFrontierPlanes: "true"})
	if err != nil {
		t.Fatal(err)
	}
	fe := g.Encoder(cfg)
	if sp := fe.Space(); sp.Planes != NumPlanes+2 || len(sp.PlaneNames) != sp.Planes {
		t.Fatalf("frontier_planes space %+v", sp)
	}
	c.Name, c.Encoder, c.View = "frontier_planes", fe, frontierView
	c.Answer = func(st rules.State, seat int, a int32) ([]byte, error) { return bovineAnswer(fe, st, seat, a) }
	rulestest.EncoderConformance(t, c)
}

// frontierView is bovineView with frontier_planes: planes PlaneFirst and
// PlaneRivalFirst from naiveRace, in the seat's view.
func frontierView(st rules.State, seat int, planes []uint8, scalars []float32) {
	bovineView(st, seat, planes, scalars)
	first, rival := naiveRace(st.(*State), seat)
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			r, c := ViewToReal(seat, i, j)
			planes[PlaneFirst*Cells+i*Size+j] = b2u(first[r*Size+c])
			planes[PlaneRivalFirst*Cells+i*Size+j] = b2u(rival[r*Size+c])
		}
	}
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// bovineImages gives the real images of the transpose of every view: the
// board mirrored along either diagonal (mirrored), seats renamed by pi,
// full moves mirrored cell by cell.
func bovineImages(g rules.D4, st rules.State) []rulestest.Image {
	if g != 4 {
		return nil
	}
	s := st.(*State)
	move := func(anti bool) func(int, rules.Move) rules.Move {
		mirror := func(cell int) int {
			r, c := cell/Size, cell%Size
			if anti {
				return at(Size-1-c, Size-1-r)
			}
			return at(c, r)
		}
		return func(_ int, m rules.Move) rules.Move {
			if m.Kind != Full {
				return m
			}
			return FullMove(mirror(int(m.Arg[0])), mirror(int(m.Arg[1])))
		}
	}
	return []rulestest.Image{
		{State: mirrored(s, false), Seat: []int{0, 3, 2, 1}, Move: move(false)},
		{State: mirrored(s, true), Seat: []int{2, 1, 0, 3}, Move: move(true)},
	}
}

// bovineAnswer is the competition answer of action a (R20): None for the
// pass, else ((i1, j1), (i2, j2)) in the seat's view, the destination the
// action's cell and the source one step against its direction; the decoded
// move must be that full move.
func bovineAnswer(e rules.Encoder, st rules.State, seat int, a int32) ([]byte, error) {
	m := e.Decode(st, seat, []int32{a})
	if a == PassAction {
		if m != (rules.Move{}) {
			return nil, fmt.Errorf("pass action decodes to %+v", m)
		}
		return pyval.Value{Kind: pyval.None}.JSON(), nil
	}
	d, cell := int(a)/Cells, int(a)%Cells
	i2, j2 := cell/Size, cell%Size
	i1, j1 := i2+dirDI[d], j2+dirDJ[d]
	src, dst := int(m.Arg[0]), int(m.Arg[1])
	vi1, vj1 := RealToView(seat, src/Size, src%Size)
	vi2, vj2 := RealToView(seat, dst/Size, dst%Size)
	if m.Kind != Full || vi1 != i1 || vj1 != j1 || vi2 != i2 || vj2 != j2 {
		return nil, fmt.Errorf("decodes to %+v = view (%d,%d)→(%d,%d), want (%d,%d)→(%d,%d)", m, vi1, vj1, vi2, vj2, i1, j1, i2, j2)
	}
	return pyval.T(pyval.T(pyval.I(int64(i1)), pyval.I(int64(j1))), pyval.T(pyval.I(int64(i2)), pyval.I(int64(j2)))).JSON(), nil
}

// TestEncodeOutsideSpace: destination-only, non-adjacent and malformed moves
// have no action; Pass is PassAction.
func TestEncodeOutsideSpace(t *testing.T) {
	e := registered(t)
	st := newState(true)
	var a [1]int32
	for _, m := range []rules.Move{
		DstMove(at(0, 1)),                    // R8's form: for bots only
		FullMove(at(0, 0), at(5, 5)),         // nonadjacent_moves variant
		FullMove(at(0, 0), at(1, 1)),         // diagonal
		FullMove(at(0, 19), at(1, 0)),        // next cell number, other row
		FullMove(at(0, 0), Cells),            // off the board
		{Kind: Full, N: 1, Arg: [8]int16{1}}, // malformed (R10)
		{Kind: 7, N: 2},
	} {
		if e.Encode(st, 0, m, a[:]) {
			t.Errorf("%+v encodes to %d", m, a[0])
		}
	}
	if !e.Encode(st, 2, rules.Move{}, a[:]) || a[0] != PassAction {
		t.Errorf("Pass encodes to %d", a[0])
	}
	if !st.Legal(0, FullMove(at(0, 0), at(5, 5))) {
		t.Error("the far move is not legal under the variant: the test proves nothing")
	}
}

// TestE10Encoded is E10 through the encoder: seat 1's planes hold the
// relabelled view, and its answer ((0,1),(1,1)) is action 0·400 + 1·20 + 1
// (from above), real (1,19)→(1,18).
func TestE10Encoded(t *testing.T) {
	st := start(t, map[int][]cell{0: {{1, 0}}, 1: {{1, 19}}, 2: {{2, 19}}})
	e := registered(t)
	planes := make([]uint8, NumPlanes*Cells)
	scalars := make([]float32, NumScalars)
	e.Observe(st, 1, planes, scalars)
	want := map[int][]cell{
		PlaneCows: {{0, 0}, {0, 1}}, PlaneCows + 1: {{0, 2}, {0, 19}},
		PlaneCows + 2: {{19, 19}}, PlaneCows + 3: {{19, 0}, {19, 1}},
		PlaneConnected: {{0, 0}, {0, 1}}, PlaneConnected + 1: {{0, 19}},
		PlaneConnected + 2: {{19, 19}}, PlaneConnected + 3: {{19, 0}, {19, 1}},
		PlaneBarns: {{0, 0}, {0, 19}, {19, 19}, {19, 0}},
	}
	for p := 0; p < NumPlanes; p++ {
		if p == PlaneEmpty {
			continue
		}
		var got []cell
		for k := 0; k < Cells; k++ {
			if planes[p*Cells+k] != 0 {
				got = append(got, cell{k / Size, k % Size})
			}
		}
		w := slices.Clone(want[p])
		slices.SortFunc(w, func(a, b cell) int { return (a[0]-b[0])*Size + a[1] - b[1] })
		if !slices.Equal(got, w) {
			t.Errorf("plane %s: %v, want %v", planeNames[p], got, w)
		}
	}
	if m := e.Decode(st, 1, []int32{FromAbove*Cells + 1*Size + 1}); m != FullMove(at(1, 19), at(1, 18)) {
		t.Errorf("action 21 of seat 1 is %+v", m)
	}
}

// bovineView is seat's observation built cell by cell from the codec's
// View (relabelled, rotated by R19), the connected planes from Connected
// mapped by ViewToReal, the barns from the live seats' corners, and the
// scalars from the state's accessors.
func bovineView(st rules.State, seat int, planes []uint8, scalars []float32) {
	s := st.(*State)
	v := View(s, seat)
	var conn [Seats]board
	for k := range conn {
		conn[k] = s.Connected((seat + k) % Seats)
	}
	on := func(b bool) uint8 {
		if b {
			return 1
		}
		return 0
	}
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			r, c := ViewToReal(seat, i, j)
			want := [NumPlanes]bool{PlaneEmpty: v[i][j] == -1}
			for k := 0; k < Seats; k++ {
				o := (seat + k) % Seats
				want[PlaneCows+k] = v[i][j] == int8(k)
				want[PlaneConnected+k] = conn[k][r]>>uint(c)&1 != 0
				br, bc := Barn(o)
				if r == br && c == bc && s.Alive(o) {
					want[PlaneBarns] = true
				}
			}
			for p, w := range want {
				planes[p*Cells+i*Size+j] = on(w)
			}
		}
	}
	for k := 0; k < Seats; k++ {
		o := (seat + k) % Seats
		scalars[k] = float32(on(s.Alive(o)))
		scalars[4+k] = float32(s.Territory(o)) / Cells
	}
}

// TestPotential: the potential is the seat's share of the board.
func TestPotential(t *testing.T) {
	e := registered(t)
	for n, st := range encodeStates(t) {
		for seat := 0; seat < Seats; seat++ {
			if p := e.(rules.Potential).Potential(st, seat); p != float64(st.Territory(seat))/Cells {
				t.Fatalf("state %d seat %d: potential %v", n, seat, p)
			}
		}
	}
}

// mirrored returns G(st): the real board mirrored along the diagonal through
// seat 0's and seat 2's barns ((r, c) → (c, r); seats 1 and 3 trade names), or
// with anti along the other diagonal ((r, c) → (19−c, 19−r); seats 0 and 2
// trade). Every seat's view of G(st) is then the transposed view of the seat
// it was renamed from, relative seats +1 and +3 traded (package doc).
func mirrored(st *State, anti bool) *State {
	sigma := func(r, c int) (int, int) { return c, r }
	pi := [Seats]int{0, 3, 2, 1}
	if anti {
		sigma = func(r, c int) (int, int) { return Size - 1 - c, Size - 1 - r }
		pi = [Seats]int{2, 1, 0, 3}
	}
	out := newState(st.nonadj)
	out.own = [Seats]board{}
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			if o := st.Cell(r, c); o != Empty {
				r2, c2 := sigma(r, c)
				out.own[pi[o]][r2] |= 1 << uint(c2)
			}
		}
	}
	out.round, out.nElim, out.alive = st.round, st.nElim, 0
	for s := 0; s < Seats; s++ {
		if st.Alive(s) {
			out.alive |= 1 << uint(pi[s])
		}
		out.elim[pi[s]] = st.elim[s]
		out.elimSeq[pi[s]] = st.elimSeq[s]
	}
	out.connOK = 0
	return out
}

// TestSymmetries: the D4 elements listed are the identity and the transpose;
// a transformed action moves the image of its source to the image of its
// destination; and the real test: for G = mirrored(·) (either diagonal),
// stepping G(st) with the transformed actions gives G of stepping st, round
// after round. (The group properties, and that the observation of G(st) is
// the transformed observation of st and the masks correspond under
// TransformAction, are TestEncoderConformance's, through bovineImages.)
func TestSymmetries(t *testing.T) {
	e := registered(t)
	sym := e.(rules.Symmetric)
	if g := sym.Symmetries(); !slices.Equal(g, []rules.D4{0, 4}) {
		t.Fatalf("Symmetries = %v", g)
	}
	sp := e.Space()
	// (Bijections inverted by g⁻¹ for every element, the pass fixed and
	// TransformObs undone by g⁻¹: TestEncoderConformance.)
	for g := rules.D4(0); g < 8; g++ {
		// The transformed action moves the image of the source to the image
		// of the destination (sources on the board).
		for a := 0; a < PassAction; a++ {
			d, i, j := a/Cells, a%Cells/Size, a%Size
			si, sj := i+dirDI[d], j+dirDJ[d]
			if uint(si) >= Size || uint(sj) >= Size {
				continue
			}
			b := int(sym.TransformAction(g, 0, int32(a)))
			gi, gj := g.Point(Size, i, j)
			gsi, gsj := g.Point(Size, si, sj)
			bd, bi, bj := b/Cells, b%Cells/Size, b%Size
			if bi != gi || bj != gj || bi+dirDI[bd] != gsi || bj+dirDJ[bd] != gsj {
				t.Fatalf("g=%d: action %d (%d,%d)→(%d,%d) maps to %d, not (%d,%d)→(%d,%d)", g, a, si, sj, i, j, b, gsi, gsj, gi, gj)
			}
		}
	}
	masks := func(st *State, seat int) []uint64 {
		m := make([]uint64, sp.MaskWords())
		e.Mask(st, seat, m)
		return m
	}
	for n, st0 := range encodeStates(t) {
		for _, anti := range []bool{false, true} {
			pi := [Seats]int{0, 3, 2, 1}
			if anti {
				pi = [Seats]int{2, 1, 0, 3}
			}
			st := st0.Clone().(*State)
			gst := mirrored(st, anti)
			rng := rules.NewRNG(uint64(7*n) + 1)
			for round := 0; round < 25; round++ {
				if err := gst.Check(); err != nil {
					t.Fatalf("G(st): %v", err)
				}
				var m, mg [Seats]rules.Move
				for seat := 0; seat < Seats; seat++ {
					mk := masks(st, seat)
					// A random legal action, or sometimes any action at all.
					acts := setBits(mk)
					a := int32(acts[rng.U(len(acts))])
					if rng.U(6) == 0 {
						a = int32(rng.U(NumActions+8)) - 4
					}
					m[seat] = e.Decode(st, seat, []int32{a})
					mg[pi[seat]] = e.Decode(gst, pi[seat], []int32{sym.TransformAction(4, 0, a)})
				}
				// R9's execution order is the only random event (decoded actions
				// are full moves, so R8 draws nothing): draw an order for st and
				// script both steps so that G(st) executes the renamed seats in
				// the same order. (All-equal draws would not do: the shuffle of
				// the renamed seat list would give another order.)
				var order, orderG []int
				var alive []int8
				for seat := 0; seat < Seats; seat++ {
					if st.Alive(seat) {
						alive = append(alive, int8(seat))
					}
				}
				rng.Shuffle(alive)
				for _, s := range alive {
					order = append(order, int(s))
					orderG = append(orderG, pi[s])
				}
				st.Step(m[:], rules.Scripted(drawsFor(st, order)...))
				gst.Step(mg[:], rules.Scripted(drawsFor(gst, orderG)...))
				if mustHash(mirrored(st, anti)) != mustHash(gst) {
					t.Fatalf("state %d anti=%v round %d: stepping G(st) differs from G(step st)", n, anti, round)
				}
			}
		}
	}
}

// FuzzDecode feeds arbitrary action values: Decode never panics, gives Pass
// or a full move with cells on the board, the move is Legal exactly when the
// action is a set mask bit, and a move that is not Legal changes nothing a
// pass would not (the rules' treatment, R10).
func FuzzDecode(f *testing.F) {
	f.Add(uint64(1), uint16(0), int32(0))
	f.Add(uint64(2), uint16(300), int32(PassAction))
	f.Add(uint64(3), uint16(50), int32(-1))
	f.Add(uint64(4), uint16(999), int32(1<<31-1))
	f.Add(uint64(5), uint16(120), int32(2*Cells+37))
	e := Encoder{}
	f.Fuzz(func(t *testing.T, seed uint64, rounds uint16, a int32) {
		st := randomState(seed&1 == 1, seed, int(rounds%600))
		if seed&6 == 6 && st.Alive(1) {
			st.SetEliminated(1, st.Round())
		}
		mask := make([]uint64, maskWords)
		for seat := 0; seat < Seats; seat++ {
			m := e.Decode(st, seat, []int32{a})
			if m != (rules.Move{}) && (m.Kind != Full || m.N != 2 || uint(m.Arg[0]) >= Cells || uint(m.Arg[1]) >= Cells) {
				t.Fatalf("action %d decodes to %+v", a, m)
			}
			e.Mask(st, seat, mask)
			if m.Kind != rules.Pass && st.Legal(seat, m) != bit(mask, int(a)) {
				t.Fatalf("seat %d action %d: Legal %v, mask %v", seat, a, st.Legal(seat, m), bit(mask, int(a)))
			}
			if !st.Legal(seat, m) && !st.Done() {
				var moves, passes [Seats]rules.Move
				moves[seat] = m
				s1, s2 := st.Clone(), st.Clone()
				s1.Step(moves[:], rules.NewRNG(seed))
				s2.Step(passes[:], rules.NewRNG(seed))
				if mustHash(s1) != mustHash(s2) {
					t.Fatalf("seat %d: illegal %+v is not a pass", seat, m)
				}
			}
		}
		_ = e.Decode(st, 0, nil)
		_ = e.Decode(st, 0, []int32{a, a})
	})
}

// BenchmarkObserve times Observe and Mask for every seat of one mid-game
// position, per seat.
func BenchmarkObserve(b *testing.B) {
	e := registered(b)
	sp := e.Space()
	planes := make([]uint8, sp.ObsSize())
	scalars := make([]float32, sp.Scalars)
	mask := make([]uint64, sp.MaskWords())
	st := randomState(false, 3, 1500)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for seat := 0; seat < Seats; seat++ {
			e.Observe(st, seat, planes, scalars)
			e.Mask(st, seat, mask)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*Seats), "ns/seat")
}
