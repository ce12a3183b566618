package bovine

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// guardCase is a position in seat 0's view (labels 0 = the seat, 1..3 the
// next seats, R19) and the guard's answer there in view cells, or none.
type guardCase struct {
	name     string
	cows     map[int][]cell // label → view cells
	src, dst cell
	none     bool
}

var guardCases = []guardCase{
	{name: "start", none: true},
	{name: "rival three steps away", cows: map[int][]cell{1: {{0, 3}}, 0: {{0, 1}, {0, 2}}}, none: true},
	{name: "rival two steps, two connected sources: the first in view order (above)",
		cows: map[int][]cell{2: {{1, 1}}, 0: {{0, 1}, {1, 0}}}, src: cell{0, 1}, dst: cell{1, 1}},
	{name: "beside the barn before two steps away, even from a cut-off cow",
		cows: map[int][]cell{1: {{1, 0}, {0, 2}}, 0: {{0, 1}, {2, 0}}}, src: cell{2, 0}, dst: cell{1, 0}},
	{name: "from a connected cow before a cut-off one",
		cows: map[int][]cell{3: {{0, 2}}, 0: {{0, 1}, {1, 2}, {0, 3}}}, src: cell{0, 1}, dst: cell{0, 2}},
	{name: "cut-off sources only: the first in view order",
		cows: map[int][]cell{3: {{1, 1}, {0, 1}}, 0: {{2, 1}, {1, 2}}}, src: cell{1, 2}, dst: cell{1, 1}},
	{name: "no source but the barn: place beside it, (0, 1) first",
		cows: map[int][]cell{1: {{1, 1}}}, src: cell{0, 0}, dst: cell{0, 1}},
	{name: "never from the barn: (0, 1) is taken, so (1, 0)",
		cows: map[int][]cell{1: {{0, 1}}}, src: cell{0, 0}, dst: cell{1, 0}},
	{name: "both barn neighbours a rival's and no source: the network plays",
		cows: map[int][]cell{1: {{0, 1}}, 3: {{1, 0}}}, none: true},
}

// guardState builds c for seat: view cell (i, j) of label l is real cell
// ViewToReal(seat, i, j) of seat (seat + l) mod 4.
func guardState(t *testing.T, c guardCase, seat int) *State {
	t.Helper()
	real := map[int][]cell{}
	for l, cs := range c.cows {
		for _, v := range cs {
			r, col := ViewToReal(seat, v[0], v[1])
			o := (seat + l) % Seats
			real[o] = append(real[o], cell{r, col})
		}
	}
	return start(t, real)
}

// TestGuard: the barn guard's golden positions (Guard's doc: capture beside
// the barn first, from a connected cow first, never from the barn; else fill
// a barn neighbour; else decline), each played in all four seats from the
// same view, so that the view order (which the exported bot follows) is
// what breaks ties, not the real board's.
func TestGuard(t *testing.T) {
	for _, c := range guardCases {
		for seat := 0; seat < Seats; seat++ {
			st := guardState(t, c, seat)
			m, ok := st.Guard(seat)
			if c.none {
				if ok {
					t.Errorf("%s, seat %d: guard answered %s, want the network", c.name, seat, st.MoveText(seat, m))
				}
				continue
			}
			sr, sc := ViewToReal(seat, c.src[0], c.src[1])
			dr, dc := ViewToReal(seat, c.dst[0], c.dst[1])
			if want := FullMove(at(sr, sc), at(dr, dc)); !ok || m != want {
				t.Errorf("%s, seat %d: guard %s (ok %v), want %s", c.name, seat, st.MoveText(seat, m), ok, st.MoveText(seat, want))
			}
			if !st.Legal(seat, m) {
				t.Errorf("%s, seat %d: %s is not legal", c.name, seat, st.MoveText(seat, m))
			}
		}
	}
}

// TestGuardInactive: an eliminated seat, and every seat of a finished game,
// gets no guard move, though a rival stands beside the barn.
func TestGuardInactive(t *testing.T) {
	st := start(t, map[int][]cell{1: {{1, 1}}, 0: {{0, 1}}})
	if _, ok := st.Guard(0); !ok {
		t.Fatal("the live seat 0 gets no guard move: the test would prove nothing")
	}
	if _, ok := st.Guard(-1); ok {
		t.Error("seat −1 got a guard move")
	}
	if _, ok := st.Guard(Seats); ok {
		t.Error("seat 4 got a guard move")
	}
	st.SetRound(MaxRounds)
	if _, ok := st.Guard(0); ok {
		t.Error("a finished game (round 10,000, R14) got a guard move")
	}
}

// TestGuardRandom: on random boards (every cell empty or any seat's, the
// barns their seats') every guard move is legal (R7), never captures from
// the barn (R12b), and the guard answers only where a rival cow is one or
// two steps from the barn; Guard allocates nothing.
func TestGuardRandom(t *testing.T) {
	rng := rules.NewRNG(5)
	answered, places := 0, 0
	for n := 0; n < 300; n++ {
		st := newState(false)
		for r := 0; r < Size; r++ {
			for c := 0; c < Size; c++ {
				if o := rng.U(7) - 3; o >= 0 {
					st.SetCell(r, c, o)
				}
			}
		}
		for seat := 0; seat < Seats; seat++ {
			st.SetCell(barnRow[seat], barnCol[seat], seat)
		}
		if err := st.Check(); err != nil {
			t.Fatal(err)
		}
		for seat := 0; seat < Seats; seat++ {
			br, bc := Barn(seat)
			threat := false
			for r := 0; r < Size; r++ {
				for c := 0; c < Size; c++ {
					if d := abs(r-br) + abs(c-bc); d >= 1 && d <= 2 {
						o := st.Cell(r, c)
						threat = threat || o != Empty && o != seat
					}
				}
			}
			m, ok := st.Guard(seat)
			if !ok {
				continue
			}
			answered++
			src, dst := int(m.Arg[0]), int(m.Arg[1])
			if !threat || !st.Legal(seat, m) || m.Kind != Full {
				t.Fatalf("board %d seat %d: guard %s: not legal, or no rival in reach of the barn (%v)", n, seat, st.MoveText(seat, m), threat)
			}
			if src == at(br, bc) {
				if st.Cell(dst/Size, dst%Size) != Empty {
					t.Fatalf("board %d seat %d: guard %s captures from the barn", n, seat, st.MoveText(seat, m))
				}
				places++
			}
		}
	}
	if answered < 200 || places == 0 {
		t.Fatalf("the guard answered %d times on 300 random boards (%d placements): the test would prove little", answered, places)
	}
	t.Logf("the guard answered %d times (%d placements from the barn)", answered, places)
	st := start(t, map[int][]cell{1: {{1, 1}}, 0: {{0, 1}, {1, 0}, {5, 5}}})
	if a := testing.AllocsPerRun(100, func() { st.Guard(0) }); a != 0 {
		t.Errorf("Guard allocates %v times a call, want 0", a)
	}
}
