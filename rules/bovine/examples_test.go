package bovine

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// cell is a real board cell (r, c).
type cell [2]int

func at(r, c int) int { return r*Size + c }

// start returns a default-rules state at the start position with the listed
// cows added (barns stay unless overwritten).
func start(t *testing.T, cows map[int][]cell) *State {
	t.Helper()
	st := newState(false)
	for seat, cs := range cows {
		for _, c := range cs {
			st.SetCell(c[0], c[1], seat)
		}
	}
	if err := st.Check(); err != nil {
		t.Fatalf("custom state: %v", err)
	}
	return st
}

// cows lists seat's cells in row-major order.
func cows(st *State, seat int) []cell {
	out := []cell{}
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			if st.Cell(r, c) == seat {
				out = append(out, cell{r, c})
			}
		}
	}
	return out
}

func cells(cs ...cell) []cell { return append([]cell{}, cs...) }

func column(c, r0, r1 int) []cell {
	var out []cell
	for r := r0; r <= r1; r++ {
		out = append(out, cell{r, c})
	}
	return out
}

func row(r, c0, c1 int) []cell {
	var out []cell
	for c := c0; c <= c1; c++ {
		out = append(out, cell{r, c})
	}
	return out
}

// drawsFor returns the R9 shuffle draws that turn the seats alive in st
// (increasing) into order: for i = n−1 down to 1, the j to swap with.
func drawsFor(st *State, order []int) []int {
	var cur []int
	for seat := 0; seat < Seats; seat++ {
		if st.Alive(seat) {
			cur = append(cur, seat)
		}
	}
	var draws []int
	for i := len(cur) - 1; i >= 1; i-- {
		j := 0
		for cur[j] != order[i] {
			j++
		}
		draws = append(draws, j)
		cur[i], cur[j] = cur[j], cur[i]
	}
	return draws
}

// answer maps a tagged-JSON answer of seat through the codec.
func answer(t *testing.T, st *State, seat int, js string) rules.Move {
	t.Helper()
	return Codec{}.ParseAnswer(st, seat, []byte(js))
}

// play steps st once with moves (missing seats pass) and R8 draws r8 followed
// by the shuffle draws of order, and checks how many draws were taken.
func play(t *testing.T, st *State, moves map[int]rules.Move, r8 []int, order []int) {
	t.Helper()
	var m [Seats]rules.Move
	for seat, mv := range moves {
		m[seat] = mv
	}
	draws := append(append([]int{}, r8...), drawsFor(st, order)...)
	rng := rules.Scripted(draws...)
	st.Step(m[:], rng)
	if rng.Used() != len(draws) {
		t.Fatalf("took %d draws, want %d (%v)", rng.Used(), len(draws), draws)
	}
	if err := st.Check(); err != nil {
		t.Fatalf("after the round: %v", err)
	}
}

func wantCows(t *testing.T, st *State, seat int, want []cell) {
	t.Helper()
	if got := cows(st, seat); !reflect.DeepEqual(got, want) {
		t.Errorf("seat %d owns %v, want %v", seat, got, want)
	}
}

var order0123 = []int{0, 1, 2, 3}

// TestE1Place: R11 place — a connected source keeps its cow, dst gets a new one.
func TestE1Place(t *testing.T) {
	st := start(t, map[int][]cell{0: {{0, 1}}})
	play(t, st, map[int]rules.Move{0: FullMove(at(0, 1), at(0, 2))}, nil, order0123)
	wantCows(t, st, 0, cells(cell{0, 0}, cell{0, 1}, cell{0, 2}))
}

// TestE2DisconnectedMove: R4 (diagonals do not connect) and R11 move.
func TestE2DisconnectedMove(t *testing.T) {
	st := start(t, map[int][]cell{0: {{1, 1}, {2, 2}}})
	if c := st.Connected(0); c[1] != 0 || c[2] != 0 {
		t.Fatalf("diagonal cows count as connected: %v", c[:3])
	}
	play(t, st, map[int]rules.Move{0: FullMove(at(2, 2), at(2, 3))}, nil, order0123)
	wantCows(t, st, 0, cells(cell{0, 0}, cell{1, 1}, cell{2, 3}))
}

// TestE3CaptureLeavesGap: R11 connected capture — dst := s, then src := empty.
func TestE3CaptureLeavesGap(t *testing.T) {
	st := start(t, map[int][]cell{0: {{0, 1}, {0, 2}}, 1: {{0, 3}}})
	play(t, st, map[int]rules.Move{0: FullMove(at(0, 2), at(0, 3))}, nil, order0123)
	wantCows(t, st, 0, cells(cell{0, 0}, cell{0, 1}, cell{0, 3}))
	wantCows(t, st, 1, cells(cell{0, 19}))
	if c := st.Connected(0); c[0] != 0b11 {
		t.Errorf("connected row 0 = %b, want 11 ((0,3) cut off)", c[0])
	}
}

// TestE4DisconnectedAttack: R11 both die.
func TestE4DisconnectedAttack(t *testing.T) {
	st := start(t, map[int][]cell{0: {{5, 5}}, 1: {{5, 6}}})
	play(t, st, map[int]rules.Move{0: FullMove(at(5, 5), at(5, 6))}, nil, order0123)
	wantCows(t, st, 0, cells(cell{0, 0}))
	wantCows(t, st, 1, cells(cell{0, 19}))
}

// TestE5BarnCapture: R12a elimination inside a move, R13 the eliminated seat's
// pending move is skipped, R6.5 the re-check skips a move whose src is gone.
func TestE5BarnCapture(t *testing.T) {
	setup := func() *State {
		st := start(t, map[int][]cell{0: column(0, 0, 18), 3: {{19, 1}, {18, 1}}})
		st.SetRound(41)
		return st
	}
	moves := func(st *State) map[int]rules.Move {
		m3 := answer(t, st, 3, `{"tuple":[{"tuple":[1,1]},{"tuple":[0,1]}]}`)
		if m3 != FullMove(at(18, 1), at(18, 0)) {
			t.Fatalf("seat 3's view answer maps to %+v", m3)
		}
		return map[int]rules.Move{0: FullMove(at(18, 0), at(19, 0)), 3: m3}
	}
	t.Run("order 0312", func(t *testing.T) {
		st := setup()
		play(t, st, moves(st), nil, []int{0, 3, 1, 2})
		if st.Alive(3) || st.EliminatedRound(3) != 42 || st.Territory(3) != 0 {
			t.Fatalf("seat 3: alive %v, eliminated in %d, territory %d; want out in round 42 with 0",
				st.Alive(3), st.EliminatedRound(3), st.Territory(3))
		}
		wantCows(t, st, 0, append(column(0, 0, 17), cell{19, 0}))
	})
	t.Run("order 3012", func(t *testing.T) {
		st := setup()
		play(t, st, moves(st), nil, []int{3, 0, 1, 2})
		if !st.Alive(3) {
			t.Fatal("seat 3 eliminated")
		}
		wantCows(t, st, 3, cells(cell{18, 0}, cell{19, 0}, cell{19, 1}))
		wantCows(t, st, 0, column(0, 0, 17))
	})
}

// TestE6BarnSuicide: R12b — moving the barn cow onto a rival captures, then
// empties the barn: the mover is eliminated and all its cows cleared.
func TestE6BarnSuicide(t *testing.T) {
	for _, order := range [][]int{order0123, {3, 2, 1, 0}} {
		st := start(t, map[int][]cell{0: {{1, 0}}, 1: {{0, 1}}})
		st.SetRound(7)
		play(t, st, map[int]rules.Move{0: FullMove(at(0, 0), at(0, 1))}, nil, order)
		if st.Alive(0) || st.EliminatedRound(0) != 8 {
			t.Fatalf("order %v: seat 0 alive %v, eliminated in %d; want out in round 8", order, st.Alive(0), st.EliminatedRound(0))
		}
		for _, c := range []cell{{0, 0}, {0, 1}, {1, 0}} {
			if o := st.Cell(c[0], c[1]); o != Empty {
				t.Errorf("order %v: %v owned by %d, want empty", order, c, o)
			}
		}
		wantCows(t, st, 1, cells(cell{0, 19}))
	}
}

// TestE7DestinationOnly: R8 — candidates in row-major order, U(k) for k ≥ 2,
// no own neighbour → pass without a draw (R9).
func TestE7DestinationOnly(t *testing.T) {
	setup := func() *State { return start(t, map[int][]cell{0: {{0, 1}, {2, 1}}}) }
	t.Run("U(2)=0", func(t *testing.T) {
		st := setup()
		play(t, st, map[int]rules.Move{0: answer(t, st, 0, `{"tuple":[1,1]}`)}, []int{0}, order0123)
		wantCows(t, st, 0, cells(cell{0, 0}, cell{0, 1}, cell{1, 1}, cell{2, 1}))
	})
	t.Run("U(2)=1", func(t *testing.T) {
		st := setup()
		play(t, st, map[int]rules.Move{0: answer(t, st, 0, `{"tuple":[1,1]}`)}, []int{1}, order0123)
		wantCows(t, st, 0, cells(cell{0, 0}, cell{0, 1}, cell{1, 1}))
	})
	t.Run("no own neighbour", func(t *testing.T) {
		st := setup()
		m := answer(t, st, 0, `{"tuple":[5,5]}`)
		if st.Legal(0, m) {
			t.Errorf("(5,5) without an own neighbour is Legal")
		}
		play(t, st, map[int]rules.Move{0: m}, nil, order0123)
		wantCows(t, st, 0, cells(cell{0, 0}, cell{0, 1}, cell{2, 1}))
	})
	t.Run("own destination draws, then fails R7", func(t *testing.T) {
		st := start(t, map[int][]cell{0: {{0, 1}, {1, 0}, {1, 1}}})
		play(t, st, map[int]rules.Move{0: DstMove(at(1, 1))}, []int{1}, order0123)
		wantCows(t, st, 0, cells(cell{0, 0}, cell{0, 1}, cell{1, 0}, cell{1, 1}))
	})
	t.Run("draws go to seats in increasing order", func(t *testing.T) {
		// Seat 0 and seat 1 each have two candidates; seat 0's draw comes first.
		st := start(t, map[int][]cell{0: {{0, 1}, {2, 1}}, 1: {{0, 18}, {1, 19}, {2, 18}}})
		moves := map[int]rules.Move{0: DstMove(at(1, 1)), 1: DstMove(at(1, 18))}
		// Seat 1's candidates: (0,18), (1,19), (2,18): U(3)=2 picks (2,18), not connected.
		play(t, st, moves, []int{1, 2}, order0123)
		wantCows(t, st, 0, cells(cell{0, 0}, cell{0, 1}, cell{1, 1}))
		wantCows(t, st, 1, cells(cell{0, 18}, cell{0, 19}, cell{1, 18}, cell{1, 19}))
	})
}

// TestE8SameEmptyTarget: R6.5's re-check only asks "src still mine, dst not
// mine", so the second mover captures what the first placed.
func TestE8SameEmptyTarget(t *testing.T) {
	setup := func() (*State, map[int]rules.Move) {
		st := start(t, map[int][]cell{0: row(0, 0, 9), 1: row(0, 11, 19)})
		m1 := answer(t, st, 1, `[[8,0],[9,0]]`)
		if m1 != FullMove(at(0, 11), at(0, 10)) {
			t.Fatalf("seat 1's view answer maps to %+v", m1)
		}
		return st, map[int]rules.Move{0: FullMove(at(0, 9), at(0, 10)), 1: m1}
	}
	t.Run("order 0123", func(t *testing.T) {
		st, m := setup()
		play(t, st, m, nil, order0123)
		wantCows(t, st, 0, row(0, 0, 9))
		wantCows(t, st, 1, append(cells(cell{0, 10}), row(0, 12, 19)...))
	})
	t.Run("order 1023", func(t *testing.T) {
		st, m := setup()
		play(t, st, m, nil, []int{1, 0, 2, 3})
		wantCows(t, st, 0, append(row(0, 0, 8), cell{0, 10}))
		wantCows(t, st, 1, row(0, 11, 19))
	})
}

// TestE9ConnectivityAtExecution: R11 evaluates src's connectivity on the board
// just before the move, after earlier moves of the round.
func TestE9ConnectivityAtExecution(t *testing.T) {
	setup := func() (*State, map[int]rules.Move) {
		st := start(t, map[int][]cell{0: {{0, 1}, {0, 2}}, 1: row(1, 1, 19)})
		m1 := answer(t, st, 1, `{"tuple":[{"tuple":[18,1]},{"tuple":[18,0]}]}`)
		if m1 != FullMove(at(1, 1), at(0, 1)) {
			t.Fatalf("seat 1's view answer maps to %+v", m1)
		}
		return st, map[int]rules.Move{0: FullMove(at(0, 2), at(0, 3)), 1: m1}
	}
	t.Run("order 1023", func(t *testing.T) {
		st, m := setup()
		play(t, st, m, nil, []int{1, 0, 2, 3})
		wantCows(t, st, 0, cells(cell{0, 0}, cell{0, 3}))
		wantCows(t, st, 1, append(cells(cell{0, 1}, cell{0, 19}), row(1, 2, 19)...))
	})
	t.Run("order 0123", func(t *testing.T) {
		st, m := setup()
		play(t, st, m, nil, order0123)
		wantCows(t, st, 0, cells(cell{0, 0}, cell{0, 2}, cell{0, 3}))
		wantCows(t, st, 1, append(cells(cell{0, 1}, cell{0, 19}), row(1, 2, 19)...))
	})
}

// TestE10Observation: R19's rotation and relabelling, and R20's mapping back.
func TestE10Observation(t *testing.T) {
	st := start(t, map[int][]cell{0: {{1, 0}}, 1: {{1, 19}}, 2: {{2, 19}}})
	v := View(st, 1)
	var want [Size][Size]int8
	for i := range want {
		for j := range want[i] {
			want[i][j] = -1
		}
	}
	want[0][0], want[0][1], want[0][2], want[0][19] = 0, 0, 1, 1
	want[19][0], want[19][1], want[19][19] = 3, 3, 2
	if v != want {
		t.Fatalf("seat 1's view:\n%v\nwant\n%v", v, want)
	}
	req := string(Codec{}.AppendRequest(nil, st, 1))
	row0 := "[0,0,1" + strings.Repeat(",-1", 16) + ",1]"
	row19 := "[3,3" + strings.Repeat(",-1", 17) + ",2]"
	empty := "[-1" + strings.Repeat(",-1", 19) + "]"
	wantReq := "[[" + row0 + strings.Repeat(","+empty, 18) + "," + row19 + "]]"
	if req != wantReq {
		t.Fatalf("request\n%s\nwant\n%s", req, wantReq)
	}
	if m := answer(t, st, 1, `{"tuple":[{"tuple":[0,1]},{"tuple":[1,1]}]}`); m != FullMove(at(1, 19), at(1, 18)) {
		t.Fatalf("answer ((0,1),(1,1)) maps to %+v, want (1,19)→(1,18)", m)
	}
}

// TestE11Ranking: R15 ranking with ties, R16 points and win shares, and R17's
// controller list.
func TestE11Ranking(t *testing.T) {
	st := newState(false)
	st.SetRound(MaxRounds)
	st.SetEliminated(1, 300)
	st.SetEliminated(3, 900)
	for _, c := range append(append(row(0, 0, 19), row(1, 0, 19)...), row(2, 0, 9)...) {
		st.SetCell(c[0], c[1], 0)
	}
	for _, c := range append(append(row(19, 0, 19), row(18, 0, 19)...), row(17, 10, 19)...) {
		st.SetCell(c[0], c[1], 2)
	}
	if err := st.Check(); err != nil {
		t.Fatal(err)
	}
	if !st.Done() || st.Territory(0) != 50 || st.Territory(2) != 50 {
		t.Fatalf("done %v, territories %d, %d", st.Done(), st.Territory(0), st.Territory(2))
	}
	o := rules.NewOutcome(Seats)
	st.Outcome(o)
	if want := []float64{2.5, 0, 2.5, 1}; !reflect.DeepEqual(o.Points, want) || !reflect.DeepEqual(o.Score, want) {
		t.Errorf("points %v, score %v, want %v", o.Points, o.Score, want)
	}
	if want := []float64{0.5, 0, 0.5, 0}; !reflect.DeepEqual(o.Win, want) {
		t.Errorf("win %v, want %v", o.Win, want)
	}
	if got := st.ControllerList(); got != [Seats]int{2, 0, 3, 1} {
		t.Errorf("controller list %v, want [2 0 3 1]", got)
	}
}

// TestR17SameRoundEliminations: the controller lists same-round eliminations
// in the order they happened; gridgym ranks them as tied (R15).
func TestR17SameRoundEliminations(t *testing.T) {
	st := newState(false)
	st.SetRound(500)
	st.SetEliminated(3, 500)
	st.SetEliminated(1, 500)
	st.SetEliminated(2, 20)
	if got := st.ControllerList(); got != [Seats]int{0, 3, 1, 2} {
		t.Errorf("controller list %v, want [0 3 1 2]", got)
	}
	o := rules.NewOutcome(Seats)
	st.Outcome(o)
	if want := []float64{3, 1.5, 0, 1.5}; !reflect.DeepEqual(o.Points, want) {
		t.Errorf("points %v, want %v", o.Points, want)
	}
	if want := []float64{1, 0, 0, 0}; !reflect.DeepEqual(o.Win, want) {
		t.Errorf("win %v, want %v", o.Win, want)
	}
}

// TestE12AnswerShapes: R20's accepted forms and a ValueError shape.
func TestE12AnswerShapes(t *testing.T) {
	cases := []struct {
		name, js string
		want     rules.Move
		cows     []cell // seat 0's cows after the round, default rules
		cowsVar  []cell // under nonadjacent_moves
	}{
		{"(0,1)", `{"tuple":[0,1]}`, DstMove(at(0, 1)), cells(cell{0, 0}, cell{0, 1}), nil},
		{"[0,1]", `[0,1]`, DstMove(at(0, 1)), cells(cell{0, 0}, cell{0, 1}), nil},
		{"numpy ints", `{"tuple":[{"np":"int64","v":0},{"np":"int64","v":1}]}`, DstMove(at(0, 1)), cells(cell{0, 0}, cell{0, 1}), nil},
		{"floats truncate", `{"tuple":[{"tuple":[0.0,0.9]},{"tuple":[0,1.7]}]}`, FullMove(at(0, 0), at(0, 1)), cells(cell{0, 0}, cell{0, 1}), nil},
		{"diagonal", `{"tuple":[{"tuple":[0,0]},{"tuple":[1,1]}]}`, FullMove(at(0, 0), at(1, 1)), cells(cell{0, 0}), cells(cell{0, 0}, cell{1, 1})},
		{"three pairs", `{"tuple":[{"tuple":[0,0]},{"tuple":[0,1]},{"tuple":[0,2]}]}`, rules.Move{}, cells(cell{0, 0}), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, nonadj := range []bool{false, true} {
				st := newState(nonadj)
				m := answer(t, st, 0, tc.js)
				if m != tc.want {
					t.Fatalf("%s parses to %+v, want %+v", tc.js, m, tc.want)
				}
				play(t, st, map[int]rules.Move{0: m}, nil, order0123)
				want := tc.cows
				if nonadj && tc.cowsVar != nil {
					want = tc.cowsVar
				}
				wantCows(t, st, 0, want)
			}
		})
	}
}

// TestR12cBarnOntoBarn: under nonadjacent_moves, the barn cow capturing a
// rival barn eliminates the rival first, then the mover (R12c).
func TestR12cBarnOntoBarn(t *testing.T) {
	st := newState(true)
	st.SetRound(4)
	play(t, st, map[int]rules.Move{0: FullMove(at(0, 0), at(0, 19))}, nil, order0123)
	if st.Alive(0) || st.Alive(1) || st.EliminatedRound(0) != 5 || st.EliminatedRound(1) != 5 {
		t.Fatalf("alive %v %v, rounds %d %d; want both out in round 5", st.Alive(0), st.Alive(1), st.EliminatedRound(0), st.EliminatedRound(1))
	}
	if got := st.ControllerList(); got != [Seats]int{3, 2, 1, 0} {
		t.Errorf("controller list %v, want [3 2 1 0] (rival eliminated first)", got)
	}
	if st.Legal(0, FullMove(at(0, 0), at(5, 5))) {
		t.Error("a move of an eliminated seat is Legal")
	}
}

// TestR14End: the game ends when at most one seat is alive (checked after the
// round) and Step does nothing afterwards.
func TestR14End(t *testing.T) {
	st := start(t, map[int][]cell{0: row(0, 1, 18)})
	st.SetEliminated(2, 3)
	st.SetEliminated(3, 3)
	st.SetRound(10)
	play(t, st, map[int]rules.Move{0: FullMove(at(0, 18), at(0, 19))}, nil, []int{1, 0})
	if !st.Done() || st.Alive(1) || st.EliminatedRound(1) != 11 {
		t.Fatalf("done %v, seat 1 alive %v eliminated %d", st.Done(), st.Alive(1), st.EliminatedRound(1))
	}
	h, _ := rules.Hash(st, nil)
	st.Step([]rules.Move{FullMove(at(0, 18), at(1, 18))}, rules.NewRNG(1))
	if h2, _ := rules.Hash(st, nil); h2 != h || st.Round() != 11 {
		t.Fatal("Step changed a finished game")
	}
	for seat := 0; seat < Seats; seat++ {
		if st.Active(seat) {
			t.Errorf("seat %d active in a finished game", seat)
		}
	}
	// The round cap (R5, R14).
	st = newState(false)
	st.SetRound(MaxRounds - 1)
	if st.Done() {
		t.Fatal("done before round 10 000")
	}
	play(t, st, nil, nil, order0123)
	if !st.Done() || st.Round() != MaxRounds {
		t.Fatalf("after round %d done = %v", st.Round(), st.Done())
	}
}

// TestR10Garbage: malformed and invalid moves are passes (R7, R10) and Legal
// rejects them.
func TestR10Garbage(t *testing.T) {
	st := start(t, map[int][]cell{0: {{0, 1}}})
	if m := FullMove(1, 21); !st.Legal(0, m) { // (0,1)→(1,1): valid, the control
		t.Fatalf("%+v is not Legal", m)
	}
	bad := []rules.Move{
		{Kind: Full, N: 1, Arg: [8]int16{1, 2}},
		{Kind: Full, N: 3, Arg: [8]int16{1, 2}},
		{Kind: Dst, N: 2, Arg: [8]int16{2}},
		{Kind: 3, N: 2, Arg: [8]int16{1, 2}},
		{Kind: 255, N: 255, Arg: [8]int16{-1, -1}},
		FullMove(-1, 0), FullMove(1, 400), FullMove(1, -32768), FullMove(32767, 2), DstMove(400), DstMove(-21),
		FullMove(2, 3), // src not owned
		FullMove(0, 1), // dst owned
		FullMove(1, 3), // not side-adjacent
		DstMove(1),     // own destination
	}
	for _, m := range bad {
		if st.Legal(0, m) {
			t.Errorf("%+v is Legal", m)
		}
		c := st.Clone().(*State)
		play(t, c, map[int]rules.Move{0: m}, nil, order0123)
		wantCows(t, c, 0, cells(cell{0, 0}, cell{0, 1}))
	}
	// Rows do not wrap: seat 1's barn (0,19) and cell 20 = (1,0) are not adjacent.
	if newState(false).Legal(1, FullMove(19, 20)) {
		t.Error("(0,19)→(1,0) is Legal")
	}
	if !newState(true).Legal(1, FullMove(19, 20)) {
		t.Error("(0,19)→(1,0) is not Legal under nonadjacent_moves")
	}
}

// TestRender: 20 board lines (barns as letters, cows as seat digits) and the
// status line; colour mode wraps cows in ANSI codes.
func TestRender(t *testing.T) {
	st := start(t, map[int][]cell{0: {{0, 1}}})
	st.SetEliminated(2, 1)
	st.SetRound(3)
	var b strings.Builder
	st.Render(&b, false)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != Size+1 {
		t.Fatalf("%d lines, want %d", len(lines), Size+1)
	}
	if want := "A 0" + strings.Repeat(" .", 17) + " B"; lines[0] != want {
		t.Errorf("row 0 = %q, want %q", lines[0], want)
	}
	if want := "D" + strings.Repeat(" .", 19); lines[19] != want {
		t.Errorf("row 19 = %q, want %q", lines[19], want)
	}
	if want := "round 3/10000  0:2  1:1  2:out(R1)  3:1"; lines[20] != want {
		t.Errorf("status = %q, want %q", lines[20], want)
	}
	b.Reset()
	st.Render(&b, true)
	if !strings.Contains(b.String(), seatColor[0]+"A \x1b[0m") {
		t.Errorf("colour render lacks seat 0's coloured barn")
	}
}
