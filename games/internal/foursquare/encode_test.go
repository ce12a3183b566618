package foursquare

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// positions plays random games and keeps every position, the ends included.
func positions(games int) []rules.State {
	var out []rules.State
	rng := rules.NewRNG(1)
	moves := make([]rules.Move, 2)
	for range games {
		st := New()
		out = append(out, st.Clone())
		for !st.Done() {
			for s := range moves {
				moves[s] = st.RandomMove(s, rng)
			}
			st.Step(moves, rng)
			out = append(out, st.Clone())
		}
	}
	return out
}

// The generic encoder properties (mask = legal moves, decode ↔ the R6
// answer, observation = the codec's view of R6, every byte, no allocations).
func TestEncoderConformance(t *testing.T) {
	rulestest.EncoderConformance(t, rulestest.EncoderCase{
		Name: "default", Encoder: Encoder{}, States: positions(6), PlaneMax: 1, Codec: Codec{},
		Answer: func(_ rules.State, _ int, a int32) ([]byte, error) {
			if a == PassAction {
				return []byte("null"), nil
			}
			return fmt.Appendf(nil, `{"tuple":[%d,%d]}`, a/Size, a%Size), nil
		},
		View: func(st rules.State, seat int, planes []uint8, _ []float32) {
			var args [1][Size][Size]int
			if err := json.Unmarshal(Codec{}.AppendRequest(nil, st, seat), &args); err != nil {
				panic(err)
			}
			for r := range Size {
				for c := range Size {
					v := args[0][r][c]
					planes[r*Size+c] = b2u(v == 1)
					planes[Cells+r*Size+c] = b2u(v == 2)
					planes[2*Cells+r*Size+c] = b2u(v == 0)
				}
			}
		},
	})
}

// R5: the score is the largest side-joined group.
func TestGroup(t *testing.T) {
	cases := []struct {
		rows string
		want int
	}{
		{"................", 0},
		{"X...............", 1},
		{"XX..X...........", 3},                 // (0,0),(0,1),(1,0)
		{"X..X............", 1},                 // (0,0) and (0,3) are not joined across the row end
		{"...X" + "X..." + "........", 1},       // (0,3) and (1,0): no wrap
		{"XXXX" + "...X" + "...X" + "XXXX", 10}, // a hook
	}
	for _, c := range cases {
		var b uint16
		for i, ch := range c.rows {
			if ch == 'X' {
				b |= 1 << i
			}
		}
		if got := group(b); got != c.want {
			t.Errorf("%q: group %d, want %d", c.rows, got, c.want)
		}
	}
}
