package rectangle

import (
	"encoding/json"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
	"github.com/gridgym/gridgym/rules/rulestest"
)

type request struct {
	board   [][]int
	robots  [][][2]int
	scores  []int
	moveNum int
}

func parseRequest(t *testing.T, b []byte) request {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 4 {
		t.Fatalf("request %s: %v (%d arguments)", b, err, len(raw))
	}
	var q request
	for i, dst := range []any{&q.board, &q.robots, &q.scores, &q.moveNum} {
		if err := json.Unmarshal(raw[i], dst); err != nil {
			t.Fatalf("argument %d of %s: %v", i, b, err)
		}
	}
	return q
}

// TestViewAndRequestR19: on random positions, every seat's View and request
// agree cell by cell with R19's relabelling k = (owner − me) mod p, robots and
// scores are relabelled the same way, and robots lists are empty at the
// placement.
func TestViewAndRequestR19(t *testing.T) {
	checked := 0
	for g := 0; g < 6; g++ {
		rng := rules.NewRNG(uint64(40 + g))
		n, p, b := 8+rng.U(6), 2+rng.U(7), 1+rng.U(8)
		s := NewSized(n, p, b, 30, 200)
		l := &looper{noise: 20}
		moves := make([]rules.Move, p)
		var v View
		var req []byte
		for {
			for me := 0; me < p; me++ {
				s.View(me, &v)
				req = Codec{}.AppendRequest(req[:0], s, me)
				q := parseRequest(t, req)
				if v.N != n || v.Players != p || v.Robots != b || v.MoveNum != s.MoveNum() || q.moveNum != s.MoveNum() {
					t.Fatalf("view header %d %d %d %d, request move_num %d", v.N, v.Players, v.Robots, v.MoveNum, q.moveNum)
				}
				if len(q.board) != n || len(q.robots) != p || len(q.scores) != p {
					t.Fatalf("request shapes: %d rows, %d robot lists, %d scores", len(q.board), len(q.robots), len(q.scores))
				}
				for r := 0; r < n; r++ {
					if len(q.board[r]) != n {
						t.Fatalf("request row %d has %d cells", r, len(q.board[r]))
					}
					for c := 0; c < n; c++ {
						want := s.Cell(r, c)
						if want >= 0 {
							want = ((want-me)%p + p) % p
						}
						if int(v.Board[r][c]) != want || q.board[r][c] != want {
							t.Fatalf("seat %d cell (%d,%d): view %d, request %d, want %d", me, r, c, v.Board[r][c], q.board[r][c], want)
						}
					}
				}
				for k := 0; k < p; k++ {
					owner := (me + k) % p
					if v.Scores[k] != s.Score(owner) || q.scores[k] != s.Score(owner) {
						t.Fatalf("seat %d score %d: view %d request %d, want player %d's %d", me, k, v.Scores[k], q.scores[k], owner, s.Score(owner))
					}
					if s.Placement() {
						if len(q.robots[k]) != 0 {
							t.Fatalf("robots listed at the placement: %v", q.robots[k])
						}
						continue
					}
					if len(q.robots[k]) != b {
						t.Fatalf("seat %d: %d robots of player %d", me, len(q.robots[k]), k)
					}
					for i := 0; i < b; i++ {
						r, c := s.Robot(owner, i)
						if v.Pos[k][i] != (Pos{r, c}) || q.robots[k][i] != [2]int{r, c} {
							t.Fatalf("seat %d robot %d of %d: view %v request %v, want (%d,%d)", me, i, k, v.Pos[k][i], q.robots[k][i], r, c)
						}
					}
				}
				checked++
			}
			if s.Done() {
				break
			}
			l.moves(s, rng, moves)
			s.Step(moves, nil)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d views checked", checked)
	}
}

// TestAnswerRoundTripR20: a legal move written as the view's answer (every
// accepted form) parses back to the same real move.
func TestAnswerRoundTripR20(t *testing.T) {
	rng := rules.NewRNG(9)
	for g := 0; g < 20; g++ {
		n, p, b := 8+rng.U(57), 2+rng.U(7), 1+rng.U(8)
		s := NewSized(n, p, b, 30, 200)
		for step := 0; step < 3; step++ {
			for seat := 0; seat < p; seat++ {
				m := s.RandomMove(seat, rng)
				var forms []pyval.Value
				if s.Placement() {
					var l, tu []pyval.Value
					for k := 0; k < b; k++ {
						r, c := int64(m.Arg[k])/int64(n), int64(m.Arg[k])%int64(n)
						l = append(l, pyval.T(pyval.I(r), pyval.I(c)))
						tu = append(tu, pyval.L(pyval.I(r), pyval.I(c)))
					}
					forms = append(forms, pyval.L(l...), pyval.T(l...), pyval.T(tu...))
				} else {
					str := make([]byte, b)
					var l []pyval.Value
					for k := 0; k < b; k++ {
						str[k] = DirLetters[m.Arg[k]]
						l = append(l, pyval.S(string(DirLetters[m.Arg[k]])))
					}
					forms = append(forms, pyval.S(string(str)), pyval.L(l...), pyval.T(l...))
				}
				for _, f := range forms {
					if got := (Codec{}).ParseAnswer(s, seat, f.JSON()); got != m {
						t.Fatalf("answer %s → %+v, want %+v", f.JSON(), got, m)
					}
				}
			}
			moves := make([]rules.Move, p)
			for i := range moves {
				moves[i] = s.RandomMove(i, rng)
			}
			s.Step(moves, nil)
		}
	}
}

// TestMalformedAnswersR20: every malformed form gives Pass (R9's default).
func TestMalformedAnswersR20(t *testing.T) {
	place := NewSized(8, 3, 2, 30, 200)
	move := NewSized(8, 3, 2, 30, 200)
	move.Step(make([]rules.Move, 3), nil)
	I, T, L, S := pyval.I, pyval.T, pyval.L, pyval.S
	pair := T(I(1), I(2))
	for _, c := range []struct {
		name string
		st   *State
		ans  []byte
	}{
		{"invalid JSON", place, []byte(`[[1,2],`)},
		{"empty", place, nil},
		{"trailing data", move, []byte(`"NX" 1`)},
		{"None", place, []byte(`null`)},
		{"one pair too few", place, L(pair).JSON()},
		{"one pair too many", place, L(pair, pair, pair).JSON()},
		{"flat list", place, L(I(1), I(2)).JSON()},
		{"pair of three", place, L(pair, T(I(1), I(2), I(3))).JSON()},
		{"row out of range", place, L(pair, T(I(8), I(0))).JSON()},
		{"negative column", place, L(pair, T(I(0), I(-1))).JSON()},
		{"huge int", place, []byte(`[[1,2],[1,99999999999999999999999]]`)},
		{"float", place, L(pair, T(pyval.F(1), I(0))).JSON()},
		{"NumPy int", place, L(pair, T(pyval.NpI(1), I(0))).JSON()},
		{"float column", place, L(pair, T(I(1), pyval.F(0))).JSON()},
		{"NumPy int column", place, L(pair, T(I(1), pyval.NpI(0))).JSON()},
		{"None column", place, L(pair, T(I(1), pyval.Value{})).JSON()},
		{"string int", place, L(pair, T(S("1"), I(0))).JSON()},
		{"dict", place, []byte(`{"type":"dict"}`)},
		{"string pair", place, L(pair, S("12")).JSON()},
		{"directions at the placement", place, S("NX").JSON()},
		{"placement at a move", move, L(pair, pair).JSON()},
		{"lower case", move, S("nx").JSON()},
		{"short string", move, S("N").JSON()},
		{"long string", move, S("NXS").JSON()},
		{"bad letter", move, S("NQ").JSON()},
		{"multi-byte letter", move, S("Nñ").JSON()},
		{"two-letter item", move, L(S("NX"), S("X")).JSON()},
		{"empty item", move, L(S(""), S("X")).JSON()},
		{"int items", move, L(I(0), I(4)).JSON()},
		{"short list", move, L(S("N")).JSON()},
		{"nested list", move, L(L(S("N")), S("X")).JSON()},
		{"int", move, I(3).JSON()},
		{"bool", move, pyval.B(true).JSON()},
	} {
		if got := (Codec{}).ParseAnswer(c.st, 0, c.ans); got != (rules.Move{}) {
			t.Errorf("%s: %s → %+v, want Pass", c.name, c.ans, got)
		}
	}
	// bool is a Python int (pinned): accepted as 0/1 in a placement.
	if got, want := (Codec{}).ParseAnswer(place, 0, L(T(pyval.B(true), I(2)), T(I(0), pyval.B(false))).JSON()), PlaceMove(8, []Pos{{1, 2}, {0, 0}}); got != want {
		t.Errorf("bool coordinates: %+v, want %+v", got, want)
	}
}

// FuzzParseAnswer feeds arbitrary bytes to the codec at the placement and at
// a move: it never panics and gives Pass or a legal move.
func FuzzParseAnswer(f *testing.F) {
	f.Add([]byte(`[[0,5],[7,7]]`))
	f.Add([]byte(`"NESX"`))
	f.Add([]byte(`{"tuple":["N","E","S","W"]}`))
	f.Add([]byte(`[{"tuple":[1,2]},[3,true],[0,0],[7,7]]`))
	f.Add([]byte(`[{"np":"int64","v":1},2]`))
	place := NewSized(8, 4, 4, 30, 200)
	move := NewSized(8, 4, 4, 30, 200)
	move.Step(make([]rules.Move, 4), nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range []*State{place, move} {
			m := (Codec{}).ParseAnswer(s, 1, data)
			if m != (rules.Move{}) && !s.Legal(1, m) {
				t.Fatalf("%q → %+v, neither Pass nor legal", data, m)
			}
		}
	})
}

// FuzzGame runs the shared fuzz driver on a small crowded configuration,
// where random robots close rectangles now and then.
func FuzzGame(f *testing.F) {
	g, err := rules.Lookup(Name)
	if err != nil {
		f.Fatal(err)
	}
	cfg, err := g.Configure(map[string]string{"n": "9", "players": "3", "robots": "3", "idle_limit": "40", "max_moves": "300"})
	if err != nil {
		f.Fatal(err)
	}
	rulestest.Fuzz(f, cfg)
}
