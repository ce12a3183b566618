package neural_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules/bovine"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// rectangleWeights copies Rectangle's network fixture into a temporary
// folder with mode 0o640 and returns the copy and its bytes.
func rectangleWeights(t *testing.T) (string, []byte) {
	t.Helper()
	return rulestest.PolicyCopy(t, "rectangle", 0o640)
}

// dataSection is a safetensors file's tensor bytes: everything after its
// header.
func dataSection(t *testing.T, b []byte) []byte {
	t.Helper()
	return b[8+binary.LittleEndian.Uint64(b):]
}

// Play settings written into a weights file come back as written (no
// seed: it is the player's), the tensors stay byte-identical (the data
// section and every decoded tensor), the other metadata is kept, the
// file's mode too; writing greedy removes them and gives the original file
// back byte for byte; a file that is not safetensors is refused unchanged
// (issue 54).
func TestPlayMetadataRoundTrip(t *testing.T) {
	p, orig := rectangleWeights(t)
	ts0, meta0, err := neural.DecodeSafetensors(orig)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := neural.ReadPlay(p); ok || err != nil {
		t.Fatalf("the fixture stores play settings (%v, %v)", ok, err)
	}
	if err := neural.WritePlay(p, neural.Play{Temperature: 6, Steps: 1, Seed: 99}); err != nil {
		t.Fatal(err)
	}
	got, ok, err := neural.ReadPlay(p)
	if want := (neural.Play{Temperature: 6, Steps: 1}); !ok || err != nil || got != want {
		t.Fatalf("ReadPlay = %+v, %v, %v; want %+v", got, ok, err, want)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(dataSection(t, b), dataSection(t, orig)) {
		t.Error("the data section changed")
	}
	ts, meta, err := neural.DecodeSafetensors(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != len(ts0) {
		t.Fatalf("%d tensors, had %d", len(ts), len(ts0))
	}
	for i := range ts {
		a, z := ts[i], ts0[i]
		if a.Name != z.Name || len(a.Data) != len(z.Data) || len(a.Shape) != len(z.Shape) {
			t.Fatalf("tensor %d: %s %v, had %s %v", i, a.Name, a.Shape, z.Name, z.Shape)
		}
		for j := range a.Data {
			if math.Float32bits(a.Data[j]) != math.Float32bits(z.Data[j]) {
				t.Fatalf("tensor %s value %d: %v, had %v", a.Name, j, a.Data[j], z.Data[j])
			}
		}
	}
	if meta[neural.PlayKey] != `{"temperature":6,"steps":1}` {
		t.Errorf("metadata %s = %q", neural.PlayKey, meta[neural.PlayKey])
	}
	for k, v := range meta0 {
		if meta[k] != v {
			t.Errorf("metadata %s = %q, was %q", k, meta[k], v)
		}
	}
	if len(meta) != len(meta0)+1 {
		t.Errorf("metadata %v, was %v plus %s", meta, meta0, neural.PlayKey)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v (%v), want 0640", st.Mode().Perm(), err)
	}
	if _, _, err := neural.Load(p); err != nil {
		t.Errorf("the rewritten file does not load: %v", err)
	}

	if err := neural.WritePlay(p, neural.Play{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); !bytes.Equal(b, orig) {
		t.Error("storing greedy did not give the original file back")
	}

	bad := filepath.Join(t.TempDir(), "cut.safetensors")
	if err := os.WriteFile(bad, orig[:len(orig)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	var ce *neural.CorruptError
	if err := neural.WritePlay(bad, neural.Play{Temperature: 6}); !errors.As(err, &ce) {
		t.Errorf("a truncated file: %v, want a CorruptError", err)
	}
	if b, _ := os.ReadFile(bad); !bytes.Equal(b, orig[:len(orig)/2]) {
		t.Error("the refused file changed")
	}
	if err := neural.WritePlay(p, neural.Play{Temperature: -1}); err == nil {
		t.Error("a negative temperature was stored")
	}
}

// Stored values out of range or of another shape are errors, not greedy.
func TestStoredPlayRefusesBadValues(t *testing.T) {
	for _, v := range []string{`{"temperature":-1}`, `{"temperature":101}`, `{"temperature":6,"steps":-1}`, `{"temp":6}`, `six`, `{"temperature":6,"opening":-1}`, `{"opening":65}`, `{"guard":1}`} {
		if _, _, err := neural.StoredPlay(map[string]string{neural.PlayKey: v}); err == nil {
			t.Errorf("%s: no error", v)
		}
	}
	if p, ok, err := neural.StoredPlay(map[string]string{neural.PlayKey: `{"temperature":2}`}); !ok || err != nil || p != (neural.Play{Temperature: 2}) {
		t.Errorf("temperature 2: %+v, %v, %v", p, ok, err)
	}
}

// A weights file entered by its plain name plays the settings it stores;
// a spec's own settings override them: temp= replaces the stored sampling
// (temp=0 is greedy, temp=T alone samples every step), steps= alone keeps
// the stored temperature, seed= keys the draws (issue 54). The agents the
// resolver makes, SpecSettings and its note agree.
func TestStoredPlayIsTheDefault(t *testing.T) {
	p, _ := rectangleWeights(t)
	if err := neural.WritePlay(p, neural.Play{Temperature: 6, Steps: 1}); err != nil {
		t.Fatal(err)
	}
	plain, _ := rectangleWeights(t)
	for _, tc := range []struct {
		spec string
		want neural.Play
		note string
	}{
		{p, neural.Play{Temperature: 6, Steps: 1}, "temp 6, first step, stored in its weights"},
		{p + ":temp=0", neural.Play{}, "greedy, the spec's over its weights' temp 6, first step"},
		{p + ":temp=2", neural.Play{Temperature: 2}, "temp 2, the spec's over its weights' temp 6, first step"},
		{p + ":steps=3", neural.Play{Temperature: 6, Steps: 3}, "temp 6, first 3 steps, the spec's over its weights' temp 6, first step"},
		{p + ":seed=5", neural.Play{Temperature: 6, Steps: 1, Seed: 5}, "temp 6, first step, seed 5, the spec's over its weights' temp 6, first step"},
		{p + ":opening=8", neural.Play{Temperature: 6, Steps: 1, Opening: 8}, "temp 6, first step, opening 8, the spec's over its weights' temp 6, first step"},
		{plain, neural.Play{}, "greedy"},
		{plain + ":temp=3:steps=1", neural.Play{Temperature: 3, Steps: 1}, "temp 3, first step, from the spec"},
	} {
		e, err := agents.Lookup("rectangle", tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		ag := e.New().(*neural.Agent)
		if got := (neural.Play{Temperature: ag.Temperature, Steps: ag.TempSteps, Seed: ag.Seed, Opening: ag.Opening}); got != tc.want || !ag.PerSeat {
			t.Errorf("%s: the agent plays %+v (per seat %v), want %+v", tc.spec, got, ag.PerSeat, tc.want)
		}
		s, ok, err := neural.SpecSettings(tc.spec)
		if !ok || err != nil || s.Play != tc.want || s.Note() != tc.note {
			t.Errorf("%s: SpecSettings = %+v (%q), %v, %v; want %+v (%q)", tc.spec, s.Play, s.Note(), ok, err, tc.want, tc.note)
		}
	}
	if _, ok, err := neural.SpecSettings("planner"); ok || err != nil {
		t.Errorf("a registered bot's settings: ok %v, %v", ok, err)
	}
}

// The guard is a play setting like the others (issue 54): stored with the
// weights it is what a plain file name plays, guard=0 in a spec turns it
// off, guard=1 turns it on, and a game without a scripted guard
// (rules.Guarder) refuses it. The agent plays the guard's move where it
// answers (a rival cow beside the barn) and the network's elsewhere.
func TestStoredGuard(t *testing.T) {
	p, _ := rulestest.PolicyCopy(t, bovine.Name, 0o640)
	plain, _ := rulestest.PolicyCopy(t, bovine.Name, 0o640)
	if err := neural.WritePlay(p, neural.Play{Temperature: 1, Guard: true}); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := neural.ReadPlay(p); !ok || err != nil || got != (neural.Play{Temperature: 1, Guard: true}) {
		t.Fatalf("read back %+v, %v, %v", got, ok, err)
	}
	for _, tc := range []struct {
		spec  string
		guard bool
		note  string
	}{
		{p, true, "temp 1, guard, stored in its weights"},
		{p + ":guard=0", false, "temp 1, the spec's over its weights' temp 1, guard"},
		{plain, false, "greedy"},
		{plain + ":guard=1", true, "greedy, guard, from the spec"},
	} {
		e, err := agents.Lookup(bovine.Name, tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		if ag := e.New().(*neural.Agent); ag.Guard != tc.guard {
			t.Errorf("%s: the agent's guard %v, want %v", tc.spec, ag.Guard, tc.guard)
		}
		if s, _, _ := neural.SpecSettings(tc.spec); s.Note() != tc.note {
			t.Errorf("%s: note %q, want %q", tc.spec, s.Note(), tc.note)
		}
	}
	r, _ := rectangleWeights(t)
	if _, err := agents.Lookup("rectangle", r+":guard=1"); err == nil || !strings.Contains(err.Error(), "no scripted guard") {
		t.Errorf("rectangle with guard=1: %v, want a refusal naming the missing guard", err)
	}

	st := bovine.New(bovine.Config(false))
	st.SetCell(1, 1, 2) // seat 2's cow two steps from seat 0's barn
	st.SetCell(0, 1, 0)
	want, ok := st.Guard(0)
	if !ok {
		t.Fatal("no guard move: the test would prove nothing")
	}
	e, _ := agents.Lookup(bovine.Name, plain)
	net := e.New().(*neural.Agent)
	net.Reset(st, 0, nil)
	if net.Act(st) == want {
		t.Fatal("the network alone plays the guard's move: the test would prove nothing")
	}
	net.Guard = true
	if got := net.Act(st); got != want {
		t.Errorf("the guarded agent plays %s, want the guard's %s", st.MoveText(0, got), st.MoveText(0, want))
	}
	quiet := bovine.New(bovine.Config(false))
	net.Guard = false
	free := net.Act(quiet)
	net.Guard = true
	if got := net.Act(quiet); got != free {
		t.Errorf("with no rival near the barn the guarded agent plays %s, the network %s", quiet.MoveText(0, got), quiet.MoveText(0, free))
	}
}
