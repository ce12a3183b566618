package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// gridgym weights average writes the weighted parameter-wise mean of its
// networks with the first's game parameters and play settings and where
// it came from; a checkpoint folder means its weights; networks of
// another architecture or other game parameters, a wrong count of
// weights and no --out are refused, writing nothing.
func TestWeightsAverageCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, ab, _ := exporttest.RandomNet(t, "slime", 1)
	b, bb, _ := exporttest.RandomNet(t, "slime", 2)
	_, cb, _ := exporttest.RandomNetParams(t, "slime", map[string]string{"max_turns": "300"}, 3)
	fa := write("a.safetensors", ab)
	if err := neural.WritePlay(fa, neural.Play{Temperature: 0.3}); err != nil {
		t.Fatal(err)
	}
	cp := filepath.Dir(write("run/checkpoints/iter-000060/weights.safetensors", bb))
	fc := write("c.safetensors", cb)
	out := filepath.Join(dir, "mean.safetensors")

	got, err := run("weights", "average", fa, cp, "--coef", "1,3", "--out", out)
	if err != nil || !strings.Contains(got, out+": the mean of 2 slime networks (weights [1 3]); plays temp 0.3") {
		t.Fatalf("weights average: %v\n%s", err, got)
	}
	m, meta, err := neural.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for p := range m.Values {
		for j, x := range m.Values[p] {
			if want := float32(0.25*float64(a.Values[p][j]) + 0.75*float64(b.Values[p][j])); x != want {
				t.Fatalf("%s[%d] = %g, want %g", m.Params[p].Name, j, x, want)
			}
		}
	}
	if p, ok, _ := neural.StoredPlay(meta); !ok || p.Temperature != 0.3 {
		t.Errorf("play settings %v %v, want the first file's temp 0.3", p, ok)
	}
	if !strings.Contains(meta["averaged"], `"weight":3`) || !strings.Contains(meta["averaged"], "iter-000060/weights.safetensors") || meta["run"] != "" {
		t.Errorf("metadata averaged %q run %q: want the sources and no run", meta["averaged"], meta["run"])
	}

	four := rulestest.Policy(t, "four-square")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{fa, cp}, "--out FILE"},
		{[]string{fa, cp, "--coef", "1", "--out", out + "2"}, "1 weights for 2 networks"},
		{[]string{fa, fc, "--out", out + "2"}, "game parameters"},
		{[]string{fa, four, "--out", out + "2"}, "a four-square network"},
		{[]string{fa, cp, "--coef", "1,-1", "--out", out + "2"}, "weight 2 is -1"},
		{[]string{fa, filepath.Join(dir, "none"), "--out", out + "2"}, "none"},
	} {
		got, err := run(append([]string{"weights", "average"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("weights average %v: err %v, want one containing %q\n%s", tc.args, err, tc.want, got)
		}
		if _, err := os.Stat(out + "2"); err == nil {
			t.Errorf("weights average %v wrote its output", tc.args)
		}
	}
}
