package risingtide

import (
	"encoding/json"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// rot90 is NumPy's rot90(T, k): k counter-clockwise quarter turns, each
// out[i][j] = in[j][17−i].
func rot90(t [Size][Size]int8, k int) [Size][Size]int8 {
	for ; k > 0; k-- {
		var out [Size][Size]int8
		for i := 0; i < Size; i++ {
			for j := 0; j < Size; j++ {
				out[i][j] = t[j][Size-1-i]
			}
		}
		t = out
	}
	return t
}

// randomStates returns states from random playouts, a few per game.
func randomStates(t testing.TB, nonadj bool, n int) []*State {
	var out []*State
	rng := rules.NewRNG(21)
	moves := make([]rules.Move, Seats)
	for len(out) < n {
		s := newGame(t, nonadj)
		for !s.Done() {
			randomMoves(s, rng, moves)
			s.Step(moves, rng)
			if rng.U(40) == 0 {
				out = append(out, s.Clone().(*State))
			}
		}
	}
	return out
}

func TestR20ViewIsRot90(t *testing.T) {
	for _, s := range randomStates(t, false, 30) {
		for seat := range Seats {
			v := View(s, seat)
			if want := rot90(s.Heights(), seat); v.Terrain != want {
				t.Fatalf("R20: seat %d's terrain is not rot90(T, %d)", seat, seat)
			}
			if v.Round != s.Round() {
				t.Fatalf("R21: round_num %d, want %d", v.Round, s.Round())
			}
			// R20's table, cell by cell.
			for i := 0; i < Size; i++ {
				for j := 0; j < Size; j++ {
					var a, b int
					switch seat {
					case 0:
						a, b = i, j
					case 1:
						a, b = j, 17-i
					case 2:
						a, b = 17-i, 17-j
					case 3:
						a, b = 17-j, i
					}
					if int(v.Terrain[i][j]) != s.Height(a, b) {
						t.Fatalf("R20: seat %d view (%d,%d) ≠ T(%d,%d)", seat, i, j, a, b)
					}
				}
			}
			// AppendRequest is [terrain, round_num] as JSON.
			var req []json.RawMessage
			if err := json.Unmarshal(codec{}.AppendRequest(nil, s, seat), &req); err != nil || len(req) != 2 {
				t.Fatalf("request is not a 2-element JSON array: %v", err)
			}
			var terrain [][]int
			var round int
			if json.Unmarshal(req[0], &terrain) != nil || json.Unmarshal(req[1], &round) != nil || round != s.Round() || len(terrain) != Size {
				t.Fatalf("bad request %s", req)
			}
			for i := range terrain {
				for j := range terrain[i] {
					if terrain[i][j] != int(v.Terrain[i][j]) || len(terrain[i]) != Size {
						t.Fatalf("request terrain[%d][%d] = %d, want %d", i, j, terrain[i][j], v.Terrain[i][j])
					}
				}
			}
		}
	}
}

func TestR20SettlementsSeenClockwise(t *testing.T) {
	for seat := range Seats {
		for k, at := range [][2]int{{5, 5}, {5, 12}, {12, 12}, {12, 5}} {
			a, b := ViewToReal(seat, at[0], at[1])
			if wi, wj := Settlement(seat + k); a != wi || b != wj {
				t.Errorf("R20: seat %d sees seat %d's settlement at %v, real (%d,%d), want (%d,%d)", seat, (seat+k)%Seats, at, a, b, wi, wj)
			}
		}
	}
}

func TestE11Rotation(t *testing.T) {
	s := newGame(t, false)
	s.SetCell(17, 0, Flooded)
	s.SetCell(17, 1, 7)
	v := View(s, 3)
	if v.Terrain[5][5] != 0 || v.Terrain[0][0] != Flooded || v.Terrain[1][0] != 7 {
		t.Errorf("E11: seat 3 terrain[5][5]=%d [0][0]=%d [1][0]=%d", v.Terrain[5][5], v.Terrain[0][0], v.Terrain[1][0])
	}
	if m := MoveFromView(3, 4, 4, 3, 3); m != MakeMove(13, 4, 14, 3) {
		t.Errorf("E11: seat 3's ((4,4),(3,3)) → %+v, want real (13,4)→(14,3)", m)
	}
	if i, j := RealToView(1, 8, 8); i != 9 || j != 8 {
		t.Errorf("E11: seat 1 sees real (8,8) at (%d,%d), want (9,8)", i, j)
	}
}

func TestI7RotationRoundTrip(t *testing.T) {
	for seat := -4; seat < 8; seat++ {
		for i := 0; i < Size; i++ {
			for j := 0; j < Size; j++ {
				a, b := ViewToReal(seat, i, j)
				if x, y := RealToView(seat, a, b); x != i || y != j {
					t.Fatalf("I7: seat %d: (%d,%d) → (%d,%d) → (%d,%d)", seat, i, j, a, b, x, y)
				}
			}
		}
	}
	// R10 gives the same verdict on the view as on the mapped real move.
	rng := rules.NewRNG(4)
	for _, s := range randomStates(t, false, 20) {
		for seat := range Seats {
			v := View(s, seat)
			for k := 0; k < 2000; k++ {
				i1, j1 := rng.U(Size), rng.U(Size)
				i2, j2 := i1+rng.U(3)-1, j1+rng.U(3)-1
				if k%4 == 0 {
					i2, j2 = rng.U(20)-1, rng.U(20)-1
				}
				m := MoveFromView(seat, i1, j1, i2, j2)
				if v.Legal(i1, j1, i2, j2) != s.LegalMove(m) {
					t.Fatalf("I7: seat %d view (%d,%d)→(%d,%d): view legal %v, real %v", seat, i1, j1, i2, j2, v.Legal(i1, j1, i2, j2), s.LegalMove(m))
				}
				if m.Kind == KindMove {
					x1, y1, x2, y2, ok := MoveToView(seat, m)
					if !ok || x1 != i1 || y1 != j1 || x2 != i2 || y2 != j2 {
						t.Fatalf("I7: MoveToView round trip")
					}
				}
			}
		}
	}
}

func tup(items ...pyval.Value) pyval.Value { return pyval.T(items...) }

func ints(a, b int64) pyval.Value { return tup(pyval.I(a), pyval.I(b)) }

func TestE12AnswerShapes(t *testing.T) {
	I, B := pyval.I, pyval.B
	exec := MakeMove(8, 8, 8, 9)
	for _, tc := range []struct {
		name   string
		seat   int
		answer []byte
		want   rules.Move
		nonadj bool
	}{
		{"E12 tuples", 0, tup(ints(8, 8), ints(8, 9)).JSON(), exec, false},
		{"E12 lists", 0, []byte(`[[8,8],[8,9]]`), exec, false},
		{"mixed tuple and list", 0, []byte(`[{"tuple":[8,8]},[8,9]]`), exec, false},
		{"E12 numpy int", 0, tup(tup(pyval.NpI(8), I(8)), ints(8, 9)).JSON(), rules.Move{}, false},
		{"E12 float", 0, tup(tup(pyval.F(8), I(8)), ints(8, 9)).JSON(), rules.Move{}, false},
		{"E12 three pairs", 0, tup(ints(8, 8), ints(8, 9), ints(1, 1)).JSON(), rules.Move{}, false},
		{"E12 string", 0, []byte(`"ab"`), rules.Move{}, false},
		{"E12 None", 0, []byte(`null`), rules.Move{}, false},
		{"E12 bools as 0/1", 0, tup(tup(B(true), B(true)), ints(2, 2)).JSON(), MakeMove(1, 1, 2, 2), false},
		{"string ints", 0, []byte(`[["8","8"],[8,9]]`), rules.Move{}, false},
		{"two-char strings", 0, []byte(`["ab","cd"]`), rules.Move{}, false},
		{"flat list", 0, []byte(`[8,8,8,9]`), rules.Move{}, false},
		{"short pair", 0, []byte(`[[8,8],[8]]`), rules.Move{}, false},
		{"dict", 0, []byte(`{"type":"dict"}`), rules.Move{}, false},
		{"numpy bool", 0, []byte(`[[{"np":"bool_","v":1},1],[2,2]]`), rules.Move{}, false},
		{"big int", 0, []byte(`[[99999999999999999999,8],[8,9]]`), rules.Move{}, false},
		{"negative", 0, []byte(`[[-1,8],[0,8]]`), rules.Move{}, false},
		{"R10a 18", 0, []byte(`[[17,8],[18,8]]`), rules.Move{}, false},
		{"R10b not neighbours", 0, []byte(`[[8,8],[8,10]]`), rules.Move{}, false},
		{"R10b dropped by the variant", 0, []byte(`[[8,8],[8,10]]`), MakeMove(8, 8, 8, 10), true},
		{"R10e settlement", 0, []byte(`[[5,6],[5,5]]`), rules.Move{}, false},
		{"R23 invalid JSON", 0, []byte(`[[8,8],[8,9]`), rules.Move{}, false},
		{"R23 trailing data", 0, []byte(`[[8,8],[8,9]] 1`), rules.Move{}, false},
		{"empty answer", 0, nil, rules.Move{}, false},
		{"seat 1 E4 answer", 1, []byte(`[[9,8],[9,7]]`), MakeMove(8, 8, 7, 8), false},
		{"seat 2 E5 answer", 2, []byte(`[[8,8],[9,8]]`), MakeMove(9, 9, 8, 9), false},
		{"seat 3 E11 answer", 3, []byte(`[[4,4],[3,3]]`), MakeMove(13, 4, 14, 3), false},
		{"R22 seat 3 bool src row: controller crash → pass", 3, []byte(`[[true,1],[2,2]]`), rules.Move{}, false},
		{"R22 seat 3 bool dst row: controller crash → pass", 3, []byte(`[[1,1],[true,2]]`), rules.Move{}, false},
		{"R22 seat 3 bool columns are converted", 3, []byte(`[[1,true],[2,2]]`), MakeMove(16, 1, 15, 2), false},
		{"R22 seat 1 bool rows are converted", 1, []byte(`[[true,1],[2,2]]`), MakeMove(1, 16, 2, 15), false},
		{"R22 seat 2 bool rows are converted", 2, []byte(`[[true,true],[2,2]]`), MakeMove(16, 16, 15, 15), false},
		{"bad seat", 4, []byte(`[[8,8],[8,9]]`), rules.Move{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newGame(t, tc.nonadj)
			if got := (codec{}).ParseAnswer(s, tc.seat, tc.answer); got != tc.want {
				t.Errorf("R22: %s → %+v, want %+v", tc.answer, got, tc.want)
			}
		})
	}
}

func TestParseAnswerRoundTrip(t *testing.T) {
	// Every legal real move, written in the seat's view, parses back to itself.
	for _, s := range randomStates(t, false, 6) {
		for seat := range Seats {
			if !s.Active(seat) {
				continue
			}
			for _, m := range s.LegalMoves(seat, nil)[1:] {
				i1, j1, i2, j2, _ := MoveToView(seat, m)
				ans := pyval.L(pyval.L(pyval.I(int64(i1)), pyval.I(int64(j1))), tup(pyval.I(int64(i2)), pyval.I(int64(j2)))).JSON()
				if got := (codec{}).ParseAnswer(s, seat, ans); got != m {
					t.Fatalf("seat %d: %s → %+v, want %+v", seat, ans, got, m)
				}
			}
		}
	}
}

func FuzzParseAnswer(f *testing.F) {
	for _, seed := range []string{`[[8,8],[8,9]]`, `null`, `{"tuple":[{"tuple":[true,1]},[2,2]]}`, `[["a",1],[1,{"np":"int64","v":3}]]`, `"ab"`, `[[1e3,1],[2,2]]`} {
		f.Add(byte(0), []byte(seed))
		f.Add(byte(3), []byte(seed))
	}
	states := randomStates(f, false, 4)
	f.Fuzz(func(t *testing.T, which byte, answer []byte) {
		s := states[int(which/4)%len(states)]
		seat := int(which % 4)
		m := (codec{}).ParseAnswer(s, seat, answer)
		if m == (rules.Move{}) {
			return
		}
		if m.Kind != KindMove || m.N != 2 || m.Arg[0] < 0 || m.Arg[0] >= Cells || m.Arg[1] < 0 || m.Arg[1] >= Cells || m.Arg[2] != 0 || !s.LegalMove(m) {
			t.Fatalf("seat %d: %q → %+v, not Pass and not a legal move", seat, answer, m)
		}
	})
}
