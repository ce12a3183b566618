package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	for _, tc := range []struct {
		name    string
		write   func(io.Writer) error
		want    string // the file afterwards
		wantErr bool
	}{
		{"new", func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }, "one", false},
		{"replace", func(w io.Writer) error { _, err := io.WriteString(w, "two"); return err }, "two", false},
		{"failed write keeps the old file", func(w io.Writer) error { io.WriteString(w, "half"); return errors.New("boom") }, "two", true},
	} {
		err := Write(path, 0o644, tc.write)
		if (err != nil) != tc.wantErr {
			t.Fatalf("%s: error %v, want error %v", tc.name, err, tc.wantErr)
		}
		b, rerr := os.ReadFile(path)
		if rerr != nil || string(b) != tc.want {
			t.Errorf("%s: file %q (%v), want %q", tc.name, b, rerr, tc.want)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", tc.name, fi.Mode().Perm())
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
			t.Errorf("%s: temporary files left: %v", tc.name, left)
		}
	}
	if err := Write(filepath.Join(dir, "no", "such", "dir"), 0o644, func(io.Writer) error { return nil }); err == nil {
		t.Error("a missing folder is not an error")
	}
}
