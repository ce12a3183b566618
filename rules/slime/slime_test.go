package slime

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// config returns a validated config with the given parameters.
func config(t testing.TB, kv ...string) rules.Config {
	t.Helper()
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		vals[kv[i]] = kv[i+1]
	}
	cfg, err := g.Configure(vals)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// custom returns a default (8×8) game with the given rows, seat toMove to move.
func custom(t testing.TB, toMove int, rows ...string) *State {
	t.Helper()
	s := New(config(t))
	if err := s.SetRows(rows...); err != nil {
		t.Fatal(err)
	}
	s.SetTurn(toMove)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	return s
}

// rowsOf returns the board as R14 rows.
func rowsOf(s *State) []string {
	out := make([]string, s.n)
	for r := range out {
		var b strings.Builder
		for c := 0; c < s.n; c++ {
			b.WriteByte(".1234"[s.Cell(r, c)])
		}
		out[r] = b.String()
	}
	return out
}

// pad completes rows written for the top-left corner to a full n×n board.
func pad(n int, rows ...string) []string {
	out := make([]string, n)
	for r := range out {
		if r < len(rows) {
			out[r] = rows[r]
		}
		out[r] += strings.Repeat(".", n-len(out[r]))
	}
	return out
}

// play steps the move r1 c1 r2 c2 for the seat to move.
func play(s *State, r1, c1, r2, c2 int) {
	moves := make([]rules.Move, Seats)
	moves[s.ToMove()] = NewMove(s.n, r1, c1, r2, c2)
	s.Step(moves, nil)
}

func wantRows(t *testing.T, s *State, rows ...string) {
	t.Helper()
	got, want := rowsOf(s), pad(s.n, rows...)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("board:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWorkedExamples replays E1–E3 and E5–E8 of slime.md: one move on a
// custom board (README "custom states"), the board after it, and the turn.
func TestWorkedExamples(t *testing.T) {
	tests := []struct {
		name           string
		seat           int
		before         []string
		r1, c1, r2, c2 int
		after          []string
	}{
		{"E1 spread converts the target's block (R9)", 0,
			[]string{"11.22", "1..22", "..22.", "....."}, 0, 1, 1, 2,
			[]string{"11.12", "1.112", "..11.", "....."}},
		{"E2 jump converts and empties the source (R10)", 0,
			[]string{"11..2", "1...2", "....2", "...22"}, 0, 1, 2, 3,
			[]string{"1...2", "1...1", "...11", "...11"}},
		{"E3 merge fills empties, leaves enemies, empties the source (R11)", 0,
			[]string{"11..2", "1.1.2", "....2", "..222"}, 0, 1, 1, 2,
			[]string{"1.112", "11112", ".1112", "..222"}},
		{"E5 spread converts every colour at once (R9)", 0,
			[]string{"12......", "3.4.....", ".42....."}, 0, 0, 1, 1,
			[]string{"11......", "111.....", ".11....."}},
		{"E6 corner merge with a clipped block (R11)", 0,
			[]string{"11......"}, 0, 1, 0, 0,
			[]string{"1.......", "11......"}},
		{"E7 merge with no empty neighbour loses a cell (R11)", 0,
			[]string{"112.....", "112.....", "222....."}, 0, 0, 1, 1,
			[]string{".12.....", "112.....", "222....."}},
		{"E8 knight-like jump (R10)", 2,
			[]string{"", "", "", "", ".4......", "..2.....", "", "3......."}, 7, 0, 5, 1,
			[]string{"", "", "", "", ".3......", ".33.....", "", "........"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := custom(t, tc.seat, tc.before...)
			play(s, tc.r1, tc.c1, tc.r2, tc.c2)
			wantRows(t, s, tc.after...)
			if s.Turn() != tc.seat+1 || s.ToMove() != (tc.seat+1)%4 {
				t.Fatalf("turn %d, to move %d after one turn", s.Turn(), s.ToMove())
			}
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestE5Losses checks E5's counts: players 2, 3, 4 lose 2, 1, 2 cells.
func TestE5Losses(t *testing.T) {
	s := custom(t, 0, "12......", "3.4.....", ".42.....")
	before := [4]int{s.Count(0), s.Count(1), s.Count(2), s.Count(3)}
	play(s, 0, 0, 1, 1)
	for p, lost := range [4]int{-6, 2, 1, 2} { // player 1 gains the target and 5 cells
		if got := before[p] - s.Count(p); got != lost {
			t.Errorf("player %d lost %d cells, want %d", p+1, got, lost)
		}
	}
}

// TestE4Opening plays E4 from the start position (R3, R4, R9, R10).
func TestE4Opening(t *testing.T) {
	s := New(config(t))
	wantRows(t, s, "1......2", "", "", "", "", "", "", "3......4")
	if !s.Active(0) || s.Active(1) || s.ToMove() != 0 {
		t.Fatalf("player 1 must move first (R4)")
	}
	play(s, 0, 0, 1, 1)
	if s.Cell(0, 0) != 1 || s.Cell(1, 1) != 1 {
		t.Fatalf("turn 1: (0,0), (1,1) must be player 1's")
	}
	if !s.Active(1) || s.Active(0) {
		t.Fatalf("turn 2 is player 2's (R4)")
	}
	play(s, 0, 7, 2, 5)
	if s.Cell(0, 7) != 0 || s.Cell(2, 5) != 2 {
		t.Fatalf("turn 2: (0,7) must be empty and (2,5) player 2's")
	}
	if got := popcount(s.EmptyCells()); got != 59 {
		t.Fatalf("%d empty cells, want 59", got)
	}
	wantRows(t, s, "1.......", ".1......", ".....2..", "", "", "", "", "3......4")
}

func popcount(b uint64) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// TestE9Passes: every move that breaks R8 changes nothing but uses the turn (R7).
func TestE9Passes(t *testing.T) {
	rows := []string{"11.2....", "", "1......."}
	tests := []struct {
		name           string
		seat           int
		r1, c1, r2, c2 int
	}{
		{"target is an enemy", 0, 0, 1, 0, 3},
		{"own target at d = 2", 0, 0, 0, 2, 0},
		{"d = 0", 0, 0, 0, 0, 0},
		{"source empty", 0, 1, 1, 2, 2},
		{"out of bounds", 0, 0, 1, 0, -1},
		{"d = 3", 0, 0, 1, 0, 4},
		{"source not player 2's", 1, 0, 1, 0, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := custom(t, tc.seat, rows...)
			m := NewMove(8, tc.r1, tc.c1, tc.r2, tc.c2)
			if m != (rules.Move{}) && s.Legal(tc.seat, m) {
				t.Fatalf("Legal accepts %v", m)
			}
			play(s, tc.r1, tc.c1, tc.r2, tc.c2)
			wantRows(t, s, rows...)
			if s.Turn() != tc.seat+1 {
				t.Fatalf("the pass must use up the turn")
			}
			// The raw encoding, without NewMove's bounds check, passes too.
			raw := custom(t, tc.seat, rows...)
			moves := make([]rules.Move, Seats)
			moves[tc.seat] = rules.Move{Kind: KindMove, N: 2, Arg: [8]int16{int16(tc.r1*8 + tc.c1), int16(tc.r2*8 + tc.c2)}}
			if tc.name != "out of bounds" { // (0, −1) aliases (−1, 7) and cell −1
				raw.Step(moves, nil)
				wantRows(t, raw, rows...)
			}
		})
	}
}

// TestE10EndMidCycle: a full board ends the game before players 3 and 4 move
// (R5), scores 55, 9, 0, 0 (R12).
func TestE10EndMidCycle(t *testing.T) {
	rows := pad(8)
	for r := range rows {
		rows[r] = "11111111"
	}
	rows[3] = "112.1111"
	s := custom(t, 1, rows...)
	if s.Cell(3, 2) != 2 || s.Cell(3, 3) != 0 || s.Done() {
		t.Fatalf("bad E10 board")
	}
	play(s, 3, 2, 3, 3)
	for r := 2; r <= 4; r++ {
		for c := 2; c <= 4; c++ {
			if s.Cell(r, c) != 2 {
				t.Fatalf("(%d,%d) is %d, want 2", r, c, s.Cell(r, c))
			}
		}
	}
	if !s.Done() {
		t.Fatalf("full board must end the game (R5)")
	}
	for seat := 0; seat < Seats; seat++ {
		if s.Active(seat) {
			t.Fatalf("seat %d active after the end", seat)
		}
	}
	o := rules.NewOutcome(Seats)
	s.Outcome(o)
	want := []float64{55, 9, 0, 0}
	for p := range want {
		if o.Score[p] != want[p] {
			t.Fatalf("scores %v, want %v", o.Score, want)
		}
	}
	if o.Win[0] != 1 || o.Points[0] != 3 || o.Points[1] != 2 || o.Points[2] != 0.5 || o.Points[3] != 0.5 {
		t.Fatalf("points %v win %v", o.Points, o.Win)
	}
	h := mustHash(s)
	play(s, 0, 0, 0, 1)
	if mustHash(s) != h || s.Turn() != 2 {
		t.Fatalf("Step on a finished game changed it")
	}
}

func mustHash(s rules.State) uint64 { h, _ := rules.Hash(s, nil); return h }

// TestE11Protocol: the request of player 3 after E4 (R14) and the reading of
// its outputs (R15).
func TestE11Protocol(t *testing.T) {
	s := New(config(t))
	play(s, 0, 0, 1, 1)
	play(s, 0, 7, 2, 5)
	got := string(Codec{}.AppendRequest(nil, s, 2))
	if want := "3,1.......,.1......,.....2..,........,........,........,........,3......4"; got != want {
		t.Fatalf("request %q, want %q", got, want)
	}
	spread := NewMove(8, 7, 0, 6, 1)
	for _, tc := range []struct {
		out  string
		want rules.Move
	}{
		{"7 0 6 1\n", spread},
		{"7 0 6 1", rules.Move{}},
		{"7 0 6 1 extra\n", spread},
		{"7,0,6,1\n", rules.Move{}},
		{"", rules.Move{}},
	} {
		if m := (Codec{}).ParseAnswer(s, 2, []byte(tc.out)); m != tc.want {
			t.Errorf("answer %q: %+v, want %+v", tc.out, m, tc.want)
		}
	}
	c := s.Clone().(*State)
	moves := make([]rules.Move, Seats)
	moves[2] = (Codec{}).ParseAnswer(s, 2, []byte("7 0 6 1\n"))
	c.Step(moves, nil)
	if c.Cell(6, 1) != 3 || c.Cell(7, 0) != 3 {
		t.Fatalf("the spread to (6,1) was not played")
	}
}

// TestPassingSeatsEndAtCap: four passing seats end after 2000 turns (R5) with
// one cell each.
func TestPassingSeatsEndAtCap(t *testing.T) {
	s := New(config(t))
	moves := make([]rules.Move, Seats)
	n := 0
	for !s.Done() {
		if n > 2000 {
			t.Fatalf("no end after %d turns", n)
		}
		s.Step(moves, nil)
		n++
	}
	if n != 2000 || s.Turn() != 2000 || s.Steps() != 2000 {
		t.Fatalf("ended after %d turns, want 2000", n)
	}
	o := rules.NewOutcome(Seats)
	s.Outcome(o)
	for p := 0; p < Seats; p++ {
		if o.Score[p] != 1 || o.Win[p] != 0.25 || o.Points[p] != 1.5 {
			t.Fatalf("outcome %+v", o)
		}
	}
}

// TestMaxTurns: the cap is max_turns (R5, §6), and 0 means none.
func TestMaxTurns(t *testing.T) {
	s := New(config(t, "max_turns", "7"))
	for i := 0; i < 7; i++ {
		if s.Done() {
			t.Fatalf("ended after %d turns", i)
		}
		s.Step(make([]rules.Move, Seats), nil)
	}
	if !s.Done() {
		t.Fatalf("not ended after 7 turns")
	}
	u := New(config(t, "max_turns", "0"))
	if u.Spec().MaxSteps != noCapSteps {
		t.Fatalf("MaxSteps %d", u.Spec().MaxSteps)
	}
	u.SetTurn(5000000)
	if u.Done() {
		t.Fatalf("max_turns=0 must not cap")
	}
}

// TestBoardSizes: the start corners of every board size (R1, R3).
func TestBoardSizes(t *testing.T) {
	for n := 4; n <= 8; n++ {
		s := New(config(t, "board_size", string(rune('0'+n))))
		sp := s.Spec()
		if sp.Rows != n || sp.Cols != n || sp.Seats != 4 || !sp.Sequential || sp.ScoreName != "cells" || sp.Tournament != rules.MeanScore {
			t.Fatalf("spec %+v", sp)
		}
		corners := [4][2]int{{0, 0}, {0, n - 1}, {n - 1, 0}, {n - 1, n - 1}}
		for p, rc := range corners {
			if s.Cell(rc[0], rc[1]) != p+1 || s.Count(p) != 1 {
				t.Fatalf("n=%d: player %d not at %v", n, p+1, rc)
			}
		}
		if got := popcount(s.EmptyCells()); got != n*n-4 {
			t.Fatalf("n=%d: %d empty", n, got)
		}
	}
}

// TestMalformedMoves: any Kind, N or Arg values are a pass and never panic.
func TestMalformedMoves(t *testing.T) {
	s := custom(t, 0, "11......")
	h := mustHash(s)
	for _, m := range []rules.Move{
		{Kind: 2, N: 2, Arg: [8]int16{1, 2}},
		{Kind: KindMove, N: 1, Arg: [8]int16{1, 2}},
		{Kind: KindMove, N: 3, Arg: [8]int16{1, 2}},
		{Kind: KindMove, N: 2, Arg: [8]int16{-1, 2}},
		{Kind: KindMove, N: 2, Arg: [8]int16{1, 64}},
		{Kind: KindMove, N: 2, Arg: [8]int16{-32768, 32767}},
		{Kind: 255, N: 255, Arg: [8]int16{1, 2}},
		{Kind: 0, N: 2, Arg: [8]int16{1, 2}},
	} {
		c := s.Clone().(*State)
		if c.Legal(0, m) {
			t.Errorf("Legal(%+v)", m)
		}
		c.Step([]rules.Move{m, {}, {}, {}}, nil)
		c.SetTurn(0)
		if mustHash(c) != h {
			t.Errorf("%+v changed the board", m)
		}
	}
	// A short moves slice is a pass, not a panic.
	s.Step(nil, nil)
	if s.Turn() != 1 {
		t.Fatalf("turn %d", s.Turn())
	}
}

// TestLegalMovesBruteForce compares LegalMoves with every in-bounds
// (r1, c1, r2, c2) that the reference rules (ref_test.go) accept.
func TestLegalMovesBruteForce(t *testing.T) {
	rng := rules.NewRNG(1)
	for i := 0; i < 300; i++ {
		n := 4 + rng.U(5)
		s := randomState(t, rng, n)
		seat := s.ToMove()
		got := map[rules.Move]bool{}
		list := s.LegalMoves(seat, nil)
		if list[0] != (rules.Move{}) {
			t.Fatalf("Pass must come first")
		}
		for _, m := range list[1:] {
			if got[m] {
				t.Fatalf("duplicate %+v", m)
			}
			got[m] = true
		}
		want := 0
		b := refBoard(s)
		for r1 := 0; r1 < n; r1++ {
			for c1 := 0; c1 < n; c1++ {
				for r2 := 0; r2 < n; r2++ {
					for c2 := 0; c2 < n; c2++ {
						_, valid := refApply(b, n, seat+1, r1, c1, r2, c2)
						m := NewMove(n, r1, c1, r2, c2)
						if valid != got[m] || valid != s.Legal(seat, m) {
							t.Fatalf("n=%d %d %d %d %d: ref valid %v, listed %v, Legal %v\n%s",
								n, r1, c1, r2, c2, valid, got[m], s.Legal(seat, m), strings.Join(rowsOf(s), "\n"))
						}
						if valid {
							want++
						}
						if s.Legal((seat+1)%4, m) {
							t.Fatalf("Legal for a seat not to move")
						}
					}
				}
			}
		}
		if want != len(got) {
			t.Fatalf("%d legal moves listed, want %d", len(got), want)
		}
		if other := s.LegalMoves((seat+1)%4, nil); len(other) != 1 || other[0] != (rules.Move{}) {
			t.Fatalf("seat not to move: %v", other)
		}
	}
}

// TestRandomMoveUniform: RandomMove draws every legal move about equally often.
func TestRandomMoveUniform(t *testing.T) {
	s := custom(t, 0, "1.2", "3.1")
	legal := s.LegalMoves(0, nil)
	count := map[rules.Move]int{}
	rng := rules.NewRNG(3)
	const draws = 20000
	for i := 0; i < draws; i++ {
		count[s.RandomMove(0, rng)]++
	}
	if len(count) != len(legal) {
		t.Fatalf("%d distinct moves drawn, %d legal", len(count), len(legal))
	}
	exp := float64(draws) / float64(len(legal))
	for _, m := range legal {
		if c := float64(count[m]); c < 0.8*exp || c > 1.2*exp {
			t.Errorf("%+v drawn %v times, expected about %v", m, c, exp)
		}
	}
	if m := s.RandomMove(1, rng); m != (rules.Move{}) {
		t.Fatalf("seat not to move drew %+v", m)
	}
	empty := custom(t, 1, "1")
	sc := rules.Scripted(5)
	if m := empty.RandomMove(1, sc); m != (rules.Move{}) || sc.Used() != 0 {
		t.Fatalf("a seat without slime must pass without a draw: %+v, %d draws", m, sc.Used())
	}
}

// TestStepNoRandomness: Step never draws (R6).
func TestStepNoRandomness(t *testing.T) {
	s := New(config(t))
	rng := rules.NewRNG(1)
	sc := rules.Scripted()
	for !s.Done() {
		moves := make([]rules.Move, Seats)
		moves[s.ToMove()] = s.RandomMove(s.ToMove(), rng)
		s.Step(moves, sc)
	}
	if sc.Used() != 0 {
		t.Fatalf("Step drew %d times", sc.Used())
	}
}

// TestWords: SetWords round-trips and rejects malformed words.
func TestWords(t *testing.T) {
	s := custom(t, 3, "12.", "..3", "4")
	s.SetTurn(11)
	w := s.AppendWords(nil)
	if len(w) != 5 || w[0] != 1 || w[1] != 2 || w[2] != 1<<10 || w[3] != 1<<16 || w[4] != 11 {
		t.Fatalf("words %#x", w)
	}
	c := New(config(t))
	if err := c.SetWords(w); err != nil || mustHash(c) != mustHash(s) || c.Turn() != 11 {
		t.Fatalf("round trip: %v", err)
	}
	small := New(config(t, "board_size", "5"))
	for name, bad := range map[string][]uint64{
		"short":         w[:4],
		"long":          append(append([]uint64{}, w...), 0),
		"overlap":       {1, 1, 0, 0, 0},
		"off 5×5":       {1 << 5, 0, 0, 0, 0},
		"(7,7) off 5×5": {0, 0, 0, 1 << 63, 0},
		"turn > cap":    {1, 0, 0, 0, 2001},
		"huge turn":     {1, 0, 0, 0, 1 << 63},
	} {
		for _, st := range []*State{c, small} {
			if strings.Contains(name, "off 5×5") && st == c {
				continue
			}
			before := mustHash(st)
			if err := st.SetWords(bad); err == nil {
				t.Errorf("%s accepted", name)
			} else if mustHash(st) != before {
				t.Errorf("%s: a rejected SetWords changed the state", name)
			}
		}
	}
}

// TestRender: rows, status line, colours.
func TestRender(t *testing.T) {
	s := New(config(t, "board_size", "4"))
	var b bytes.Buffer
	s.Render(&b, false)
	want := "1..2\n....\n....\n3..4\nturn 0/2000  to move: 1  cells 1:1 2:1 3:1 4:1 .:12\n"
	if b.String() != want {
		t.Fatalf("render:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	s.Render(&b, true)
	if !strings.Contains(b.String(), "\x1b[1;31m1\x1b[0m") {
		t.Fatalf("no colour: %q", b.String())
	}
}

// TestConformance runs the shared suite on the default rules and every
// variant. Without a cap (max_turns = 0) only small boards: random play fills
// a 4×4 board in about 300 turns but an 8×8 one in about 2·10⁷.
func TestConformance(t *testing.T) {
	for _, kv := range [][]string{
		nil,
		{"max_turns", "0", "board_size", "4"},
		{"board_size", "4"},
		{"board_size", "5", "max_turns", "0"},
		{"board_size", "6", "max_turns", "100"},
		{"board_size", "7"},
	} {
		cfg := config(t, kv...)
		t.Run(cfg.String(), func(t *testing.T) { rulestest.Conformance(t, cfg, 30) })
	}
}
