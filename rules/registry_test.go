package rules

import (
	"strings"
	"testing"
	"testing/fstest"
)

var testGame = &Game{
	Name: "test-game",
	Params: []Param{
		{Name: "n", Kind: Int, Default: "20", Min: 8, Max: 64},
		{Name: "flag", Kind: Bool, Default: "false"},
		{Name: "mode", Kind: Choice, Default: "origin", Choices: []string{"origin", "pass"}},
	},
}

func TestConfigure(t *testing.T) {
	cases := []struct {
		in      map[string]string
		wantErr string // substring; "" = valid
		check   func(Config) bool
	}{
		{nil, "", func(c Config) bool { return c.Int("n") == 20 && !c.Bool("flag") && c.Get("mode") == "origin" }},
		{map[string]string{"n": "8", "flag": "yes", "mode": "pass"}, "", func(c Config) bool { return c.Int("n") == 8 && c.Bool("flag") }},
		{map[string]string{"n": "65"}, "8..64", nil},
		{map[string]string{"n": "x"}, "integer", nil},
		{map[string]string{"flag": "maybe"}, "true or false", nil},
		{map[string]string{"mode": "zero"}, "origin, pass", nil},
		{map[string]string{"size": "3"}, "valid: n, flag, mode", nil},
	}
	for _, c := range cases {
		cfg, err := testGame.Configure(c.in)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Configure(%v) error %v, want it to mention %q", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || !c.check(cfg) {
			t.Errorf("Configure(%v) = %v, %v", c.in, cfg, err)
		}
	}
}

func TestParseParams(t *testing.T) {
	kv, err := ParseParams([]string{"a=1,b=2", " c = x "})
	if err != nil || kv["a"] != "1" || kv["b"] != "2" || kv["c"] != "x" {
		t.Fatalf("got %v, %v", kv, err)
	}
	if _, err := ParseParams([]string{"novalue"}); err == nil {
		t.Fatal("accepted a parameter without =")
	}
}

func TestLookupUnknownListsGames(t *testing.T) {
	_, err := Lookup("no-such-game")
	if err == nil || !strings.Contains(err.Error(), "valid:") {
		t.Fatalf("error %v should list the valid games", err)
	}
}

func TestPointsFromKeys(t *testing.T) {
	cases := []struct {
		keys        []float64
		points, win []float64
	}{
		{[]float64{4, 3, 2, 1}, []float64{3, 2, 1, 0}, []float64{1, 0, 0, 0}},
		// bovine-borders E11: {0, 2} tied first, then 3, then 1.
		{[]float64{50, 1, 50, 2}, []float64{2.5, 0, 2.5, 1}, []float64{0.5, 0, 0.5, 0}},
		{[]float64{7, 7, 7, 7}, []float64{1.5, 1.5, 1.5, 1.5}, []float64{0.25, 0.25, 0.25, 0.25}},
	}
	for _, c := range cases {
		o := NewOutcome(len(c.keys))
		PointsFromKeys(c.keys, o)
		for s := range c.keys {
			if o.Points[s] != c.points[s] || o.Win[s] != c.win[s] {
				t.Errorf("keys %v: points %v win %v, want %v %v", c.keys, o.Points, o.Win, c.points, c.win)
				break
			}
		}
	}
}

// Register refuses training configs without the default one (what train
// runs without --config, and the base of every preset), and takes them with
// it.
func TestRegisterChecksTrain(t *testing.T) {
	register := func(name string, train fstest.MapFS) (msg any) {
		defer func() { msg = recover() }()
		Register(&Game{Name: name, New: func(Config) State { return nil }, Codec: nopCodec{}, Encoder: nopEncoder, Train: train})
		return nil
	}
	if r := register("train-check-strong-only", fstest.MapFS{TrainPreset("strong"): {Data: []byte("game: x\n")}}); r == nil || !strings.Contains(r.(string), TrainDefault) {
		t.Fatalf("recovered %v, want a panic naming %s", r, TrainDefault)
	}
	if r := register("train-check-default", fstest.MapFS{TrainDefault: {Data: []byte("game: x\n")}}); r != nil {
		t.Fatalf("a default config refused: %v", r)
	}
	delete(registry, "train-check-default")
}

// Register refuses a game without its rules, codec or encoder: every loop
// (env.Vec, so self-play, tournaments and training) plays on the encoder.
func TestRegisterRefusesIncomplete(t *testing.T) {
	newState := func(Config) State { return nil }
	for _, c := range []struct {
		name string
		g    Game
	}{
		{"no name", Game{New: newState, Codec: nopCodec{}, Encoder: nopEncoder}},
		{"no rules", Game{Name: "x-no-rules", Codec: nopCodec{}, Encoder: nopEncoder}},
		{"no codec", Game{Name: "x-no-codec", New: newState, Encoder: nopEncoder}},
		{"no encoder", Game{Name: "x-no-encoder", New: newState, Codec: nopCodec{}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "incomplete registration") {
					t.Fatalf("recovered %v, want an incomplete registration", r)
				}
			}()
			Register(&c.g)
		})
	}
}
