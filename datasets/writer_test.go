package datasets_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/rules"
)

// slimeEpisodes returns n short Slime episodes and their Meta.
func slimeEpisodes(t testing.TB, n int, seed uint64) (datasets.Meta, []episode) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, g)
	return testMeta(t, cfg, seed), generate(t, cfg, n, seed, false)
}

// withLen returns rows of an episode of exactly n rows with ID id: the
// rows of ep repeated or cut (the writer does not look at their content).
func withLen(ep episode, id uint64, n int) []datasets.Row {
	out := make([]datasets.Row, n)
	for i := range out {
		out[i] = ep.rows[i%len(ep.rows)]
		out[i].EpisodeID = id
	}
	return out
}

// TestRollover checks that shards roll over by row count without ever
// splitting an episode, and that an episode longer than RowsPerShard gets a
// shard of its own.
func TestRollover(t *testing.T) {
	meta, eps := slimeEpisodes(t, 1, 11)
	cases := []struct {
		name   string
		per    int
		sizes  []int   // episode lengths in rows, in write order
		shards [][]int // episode indices per shard
	}{
		{"exact fit", 100, []int{50, 50, 50, 50}, [][]int{{0, 1}, {2, 3}}},
		{"no split", 100, []int{60, 30, 20, 90, 10}, [][]int{{0, 1}, {2}, {3, 4}}},
		{"oversized episode alone", 100, []int{30, 250, 40, 70}, [][]int{{0}, {1}, {2}, {3}}},
		{"oversized first", 100, []int{150, 10}, [][]int{{0}, {1}}},
		{"one shard", 1000, []int{10, 20, 30}, [][]int{{0, 1, 2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := datasets.NewWriter(dir, meta, datasets.WriterOptions{RowsPerShard: c.per, BatchRows: 16})
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range c.sizes {
				if err := w.WriteEpisode(withLen(eps[0], uint64(i), n)); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			files, err := datasets.Files(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != len(c.shards) {
				t.Fatalf("%d shards %v, want %d", len(files), files, len(c.shards))
			}
			for k, f := range files {
				if want := fmt.Sprintf("shard-%06d.arrow", k); filepath.Base(f) != want {
					t.Errorf("shard %d named %s, want %s", k, filepath.Base(f), want)
				}
				var ids []int
				var rows int
				for _, row := range readAll(t, f) {
					if len(ids) == 0 || ids[len(ids)-1] != int(row.EpisodeID) {
						ids = append(ids, int(row.EpisodeID))
					}
					rows++
				}
				if !reflect.DeepEqual(ids, c.shards[k]) {
					t.Errorf("shard %d holds episodes %v, want %v", k, ids, c.shards[k])
				}
				want := 0
				for _, e := range c.shards[k] {
					want += c.sizes[e]
				}
				if rows != want {
					t.Errorf("shard %d has %d rows, want %d", k, rows, want)
				}
			}
			st := w.Stats()
			if st.Shards != len(c.shards) || st.Episodes != int64(len(c.sizes)) {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

// TestTempThenRename checks that a shard appears under its final name only
// once complete, that Abort removes the temporary file and keeps finished
// shards, and that a new writer numbers on without clobbering.
func TestTempThenRename(t *testing.T) {
	meta, eps := slimeEpisodes(t, 3, 12)
	dir := t.TempDir()
	w, err := datasets.NewWriter(dir, meta, datasets.WriterOptions{BatchRows: 8})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); len(got) != 0 {
		t.Fatalf("NewWriter created %v before any episode", got)
	}
	if err := w.WriteEpisode(eps[0].rows); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); !reflect.DeepEqual(got, []string{".shard-000000.arrow.tmp"}) {
		t.Fatalf("while writing: %v, want only the temporary file", got)
	}
	if files, _ := datasets.Files(dir); len(files) != 0 {
		t.Fatalf("Files lists %v while the shard is open", files)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); !reflect.DeepEqual(got, []string{"shard-000000.arrow"}) {
		t.Fatalf("after Close: %v", got)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "shard-000000.arrow")); fi == nil || w.Stats().Bytes != fi.Size() {
		t.Errorf("Stats().Bytes = %d, file %v", w.Stats().Bytes, fi)
	}
	if err := w.WriteEpisode(eps[1].rows); err == nil {
		t.Error("WriteEpisode after Close succeeded")
	}

	// A second writer numbers on; Abort discards its open shard only.
	w2, err := datasets.NewWriter(dir, meta, datasets.WriterOptions{RowsPerShard: len(eps[1].rows) + 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.WriteEpisode(eps[1].rows); err != nil { // shard 1
		t.Fatal(err)
	}
	if err := w2.WriteEpisode(eps[2].rows); err != nil { // would pass the limit: finishes shard 1, opens shard 2
		t.Fatal(err)
	}
	want := []string{".shard-000002.arrow.tmp", "shard-000000.arrow", "shard-000001.arrow"}
	if got := names(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("second writer: %v, want %v", got, want)
	}
	w2.Abort()
	want = want[1:]
	if got := names(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("after Abort: %v, want %v", got, want)
	}
	if rows := shardRows(t, dir); rows[0] != int64(len(eps[0].rows)) || rows[1] != int64(len(eps[1].rows)) {
		t.Errorf("shard rows %v", rows)
	}
	// A stale temporary file (a killed writer) is never reused either.
	if err := os.WriteFile(filepath.Join(dir, ".shard-000007.arrow.tmp"), []byte("torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeEpisodes(t, dir, meta, datasets.WriterOptions{}, eps[2:])
	if _, err := os.Stat(filepath.Join(dir, "shard-000008.arrow")); err != nil {
		t.Errorf("the writer after a stale temp file did not write shard 8: %v (dir %v)", err, names(t, dir))
	}
}

// TestWriterRefusesBadRows checks that malformed episodes are refused with
// an error naming the problem, and leave the writer usable.
func TestWriterRefusesBadRows(t *testing.T) {
	meta, eps := slimeEpisodes(t, 2, 13)
	cases := []struct {
		name   string
		mutate func(r []datasets.Row)
		want   string
	}{
		{"state width", func(r []datasets.Row) { r[3].State = r[3].State[:1] }, "state words"},
		{"mask width", func(r []datasets.Row) { r[2].Legal = append(r[2].Legal, 0) }, "mask words"},
		{"heads", func(r []datasets.Row) { r[1].Action = nil }, "action heads"},
		{"unknown agent", func(r []datasets.Row) { r[0].Agent = "stranger" }, "stranger"},
		{"two episodes", func(r []datasets.Row) { r[len(r)-1].EpisodeID++ }, "episode ID"},
	}
	dir := t.TempDir()
	w, err := datasets.NewWriter(dir, meta, datasets.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		rows := withLen(eps[0], 1, len(eps[0].rows))
		for i := range rows {
			rows[i] = rows[i].Clone()
		}
		c.mutate(rows)
		err := w.WriteEpisode(rows)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	if err := w.WriteEpisode(eps[1].rows); err != nil {
		t.Fatalf("writer unusable after refused episodes: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, dir); len(got) != len(eps[1].rows) {
		t.Errorf("%d rows written, want only the good episode's %d", len(got), len(eps[1].rows))
	}
	if _, err := datasets.NewWriter(dir, datasets.Meta{Game: "slime"}, datasets.WriterOptions{}); err == nil {
		t.Error("NewWriter accepted an incomplete Meta")
	}
}

const crashEnv = "GRIDGYM_DATASETS_CRASH_DIR"

// TestCrashChild is the child process of TestCrashSafety: it writes
// episodes into $GRIDGYM_DATASETS_CRASH_DIR forever, saying "READY" once two
// shards are finished and a third is half written.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashEnv)
	if dir == "" {
		t.Skip("helper process of TestCrashSafety")
	}
	meta, eps := slimeEpisodes(t, 4, 14)
	per := 0
	for _, ep := range eps {
		per += len(ep.rows)
	}
	w, err := datasets.NewWriter(dir, meta, datasets.WriterOptions{RowsPerShard: per, BatchRows: 32})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(2)
	}
	ready := false
	for id := uint64(0); ; id++ {
		ep := eps[id%uint64(len(eps))]
		if err := w.WriteEpisode(withLen(ep, id, len(ep.rows))); err != nil {
			fmt.Println("ERROR", err)
			os.Exit(2)
		}
		if !ready && w.Stats().Shards >= 2 && id%uint64(len(eps)) == 1 {
			fmt.Println("READY")
			ready = true
		}
		if ready {
			time.Sleep(time.Millisecond)
		}
	}
}

// TestCrashSafety kills a writing child process with SIGKILL in the middle
// of a shard: only complete shards may exist under final names, and each
// must validate; the torn temporary file is ignored by readers.
func TestCrashSafety(t *testing.T) {
	if os.Getenv(crashEnv) != "" {
		t.Skip("in the child")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), crashEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if line := sc.Text(); line == "READY" || strings.HasPrefix(line, "ERROR") {
				ready <- line
				break
			}
		}
		close(ready)
	}()
	select {
	case line := <-ready:
		if line != "READY" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child: %q", line)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("child never got ready")
	}
	time.Sleep(5 * time.Millisecond) // a few more episodes into the open shard
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	var temps []string
	for _, n := range names(t, dir) {
		if strings.HasSuffix(n, ".tmp") {
			temps = append(temps, n)
		}
	}
	// The child is killed while it writes the open shard, or (rarely) just
	// between finishing one and opening the next.
	if len(temps) > 1 {
		t.Errorf("temporary files after the kill: %v, want at most the one open shard", temps)
	}
	files, err := datasets.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("only %d finished shards", len(files))
	}
	t.Logf("after SIGKILL: %d finished shards, temporary files %v", len(files), temps)
	for _, f := range files {
		rep, err := datasets.Validate(f)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK() {
			var b strings.Builder
			rep.WriteText(&b)
			t.Errorf("finished shard %s does not validate:\n%s", f, b.String())
		}
	}
	// The torn file is refused by Open with a clear error.
	for _, tmp := range temps {
		_, err := datasets.Open(filepath.Join(dir, tmp))
		if err == nil || !strings.Contains(err.Error(), tmp) {
			t.Errorf("Open(torn %s) = %v, want an error naming it", tmp, err)
		}
	}
	sum, err := datasets.Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Stale) != len(temps) {
		t.Errorf("Inspect lists stale files %v, want %v", sum.Stale, temps)
	}
}
