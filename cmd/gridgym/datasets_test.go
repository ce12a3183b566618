package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 25: flipping bit 0, 3, 6 or 7 of the byte 446 bytes before the end
// of a Nuggets shard (byte 40,116 of the 40,562-byte shard, in the
// footer) made `datasets validate` die out of memory. Now each is reported
// as a problem naming the file, and validate exits non-zero.
func TestValidateFooterFlips(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := run("selfplay", "--game", "nuggets", "--agents", "greedy,random", "--envs", "4", "--steps", "2000", "-q", "--out", dir); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "shard-000000.arrow")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, bit := range []int{0, 3, 6, 7} {
		bad := append([]byte(nil), data...)
		bad[len(bad)-446] ^= 1 << bit
		path := filepath.Join(t.TempDir(), "shard-000000.arrow")
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := run("datasets", "validate", path)
		if err == nil || !strings.Contains(out, path+": ") || !strings.Contains(out, "1 problems") {
			t.Errorf("bit %d: validate %v\n%s\n(want one problem naming the file)", bit, err, out)
		}
	}
}
