package store

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/internal/s3test"
)

func TestLocations(t *testing.T) {
	for _, c := range []struct {
		loc          string
		url, remote  bool
		local        string
		localOK      bool
		dir, key     string
		splitFolders bool
	}{
		{loc: "runs/x", local: "runs/x", localOK: true, dir: "runs/x"},
		{loc: "file:///tmp/a", url: true, local: "/tmp/a", localOK: true, dir: "file:///tmp/a"},
		{loc: "file://./rel/a", url: true, local: "rel/a", localOK: true, dir: "file://./rel/a"},
		{loc: "s3://b/p/q?endpoint=x", url: true, remote: true, dir: "s3://b/p/q?endpoint=x"},
		{loc: "s3://b/p/s.arrow?endpoint=x", url: true, remote: true, dir: "s3://b/p?endpoint=x", key: "s.arrow"},
		{loc: "C:/not/a/url", local: "C:/not/a/url", localOK: true, dir: "C:/not/a/url"},
	} {
		if got := IsURL(c.loc); got != c.url {
			t.Errorf("IsURL(%q) = %v", c.loc, got)
		}
		if got := IsRemote(c.loc); got != c.remote {
			t.Errorf("IsRemote(%q) = %v", c.loc, got)
		}
		if got, ok := LocalPath(c.loc); ok != c.localOK || got != c.local {
			t.Errorf("LocalPath(%q) = %q, %v", c.loc, got, ok)
		}
		if d, k := SplitObject(c.loc); d != c.dir || k != c.key {
			t.Errorf("SplitObject(%q) = %q, %q", c.loc, d, k)
		}
	}
}

// exercise runs the store contract on one location.
func exercise(t *testing.T, loc string) {
	ctx := context.Background()
	s, err := Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, ok, err := s.Latest(ctx); err != nil || ok {
		t.Fatalf("Latest on an empty store: ok %v, err %v", ok, err)
	}
	if err := s.Put(ctx, "shards/v000001/a.arrow", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	f := filepath.Join(t.TempDir(), "big.bin")
	if err := os.WriteFile(f, big, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.PutFile(ctx, "shards/v000002/b.arrow", f); err != nil {
		t.Fatal(err)
	}
	// A failed upload leaves nothing under its key.
	boom := errors.New("boom")
	err = s.PutStream(ctx, "shards/v000002/c.arrow", func(w io.Writer) error {
		w.Write(big[:1000])
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("PutStream error %v, want boom", err)
	}
	if ok, err := s.Exists(ctx, "shards/v000002/c.arrow"); err != nil || ok {
		t.Fatalf("aborted upload exists: %v %v", ok, err)
	}
	objs, err := s.List(ctx, "shards/")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, o := range objs {
		keys = append(keys, o.Key)
	}
	if got := strings.Join(keys, ","); got != "shards/v000001/a.arrow,shards/v000002/b.arrow" {
		t.Fatalf("List = %s", got)
	}
	if objs[1].Size != int64(len(big)) {
		t.Fatalf("size %d", objs[1].Size)
	}
	dst := filepath.Join(t.TempDir(), "x", "b.arrow")
	if err := s.GetFile(ctx, "shards/v000002/b.arrow", dst); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dst); !bytes.Equal(b, big) {
		t.Fatal("GetFile content differs")
	}
	if _, err := s.Get(ctx, "nope"); !IsNotFound(errors.Unwrap(err)) && !IsNotFound(err) {
		t.Fatalf("Get missing: %v", err)
	}
	for v := 1; v <= 2; v++ {
		p, err := s.PublishWeights(ctx, v, []byte{byte(v), 1, 2, 3})
		if err != nil {
			t.Fatal(err)
		}
		q, ok, err := s.Latest(ctx)
		if err != nil || !ok || q.Version != v || q.Key != WeightsKey(v) || q.SHA256 != p.SHA256 {
			t.Fatalf("Latest = %+v %v %v, want %+v", q, ok, err, p)
		}
		b, err := s.FetchWeights(ctx, q)
		if err != nil || !bytes.Equal(b, []byte{byte(v), 1, 2, 3}) {
			t.Fatalf("FetchWeights = %v %v", b, err)
		}
	}
	// A pointer whose hash does not match is refused.
	q, _, _ := s.Latest(ctx)
	q.SHA256 = strings.Repeat("0", 64)
	if _, err := s.FetchWeights(ctx, q); err == nil {
		t.Fatal("FetchWeights accepted a bad hash")
	}
	// Download of a prefix and of one object.
	dir := t.TempDir()
	got, err := Download(ctx, loc, dir, ".arrow")
	if err != nil {
		t.Fatal(err)
	}
	if lp, ok := LocalPath(loc); ok {
		if got != lp {
			t.Fatalf("Download of a local location = %s", got)
		}
	} else {
		if _, err := os.Stat(filepath.Join(dir, "shards", "v000002", "b.arrow")); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "weights")); err == nil {
			t.Fatal("Download took a key without the suffix")
		}
	}
	// Upload of a folder.
	up := t.TempDir()
	os.MkdirAll(filepath.Join(up, "sub"), 0o755)
	os.WriteFile(filepath.Join(up, "sub", "r.csv"), []byte("a,b\n"), 0o644)
	if err := Upload(ctx, up, loc); err != nil {
		t.Fatal(err)
	}
	if b, err := s.Get(ctx, "sub/r.csv"); err != nil || string(b) != "a,b\n" {
		t.Fatalf("uploaded report: %q %v", b, err)
	}
	// An executable (an exported slime-bot) comes back executable; a plain
	// file does not become one.
	src, dst := t.TempDir(), t.TempDir()
	for name, mode := range map[string]os.FileMode{"bot/slime-bot": 0o755, "bot/weights.safetensors": 0o644} {
		p := filepath.Join(src, filepath.Base(name))
		if err := os.WriteFile(p, []byte(name), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode) // whatever the umask
		if err := s.PutFile(ctx, name, p); err != nil {
			t.Fatal(err)
		}
		got := filepath.Join(dst, filepath.Base(name))
		if err := s.GetFile(ctx, name, got); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(got)
		if err != nil {
			t.Fatal(err)
		}
		if exec := fi.Mode().Perm()&0o111 != 0; exec != (mode&0o111 != 0) {
			t.Errorf("%s uploaded with mode %v comes back with mode %v", name, mode, fi.Mode().Perm())
		}
	}
}

func TestFileStore(t *testing.T) {
	dir := t.TempDir()
	exercise(t, filepath.Join(dir, "plain"))
	exercise(t, "file://"+filepath.ToSlash(filepath.Join(dir, "url")))
	// Local stores leave no sidecar or temporary files beside the objects.
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if strings.HasSuffix(p, ".attrs") || strings.HasSuffix(p, ".tmp") {
			t.Errorf("stray file %s", p)
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(dir, "plain", "weights", "LATEST")); err != nil {
		t.Fatal(err)
	}
}

// TestS3Store runs the same contract against a real S3-compatible server
// (s3rver on loopback).
func TestS3Store(t *testing.T) {
	srv := s3test.Start(t)
	srv.SetEnv(t)
	exercise(t, srv.URL("unit/test"))
}
