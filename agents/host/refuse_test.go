package host

import (
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

// A seat whose one legal move is Pass (a Slime player without slime, R8
// leaves it no spread or jump) has nothing refused, whatever it answers;
// the same answers from a seat with moves are refused with the rule, except
// the game's own pass answer "-1 -1 -1 -1" (rules.Program.Pass, what
// gridgym's exported bots print to pass), which is a pass chosen (R7).
func TestNothingToRefuseWithoutMoves(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := g.Configure(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		rows   []string // player 1 (seat 0) moves first
		refuse bool
	}{
		{"no slime of its own", []string{"........", "...22...", "...33...", "...44..."}, false},
		{"moves to make", []string{"1.......", "...22...", "...33...", "...44..."}, true},
	} {
		st := slime.New(cfg)
		if err := st.SetRows(tc.rows...); err != nil {
			t.Fatal(err)
		}
		for _, answer := range []string{"-1 -1 -1 -1\n", "0 0 0 0\n", "hello\n"} {
			m := g.Codec.ParseAnswer(st, 0, []byte(answer))
			why := refusal("slime", st, 0, []byte(answer), m)
			want := tc.refuse && answer != "-1 -1 -1 -1\n"
			if (why != "") != want {
				t.Errorf("%s: answer %q: refusal %q, want refused %v", tc.name, strings.TrimSpace(answer), why, want)
			}
		}
	}
}
