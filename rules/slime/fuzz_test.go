package slime

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// FuzzGame plays whole games from fuzz input (rulestest.Fuzz).
func FuzzGame(f *testing.F) {
	rulestest.Fuzz(f, config(f))
}

// FuzzParseAnswer feeds arbitrary output to the codec: it never panics, gives
// Pass or a well-formed move on the board, and agrees with the reference
// parse of R15.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{"0 0 1 1\n", "7 0 6 1", "+1 -0 3 4.5", "1 2 3 4\x00\n", "", "\t7\t7\t6\t6\r\n", "99999999999 1 1 1\n"} {
		f.Add([]byte(s), uint8(8))
	}
	f.Fuzz(func(t *testing.T, out []byte, size uint8) {
		n := 4 + int(size%5)
		s := newState(n, 2000)
		m := Codec{}.ParseAnswer(s, int(size)%4, out)
		ref := refParse(out)
		want := rules.Move{}
		if ref.ok {
			want = NewMove(n, ref.v[0], ref.v[1], ref.v[2], ref.v[3])
		}
		if m != want {
			t.Fatalf("%q: %+v, reference %+v", out, m, want)
		}
		if m != (rules.Move{}) {
			if m.Kind != KindMove || m.N != 2 || m.Arg[0] < 0 || m.Arg[1] < 0 || int(m.Arg[0]) >= n*n || int(m.Arg[1]) >= n*n || m.Arg[2] != 0 {
				t.Fatalf("%q: malformed %+v", out, m)
			}
		}
	})
}
