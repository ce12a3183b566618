package rectangle

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// Golden tests: the worked examples E1..E11 of shared/rules/rectangle.md §7
// (n = 8, p = 4 unless stated). The game is deterministic: every example also
// checks that Step draws nothing from a scripted RNG (R6).

func placeAll(s *State, cells ...[]Pos) []rules.Move {
	moves := make([]rules.Move, s.p)
	for i, c := range cells {
		moves[i] = PlaceMove(s.n, c)
	}
	return moves
}

func stepNoDraw(t *testing.T, s *State, moves []rules.Move) {
	t.Helper()
	rng := rules.Scripted()
	s.Step(moves, rng)
	if rng.Used() != 0 {
		t.Fatalf("Step drew %d random numbers; the game has no randomness (R6)", rng.Used())
	}
	mustCheck(t, s)
}

func wantClaims(t *testing.T, s *State, want ...Claim) {
	t.Helper()
	got := s.LastClaims()
	if len(got) != len(want) || s.ClaimCount() != len(want) {
		t.Fatalf("claims %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("claim %d = %+v, want %+v (all %+v)", i, got[i], want[i], got)
		}
	}
}

// E1: the placement with shared cells (R7, R10).
func e1(t *testing.T) *State {
	s := NewSized(8, 4, 2, 100, 2000)
	stepNoDraw(t, s, placeAll(s,
		[]Pos{{1, 1}, {1, 2}}, []Pos{{1, 2}, {5, 5}}, []Pos{{6, 6}, {6, 6}}, []Pos{{0, 0}, {7, 7}}))
	return s
}

func TestE1PlacementSharedCellsR7R10(t *testing.T) {
	s := e1(t)
	wantMap(t, s, []string{
		"3.......",
		".0......", // (1,2): robots of players 0 and 1 → unpainted
		"........",
		"........",
		"........",
		".....1..",
		"........", // (6,6): two robots of player 2 → unpainted
		".......3",
	})
	wantScores(t, s, 0, 0, 0, 0)
	if s.Idle() != 0 || s.Steps() != 1 || s.Done() || s.ClaimCount() != 0 {
		t.Fatalf("after placement: idle %d steps %d done %v claims %d", s.Idle(), s.Steps(), s.Done(), s.ClaimCount())
	}
}

// E2: the first move from E1 (R8, R10).
func TestE2FirstMoveR8R10(t *testing.T) {
	s := e1(t)
	stepNoDraw(t, s, dirs(s, "SX", "EX", "ES", "NW"))
	for _, w := range [][4]int{
		{0, 0, 2, 1}, {0, 1, 1, 2}, {1, 0, 1, 3}, {1, 1, 5, 5},
		{2, 0, 6, 7}, {2, 1, 7, 6}, {3, 0, 0, 0}, {3, 1, 7, 6},
	} {
		wantRobot(t, s, w[0], w[1], w[2], w[3])
	}
	wantMap(t, s, []string{
		"3.......", // (0,0): stopped by the edge, no arrival, paint kept
		".0.1....", // (1,1) kept after the robot left; (1,2) not repainted by a staying robot
		".0......",
		"........",
		"........",
		".....1..",
		".......2", // (6,6) still unpainted
		".......3", // (7,6): robots of players 2 and 3 arrived together → unpainted
	})
	if s.Idle() != 1 {
		t.Fatalf("idle %d after a move without claims, want 1 (R14)", s.Idle())
	}
}

// E3: the smallest claim (R11, R13), b = 1.
func TestE3SmallestClaimR11R13(t *testing.T) {
	s := build(t, 4, 1, []string{
		"........",
		"........",
		"..000...",
		"..010...",
		"..00.0..",
		"........",
		"........",
		"........",
	})
	robots(s, [4]int{0, 0, 4, 5})
	stepNoDraw(t, s, dirs(s, "W"))
	wantMap(t, s, []string{
		"........",
		"........",
		"..000...",
		"..0#0...", // (3,3) loses player 1's paint and becomes unpaintable
		"..0000..", // the boundary stays 0 and (4,5) keeps its 0
		"........",
		"........",
		"........",
	})
	wantScores(t, s, 1, 0, 0, 0)
	wantClaims(t, s, Claim{Player: 0, R1: 2, C1: 2, R2: 4, C2: 4, Gain: 1})
	if s.Idle() != 0 {
		t.Fatalf("idle %d after a claiming move, want 0 (R14)", s.Idle())
	}
}

// E4: enclosing an old claim (R13): only the paintable interior counts.
func TestE4EnclosingOldClaimR13(t *testing.T) {
	s := build(t, 4, 1, []string{
		"........",
		".11.11..",
		".10001..",
		".10#01..",
		".10001..",
		".11111..",
		"........",
		"........",
	})
	robots(s, [4]int{0, 0, 4, 4}, [4]int{1, 0, 0, 3})
	stepNoDraw(t, s, dirs(s, "X", "S"))
	wantMap(t, s, []string{
		"........",
		".11111..",
		".1###1..",
		".1###1..",
		".1###1..",
		".11111..",
		"........",
		"........",
	})
	wantScores(t, s, 1, 8, 0, 0)
	wantClaims(t, s, Claim{Player: 1, R1: 1, C1: 1, R2: 5, C2: 5, Gain: 8})
	wantRobot(t, s, 0, 0, 4, 4) // now on an unpaintable cell
	if s.Cell(4, 4) != Unpaintable {
		t.Fatalf("player 0's robot cell is %d, want unpaintable", s.Cell(4, 4))
	}
}

// E5: nested candidates, the larger first (R12); the inner one fails
// re-validation.
func TestE5NestedLargerFirstR12(t *testing.T) {
	s := build(t, 4, 1, []string{
		"22.22...",
		"23332...",
		"23.32...",
		"23.32...",
		"22222...",
		"........",
		"........",
		"........",
	})
	robots(s, [4]int{2, 0, 0, 3}, [4]int{3, 0, 2, 2})
	stepNoDraw(t, s, dirs(s, "X", "X", "W", "S"))
	wantMap(t, s, []string{
		"22222...",
		"2###2...",
		"2###2...",
		"2###2...",
		"22222...",
		"........",
		"........",
		"........",
	})
	wantScores(t, s, 0, 0, 9, 0)
	if s.sc.nCand != 2 {
		t.Fatalf("%d candidates, want 2: (2, (0,0)–(4,4)) and (3, (1,1)–(3,3))", s.sc.nCand)
	}
	wantClaims(t, s, Claim{Player: 2, R1: 0, C1: 0, R2: 4, C2: 4, Gain: 9})
}

// E6 builds the position of E6 and plays its move: overlapping candidates of
// one player (R11, R12).
func e6(t *testing.T) *State {
	s := build(t, 4, 1, []string{
		"........",
		"0.000...",
		"00.00...",
		"00000...",
		"........",
		"........",
		"........",
		"........",
	})
	robots(s, [4]int{0, 0, 0, 1})
	stepNoDraw(t, s, dirs(s, "S"))
	return s
}

func TestE6OverlappingCandidatesR11R12(t *testing.T) {
	s := e6(t)
	wantMap(t, s, []string{
		"........",
		"00000...",
		"0###0...",
		"00000...",
		"........",
		"........",
		"........",
		"........",
	})
	wantScores(t, s, 3, 0, 0, 0)
	// Four candidates: gains 3, 2, 2, 1; the gain-3 one breaks the others.
	if s.sc.nCand != 4 {
		t.Fatalf("%d candidates, want 4", s.sc.nCand)
	}
	want := []uint64{
		claimKey(3, 0, 1, 0, 3, 4), claimKey(2, 0, 1, 0, 3, 3),
		claimKey(2, 0, 1, 1, 3, 4), claimKey(1, 0, 1, 1, 3, 3),
	}
	for i, k := range want {
		if s.sc.cand[i] != k {
			g, pl, r1, c1, r2, c2 := decodeKey(s.sc.cand[i])
			t.Fatalf("candidate %d: gain %d player %d (%d,%d)–(%d,%d), want key %x", i, g, pl, r1, c1, r2, c2, k)
		}
	}
	wantClaims(t, s, Claim{Player: 0, R1: 1, C1: 0, R2: 3, C2: 4, Gain: 3})
}

// E7: unpaintable cells take no paint (R10), continuing E6.
func TestE7UnpaintableNoPaintR10(t *testing.T) {
	s := e6(t)
	before := mapOf(s)
	stepNoDraw(t, s, dirs(s, "S"))
	wantRobot(t, s, 0, 0, 2, 1)
	wantMap(t, s, before)
	stepNoDraw(t, s, dirs(s, "N"))
	wantRobot(t, s, 0, 0, 1, 1)
	wantMap(t, s, before)
	wantScores(t, s, 3, 0, 0, 0)
	if s.ClaimCount() != 0 || s.Idle() != 2 {
		t.Fatalf("claims %d idle %d, want no claim and idle 2", s.ClaimCount(), s.Idle())
	}
}

// E8: a swap paints over both cells, and a robot paints over a rival's cell
// (R8, R10).
func TestE8SwapPaintOverR8R10(t *testing.T) {
	s := build(t, 4, 1, []string{
		"........",
		"........",
		"...0....",
		"........",
		"....01..",
		"........",
		"........",
		"........",
	})
	robots(s, [4]int{0, 0, 4, 4}, [4]int{1, 0, 4, 5}, [4]int{3, 0, 2, 2})
	stepNoDraw(t, s, dirs(s, "E", "W", "X", "E"))
	wantMap(t, s, []string{
		"........",
		"........",
		"...3....",
		"........",
		"....10..",
		"........",
		"........",
		"........",
	})
	wantRobot(t, s, 0, 0, 4, 5)
	wantRobot(t, s, 1, 0, 4, 4)
	wantRobot(t, s, 3, 0, 2, 3)
}

// E9: the end (R14, R15) with K = 100, M = 2000, n = 8, p = 2, b = 1. Player
// 0's robot draws the ring (0,0)–(2,2), closing it in move 37.
func TestE9EndR14R15(t *testing.T) {
	play := func(s *State, moves func(t int) []rules.Move) int {
		for !s.Done() {
			s.Step(moves(s.MoveNum()), nil)
			if err := s.Check(); err != nil {
				panic(err)
			}
		}
		return s.Steps() - 1 // the last move
	}
	ring := "EESSWWN" // from (0,0): the ring's 7 other cells
	s := NewSized(8, 2, 1, 100, 2000)
	last := play(s, func(t int) []rules.Move {
		if t == 0 {
			return placeAll(s, []Pos{{0, 0}}, []Pos{{7, 7}})
		}
		if t >= 31 && t <= 37 {
			return dirs(s, ring[t-31:t-30])
		}
		return dirs(s)
	})
	if last != 137 || s.Score(0) != 1 {
		t.Errorf("last claim in move 37: game ended after move %d with score %d, want 137 and 1", last, s.Score(0))
	}

	// No claim in any move: the end comes after move 100, even though the
	// placement claimed (b = 8 robots on a 3×3 ring).
	s = NewSized(8, 2, 8, 100, 2000)
	ringCells := []Pos{{0, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 2}, {2, 1}, {2, 0}, {1, 0}}
	last = play(s, func(t int) []rules.Move {
		if t == 0 {
			return placeAll(s, ringCells, []Pos{{7, 0}, {7, 1}, {7, 2}, {7, 3}, {7, 4}, {7, 5}, {7, 6}, {7, 7}})
		}
		return dirs(s)
	})
	if last != 100 || s.Score(0) != 1 {
		t.Errorf("no claim in moves: game ended after move %d (score %d), want 100 (placement claim 1)", last, s.Score(0))
	}

	// Claims at least every 100 moves: the cap M ends the game after move
	// 2000, not before.
	for _, c := range []struct {
		steps, idle int
		done        bool
	}{{1999, 10, false}, {2000, 10, true}, {2000, 98, true}, {1990, 98, false}, {1990, 99, true}} {
		s = build(t, 2, 1, []string{"........", "........", "........", "........", "........", "........", "........", "........"})
		robots(s)
		s.SetClock(c.steps, c.idle) // the next step is move c.steps
		s.Step(dirs(s), nil)
		if s.Done() != c.done {
			t.Errorf("move %d with idle %d before it: done=%v, want %v", c.steps, c.idle, s.Done(), c.done)
		}
	}
}

// E10: the protocol (R19, R20): player 2's view and its answers.
func TestE10ProtocolR19R20(t *testing.T) {
	s := build(t, 4, 2, []string{
		"0.......",
		".1......",
		"..2.....",
		"...3....",
		"........",
		"........",
		"........",
		"........",
	})
	robots(s, [4]int{0, 0, 6, 0}, [4]int{2, 0, 4, 4}, [4]int{2, 1, 5, 5}, [4]int{3, 0, 4, 0}, [4]int{3, 1, 4, 1})
	var v View
	s.View(2, &v)
	for _, c := range []struct{ r, c, want int }{{0, 0, 2}, {1, 1, 3}, {2, 2, 0}, {3, 3, 1}, {4, 4, -1}} {
		if got := int(v.Board[c.r][c.c]); got != c.want {
			t.Errorf("player 2 sees (%d,%d) as %d, want %d", c.r, c.c, got, c.want)
		}
	}
	if v.Pos[0][0] != (Pos{4, 4}) || v.Pos[0][1] != (Pos{5, 5}) || v.Pos[1][0] != (Pos{4, 0}) || v.Pos[1][1] != (Pos{4, 1}) {
		t.Errorf("robots[0] must be player 2's own, robots[1] player 3's: %v", v.Pos[:2])
	}
	cd := Codec{}
	nx := DirsMove([]Dir{North, Stay})
	for _, c := range []struct {
		answer string
		want   rules.Move
	}{
		{`"NX"`, nx},
		{`["N", "X"]`, nx},
		{`{"tuple":["N","X"]}`, nx},
		{`"nx"`, rules.Move{}},
		{`"N"`, rules.Move{}},
		{`null`, rules.Move{}},
	} {
		if got := cd.ParseAnswer(s, 2, []byte(c.answer)); got != c.want {
			t.Errorf("answer %s → %+v, want %+v", c.answer, got, c.want)
		}
	}
	// "nx" makes both robots stay.
	s.Step([]rules.Move{{}, {}, cd.ParseAnswer(s, 2, []byte(`"nx"`)), {}}, nil)
	wantRobot(t, s, 2, 0, 4, 4)
	wantRobot(t, s, 2, 1, 5, 5)

	// At the placement.
	p := NewSized(8, 4, 2, 100, 2000)
	valid := pyval.L(pyval.T(pyval.I(0), pyval.I(5)), pyval.T(pyval.I(7), pyval.I(7)))
	short := pyval.L(pyval.T(pyval.I(0), pyval.I(5)))
	if got, want := cd.ParseAnswer(p, 2, valid.JSON()), PlaceMove(8, []Pos{{0, 5}, {7, 7}}); got != want {
		t.Errorf("[(0,5), (7,7)] → %+v, want %+v", got, want)
	}
	if got := cd.ParseAnswer(p, 2, short.JSON()); got != (rules.Move{}) {
		t.Errorf("[(0,5)] → %+v, want Pass (R9 default)", got)
	}
	moves := make([]rules.Move, 4)
	moves[0] = cd.ParseAnswer(p, 0, valid.JSON())
	moves[2] = cd.ParseAnswer(p, 2, short.JSON())
	p.Step(moves, nil)
	wantRobot(t, p, 0, 0, 0, 5)
	wantRobot(t, p, 0, 1, 7, 7)
	wantRobot(t, p, 2, 0, 0, 0)
	wantRobot(t, p, 2, 1, 0, 0)
}

// E11: equal gains, the tie-break decides (R12), b = 2.
func TestE11EqualGainsTieBreakR12(t *testing.T) {
	s := build(t, 4, 2, []string{
		"..000...",
		"..0.0...",
		"00.0000.",
		"0.0.0.0.",
		"0000.00.",
		"..0.0...",
		"..000...",
		"........",
	})
	robots(s, [4]int{0, 0, 1, 2}, [4]int{0, 1, 5, 4})
	mustCheck(t, s) // no candidate before the move
	stepNoDraw(t, s, dirs(s, "SN"))
	wantMap(t, s, []string{
		"..000...",
		"..0#0...",
		"000#000.",
		"0#0#0#0.",
		"000#000.",
		"..0#0...",
		"..000...",
		"........",
	})
	wantScores(t, s, 7, 0, 0, 0)
	if s.sc.nCand != 11 {
		t.Fatalf("%d candidates, want 11 (2 of gain 5, 4 of gain 3, 5 of gain 1)", s.sc.nCand)
	}
	wantClaims(t, s,
		Claim{Player: 0, R1: 0, C1: 2, R2: 6, C2: 4, Gain: 5}, // T before W: (0,2) < (2,0)
		Claim{Player: 0, R1: 2, C1: 0, R2: 4, C2: 2, Gain: 1},
		Claim{Player: 0, R1: 2, C1: 4, R2: 4, C2: 6, Gain: 1},
	)
}
