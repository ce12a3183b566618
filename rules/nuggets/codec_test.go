package nuggets

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// R18, R19: each seat's view and request agree with the relabelling formula
// cell by cell, on random states.
func TestViewAndRequest(t *testing.T) {
	for i, s := range randomStates(20, 9) {
		for seat := 0; seat < Seats; seat++ {
			v := ViewOf(s, seat)
			var req []any
			if err := json.Unmarshal(Codec{}.AppendRequest(nil, s, seat), &req); err != nil || len(req) != 2 {
				t.Fatalf("state %d seat %d: request is not [board, move_num]: %v", i, seat, err)
			}
			if mn, ok := req[1].(float64); !ok || int(mn) != s.MoveNum() || v.MoveNum != s.MoveNum() {
				t.Fatalf("state %d seat %d: move_num %v / %d, want %d", i, seat, req[1], v.MoveNum, s.MoveNum())
			}
			rows, _ := req[0].([]any)
			if len(rows) != Size {
				t.Fatalf("state %d seat %d: %d rows", i, seat, len(rows))
			}
			for y := 0; y < Size; y++ {
				row, _ := rows[y].([]any)
				if len(row) != Size {
					t.Fatalf("state %d seat %d: row %d has %d entries", i, seat, y, len(row))
				}
				for x := 0; x < Size; x++ {
					want := -1
					if o := s.Owner(x, y); o >= 0 {
						want = ((o-seat)%4 + 4) % 4
					}
					if int(v.Board[y][x]) != want || row[x] != float64(want) {
						t.Fatalf("state %d seat %d: board[%d][%d] = %d / %v, want %d", i, seat, y, x, v.Board[y][x], row[x], want)
					}
				}
			}
		}
	}
}

// R20: every accepted form maps back to the real query; real → view → real.
func TestAnswerRoundTrip(t *testing.T) {
	s := randomStates(1, 3)[0]
	rng := rules.NewRNG(4)
	for c := 0; c < Cells; c++ {
		x, y := c%Size, c/Size
		seat := rng.U(Seats)
		for _, v := range []pyval.Value{
			pyval.T(pyval.I(int64(x)), pyval.I(int64(y))),
			pyval.L(pyval.I(int64(x)), pyval.I(int64(y))),
			pyval.T(pyval.NpI(int64(x)), pyval.I(int64(y))),
			pyval.L(pyval.NpI(int64(x)), pyval.NpI(int64(y))),
		} {
			m := Codec{}.ParseAnswer(s, seat, v.JSON())
			if m != Query(x, y) || m != s.Answer(x, y) {
				t.Fatalf("answer %s → %+v, want the query of (%d,%d)", v.JSON(), m, x, y)
			}
			gx, gy, ok := QueryXY(m)
			if !ok || gx != x || gy != y || !s.Legal(seat, m) {
				t.Fatalf("query %+v reads back as (%d,%d) ok=%v legal=%v", m, gx, gy, ok, s.Legal(seat, m))
			}
			view := ViewOf(s, seat).Board[y][x]
			if o := s.Owner(gx, gy); (o < 0) != (view < 0) || o >= 0 && int(view) != (o-seat+4)%4 {
				t.Fatalf("(%d,%d): view %d, real owner %d", x, y, view, o)
			}
		}
	}
}

// R6, R20: every malformed answer gets R6's treatment: (0,0), or nothing.
func TestMalformedAnswers(t *testing.T) {
	bad := []string{
		``, `{`, `nul`, "\xff", `[1,2] x`, `null`, `true`, `3`, `3.5`, `"3,4"`, `"ab"`, `{"type":"dict"}`,
		`[]`, `[1]`, `[1,2,3]`, `{"tuple":[1]}`, `{"tuple":[1,2,3]}`, `[[1,2]]`, `[[1],[2]]`,
		`[true,2]`, `[1,false]`, `{"tuple":[true,true]}`, `[1.0,2]`, `[1,2.0]`, `["1","2"]`, `[null,2]`,
		`[-1,0]`, `[0,-1]`, `[20,0]`, `[0,20]`, `[19,20]`, `[-20,5]`, `[99999999999999999999,1]`,
		`[{"np":"float64","v":1.0},1]`, `[{"np":"bool_","v":1},1]`, `[{"np":"int64","v":20},1]`,
		`[{"np":"int64","v":-1},1]`, `[{"type":"ndarray"},1]`, `{"np":"int64","v":5}`,
	}
	for _, mode := range []string{"origin", "pass"} {
		s := variant(t, "invalid_query", mode)
		want := Query(0, 0)
		if mode == "pass" {
			want = rules.Move{}
		}
		if s.Invalid() != want || s.Answer(20, 0) != want || s.Answer(-1, 3) != want || s.Answer(3, 99) != want {
			t.Errorf("%s: Invalid/Answer give %+v / %+v, want %+v", mode, s.Invalid(), s.Answer(20, 0), want)
		}
		for _, a := range bad {
			if got := (Codec{}).ParseAnswer(s, 1, []byte(a)); got != want {
				t.Errorf("%s: answer %q → %+v, want %+v", mode, a, got, want)
			}
		}
		// Pass and malformed moves given to Step get the same treatment.
		for _, m := range []rules.Move{{}, {Kind: 2, N: 1}, {Kind: KindQuery, N: 2, Arg: [8]int16{5}}, {Kind: KindQuery, N: 1, Arg: [8]int16{400}}, {Kind: KindQuery, N: 1, Arg: [8]int16{-3}}} {
			a, b := variant(t, "invalid_query", mode), variant(t, "invalid_query", mode)
			a.Step([]rules.Move{m, Query(5, 5), Query(6, 6), Query(7, 7)}, rules.NewRNG(1))
			b.Step([]rules.Move{want, Query(5, 5), Query(6, 6), Query(7, 7)}, rules.NewRNG(1))
			if a.own != b.own {
				t.Errorf("%s: move %+v does not play as %+v", mode, m, want)
			}
			if a.Legal(0, m) != (mode == "pass" && m == rules.Move{}) {
				t.Errorf("%s: Legal(%+v) = %v", mode, m, a.Legal(0, m))
			}
		}
		// A missing entry (short moves slice) is an invalid answer too.
		a, b := variant(t, "invalid_query", mode), variant(t, "invalid_query", mode)
		a.Step([]rules.Move{Query(5, 5)}, rules.NewRNG(2))
		b.Step([]rules.Move{Query(5, 5), want, want, want}, rules.NewRNG(2))
		if a.own != b.own {
			t.Errorf("%s: missing moves do not play as %+v", mode, want)
		}
	}
	// Another game's state: Pass, no panic.
	if m := (Codec{}).ParseAnswer(fakeState{}, 0, []byte(`[1,2]`)); m != (rules.Move{}) {
		t.Errorf("foreign state: %+v", m)
	}
}

type fakeState struct{ rules.State }

func ExampleCodec() {
	s := NewDefault()
	s.SetCell(3, 0, 1)
	req := Codec{}.AppendRequest(nil, s, 1)
	fmt.Println(string(req[:22]), "…", string(req[len(req)-7:]))
	m := Codec{}.ParseAnswer(s, 1, []byte(`{"tuple":[3,0]}`))
	x, y, _ := QueryXY(m)
	fmt.Println(x, y)
	fmt.Println(Codec{}.ParseAnswer(s, 1, []byte(`[true,0]`)) == Query(0, 0))
	// Output:
	// [[[-1,-1,-1,0,-1,-1,-1 … -1]],0]
	// 3 0
	// true
}
