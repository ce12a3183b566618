package inputfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe, a folder and an oversized file are refused (an *Error, so
// gridgym exits 2) before anything reads them; a regular file is read.
func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path  string
		limit int64
		want  string
	}{
		{fifo, 10, "pipe: is a named pipe (FIFO), not a regular file"},
		{dir, 10, "is a folder, not a regular file"},
		{small, 4, "small: is 5 bytes, more than a test file may be (4 bytes)"},
	} {
		if _, err := ReadFile(c.path, c.limit, "a test file"); !Is(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
	}
	if b, err := ReadFile(small, 5, "a test file"); err != nil || string(b) != "12345" {
		t.Errorf("small file: %q, %v", b, err)
	}
	if _, err := Open(filepath.Join(dir, "missing")); err == nil || Is(err) || !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}
