package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gridgym/gridgym/export/exporttest"
)

// Bad input exits 2 from every command (issue 52, item 8c): a truncated
// weights file, wherever it is read, says "FILE is truncated or corrupt"
// (item 8b); a missing input file is bad input too; other failures exit 1.
func TestBadInputExitsTwo(t *testing.T) {
	dir := t.TempDir()
	_, w, _ := exporttest.RandomNet(t, "slime", 1)
	cut := filepath.Join(dir, "cut.safetensors")   // the data cut short
	stub := filepath.Join(dir, "stub.safetensors") // not even the header's length
	if err := os.WriteFile(cut, w[:len(w)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stub, w[:5], 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	cases := []refusal{
		{[]string{"play", "-g", "slime", "-b", cut + ",random"}, cut + " is truncated or corrupt: tensor "},
		{[]string{"tournament", "-g", "slime", "-b", cut + ",random", "-n", "2", "-q"}, cut + " is truncated or corrupt: "},
		{[]string{"selfplay", "-g", "slime", "-a", cut, "-q", "-o", filepath.Join(dir, "shards")}, cut + " is truncated or corrupt: "},
		{[]string{"export", "--checkpoint", cut, "--out", filepath.Join(dir, "bot"), "--no-binary", "--python", "none"}, cut + " is truncated or corrupt: tensor "},
		{[]string{"export", "--checkpoint", stub, "--out", filepath.Join(dir, "bot"), "--no-binary", "--python", "none"}, stub + " is truncated or corrupt: 5 bytes"},
		{[]string{"bench", "--learner", "--weights", cut}, cut + " is truncated or corrupt: "},
		{[]string{"bench", "--learner", "--weights", missing + ".safetensors"}, "no such file"},
		{[]string{"replay", missing + ".jsonl"}, "no such file"},
		{[]string{"datasets", "validate", missing}, "no such file"},
		{[]string{"export", "--checkpoint", missing, "--out", filepath.Join(dir, "bot")}, "no such weights file or run folder"},
	}
	checkRefusals(t, cases)
	if s := exitStatus(errors.New("disk full")); s != 1 {
		t.Errorf("a failure that is no bad input exits %d, want 1", s)
	}
}
