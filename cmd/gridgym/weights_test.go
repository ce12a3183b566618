package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// slimeRun lays out a training run folder as train writes it: checkpoint
// iter-000001 (the pointer latest names it) and, with best, a
// best.safetensors of another network. It returns the folder and the two
// weights files.
func slimeRun(t *testing.T, best bool) (run, latestW, bestW string) {
	t.Helper()
	run = filepath.Join(t.TempDir(), "run")
	cp := filepath.Join(run, "checkpoints", "iter-000001")
	if err := os.MkdirAll(cp, 0o755); err != nil {
		t.Fatal(err)
	}
	_, a, _ := exporttest.RandomNet(t, "slime", 1)
	latestW = filepath.Join(cp, "weights.safetensors")
	if err := os.WriteFile(latestW, a, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, "latest"), []byte("iter-000001\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bestW = filepath.Join(run, "best.safetensors")
	if best {
		_, b, _ := exporttest.RandomNet(t, "slime", 2)
		if err := os.WriteFile(bestW, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return run, latestW, bestW
}

// A run folder given as weights or as a bot means the best.safetensors
// that train pointed to, else its latest checkpoint (issue 52, item 5):
// export, play and bench --weights resolve it through weightsOf, which
// notes the file it chose.
func TestRunFolderMeansItsBest(t *testing.T) {
	for _, best := range []bool{true, false} {
		run, latestW, bestW := slimeRun(t, best)
		want, note := latestW, "using checkpoints/iter-000001/weights.safetensors, its latest checkpoint"
		if best {
			want, note = bestW, "using best.safetensors, the policy of its best evaluation"
		}
		var w bytes.Buffer
		if p, ok, err := weightsOf(&w, run); p != want || !ok || err != nil {
			t.Errorf("best %v: weightsOf = %s, %v, %v; want %s", best, p, ok, err, want)
		}
		if !strings.Contains(w.String(), "note: run folder "+run+": "+note) {
			t.Errorf("best %v: weightsOf's note %q lacks %q", best, w.String(), note)
		}
		if p, _, _ := weightsOf(&w, want); p != want {
			t.Errorf("a weights file resolves to %s, not itself", p)
		}

		out := filepath.Join(t.TempDir(), "bot")
		o := mustRun(t, note, "export", "--checkpoint", run, "--out", out, "--no-binary", "--python", "none")
		if strings.Count(o, "note: run folder") != 1 {
			t.Errorf("export notes its choice once:\n%s", o)
		}
		got, _, err := neural.Load(filepath.Join(out, "weights.safetensors"))
		if err != nil {
			t.Fatal(err)
		}
		chosen, _, _ := neural.Load(want)
		if got.Values[0][0] != chosen.Values[0][0] {
			t.Errorf("best %v: export wrote another network than %s", best, want)
		}
		o = mustRun(t, note, "play", "-g", "slime", "-b", "a="+run+",b="+run+":temp=1,random")
		if strings.Count(o, "note: run folder") != 1 {
			t.Errorf("play notes each run folder once:\n%s", o)
		}
	}
}

// weights symmetry prints one row per other frame of the game's symmetries
// (Nuggets: seven), says so for a game without any, and refuses a bad
// --decisions.
func TestWeightsSymmetry(t *testing.T) {
	out := mustRun(t, "same greedy", "weights", "symmetry", rulestest.Policy(t, "nuggets"), "--decisions", "30")
	rows := 0
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 3 && strings.HasSuffix(f[1], "%") {
			rows++
		}
	}
	if rows != 7 {
		t.Errorf("%d frame rows, want 7:\n%s", rows, out)
	}
	mustRun(t, "has no symmetries", "weights", "symmetry", rulestest.Policy(t, "four-square"))
	if _, err := run("weights", "symmetry", rulestest.Policy(t, "nuggets"), "--decisions", "0"); exitStatus(err) != 2 {
		t.Errorf("--decisions 0: %v, want exit 2", err)
	}
}
