package datasets_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/internal/inputfile"
	"github.com/gridgym/gridgym/rules"
)

// returns runs fn and fails the test if it has not returned after a minute
// (a reader blocked on a named pipe never would); fn's error is returned.
// The bound only turns a hang into a failure: nothing is asserted of the
// time fn takes.
func returns(t *testing.T, what string, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("%s: still blocked after a minute", what)
		return nil
	}
}

// Issue 56, item 7: a named pipe called shard-000000.arrow hung validate
// and export (and every reader: open blocks until a writer comes). Every
// reader refuses it, before opening it, with an *inputfile.Error naming it.
func TestFIFOShardRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "shard-000000.arrow")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	noop := func(datasets.Meta, datasets.Row) error { return nil }
	for _, c := range []struct {
		what string
		fn   func() error
	}{
		{"Open", func() error { _, err := datasets.Open(fifo); return err }},
		{"Files of the folder", func() error { _, err := datasets.Files(dir); return err }},
		{"Validate the folder", func() error { _, err := datasets.Validate(dir); return err }},
		{"Validate the pipe", func() error { _, err := datasets.Validate(fifo); return err }},
		{"ExportParquet the folder", func() error { return datasets.ExportParquet(dir, filepath.Join(t.TempDir(), "pq")) }},
		{"ExportParquet the pipe", func() error { return datasets.ExportParquet(fifo, filepath.Join(t.TempDir(), "x.parquet")) }},
		{"Inspect", func() error { _, err := datasets.Inspect(dir); return err }},
		{"EachRow", func() error { return datasets.EachRow(dir, noop) }},
		{"EachRowSkipping", func() error {
			return datasets.EachRowSkipping(dir, func(string, error) {}, noop)
		}},
	} {
		err := returns(t, c.what, c.fn)
		if !inputfile.Is(err) || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("%s: %v, want an error naming %s as a named pipe", c.what, err, fifo)
		}
	}
}

// Issue 56, item 7: a folder with shards of two games validated "ok". The
// shard of the second game is a problem.
func TestValidateRefusesMixedGames(t *testing.T) {
	dir := t.TempDir()
	for i, name := range []string{"nuggets", "slime"} {
		g, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := testConfig(t, g)
		writeEpisodes(t, dir, testMeta(t, cfg, uint64(i+1)), datasets.WriterOptions{Prefix: name}, generate(t, cfg, 2, uint64(i+1), false))
	}
	rep, err := datasets.Validate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].String(), "a shard of slime in a folder of nuggets shards") {
		t.Errorf("mixed folder: problems %q, want one naming the slime shard", rep.Problems)
	}
	if !strings.HasPrefix(filepath.Base(rep.Problems[0].File), "slime") {
		t.Errorf("the problem names %s, want the slime shard", rep.Problems[0].File)
	}
}

// Issue 56, item 7: a bit flipped in the footer key gridgym.checksum made a
// shard this version wrote pass as unchecked. Its other checksum keys say
// it should have one: Validate fails it unless told ChecksumsOptional; a
// shard written before checksums passes with a notice unless
// ChecksumsRequired.
func TestMissingChecksumKeyFails(t *testing.T) {
	data, err := os.ReadFile(checkedShard(t))
	if err != nil {
		t.Fatal(err)
	}
	key := []byte(datasets.KeyChecksum + "\x00") // the flatbuffer string, 0-terminated
	at := bytes.Index(data, key)
	if at < 0 || bytes.Count(data, key) != 1 {
		t.Fatalf("key %q found %d times, want once", key, bytes.Count(data, key))
	}
	data[at+len("gridgym.ch")] ^= 1 // gridgym.checksum → gridgym.chdcksum
	flipped := filepath.Join(t.TempDir(), "shard-000000.arrow")
	if err := os.WriteFile(flipped, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path      string
		policy    datasets.ChecksumPolicy
		ok        bool
		problem   string
		unchecked int
	}{
		{flipped, datasets.ChecksumsExpected, false, "no checksums: its footer has gridgym.checksum.footer", 0},
		{flipped, datasets.ChecksumsRequired, false, "no checksums: its footer has", 0},
		{flipped, datasets.ChecksumsOptional, true, "", 1},
		{uncheckedShard, datasets.ChecksumsExpected, true, "", 1},
		{uncheckedShard, datasets.ChecksumsOptional, true, "", 1},
		{uncheckedShard, datasets.ChecksumsRequired, false, "no checksums: checksums are required", 0},
	} {
		rep, err := datasets.ValidateWith(c.path, datasets.ValidateOptions{Checksums: c.policy})
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK() != c.ok || len(rep.Unchecked) != c.unchecked {
			t.Errorf("%s, policy %d: ok %v, unchecked %q, problems %q; want ok %v, %d unchecked", c.path, c.policy, rep.OK(), rep.Unchecked, rep.Problems, c.ok, c.unchecked)
			continue
		}
		if !c.ok && (len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].Msg, c.problem)) {
			t.Errorf("%s, policy %d: problems %q, want one with %q", c.path, c.policy, rep.Problems, c.problem)
		}
		var text bytes.Buffer
		rep.WriteText(&text)
		if c.unchecked > 0 && !strings.Contains(text.String(), "notice: 1 shards unchecked") {
			t.Errorf("%s, policy %d: text without the notice:\n%s", c.path, c.policy, text.String())
		}
	}
}
