package nuggets

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

func FuzzGame(f *testing.F) { rulestest.Fuzz(f, Game.Default()) }

// FuzzParseAnswer feeds arbitrary bytes to the codec: it never panics, and
// the result is Pass (invalid_query=pass only) or a well-formed query.
func FuzzParseAnswer(f *testing.F) {
	for _, a := range []string{`{"tuple":[3,4]}`, `[19,19]`, `[{"np":"int64","v":2},7]`, `[true,1]`, `null`, `[1,2,3]`, `{`} {
		f.Add([]byte(a), false)
	}
	origin, pass := NewDefault(), New(mustConfig(map[string]string{"invalid_query": "pass"}))
	f.Fuzz(func(t *testing.T, answer []byte, passMode bool) {
		s := origin
		if passMode {
			s = pass
		}
		m := Codec{}.ParseAnswer(s, 2, answer)
		if m == (rules.Move{}) && passMode {
			return
		}
		if x, y, ok := QueryXY(m); !ok || m != Query(x, y) || !s.Legal(2, m) {
			t.Fatalf("answer %q → %+v: not a well-formed query", answer, m)
		}
	})
}

func mustConfig(vals map[string]string) rules.Config {
	cfg, err := Game.Configure(vals)
	if err != nil {
		panic(err)
	}
	return cfg
}
