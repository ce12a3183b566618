package slime

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// TestParseOutput pins R15's reading of a bot's output, form by form.
func TestParseOutput(t *testing.T) {
	long := strings.Repeat(" ", 120)
	tests := []struct {
		out  string
		want [4]int // ignored when !ok
		ok   bool
	}{
		{"0 1 1 2\n", [4]int{0, 1, 1, 2}, true},
		{"0 1 1 2", [4]int{}, false},                // the 4th integer needs a following character
		{"0 1 1 2 ", [4]int{0, 1, 1, 2}, true},      // any character will do
		{"0 1 1 2\r\n", [4]int{0, 1, 1, 2}, true},   // CRLF
		{"1 2 3 4.5\n", [4]int{1, 2, 3, 4}, true},   // text after the 4th is ignored
		{"1 2 3 4.5", [4]int{1, 2, 3, 4}, true},     // even without a newline
		{"1 2 3 4x", [4]int{1, 2, 3, 4}, true},      // …
		{"1 2 3 4 5 6\n", [4]int{1, 2, 3, 4}, true}, // extra integers too
		{"+1 +2 +3 +4\n", [4]int{1, 2, 3, 4}, true}, // a leading + is accepted
		{"\t1\t2\t3\t4\n", [4]int{1, 2, 3, 4}, true},
		{"  1   2\v3\f4\n", [4]int{1, 2, 3, 4}, true},
		{"007 0 -0 +00\n", [4]int{7, 0, 0, 0}, true},
		{"-1 0 0 0\n", [4]int{-1, 0, 0, 0}, true}, // read, then off the board
		{"2147483647 -2147483648 0 0\n", [4]int{2147483647, -2147483648, 0, 0}, true},
		{"2147483648 0 0 0\n", [4]int{}, false}, // out of the int range
		{"0 0 0 99999999999999999999\n", [4]int{}, false},
		{"0 0 0 -2147483649\n", [4]int{}, false},
		{"1,2,3,4\n", [4]int{}, false}, // non-numeric token
		{"1 2 3\n", [4]int{}, false},   // fewer than four
		{"1 2 3\n4\n", [4]int{}, false},
		{"\n1 2 3 4\n", [4]int{}, false}, // only the first line counts
		{"", [4]int{}, false},
		{"1.5 2 3 4\n", [4]int{}, false},
		{"1 2.5 3 4\n", [4]int{}, false},
		{"1+2+3+4\n", [4]int{}, false}, // not whitespace-separated
		{"1 2 3+4\n", [4]int{}, false},
		{"+ 1 2 3 4\n", [4]int{}, false},
		{"--1 2 3 4\n", [4]int{}, false},
		{"a 1 2 3 4\n", [4]int{}, false},
		{"1 2 3 4\x00\n", [4]int{}, false}, // a NUL ends the controller's C string
		{"1 2 3 4 \x00\n", [4]int{1, 2, 3, 4}, true},
		{long + "1 2 3 4\n", [4]int{}, false}, // cut to 127 bytes: "1 2 3 4" then the end
		{long[:119] + "1 2 3 4\n", [4]int{1, 2, 3, 4}, true},
		{long + "1 2 3 45678\n", [4]int{}, false},
		{long[:110] + "1 2 3 4" + strings.Repeat("x", 100), [4]int{1, 2, 3, 4}, true},
	}
	for _, tc := range tests {
		r1, c1, r2, c2, ok := ParseOutput([]byte(tc.out))
		if ok != tc.ok || (ok && [4]int{r1, c1, r2, c2} != tc.want) {
			t.Errorf("ParseOutput(%q) = %d %d %d %d %v, want %v %v", tc.out, r1, c1, r2, c2, ok, tc.want, tc.ok)
		}
		if rok := refParse([]byte(tc.out)); rok.ok != ok || (ok && rok.v != [4]int{r1, c1, r2, c2}) {
			t.Errorf("reference parse of %q disagrees: %+v", tc.out, rok)
		}
	}
}

// refLine is R15 as a regular expression on the first line (cut as the
// controller's fgets and C string cut it). The digits of each integer are
// read greedily, so the character after the 4th is not a digit.
var refLine = regexp.MustCompile(`^[ \t\n\v\f\r]*([+-]?[0-9]+)[ \t\n\v\f\r]+([+-]?[0-9]+)[ \t\n\v\f\r]+([+-]?[0-9]+)[ \t\n\v\f\r]+([+-]?[0-9]+)[^0-9]`)

type parsed struct {
	v  [4]int
	ok bool
}

func refParse(out []byte) parsed {
	line := out
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i+1]
	}
	if len(line) > 127 {
		line = line[:127]
	}
	if i := bytes.IndexByte(line, 0); i >= 0 {
		line = line[:i]
	}
	m := refLine.FindSubmatch(line)
	if m == nil {
		return parsed{}
	}
	var p parsed
	for i := range p.v {
		n, err := strconv.ParseInt(string(m[i+1]), 10, 32)
		if err != nil {
			return parsed{}
		}
		p.v[i] = int(n)
	}
	p.ok = true
	return p
}

// TestParseAnswer: answers map to the real move; off-board coordinates and
// unreadable answers are Pass; the move's validity is left to Step.
func TestParseAnswer(t *testing.T) {
	s := New(config(t, "board_size", "6"))
	for _, tc := range []struct {
		out  string
		want rules.Move
	}{
		{"0 0 1 1\n", rules.Move{Kind: KindMove, N: 2, Arg: [8]int16{0, 7}}},
		{"5 5 3 4\n", rules.Move{Kind: KindMove, N: 2, Arg: [8]int16{35, 22}}},
		{"0 0 0 0\n", rules.Move{Kind: KindMove, N: 2}}, // the seed's pass: read, then invalid (R8)
		{"0 0 0 6\n", rules.Move{}},                     // off a 6×6 board
		{"0 -1 1 1\n", rules.Move{}},
		{"6 0 1 1\n", rules.Move{}},
		{"0 0 1 1", rules.Move{}},
		{"garbage\n", rules.Move{}},
	} {
		if m := (Codec{}).ParseAnswer(s, 0, []byte(tc.out)); m != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.out, m, tc.want)
		}
	}
}

// TestViewAndRoundTrip: on random states every seat's view is the real board
// with its player digit (R14: no rotation, no relabelling), the request
// parses back to it, and every legal move goes real → view answer → real.
func TestViewAndRoundTrip(t *testing.T) {
	rng := rules.NewRNG(5)
	var req, ans []byte
	for i := 0; i < 300; i++ {
		s := randomState(t, rng, 4+rng.U(5))
		n := s.n
		for seat := 0; seat < Seats; seat++ {
			v := ViewOf(s, seat)
			if v.Player != seat+1 || v.N != n {
				t.Fatalf("view player %d N %d", v.Player, v.N)
			}
			want := []byte{byte('1' + seat)}
			for r := 0; r < n; r++ {
				want = append(want, ',')
				for c := 0; c < n; c++ {
					ch := v.Cell(r, c)
					if ch != ".1234"[s.Cell(r, c)] {
						t.Fatalf("view (%d,%d) = %q, cell %d", r, c, ch, s.Cell(r, c))
					}
					want = append(want, ch)
				}
			}
			req = Codec{}.AppendRequest(req[:0], s, seat)
			if !bytes.Equal(req, want) {
				t.Fatalf("request %q, want %q", req, want)
			}
			if got := v.AppendArg(nil); !bytes.Equal(got, req) {
				t.Fatalf("AppendArg %q, request %q", got, req)
			}
			pv, err := ParseRequest(string(req))
			if err != nil || pv != v {
				t.Fatalf("ParseRequest(%q): %v", req, err)
			}
			if v.Own() != s.Slime(seat) || v.Empty() != s.EmptyCells() {
				t.Fatalf("view bitboards differ")
			}
		}
		seat := s.ToMove()
		for _, m := range s.LegalMoves(seat, nil)[1:] {
			r1, c1, r2, c2, ok := Coords(n, m)
			if !ok {
				t.Fatalf("Coords(%+v)", m)
			}
			ans = AppendAnswer(ans[:0], r1, c1, r2, c2)
			if got := (Codec{}).ParseAnswer(s, seat, ans); got != m {
				t.Fatalf("%+v → %q → %+v", m, ans, got)
			}
			if got := AnswerMove(s, seat, r1, c1, r2, c2); got != m {
				t.Fatalf("AnswerMove %+v, want %+v", got, m)
			}
		}
	}
}

// TestParseRequestErrors: malformed arguments are errors, not panics.
func TestParseRequestErrors(t *testing.T) {
	for _, arg := range []string{
		"", "1", "5,1..2,....,....,3..4", "0,1..2,....,....,3..4", "12,1..2,....,....,3..4",
		"1,1..2,....,....", "1,1..2,....,....,3..4,", "1,1..2,...,....,3..4", "1,1..2,..x.,....,3..4",
		"1,1........,.........,.........,.........,.........,.........,.........,.........,........4",
	} {
		if _, err := ParseRequest(arg); err == nil {
			t.Errorf("ParseRequest(%q) accepted", arg)
		}
	}
	if v, err := ParseRequest("2,1..2,....,....,3..4"); err != nil || v.N != 4 || v.Player != 2 || v.Cell(3, 3) != '4' {
		t.Fatalf("%+v %v", v, err)
	}
}
