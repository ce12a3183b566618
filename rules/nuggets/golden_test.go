package nuggets

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// at returns a default game whose next move is t (a custom state).
func at(t int) *State {
	s := NewDefault()
	s.SetMoveNum(t)
	return s
}

func variant(t *testing.T, kv ...string) *State {
	t.Helper()
	vals := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		vals[kv[i]] = kv[i+1]
	}
	cfg, err := Game.Configure(vals)
	if err != nil {
		t.Fatal(err)
	}
	return New(cfg)
}

// wantOwners checks listed squares and that every other square is empty.
func wantOwners(t *testing.T, s *State, want map[[2]int]int) {
	t.Helper()
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			w, ok := want[[2]int{x, y}]
			if !ok {
				w = -1
			}
			if got := s.Owner(x, y); got != w {
				t.Errorf("square (%d,%d): owner %d, want %d", x, y, got, w)
			}
		}
	}
}

const noDecay = DecayDenom - 1 // a decay draw that never decays

// E1 (R1, R6, R9): coordinates, invalid answers, a three-way setup contest.
func TestE1InvalidAnswersAndSetupContest(t *testing.T) {
	s := at(5)
	answers := []string{`{"tuple":[19,0]}`, `{"tuple":[20,3]}`, `null`, `{"tuple":[0,0]}`}
	moves := make([]rules.Move, Seats)
	for seat, a := range answers {
		moves[seat] = Codec{}.ParseAnswer(s, seat, []byte(a))
	}
	want := []rules.Move{Query(19, 0), Query(0, 0), Query(0, 0), Query(0, 0)}
	for seat := range want {
		if moves[seat] != want[seat] {
			t.Errorf("seat %d answer %s: move %+v, want %+v", seat, answers[seat], moves[seat], want[seat])
		}
	}
	rng := rules.Scripted(1) // (0,0): C = [1, 2, 3], U(3) = 1 → seat 2
	s.Step(moves, rng)
	if rng.Used() != 1 {
		t.Errorf("draws used %d, want 1 (one winner draw, no decay in setup)", rng.Used())
	}
	wantOwners(t, s, map[[2]int]int{{19, 0}: 0, {0, 0}: 2})
	if v := ViewOf(s, 0); v.Board[0][19] != 0 {
		t.Errorf("board[0][19] (top-right) = %d for seat 0, want 0", v.Board[0][19])
	}
	if s.MoveNum() != 6 {
		t.Errorf("move number %d, want 6", s.MoveNum())
	}
}

// E2 (R10): in the setup phase a coloured square is fixed, even for its owner.
func TestE2SetupColouredSquaresFixed(t *testing.T) {
	s := at(30)
	s.SetCell(4, 4, 1)
	rng := rules.Scripted(1) // (5,4): C = [2, 3], U(2) = 1 → seat 3
	s.Step([]rules.Move{Query(4, 4), Query(4, 4), Query(5, 4), Query(5, 4)}, rng)
	if rng.Used() != 1 {
		t.Errorf("draws used %d, want 1", rng.Used())
	}
	wantOwners(t, s, map[[2]int]int{{4, 4}: 1, {5, 4}: 3})
}

// E3 (R10): a lone attacker recolours with probability 2/5.
func TestE3LoneAttacker(t *testing.T) {
	for u := 0; u < 5; u++ {
		s := at(100)
		s.SetCell(7, 7, 1)
		// Draws: (19,0) none, (7,7) U(5), (0,19) and (19,19) none; then
		// decay of (19,0), (7,7), (0,19), (19,19): none decays.
		rng := rules.Scripted(u, noDecay, noDecay, noDecay, noDecay)
		s.Step([]rules.Move{Query(7, 7), Query(0, 19), Query(19, 19), Query(19, 0)}, rng)
		if rng.Used() != 5 {
			t.Errorf("U(5)=%d: draws used %d, want 5", u, rng.Used())
		}
		owner := 1
		if u < 2 {
			owner = 0
		}
		wantOwners(t, s, map[[2]int]int{{7, 7}: owner, {0, 19}: 1, {19, 19}: 2, {19, 0}: 3})
	}
}

// R8.1: the queried squares draw in row-major order, not in seat order.
func TestQueryDrawOrder(t *testing.T) {
	s := at(100)
	s.SetCell(3, 7, 1)
	s.SetCell(5, 2, 2)
	s.SetCell(10, 2, 3)
	// (5,2): U(5)=0 recolour → seat 3; (10,2): U(5)=3 recolour, U(2)=1 →
	// C[1] = seat 2; (3,7): U(5)=4 no recolour; then three decay draws.
	rng := rules.Scripted(0, 3, 1, 4, noDecay, noDecay, noDecay)
	s.Step([]rules.Move{Query(3, 7), Query(10, 2), Query(10, 2), Query(5, 2)}, rng)
	if rng.Used() != 7 {
		t.Errorf("draws used %d, want 7", rng.Used())
	}
	wantOwners(t, s, map[[2]int]int{{5, 2}: 3, {10, 2}: 2, {3, 7}: 1})
}

// E4 (R10): the owner among the contesters; a winning owner empties the square.
func TestE4OwnerAmongContesters(t *testing.T) {
	cases := []struct {
		draws []int // recolour U(5), winner U(2) if recoloured
		owner int   // of (2,3) afterwards
	}{
		{[]int{0, 0}, -1}, {[]int{3, 0}, -1}, // recolour, owner wins → empty
		{[]int{0, 1}, 3}, {[]int{3, 1}, 3}, // recolour, seat 3 wins
		{[]int{4}, 1}, // no recolour, no winner draw
	}
	for _, c := range cases {
		s := at(150)
		s.SetCell(2, 3, 1)
		draws := append(append([]int{}, c.draws...), noDecay, noDecay, noDecay)
		rng := rules.Scripted(draws...)
		s.Step([]rules.Move{Query(10, 10), Query(2, 3), Query(11, 10), Query(2, 3)}, rng)
		want := map[[2]int]int{{10, 10}: 0, {11, 10}: 2}
		decays := 2
		if c.owner >= 0 {
			want[[2]int{2, 3}] = c.owner
			decays++
		}
		wantOwners(t, s, want)
		if rng.Used() != len(c.draws)+decays {
			t.Errorf("draws %v: used %d, want %d", c.draws, rng.Used(), len(c.draws)+decays)
		}
	}
}

// E5 (R10): three or more contesters recolour with certainty (no draw).
func TestE5ThreeContesters(t *testing.T) {
	s := at(200)
	s.SetCell(10, 10, 2)
	// (9,9) first (row 9), no draw; (10,10): k = 3, winner C[U(3)] = C[1] of
	// [0, 1, 3]; then decay of (9,9) and (10,10) (diagonal, N = 0).
	rng := rules.Scripted(1, noDecay, noDecay)
	s.Step([]rules.Move{Query(10, 10), Query(10, 10), Query(9, 9), Query(10, 10)}, rng)
	if rng.Used() != 3 {
		t.Errorf("draws used %d, want 3", rng.Used())
	}
	wantOwners(t, s, map[[2]int]int{{10, 10}: 1, {9, 9}: 2})

	// All four query a square of seat 0: U(4) = 0 → seat 0 → empty.
	for w := 0; w < Seats; w++ {
		s := at(200)
		s.SetCell(5, 5, 0)
		rng := rules.Scripted(w, noDecay)
		q := Query(5, 5)
		s.Step([]rules.Move{q, q, q, q}, rng)
		want, used := map[[2]int]int{{5, 5}: w}, 2
		if w == 0 {
			want, used = map[[2]int]int{}, 1 // nothing left to decay
		}
		wantOwners(t, s, want)
		if rng.Used() != used {
			t.Errorf("winner %d: draws used %d, want %d", w, rng.Used(), used)
		}
	}
}

// e6Board puts seat 0 squares with N = 0..4 (listed in the returned array)
// and fills up to p coloured squares with seat 1 squares.
func e6Board(s *State, p int) (sq [5][2]int) {
	for _, c := range [][2]int{
		{0, 0},                    // N = 0
		{10, 0}, {11, 0}, {12, 0}, // (11,0): N = 2; ends N = 1
		{15, 4}, {14, 5}, {15, 5}, {16, 5}, // (15,5): N = 3
		{5, 4}, {4, 5}, {5, 5}, {6, 5}, {5, 6}, // (5,5): N = 4
	} {
		s.SetCell(c[0], c[1], 0)
	}
	n := s.Colored()
	for c := 0; c < Cells && n < p; c++ {
		if s.Owner(c%Size, c/Size) < 0 {
			s.SetCell(c%Size, c/Size, 1)
			n++
		}
	}
	return [5][2]int{{0, 0}, {10, 0}, {11, 0}, {15, 5}, {5, 5}}
}

// E6 (R11, R12): decay probabilities, band edges, no decay in setup.
func TestE6DecayProbabilities(t *testing.T) {
	type prob struct{ num, den int64 } // probability num/den
	cases := []struct {
		t, p int
		want [5]prob // by N; den 0: not checked
	}{
		{100, 120, [5]prob{{1, 100}, {1, 125}, {1, 250}, {1, 500}, {0, 1}}},
		{200, 400, [5]prob{{2, 55}, {}, {}, {}, {1, 220}}},
		{259, 300, [5]prob{{}, {}, {12, 275}, {}, {}}},
	}
	for _, c := range cases {
		s := at(c.t)
		sq := e6Board(s, c.p)
		if s.Colored() != c.p {
			t.Fatalf("board has P=%d, want %d", s.Colored(), c.p)
		}
		for n, w := range c.want {
			x, y := sq[n][0], sq[n][1]
			if got := s.SameNeighbours(x, y); got != n {
				t.Fatalf("(%d,%d): N=%d, want %d", x, y, got, n)
			}
			if w.den == 0 {
				continue
			}
			if th := s.DecayThreshold(x, y); int64(th)*w.den != w.num*DecayDenom {
				t.Errorf("t=%d P=%d N=%d: p = %d/110000, want %d/%d", c.t, c.p, n, th, w.num, w.den)
			}
		}
	}
	// The integer test for N = 1 at t = 100, P = 120.
	s := at(100)
	sq := e6Board(s, 120)
	if th := s.DecayThreshold(sq[1][0], sq[1][1]); th != 880 {
		t.Errorf("t=100 P=120 N=1: threshold %d, want 880", th)
	}
	// t = 257 (m = 3), P = 1: boards with N = 2 and P = 1 do not exist, so
	// read the thresholds for P = 1 directly.
	s = at(257)
	s.SetCell(7, 7, 0)
	thr, ok := s.thresholds()
	if !ok || thr[0]*11000 != 101*DecayDenom || thr[2]*27500 != 303*DecayDenom {
		t.Errorf("t=257 P=1: thresholds %v (ok=%v), want N=0 101/11000, N=2 303/27500", thr, ok)
	}
	if s.DecayThreshold(7, 7) != thr[0] {
		t.Errorf("t=257: (7,7) threshold %d, want %d", s.DecayThreshold(7, 7), thr[0])
	}
	// Band edges, read by m = 260 − t: the N = 0 base is 5, 8, 10 in rows 1..3.
	for _, e := range []struct{ t, base int }{{139, 5}, {140, 8}, {254, 8}, {255, 10}, {60, 5}, {259, 10}, {59, 0}, {0, 0}} {
		s := at(e.t)
		s.SetCell(0, 0, 2)
		if got := s.DecayThreshold(0, 0); got != e.base*101 {
			t.Errorf("t=%d: N=0 threshold %d, want base %d · 101", e.t, got, e.base)
		}
	}
	// t = 59: a setup move; no decay draw at all.
	s = at(59)
	e6Board(s, 200)
	before := s.Bits(0)
	rng := rules.Scripted(noDecay) // (rules.Scripted() with no draws is not scripted)
	q := Query(11, 0)              // seat 0's: fixed in setup, no draw
	s.Step([]rules.Move{q, q, q, q}, rng)
	if rng.Used() != 0 || s.Bits(0) != before {
		t.Errorf("t=59: %d draws, seat 0 changed %v; want no decay", rng.Used(), s.Bits(0) != before)
	}
}

// E7 (R12): decay reads the pre-decay board; all decays apply at once.
func TestE7DecayReadsPreDecayBoard(t *testing.T) {
	// p = 4·102/110000 = 408/110000 for both squares. The second draw, 450,
	// is ≥ 408 but < 505, the threshold (4,3) would have if it were
	// recomputed with N = 0 after (3,3) decayed.
	const second = 450
	s := at(100)
	s.SetCell(3, 3, 0)
	s.SetCell(4, 3, 0)
	if th := s.DecayThreshold(3, 3); th != 408 || 408*13750 != 51*DecayDenom {
		t.Fatalf("threshold %d, want 408 = 51/13750 · 110000", th)
	}
	rng := rules.Scripted(0, second)
	s.decay(chance{rng: rng})
	if rng.Used() != 2 {
		t.Errorf("draws used %d, want 2", rng.Used())
	}
	wantOwners(t, s, map[[2]int]int{{4, 3}: 0})

	// Side by side vertically: (3,4) keeps N = 1 although (3,3), in the row
	// drawn before, decays.
	s = at(100)
	s.SetCell(3, 3, 0)
	s.SetCell(3, 4, 0)
	rng = rules.Scripted(0, second)
	s.decay(chance{rng: rng})
	wantOwners(t, s, map[[2]int]int{{3, 4}: 0})

	// The same through Step: with invalid_query=pass, all-Pass moves act on
	// nothing, so the move is pure decay.
	s = variant(t, "invalid_query", "pass")
	s.SetMoveNum(100)
	s.SetCell(3, 3, 0)
	s.SetCell(4, 3, 0)
	rng = rules.Scripted(0, second)
	s.Step(make([]rules.Move, Seats), rng)
	if rng.Used() != 2 {
		t.Errorf("Step: draws used %d, want 2", rng.Used())
	}
	wantOwners(t, s, map[[2]int]int{{4, 3}: 0})
}

// E8 (R15, R16): scores are products of nugget sizes; tournaments add logs.
func TestE8Scoring(t *testing.T) {
	s := at(260)
	for _, c := range [][3]int{
		{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 5, 0}, {6, 5, 0}, {7, 6, 0},
		{10, 10, 1}, {11, 10, 1}, {10, 11, 1}, {11, 11, 1},
		{15, 15, 3}, {17, 15, 3},
	} {
		s.SetCell(c[0], c[1], c[2])
	}
	wantProd := []int64{6, 4, 1, 1}
	wantLog := []float64{1.791759, 1.386294, 0, 0}
	o := rules.NewOutcome(Seats)
	s.Outcome(o)
	for seat := 0; seat < Seats; seat++ {
		if p := s.Product(seat); p.Cmp(big.NewInt(wantProd[seat])) != 0 {
			t.Errorf("seat %d: product %v, want %d", seat, p, wantProd[seat])
		}
		if math.Abs(o.Score[seat]-wantLog[seat]) > 1e-6 || o.Score[seat] != s.LogScore(seat) {
			t.Errorf("seat %d: log-score %v, want %v", seat, o.Score[seat], wantLog[seat])
		}
	}
	if want := []float64{3, 2, 0.5, 0.5}; !equal(o.Points, want) {
		t.Errorf("points %v, want %v", o.Points, want)
	}
	if want := []float64{1, 0, 0, 0}; !equal(o.Win, want) {
		t.Errorf("win %v, want %v", o.Win, want)
	}
	// R16: games scoring 6 and 4 total ln 24.
	if tot := o.Score[0] + o.Score[1]; math.Abs(tot-3.178054) > 1e-6 {
		t.Errorf("tournament total %v, want ln 24 ≈ 3.178054", tot)
	}
	// A checkerboard of 200 squares scores 1.
	s = at(260)
	for c := 0; c < Cells; c++ {
		if (c%Size+c/Size)%2 == 0 {
			s.SetCell(c%Size, c/Size, 2)
		}
	}
	if s.Colored() != 200 || s.LogScore(2) != 0 || s.Product(2).Cmp(big.NewInt(1)) != 0 {
		t.Errorf("checkerboard: P=%d log-score %v product %v, want 200, 0, 1", s.Colored(), s.LogScore(2), s.Product(2))
	}
}

// R15: equal products tie even where the float log-sums differ in the last
// bit (ln 2 + ln 5 ≠ ln 10 in float64).
func TestEqualProductsTie(t *testing.T) {
	s := at(260)
	for x := 0; x < 2; x++ {
		s.SetCell(x, 0, 0) // size 2
	}
	for x := 0; x < 5; x++ {
		s.SetCell(x, 2, 0) // size 5
	}
	for x := 0; x < 10; x++ {
		s.SetCell(x, 4, 1) // size 10
	}
	s.SetCell(0, 6, 2) // size 1
	o := rules.NewOutcome(Seats)
	s.Outcome(o)
	if o.Score[0] == o.Score[1] {
		t.Logf("log-scores happen to be equal (%v); the tie is still checked", o.Score[0])
	}
	if want := []float64{2.5, 2.5, 0.5, 0.5}; !equal(o.Points, want) {
		t.Errorf("points %v, want %v", o.Points, want)
	}
	if want := []float64{0.5, 0.5, 0, 0}; !equal(o.Win, want) {
		t.Errorf("win %v, want %v", o.Win, want)
	}
}

func equal(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return len(a) == len(b)
}

// E9 (R18, R20): relabelled observation; answers are (x, y).
func TestE9Observation(t *testing.T) {
	s := at(70)
	for x, o := range []int{2, 3, 0, 1} {
		s.SetCell(x, 0, o)
	}
	v := ViewOf(s, 2)
	if got := [6]int8(v.Board[0][:6]); got != [6]int8{0, 1, 2, 3, -1, -1} {
		t.Errorf("seat 2 board[0] starts %v, want [0 1 2 3 -1 -1]", got)
	}
	req := string(Codec{}.AppendRequest(nil, s, 2))
	if !strings.HasPrefix(req, "[[[0,1,2,3,-1,") || !strings.HasSuffix(req, "]],70]") {
		t.Errorf("request %.40s…%s", req, req[len(req)-10:])
	}
	m := Codec{}.ParseAnswer(s, 2, []byte(`{"tuple":[3,0]}`))
	if x, y, ok := QueryXY(m); !ok || x != 3 || y != 0 || v.Board[y][x] != 3 {
		t.Errorf("answer (3, 0) → %+v = (%d,%d) ok=%v", m, x, y, ok)
	}
}
