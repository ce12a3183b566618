package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestJoinBaseSibling(t *testing.T) {
	for _, c := range []struct{ loc, key, join, base, sibling string }{
		{"runs/x", "a/b.csv", filepath.Join("runs", "x", "a", "b.csv"), "x", "runs/x-parquet"},
		{"runs/x/", "", "runs/x/", "x", "runs/x-parquet"},
		{"file:///tmp/r", "latest", "file:///tmp/r/latest", "r", "file:///tmp/r-parquet"},
		{"s3://b/p/q?endpoint=http://h:1&region=r", "c/w.safetensors", "s3://b/p/q/c/w.safetensors?endpoint=http://h:1&region=r", "q", "s3://b/p/q-parquet?endpoint=http://h:1&region=r"},
		{"s3://b?region=r", "k", "s3://b/k?region=r", "", "s3://b-parquet?region=r"},
	} {
		if got := Join(c.loc, c.key); got != c.join {
			t.Errorf("Join(%q, %q) = %q, want %q", c.loc, c.key, got, c.join)
		}
		if got := Base(c.loc); got != c.base {
			t.Errorf("Base(%q) = %q, want %q", c.loc, got, c.base)
		}
		if c.base == "" {
			continue // a bucket's root has no sibling
		}
		if got := Sibling(c.loc, "-parquet"); got != c.sibling {
			t.Errorf("Sibling(%q) = %q, want %q", c.loc, got, c.sibling)
		}
	}
}

// Local locations are used in place: nothing is fetched or staged.
func TestFetchAndStageLocal(t *testing.T) {
	dir := t.TempDir()
	p, cleanup, err := Fetch(context.Background(), "file://"+dir, ".arrow")
	if err != nil || p != dir {
		t.Fatalf("Fetch(file://%s) = %q, %v", dir, p, err)
	}
	cleanup()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("cleanup of a local input removed it: %v", err)
	}
	out, m, cleanup, err := Stage(filepath.Join(dir, "out"))
	if err != nil || out != filepath.Join(dir, "out") || m != nil {
		t.Fatalf("Stage(local) = %q, %v, %v", out, m, err)
	}
	cleanup()
	if n, err := m.Sync(context.Background()); n != 0 || err != nil {
		t.Fatalf("nil Mirror: %d, %v", n, err)
	}
}

// A Mirror uploads new and changed files only, pointers last, and skips
// writers' temporary files; FetchDir brings everything back.
func TestMirror(t *testing.T) {
	ctx := context.Background()
	src, dst := t.TempDir(), t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(src, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("config.yaml", "a")
	write("checkpoints/iter-000001/weights.safetensors", "w1")
	write("latest", "iter-000001\n")
	write(".weights.safetensors.tmp123", "partial")
	write("checkpoints/x.tmp", "partial")
	m := NewMirror(src, "file://"+dst, "latest")
	n, err := m.Sync(ctx)
	if err != nil || n != 3 {
		t.Fatalf("first Sync: %d, %v (want 3 files)", n, err)
	}
	// latest went last: its modification time is the newest.
	st := func(rel string) time.Time {
		fi, err := os.Stat(filepath.Join(dst, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	if st("latest").Before(st("checkpoints/iter-000001/weights.safetensors")) {
		t.Error("latest uploaded before the checkpoint it names")
	}
	for _, tmp := range []string{".weights.safetensors.tmp123", "checkpoints/x.tmp"} {
		if _, err := os.Stat(filepath.Join(dst, tmp)); err == nil {
			t.Errorf("temporary file %s uploaded", tmp)
		}
	}
	if n, err := m.Sync(ctx); n != 0 || err != nil {
		t.Fatalf("Sync without changes: %d, %v", n, err)
	}
	write("checkpoints/iter-000002/weights.safetensors", "w2")
	write("latest", "iter-000002\n")
	if n, err := m.Sync(ctx); n != 2 || err != nil {
		t.Fatalf("Sync after a checkpoint: %d, %v (want 2)", n, err)
	}
	back := t.TempDir()
	if n, err := FetchDir(ctx, "file://"+dst, back, ""); n != 4 || err != nil {
		t.Fatalf("FetchDir: %d, %v (want 4)", n, err)
	}
	if b, _ := os.ReadFile(filepath.Join(back, "latest")); string(b) != "iter-000002\n" {
		t.Fatalf("fetched latest %q", b)
	}
	m2 := NewMirror(back, "file://"+dst, "latest")
	if err := m2.Mark(); err != nil {
		t.Fatal(err)
	}
	if n, err := m2.Sync(ctx); n != 0 || err != nil {
		t.Fatalf("Sync after Mark: %d, %v", n, err)
	}
}

// Errors name the location.
func TestMirrorErrorNamesLocation(t *testing.T) {
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "a"), []byte("x"), 0o644)
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	_, err := NewMirror(src, "file://"+blocker+"/sub").Sync(context.Background())
	if err == nil || !strings.Contains(err.Error(), blocker) {
		t.Fatalf("Sync to a location under a file: %v (want an error naming it)", err)
	}
}
