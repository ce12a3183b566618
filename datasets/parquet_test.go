package datasets_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v14/arrow"
	"github.com/apache/arrow/go/v14/arrow/array"
	"github.com/apache/arrow/go/v14/arrow/memory"
	"github.com/apache/arrow/go/v14/parquet/file"
	"github.com/apache/arrow/go/v14/parquet/pqarrow"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/rules"
)

// sums are what the readers must agree on.
type sums struct {
	Rows      int64   `json:"rows"`
	StepSum   int64   `json:"step_sum"`
	RewardSum float64 `json:"reward_sum"`
	Game      string  `json:"game"`
}

// rectangleShards writes two shards of Rectangle episodes (four heads, so
// the action_heads column is there) whose rewards are exact binary
// fractions, and returns the directory and the expected sums.
func rectangleShards(t *testing.T) (string, sums) {
	g, err := rules.Lookup("rectangle")
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, g)
	eps := generate(t, cfg, 4, 31, false)
	want := sums{Game: "rectangle"}
	for e := range eps {
		for i := range eps[e].rows {
			r := &eps[e].rows[i]
			r.Reward = float32(r.Step%7)*0.25 - float32(r.Seat)*0.125
			want.Rows++
			want.StepSum += int64(r.Step)
			want.RewardSum += float64(r.Reward)
		}
	}
	dir := t.TempDir()
	writeEpisodes(t, dir, testMeta(t, cfg, 31), datasets.WriterOptions{RowsPerShard: len(eps[0].rows) + 1, BatchRows: 64}, eps[:2])
	writeEpisodes(t, dir, testMeta(t, cfg, 31), datasets.WriterOptions{BatchRows: 1000}, eps[2:])
	return dir, want
}

// TestExportParquet exports a directory and reads the Parquet files back
// with the Go Parquet reader: same rows, same column sums, the metadata
// kept, and the Arrow types restored from the stored schema.
func TestExportParquet(t *testing.T) {
	dir, want := rectangleShards(t)
	out := filepath.Join(t.TempDir(), "pq")
	if err := datasets.ExportParquet(dir, out); err != nil {
		t.Fatal(err)
	}
	shards, _ := datasets.Files(dir)
	got := sums{}
	for _, shard := range shards {
		pqPath := filepath.Join(out, strings.TrimSuffix(filepath.Base(shard), ".arrow")+".parquet")
		pf, err := file.OpenParquetFile(pqPath, false)
		if err != nil {
			t.Fatal(err)
		}
		if v := pf.MetaData().KeyValueMetadata().FindValue(datasets.KeyGame); v == nil || *v != "rectangle" {
			t.Errorf("%s: key %s = %v", pqPath, datasets.KeyGame, v)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := fr.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		r, err := datasets.Open(shard)
		if err != nil {
			t.Fatal(err)
		}
		// The Go Parquet reader restores the stored Arrow types (dictionaries,
		// fixed-size lists), though not the lists' item nullability.
		wantF := r.Schema().Fields()
		gotF := tbl.Schema().Fields()
		if len(gotF) != len(wantF) {
			t.Errorf("%s: %d columns read back, want %d", pqPath, len(gotF), len(wantF))
		}
		for i := 0; i < len(gotF) && i < len(wantF); i++ {
			g, w := gotF[i], wantF[i]
			if g.Name != w.Name || g.Type.ID() != w.Type.ID() || g.Nullable != w.Nullable {
				t.Errorf("%s: column %d read back as %s %s, want %s %s", pqPath, i, g.Name, g.Type, w.Name, w.Type)
			}
			if fl, ok := w.Type.(*arrow.FixedSizeListType); ok && g.Type.(*arrow.FixedSizeListType).Len() != fl.Len() {
				t.Errorf("%s: column %s read back as %s, want %s", pqPath, g.Name, g.Type, w.Type)
			}
		}
		r.Close()
		got.Rows += tbl.NumRows()
		idx := tbl.Schema().FieldIndices("step")[0]
		for _, c := range tbl.Column(idx).Data().Chunks() {
			for _, v := range c.(*array.Int32).Int32Values() {
				got.StepSum += int64(v)
			}
		}
		idx = tbl.Schema().FieldIndices("reward")[0]
		for _, c := range tbl.Column(idx).Data().Chunks() {
			for _, v := range c.(*array.Float32).Float32Values() {
				got.RewardSum += float64(v)
			}
		}
		tbl.Release()
		pf.Close()
	}
	got.Game = want.Game
	if got != want {
		t.Errorf("Parquet read back: %+v, want %+v", got, want)
	}

	// One shard to a file, to an existing directory and to a new one.
	single := filepath.Join(t.TempDir(), "one.parquet")
	if err := datasets.ExportParquet(shards[0], single); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(single); err != nil {
		t.Error(err)
	}
	for _, outDir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "new-dir")} {
		if err := datasets.ExportParquet(shards[1], outDir); err != nil {
			t.Fatal(err)
		}
		if got := names(t, outDir); len(got) != 1 || got[0] != "shard-000001.parquet" {
			t.Errorf("export into a directory wrote %v", got)
		}
	}
	// A bad shard is an error naming it.
	bad := filepath.Join(t.TempDir(), "bad.arrow")
	os.WriteFile(bad, []byte("nope"), 0o644)
	if err := datasets.ExportParquet(bad, single); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("export of a bad shard: %v", err)
	}
}

// npmPackages are what the independent reader needs: Apache Arrow JS reads
// the IPC file (it decompresses zstd bodies only through a registered codec,
// fzstd here), DuckDB reads the Parquet export.
var npmPackages = []string{"apache-arrow@21.2.0", "fzstd@0.1.1", "@duckdb/node-api@1.5.6-r.1"}

// npmModules returns a directory whose node_modules holds npmPackages,
// installing them into the user's cache on first use. It skips the test
// when node or npm is missing or the registry cannot be reached.
func npmModules(t *testing.T) string {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("independent reader skipped: %s not found on PATH", tool)
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("independent reader skipped: no cache directory: %v", err)
	}
	dir := filepath.Join(cache, "gridgym", "npm", strings.NewReplacer("@", "", "/", "_").Replace(strings.Join(npmPackages, "+")))
	stamp := filepath.Join(dir, "installed")
	if _, err := os.Stat(stamp); err == nil {
		return dir
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Skipf("independent reader skipped: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// Fail fast when the registry cannot be reached (CI may be offline).
	args := append([]string{"install", "--no-audit", "--no-fund", "--no-save", "--fetch-retries=0",
		"--fetch-timeout=15000", "--prefix", dir}, npmPackages...)
	cmd := exec.CommandContext(ctx, "npm", args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("independent reader skipped: npm install %s failed (offline or registry unreachable?): %v\n%s",
			strings.Join(npmPackages, " "), err, lastLines(string(out), 10))
	}
	if err := os.WriteFile(stamp, []byte(strings.Join(npmPackages, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestIndependentReader reads a shard with Apache Arrow JS and its Parquet
// export with DuckDB (both from the npm registry, via
// testdata/independent_reader.cjs) and checks the row count and the sums of
// the step and reward columns against what was written.
func TestIndependentReader(t *testing.T) {
	modules := npmModules(t)
	dir, _ := rectangleShards(t)
	shards, _ := datasets.Files(dir)
	shard := shards[1]
	var want sums
	want.Game = "rectangle"
	for _, r := range readAll(t, shard) {
		want.Rows++
		want.StepSum += int64(r.Step)
		want.RewardSum += float64(r.Reward)
	}
	pq := filepath.Join(t.TempDir(), "shard.parquet")
	if err := datasets.ExportParquet(shard, pq); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "independent_reader.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, modules, shard, pq)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && strings.Contains(stderr.String(), "Cannot find module") {
			t.Skipf("independent reader skipped: node modules incomplete in %s: %s", modules, lastLines(stderr.String(), 3))
		}
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got struct {
		Arrow struct {
			sums
			LegalWords int      `json:"legal_words"`
			Agents     []string `json:"agents"`
		} `json:"arrow"`
		Parquet sums `json:"parquet"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	t.Logf("Arrow JS: %+v; DuckDB: %+v", got.Arrow, got.Parquet)
	for name, s := range map[string]sums{"Arrow JS (IPC file)": got.Arrow.sums, "DuckDB (Parquet)": got.Parquet} {
		if s.Rows != want.Rows || s.StepSum != want.StepSum || math.Abs(s.RewardSum-want.RewardSum) > 1e-9 || s.Game != want.Game {
			t.Errorf("%s read %+v, want %+v", name, s, want)
		}
	}
	r, _ := datasets.Open(shard)
	defer r.Close()
	if got.Arrow.LegalWords != r.Meta().MaskWords || fmt.Sprint(got.Arrow.Agents) != fmt.Sprint([]string{"policy", "random-a", "random-b"}) {
		t.Errorf("Arrow JS: legal lists of %d words (want %d), agents %v", got.Arrow.LegalWords, r.Meta().MaskWords, got.Arrow.Agents)
	}
}
