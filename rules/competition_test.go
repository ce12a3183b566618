package rules

import (
	"strings"
	"testing"
	"time"
)

// A competition declaration is checked at registration: what the host and
// the exporter read from it must be there.
func TestCompetitionCheck(t *testing.T) {
	prog := &Program{
		Params:       func(string) (map[string]string, error) { return nil, nil },
		Position:     func(State, string) (int, error) { return 0, nil },
		AppendAnswer: func(dst []byte, _ State, _ Move) ([]byte, bool) { return dst, true },
		Pass:         "pass\n",
	}
	py := func(f func(*Competition)) *Competition {
		c := &Competition{Protocol: PythonCall, Entry: "bot", Args: "plain", Limit: time.Second, Rules: "R1",
			Export: &Export{Source: []byte("def bot(a): pass\n"), File: "g_bot.py", Entry: "bot", Args: 1}}
		f(c)
		return c
	}
	cases := []struct {
		name string
		c    *Competition
		want string // "" = valid
	}{
		{"python", py(func(*Competition) {}), ""},
		{"program", &Competition{Protocol: ProgramRun, Limit: time.Second, Rules: "R1", Program: prog,
			Export: &Export{Source: []byte("def bot(a): pass\n"), File: "g_bot.py", Entry: "main", Args: 1, Executable: "g-bot", Runner: "x/cmd/gbot"}}, ""},
		{"no protocol", py(func(c *Competition) { c.Protocol = 0 }), "protocol"},
		{"no entry", py(func(c *Competition) { c.Entry = "" }), "Entry and Args"},
		{"no args", py(func(c *Competition) { c.Args = "" }), "Entry and Args"},
		{"no limit", py(func(c *Competition) { c.Limit = 0 }), "Limit and Rules"},
		{"no rules", py(func(c *Competition) { c.Rules = "" }), "Limit and Rules"},
		{"export without file", py(func(c *Competition) { c.Export.File = "" }), "an export needs"},
		{"export without source", py(func(c *Competition) { c.Export.Source = nil }), "an export needs Source"},
		{"executable without runner", py(func(c *Competition) { c.Export.Executable = "g-bot" }), "executable needs"},
		{"executable without program", py(func(c *Competition) { c.Export.Executable, c.Export.Runner = "g-bot", "x/cmd/gbot" }), "executable needs"},
		{"program without pass", py(func(c *Competition) { p := *prog; p.Pass = ""; c.Program = &p }), "incomplete Program"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.check("g")
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("valid declaration refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// Register refuses an incomplete competition at start-up.
func TestRegisterChecksCompetition(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "Limit and Rules") {
			t.Fatalf("recovered %v, want the competition's error", r)
		}
	}()
	Register(&Game{Name: "competition-check", New: func(Config) State { return nil }, Codec: nopCodec{}, Encoder: nopEncoder,
		Competition: &Competition{Protocol: ProgramRun}})
}

// nopEncoder stands in for the encoder that Register requires.
func nopEncoder(Config) Encoder { return nil }

type nopCodec struct{}

func (nopCodec) AppendRequest(dst []byte, _ State, _ int) []byte { return dst }
func (nopCodec) ParseAnswer(State, int, []byte) Move             { return Move{} }
