package bovine

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// TestRequestIsView: AppendRequest is the JSON array [board] with board =
// View(st, seat), on random states for every seat.
func TestRequestIsView(t *testing.T) {
	for g := 0; g < 6; g++ {
		st := randomState(g%2 == 1, uint64(g), 300*g)
		for seat := 0; seat < Seats; seat++ {
			var args [][Size][Size]int8
			req := Codec{}.AppendRequest([]byte("prefix"), st, seat)
			if err := json.Unmarshal(req[len("prefix"):], &args); err != nil {
				t.Fatalf("request is not JSON: %v\n%s", err, req)
			}
			if len(args) != 1 || args[0] != View(st, seat) {
				t.Fatalf("game %d seat %d: request is not [View]", g, seat)
			}
		}
	}
}

// TestAnswerRoundTrip: every legal real move, written in a seat's view
// coordinates as the competition bot would, parses back to itself (R19, R20),
// and so does its destination-only form.
func TestAnswerRoundTrip(t *testing.T) {
	for g := 0; g < 6; g++ {
		st := randomState(false, uint64(10+g), 250*g)
		for seat := 0; seat < Seats; seat++ {
			for _, m := range st.LegalMoves(seat, nil) {
				if m.Kind == rules.Pass {
					if got := answer(t, st, seat, "null"); got != m {
						t.Fatalf("None parses to %+v", got)
					}
					continue
				}
				src, dst := int(m.Arg[0]), int(m.Arg[1])
				i1, j1 := RealToView(seat, src/Size, src%Size)
				i2, j2 := RealToView(seat, dst/Size, dst%Size)
				full := fmt.Sprintf(`{"tuple":[{"tuple":[%d,%d]},{"tuple":[%d,%d]}]}`, i1, j1, i2, j2)
				if got := answer(t, st, seat, full); got != m {
					t.Fatalf("seat %d: %s parses to %+v, want %+v", seat, full, got, m)
				}
				if got := answer(t, st, seat, fmt.Sprintf(`[%d,%d]`, i2, j2)); got != DstMove(dst) {
					t.Fatalf("seat %d: [%d,%d] parses to %+v, want Dst %d", seat, i2, j2, got, dst)
				}
				if !st.Legal(seat, DstMove(dst)) {
					t.Fatalf("seat %d: destination %d of a legal move is not Legal alone", seat, dst)
				}
			}
		}
	}
}

// TestAnswerForms: R20's accepted forms and the treatment of every malformed
// one, for seat 1 (whose view is rotated) on the start position: seat 1's
// barn is its view (0,0) = real (0,19).
func TestAnswerForms(t *testing.T) {
	st := newState(false)
	full := func(i1, j1, i2, j2 int) rules.Move {
		return ViewFullMove(1, int64(i1), int64(j1), int64(i2), int64(j2))
	}
	dst := func(i, j int) rules.Move { return ViewDstMove(1, int64(i), int64(j)) }
	if m := full(0, 0, 0, 1); m != FullMove(at(0, 19), at(1, 19)) {
		t.Fatalf("view (0,0)→(0,1) of seat 1 is %+v, want real (0,19)→(1,19)", m)
	}
	pass := rules.Move{}
	cases := []struct {
		js   string
		want rules.Move
		why  string
	}{
		{`null`, pass, "None"},
		{`{"tuple":[{"tuple":[0,0]},{"tuple":[0,1]}]}`, full(0, 0, 0, 1), "tuple of tuples"},
		{`[[0,0],[0,1]]`, full(0, 0, 0, 1), "lists"},
		{`[[0,0],{"tuple":[0,1]}]`, full(0, 0, 0, 1), "mixed"},
		{`[[{"np":"int16","v":0},0],[0,{"np":"int64","v":1}]]`, full(0, 0, 0, 1), "NumPy ints"},
		{`[[0.0,0.5],[-0.9,1.99]]`, full(0, 0, 0, 1), "floats truncate toward zero"},
		{`[[{"np":"float64","v":0.2},0],[0,1]]`, full(0, 0, 0, 1), "NumPy float"},
		{`[[true,false],[false,true]]`, full(1, 0, 0, 1), "bools are ints"},
		{`[["0"," 0"],["0","1"]]`, full(0, 0, 0, 1), "int() parses decimal strings"},
		{`[[0,0],"01"]`, full(0, 0, 0, 1), "a 2-character string unpacks into two strings"},
		{`[[0,0],[0,1.5e300]]`, pass, "int() of a huge float: out of bounds"},
		{`[[0,0],[0,"x"]]`, pass, "int('x') raises ValueError"},
		{`[[0,0],[0,null]]`, pass, "int(None) raises TypeError after unpacking"},
		{`[[0,0],[0,[1]]]`, pass, "int([1]) raises TypeError"},
		{`[[0,0],[0,20]]`, pass, "out of bounds"},
		{`[[-1,0],[0,0]]`, pass, "negative: out of bounds"},
		{`[[0,0],[0,99999999999999999999]]`, pass, "too big for int64: out of bounds"},
		{`[[0,0],[0,1],[0,2]]`, pass, "three pairs: ValueError"},
		{`[[0,0,0],[0,1]]`, pass, "three components: ValueError"},
		{`[[0,0],[0,1,2]]`, pass, "three components in dst: ValueError"},
		{`[[0],[0,1]]`, pass, "one component: ValueError"},
		{`"ab"`, pass, "string: its characters do not unpack into pairs (ValueError)"},
		{`"0"`, pass, "one-character string: ValueError"},
		{`[]`, pass, "empty: ValueError"},
		{`[1,2,3]`, pass, "three ints: ValueError"},
		{`{"tuple":[0,1]}`, dst(0, 1), "destination only"},
		{`[0,1]`, dst(0, 1), "destination only, list"},
		{`[{"np":"int32","v":0},{"np":"uint8","v":1}]`, dst(0, 1), "destination only, NumPy ints"},
		{`[true,1]`, dst(1, 1), "destination only, bool"},
		{`[0.0,1]`, pass, "destination only, float: IndexError on the board"},
		{`[{"np":"float64","v":0},1]`, pass, "destination only, NumPy float"},
		{`["0","1"]`, pass, "strings: ValueError on unpacking '0'"},
		{`[[0,0],5]`, pass, "second item not a pair: TypeError, then nearby((0,0)) fails"},
		{`[5,[0,1]]`, pass, "first item int: fallback with a list component"},
		{`[null,null]`, pass, "None components: TypeError"},
		{`[{"type":"dict"},1]`, pass, "unknown object: TypeError"},
		{`[0,20]`, pass, "destination only, out of bounds"},
		{`[-1,0]`, pass, "destination only, out of bounds with one own neighbour"},
		{`[99999999999999999999,0]`, pass, "destination only, huge"},
		{`5`, pass, "int: TypeError twice"},
		{`1.5`, pass, "float"},
		{`true`, pass, "bool"},
		{`{"type":"ndarray"}`, pass, "unknown object"},
		{`{"np":"int64","v":3}`, pass, "NumPy int: not iterable"},
		{``, pass, "no answer"},
		{`{`, pass, "invalid JSON: bot error"},
		{`[[0,0],[0,1]] x`, pass, "trailing data"},
		{"\xff\xfe", pass, "not UTF-8"},
	}
	for _, tc := range cases {
		if got := answer(t, st, 1, tc.js); got != tc.want {
			t.Errorf("%s (%s): got %+v, want %+v", tc.js, tc.why, got, tc.want)
		}
	}
}

// shapeOK reports whether m is Pass or a well-formed Full/Dst move.
func shapeOK(m rules.Move) bool {
	switch m.Kind {
	case rules.Pass:
		return m == rules.Move{}
	case Full:
		return m.N == 2 && m.Arg[0] >= 0 && m.Arg[0] < Cells && m.Arg[1] >= 0 && m.Arg[1] < Cells && m.Arg[2] == 0
	case Dst:
		return m.N == 1 && m.Arg[0] >= 0 && m.Arg[0] < Cells && m.Arg[1] == 0
	}
	return false
}

// FuzzParseAnswer feeds arbitrary bytes to the codec: it never panics and
// returns Pass or a move of a valid shape, for every seat.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{`null`, `[[0,0],[0,1]]`, `{"tuple":[3,4]}`, `[[0.5,1],["2","3"]]`, `[true,false]`,
		`[{"np":"int64","v":19},{"np":"int64","v":0}]`, `"ab"`, `[[0,0],[0,1],[0,2]]`, `{`, `[1e400,0]`} {
		f.Add([]byte(s))
	}
	st := randomState(false, 3, 300)
	f.Fuzz(func(t *testing.T, data []byte) {
		for seat := 0; seat < Seats; seat++ {
			m := Codec{}.ParseAnswer(st, seat, data)
			if !shapeOK(m) {
				t.Fatalf("seat %d: %q parses to malformed %+v", seat, data, m)
			}
			st.Legal(seat, m)
		}
	})
}

// TestParseValueShapes: random pyval trees (not only JSON the fuzzer finds)
// always give well-formed moves.
func TestParseValueShapes(t *testing.T) {
	rng := rules.NewRNG(4)
	var gen func(depth int) pyval.Value
	gen = func(depth int) pyval.Value {
		switch k := rng.U(9); {
		case k == 0:
			return pyval.Value{}
		case k <= 2:
			return pyval.I(int64(rng.U(26) - 3))
		case k == 3:
			return pyval.F(float64(rng.U(400))/10 - 2)
		case k == 4:
			return pyval.NpI(int64(rng.U(22) - 1))
		case k == 5:
			return pyval.S(fmt.Sprint(rng.U(30)))
		case k == 6:
			return pyval.B(rng.U(2) == 0)
		default:
			if depth > 3 {
				return pyval.I(1)
			}
			items := make([]pyval.Value, rng.U(4))
			for i := range items {
				items[i] = gen(depth + 1)
			}
			if k == 7 {
				return pyval.T(items...)
			}
			return pyval.L(items...)
		}
	}
	kinds := map[rules.MoveKind]int{}
	for i := 0; i < 20000; i++ {
		v := gen(0)
		m := ParseValue(rng.U(Seats), v)
		if !shapeOK(m) {
			t.Fatalf("%s parses to malformed %+v", v.JSON(), m)
		}
		kinds[m.Kind]++
	}
	if kinds[Full] == 0 || kinds[Dst] == 0 {
		t.Fatalf("generator too weak: %v", kinds)
	}
}
