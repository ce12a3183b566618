package neural_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
)

// A weights file cut short anywhere is a *CorruptError, and Load names the
// file: "FILE is truncated or corrupt: " and the detail (issue 52, item 8b).
func TestTruncatedWeightsAreCorrupt(t *testing.T) {
	net, _ := newNet(t, "slime")
	dir := t.TempDir()
	full := filepath.Join(dir, "full.safetensors")
	if err := net.Save(full, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 5, 20, len(b) / 2, len(b) - 1} {
		var ce *neural.CorruptError
		if _, _, err := neural.Decode(b[:n]); !errors.As(err, &ce) {
			t.Errorf("%d of %d bytes: Decode err = %v, want a CorruptError", n, len(b), err)
		}
		p := filepath.Join(dir, "cut.safetensors")
		if err := os.WriteFile(p, b[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := neural.Load(p)
		if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), p+" is truncated or corrupt: ") || len(err.Error()) <= len(p)+len(" is truncated or corrupt: ") {
			t.Errorf("%d of %d bytes: Load err = %v, want %s is truncated or corrupt: DETAIL", n, len(b), err, p)
		}
		if _, _, err2 := neural.Load(p); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("%d bytes: the same file gives another error: %v, then %v", n, err, err2)
		}
	}
	if _, _, err := neural.Load(full); err != nil {
		t.Fatal(err)
	}
}
