package risingtide

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// startDiagram is the start board of rising-tide §1 (R3, R4).
const startDiagram = `111111111111111111
122222222222222221
123333333333333321
123444444444444321
123455555555554321
123450666666054321
123456666666654321
123456666666654321
123456666666654321
123456666666654321
123456666666654321
123456666666654321
123450666666054321
123455555555554321
123444444444444321
123333333333333321
122222222222222221
111111111111111111`

func TestE1StartBoard(t *testing.T) {
	s := newGame(t, false)
	rows := strings.Split(startDiagram, "\n")
	count := map[int]int{}
	for i, row := range rows {
		for j, ch := range row {
			if got := s.Height(i, j); got != int(ch-'0') {
				t.Errorf("R3/R4: h(%d,%d) = %d, want %c", i, j, got, ch)
			}
			count[s.Height(i, j)]++
		}
	}
	want := map[int]int{0: 4, 1: 68, 2: 60, 3: 52, 4: 44, 5: 36, 6: 60}
	for h, n := range want {
		if count[h] != n {
			t.Errorf("R3: %d cells of height %d, want %d", count[h], h, n)
		}
	}
	for _, c := range []struct{ i, j, h int }{{0, 0, 1}, {0, 9, 1}, {1, 1, 2}, {3, 9, 4}, {4, 4, 5}, {4, 13, 5}, {5, 6, 6}, {8, 8, 6}, {5, 5, 0}, {5, 12, 0}, {12, 12, 0}, {12, 5, 0}} {
		if got := s.Height(c.i, c.j); got != c.h {
			t.Errorf("E1: h(%d,%d) = %d, want %d", c.i, c.j, got, c.h)
		}
	}
	if s.TotalHeight() != 1060 {
		t.Errorf("E1: total height %d, want 1060", s.TotalHeight())
	}
	for seat := range Seats {
		if !s.Active(seat) || s.Score(seat) != 0 {
			t.Errorf("R5: seat %d active=%v score=%d at the start", seat, s.Active(seat), s.Score(seat))
		}
	}
	if err := s.Check(); err != nil {
		t.Error(err)
	}
}

// step0 plays one round in which seat 0 plays m and the others pass, in seat order.
func step0(s *State, m rules.Move) *rules.RNG {
	rng := rules.Scripted(drawsFor(0, 1, 2, 3)...)
	s.Step([]rules.Move{m, {}, {}, {}}, rng)
	return rng
}

type cellWant struct{ i, j, h int }

func expectCells(t *testing.T, s *State, what string, want ...cellWant) {
	t.Helper()
	for _, c := range want {
		if got := s.Height(c.i, c.j); got != c.h {
			t.Errorf("%s: h(%d,%d) = %d, want %d", what, c.i, c.j, got, c.h)
		}
	}
}

func TestE2SeedFigure(t *testing.T) {
	for _, tc := range []struct {
		name        string
		nonadjacent bool
		m           rules.Move
		want        []cellWant
	}{
		{"a_R10_side_neighbour", false, MakeMove(8, 8, 8, 9), []cellWant{{8, 8, 5}, {8, 9, 7}}},
		{"b_R10_diagonal", false, MakeMove(8, 8, 9, 9), []cellWant{{8, 8, 5}, {9, 9, 7}}},
		{"c_R10b_not_neighbours", false, MakeMove(8, 8, 8, 10), []cellWant{{8, 8, 6}, {8, 10, 6}}},
		{"c_variant_nonadjacent", true, MakeMove(8, 8, 8, 10), []cellWant{{8, 8, 5}, {8, 10, 7}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newGame(t, tc.nonadjacent)
			legal := tc.want[0].h == 5
			if got := s.Legal(0, tc.m); got != legal {
				t.Errorf("Legal = %v, want %v", got, legal)
			}
			rng := step0(s, tc.m)
			expectCells(t, s, "E2"+tc.name, tc.want...)
			if rng.Used() != 3 {
				t.Errorf("R8: %d draws, want 3", rng.Used())
			}
			want := 1060
			if s.TotalHeight() != want {
				t.Errorf("I2: total %d, want %d", s.TotalHeight(), want)
			}
		})
	}
}

func TestE3PassesAtSubmission(t *testing.T) {
	for _, tc := range []struct {
		name        string
		nonadjacent bool
		setup       []cellWant
		m           rules.Move
		variantNoop bool // legal but a no-op under the variant
	}{
		{name: "R10e_dst_settlement", m: MakeMove(5, 6, 5, 5)},
		{name: "R10e_src_settlement", m: MakeMove(5, 5, 5, 6)},
		{name: "R10b_src_equals_dst", m: MakeMove(8, 8, 8, 8)},
		{name: "variant_src_equals_dst_noop", nonadjacent: true, m: MakeMove(8, 8, 8, 8), variantNoop: true},
		{name: "R10a_out_of_bounds", m: rules.Move{Kind: KindMove, N: 2, Arg: [8]int16{0, -18}}},
		{name: "R10c_empty_source", setup: []cellWant{{4, 4, 0}}, m: MakeMove(4, 4, 3, 3)},
		{name: "R10d_full_destination", setup: []cellWant{{8, 9, 8}}, m: MakeMove(8, 8, 8, 9)},
		{name: "R10c_flooded_source", setup: []cellWant{{8, 8, -1}}, m: MakeMove(8, 8, 8, 9)},
		{name: "R10d_flooded_destination", setup: []cellWant{{8, 9, -1}}, m: MakeMove(8, 8, 8, 9)},
		{name: "R10d_flooded_destination_variant", nonadjacent: true, setup: []cellWant{{8, 12, -1}}, m: MakeMove(8, 8, 8, 12)},
		{name: "R9_wrong_kind", m: rules.Move{Kind: 2, N: 2, Arg: [8]int16{8*18 + 8, 8*18 + 9}}},
		{name: "R9_wrong_N", m: rules.Move{Kind: KindMove, N: 3, Arg: [8]int16{8*18 + 8, 8*18 + 9}}},
		{name: "R9_huge_arg", m: rules.Move{Kind: KindMove, N: 2, Arg: [8]int16{32767, 8*18 + 9}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newGame(t, tc.nonadjacent)
			for _, c := range tc.setup {
				s.SetCell(c.i, c.j, c.h)
			}
			before := s.Heights()
			if got := s.Legal(0, tc.m); got != tc.variantNoop {
				t.Errorf("Legal = %v, want %v", got, tc.variantNoop)
			}
			step0(s, tc.m)
			if s.Heights() != before {
				t.Errorf("E3: the board changed")
			}
			if err := s.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestMakeMoveOutOfBoundsIsPass(t *testing.T) {
	if m := MakeMove(0, 0, -1, 0); m != (rules.Move{}) {
		t.Errorf("E3 R10a: MakeMove(0,0,−1,0) = %+v, want Pass", m)
	}
}

func TestE4ExhaustedSourceOrderMatters(t *testing.T) {
	seat1 := MoveFromView(1, 9, 8, 9, 7)
	if seat1 != MakeMove(8, 8, 7, 8) {
		t.Fatalf("R20: seat 1's ((9,8),(9,7)) maps to %+v, want real (8,8)→(7,8)", seat1)
	}
	for _, tc := range []struct {
		order []int
		want  []cellWant
	}{
		{[]int{1, 0, 2, 3}, []cellWant{{8, 8, 0}, {7, 8, 7}, {8, 9, 6}}},
		{[]int{0, 1, 2, 3}, []cellWant{{8, 8, 0}, {8, 9, 7}, {7, 8, 6}}},
	} {
		s := newGame(t, false)
		s.SetRound(10)
		s.SetCell(8, 8, 1)
		moves := []rules.Move{MakeMove(8, 8, 8, 9), seat1, {}, {}}
		for seat := range 2 {
			if !s.Legal(seat, moves[seat]) {
				t.Fatalf("E4: seat %d's move is not legal at submission", seat)
			}
		}
		rng := rules.Scripted(drawsFor(tc.order...)...)
		s.Step(moves, rng)
		expectCells(t, s, "E4 R7.4", tc.want...)
		if rng.Used() != 3 {
			t.Errorf("R8: %d draws, want 3", rng.Used())
		}
		if n := bitsCount(s.FloodedSet()); n != 0 {
			t.Errorf("E4: %d cells flooded in round 10, want none", n)
		}
	}
}

func bitsCount(b [Size]uint64) int {
	n := 0
	for _, w := range b {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

func TestE5HeightCap(t *testing.T) {
	seat2 := MoveFromView(2, 8, 8, 9, 8)
	if seat2 != MakeMove(9, 9, 8, 9) {
		t.Fatalf("R20: seat 2's ((8,8),(9,8)) maps to %+v, want real (9,9)→(8,9)", seat2)
	}
	for _, tc := range []struct {
		order []int
		want  []cellWant
	}{
		{[]int{2, 0, 1, 3}, []cellWant{{9, 9, 5}, {8, 9, 8}, {8, 8, 6}}},
		{[]int{0, 2, 1, 3}, []cellWant{{8, 8, 5}, {8, 9, 8}, {9, 9, 6}}},
	} {
		s := newGame(t, false)
		s.SetRound(10)
		s.SetCell(8, 9, 7)
		rng := rules.Scripted(drawsFor(tc.order...)...)
		s.Step([]rules.Move{MakeMove(8, 8, 8, 9), {}, seat2, {}}, rng)
		expectCells(t, s, "E5 R10d", tc.want...)
		if rng.Used() != 3 {
			t.Errorf("R8: %d draws, want 3", rng.Used())
		}
	}
}

func TestE6AllPassGame(t *testing.T) {
	s := newGame(t, false)
	rng := rules.Scripted(0)
	pass := make([]rules.Move, Seats)
	want := map[int]int{100: 0, 101: 68, 200: 68, 201: 128, 301: 180, 401: 224, 500: 224, 501: 260, 502: 264}
	for !s.Done() {
		r := s.Round()
		s.Step(pass, rng)
		if n, ok := want[r]; ok && bitsCount(s.FloodedSet()) != n {
			t.Errorf("E6 R12: %d cells flooded after round %d, want %d", bitsCount(s.FloodedSet()), r, n)
		}
		if r < 502 && s.AliveMask() != 15 {
			t.Fatalf("E6: a seat died in round %d", r)
		}
	}
	if s.Steps() != 503 {
		t.Errorf("E6 R15: the game ended after %d rounds, want 503 (rounds 0..502)", s.Steps())
	}
	if rng.Used() != 3*503 {
		t.Errorf("R8: %d draws, want %d", rng.Used(), 3*503)
	}
	for i := 5; i <= 12; i++ {
		for j := 5; j <= 12; j++ {
			if h := s.Height(i, j); h != 6 && !IsSettlement(i, j) {
				t.Errorf("E6: inner cell (%d,%d) is %d, want 6", i, j, h)
			}
		}
	}
	o := rules.NewOutcome(Seats)
	s.Outcome(o)
	for seat := range Seats {
		if o.Score[seat] != 502 || o.Win[seat] != 0.25 || o.Points[seat] != 1.5 {
			t.Errorf("E6 R16: seat %d score %v points %v win %v, want 502, 1.5, 0.25", seat, o.Score[seat], o.Points[seat], o.Win[seat])
		}
	}
}

func TestE7SeedFloodFigure(t *testing.T) {
	s := newGame(t, false)
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			if !IsSettlement(i, j) {
				s.SetCell(i, j, 6)
			}
		}
	}
	for _, p := range [][2]int{{1, 9}, {2, 7}, {3, 7}, {3, 9}, {4, 9}} {
		s.SetCell(p[0], p[1], 1)
	}
	for _, p := range [][2]int{{0, 6}, {0, 7}, {0, 8}, {0, 9}, {0, 10}, {1, 8}} {
		s.SetCell(p[0], p[1], Flooded)
	}
	s.SetRound(150)
	before := s.Heights()
	s.Step(make([]rules.Move, Seats), rules.Scripted(0))
	after := before
	after[1][9], after[2][7] = Flooded, Flooded // R12: (1,9) and (2,7) flood; (3,7) waits
	if got := s.Heights(); got != after {
		for i := 0; i < 6; i++ {
			t.Errorf("E7 row %d: got %v want %v", i, got[i][6:12], after[i][6:12])
		}
	}
}

func TestE8OneLayerPerRound(t *testing.T) {
	s := newGame(t, false)
	for i := 0; i <= 2; i++ {
		s.SetCell(i, 8, 0)
	}
	for r := 1; r <= 3; r++ {
		s.SetRound(r)
		before := s.Heights()
		s.Step(make([]rules.Move, Seats), rules.Scripted(0))
		want := before
		want[r-1][8] = Flooded
		if s.Heights() != want {
			t.Errorf("E8 R12: round %d floods something other than (%d,8)", r, r-1)
		}
	}
}

func TestE9EliminationMoveStillCounts(t *testing.T) {
	s := newGame(t, false)
	s.SetCell(4, 4, Flooded)
	s.SetRound(1)
	rng := rules.Scripted(0)
	s.Step([]rules.Move{MakeMove(6, 6, 6, 7), {}, {}, {}}, rng)
	expectCells(t, s, "E9 R14", cellWant{6, 6, 5}, cellWant{6, 7, 7}, cellWant{5, 5, Flooded}, cellWant{3, 3, 4}, cellWant{4, 5, 5})
	if n := bitsCount(s.FloodedSet()); n != 2 {
		t.Errorf("E9: %d flooded cells, want 2", n)
	}
	if s.Active(0) || s.Alive(0) || s.Score(0) != 1 || s.EliminationRound(0) != 1 {
		t.Errorf("E9: seat 0 active=%v score=%d, want eliminated with 1", s.Active(0), s.Score(0))
	}
	for seat := 1; seat < Seats; seat++ {
		if !s.Active(seat) {
			t.Errorf("E9: seat %d not active", seat)
		}
	}
	// From round 2 only seats 1–3 are asked: R8 shuffles three seats (2 draws),
	// and seat 0's move is ignored.
	rng = rules.Scripted(drawsFor(3, 1, 2)...)
	before := s.Heights()
	s.Step([]rules.Move{MakeMove(8, 8, 8, 9), {}, {}, {}}, rng)
	if rng.Used() != 2 || s.Heights() != before {
		t.Errorf("E9: round 2 took %d draws (want 2); board changed=%v", rng.Used(), s.Heights() != before)
	}
	if err := s.Check(); err != nil {
		t.Error(err)
	}
}

func TestE10Scores(t *testing.T) {
	pass := make([]rules.Move, Seats)
	play := func(s *State, r int, flood ...[2]int) {
		s.SetRound(r)
		for _, p := range flood {
			s.SetCell(p[0], p[1], Flooded)
		}
		s.Step(pass, rules.Scripted(0))
	}
	scores := func(s *State) [Seats]int {
		var out [Seats]int
		for seat := range out {
			out[seat] = s.Score(seat)
		}
		return out
	}
	s := newGame(t, false)
	play(s, 410, [2]int{13, 13}) // seat 2's settlement (12,12) floods in round 410
	if s.Done() || s.Alive(2) {
		t.Fatalf("E10: after round 410 done=%v alive(2)=%v", s.Done(), s.Alive(2))
	}
	a := s.Clone().(*State)
	play(a, 455, [2]int{4, 4}, [2]int{13, 4}) // seats 0 and 3
	if !a.Done() || scores(a) != [Seats]int{455, 800, 410, 455} {
		t.Errorf("E10 R15/R16: done=%v scores %v, want (455, 800, 410, 455)", a.Done(), scores(a))
	}
	b := s.Clone().(*State)
	play(b, 455, [2]int{4, 4}, [2]int{13, 4}, [2]int{4, 13})
	if !b.Done() || scores(b) != [Seats]int{455, 455, 410, 455} {
		t.Errorf("E10 R16: done=%v scores %v, want (455, 455, 410, 455)", b.Done(), scores(b))
	}
	o := rules.NewOutcome(Seats)
	b.Outcome(o)
	if o.Win[0] != 1.0/3 || o.Win[2] != 0 || o.Points[2] != 0 || o.Points[1] != 2 {
		t.Errorf("E10 R17: points %v win %v", o.Points, o.Win)
	}
	c := s.Clone().(*State)
	play(c, 700, [2]int{4, 4})
	play(c, 799)
	if !c.Done() || scores(c) != [Seats]int{700, 800, 410, 800} {
		t.Errorf("E10 R15: after round 799 done=%v scores %v, want (700, 800, 410, 800)", c.Done(), scores(c))
	}
	for _, x := range []*State{a, b, c} {
		if err := x.Check(); err != nil {
			t.Error(err)
		}
	}
}

func TestR15FinishedGameIgnoresStep(t *testing.T) {
	s := newGame(t, false)
	s.SetRound(MaxRounds)
	if !s.Done() {
		t.Fatal("R15: round 800 is not over")
	}
	h := mustHash(s)
	rng := rules.Scripted(0)
	s.Step([]rules.Move{MakeMove(8, 8, 8, 9)}, rng)
	if mustHash(s) != h || rng.Used() != 0 || s.Active(0) {
		t.Error("Step on a finished game changed it or drew")
	}
}

func mustHash(s rules.State) uint64 { h, _ := rules.Hash(s, nil); return h }

func TestShortMovesSlice(t *testing.T) {
	s := newGame(t, false)
	s.Step(nil, rules.NewRNG(1))
	s.Step([]rules.Move{MakeMove(8, 8, 8, 9)}, rules.NewRNG(1))
	expectCells(t, s, "R9 missing moves", cellWant{8, 8, 5}, cellWant{8, 9, 7})
}

func TestConformance(t *testing.T) {
	for _, nonadj := range []bool{false, true} {
		t.Run(map[bool]string{false: "default", true: "nonadjacent_moves"}[nonadj], func(t *testing.T) {
			rulestest.Conformance(t, config(t, nonadj), 12)
		})
	}
}

func FuzzGame(f *testing.F) { rulestest.Fuzz(f, config(f, false)) }

func FuzzGameNonadjacent(f *testing.F) { rulestest.Fuzz(f, config(f, true)) }

func TestLegalMovesMatchR10(t *testing.T) {
	// LegalMoves is exactly Pass plus the neighbour moves that R10 allows, and
	// RandomMove is uniform over it (one U(n+1) draw).
	for _, nonadj := range []bool{false, true} {
		s := newGame(t, nonadj)
		rng := rules.NewRNG(3)
		moves := make([]rules.Move, Seats)
		for step := 0; step < 400 && !s.Done(); step++ {
			randomMoves(s, rng, moves)
			s.Step(moves, rng)
			if step%37 != 0 {
				continue
			}
			r := refOf(s)
			r.nonadj = false
			for seat := range Seats {
				got := s.LegalMoves(seat, nil)
				if !s.Active(seat) {
					if len(got) != 1 || got[0] != (rules.Move{}) {
						t.Fatalf("inactive seat %d: LegalMoves %v, want [Pass]", seat, got)
					}
					continue
				}
				set := map[rules.Move]bool{}
				for _, m := range got {
					if set[m] {
						t.Fatalf("duplicate %+v", m)
					}
					set[m] = true
				}
				n := 0
				for i1 := 0; i1 < Size; i1++ {
					for j1 := 0; j1 < Size; j1++ {
						for i2 := i1 - 1; i2 <= i1+1; i2++ {
							for j2 := j1 - 1; j2 <= j1+1; j2++ {
								if r.legal(i1, j1, i2, j2) {
									n++
									if !set[MakeMove(i1, j1, i2, j2)] {
										t.Fatalf("LegalMoves misses (%d,%d)→(%d,%d)", i1, j1, i2, j2)
									}
								}
							}
						}
					}
				}
				if n+1 != len(got) || got[0] != (rules.Move{}) {
					t.Fatalf("LegalMoves has %d entries, want Pass + %d", len(got), n)
				}
				// The k-th draw maps onto distinct moves: all n+1 values give the whole set.
				seen := map[rules.Move]bool{}
				for k := 0; k <= n; k++ {
					seen[s.RandomMove(seat, rules.Scripted(k))] = true
				}
				if len(seen) != n+1 {
					t.Fatalf("RandomMove reaches %d of %d moves", len(seen), n+1)
				}
			}
		}
	}
}

func TestRender(t *testing.T) {
	s := newGame(t, false)
	var b bytes.Buffer
	s.Render(&b, false)
	lines := strings.Split(b.String(), "\n")
	if lines[0] != "111111111111111111" || lines[5] != "12345A666666B54321" || lines[12] != "12345D666666C54321" {
		t.Errorf("render:\n%s", b.String())
	}
	if lines[18] != "round 0 water 0.00 alive A B C D score 0 0 0 0" {
		t.Errorf("status line %q", lines[18])
	}
	b.Reset()
	s.Render(&b, true)
	if !strings.Contains(b.String(), seatColor[0]+"A"+ansiReset) {
		t.Error("colour render lacks seat A's colour")
	}
}

func TestWordsRejectBadInput(t *testing.T) {
	s := newGame(t, false)
	good := s.AppendWords(nil)
	if len(good) != numWords {
		t.Fatalf("%d words", len(good))
	}
	for _, tc := range []struct {
		name string
		edit func(w []uint64)
	}{
		{"bad nibble", func(w []uint64) { w[3] |= 9 << 8 }},
		{"past last cell", func(w []uint64) { w[20] |= 1 << 40 }},
		{"round too big", func(w []uint64) { w[21] |= 801 }},
		{"settlement not 0", func(w []uint64) { w[(5*18+5)/16] += 1 << (4 * ((5*18 + 5) % 16)) }},
		{"dead seat with land settlement", func(w []uint64) { w[21] |= 3 << 16 }},
		{"flooded settlement of alive seat", func(w []uint64) { w[(5*18+5)/16] |= 15 << (4 * ((5*18 + 5) % 16)) }},
	} {
		w := append([]uint64(nil), good...)
		tc.edit(w)
		if err := s.SetWords(w); err == nil {
			t.Errorf("%s: SetWords accepted it", tc.name)
		}
	}
	if err := s.SetWords(good[:5]); err == nil {
		t.Error("short words accepted")
	}
	if mustHash(s) != mustHash(newGame(t, false)) {
		t.Error("a failed SetWords changed the state")
	}
}
