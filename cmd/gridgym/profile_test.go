package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --cpuprofile writes a gzipped pprof profile of the command once it is
// done, and a path that cannot be created is a usage error (exit status 2)
// that names the flag.
func TestCPUProfile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "cpu.pprof")
	if _, err := run("games", "--cpuprofile", f); err != nil {
		t.Fatal(err)
	}
	stopProfile()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Fatalf("the profile (%d bytes) is not gzip, as pprof writes it", len(b))
	}
	_, err = run("games", "--cpuprofile", filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.pprof"))
	if err == nil {
		t.Fatal("a profile in a missing folder: no error")
	}
	if exitStatus(err) != 2 || !strings.Contains(err.Error(), "--cpuprofile") {
		t.Fatalf("a profile in a missing folder: %v (status %d), want a usage error naming --cpuprofile", err, exitStatus(err))
	}
	stopProfile()
}
