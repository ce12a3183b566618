package datasets_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/rules"
)

// uncheckedShard is a Nuggets shard written before shards carried checksums
// (`gridgym selfplay --game nuggets --agents greedy,random --envs 4 --steps
// 2000`, the shard of issue 25: 40,562 bytes, 4160 rows).
const uncheckedShard = "testdata/nuggets-unchecked.arrow"

// readShard reads every row of the shard at path (cloned) and validates
// it; it returns the rows, the first read error and the validation report.
func readShard(path string) ([]datasets.Row, error, datasets.Report) {
	var rows []datasets.Row
	r, err := datasets.Open(path)
	if err == nil {
		err = r.Each(func(row datasets.Row) error {
			rows = append(rows, row.Clone())
			return nil
		})
		r.Close()
	}
	rep, verr := datasets.Validate(path)
	if verr != nil && err == nil {
		err = verr
	}
	return rows, err, rep
}

// flip outcomes.
const (
	flipDetected  = "detected"  // the reader or Validate reported it
	flipIdentical = "identical" // read back row for row as the original
	flipSilent    = "silent"    // read back different, nobody said so
)

// flipOutcome writes data with bit bit of byte pos flipped to path and
// reads it back against want.
func flipOutcome(t *testing.T, data []byte, pos, bit int, path string, want []datasets.Row) string {
	t.Helper()
	bad := bytes.Clone(data)
	bad[pos] ^= 1 << bit
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err, rep := readShard(path)
	if err != nil || !rep.OK() {
		return flipDetected
	}
	if len(rows) != len(want) {
		return flipSilent
	}
	for i := range rows {
		if sameRow(rows[i], want[i]) != "" {
			return flipSilent
		}
	}
	return flipIdentical
}

// checkedShard writes a Nuggets shard of a few tens of KB with this code's
// writer (so with checksums) and returns its path.
func checkedShard(t testing.TB) string {
	t.Helper()
	g, err := rules.Lookup("nuggets")
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, g)
	dir := t.TempDir()
	writeEpisodes(t, dir, testMeta(t, cfg, 7), datasets.WriterOptions{BatchRows: 512}, generate(t, cfg, 24, 7, false))
	return filepath.Join(dir, "shard-000000.arrow")
}

// TestBitFlips repeats issue 25's experiment: 150 seeded single-bit flips
// over a real Nuggets shard, each read back and validated, and the footer
// flips that made the reader allocate hundreds of GB. No flip may crash the
// reader; on a shard with checksums none may pass unnoticed; on a shard
// written before checksums the silent ones are counted (Validate calls
// that shard unchecked).
func TestBitFlips(t *testing.T) {
	for _, tc := range []struct {
		name        string
		path        func(t testing.TB) string
		allowSilent bool
	}{
		{"unchecked", func(testing.TB) string { return uncheckedShard }, true},
		{"checked", checkedShard, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.path(t)
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			want, err, rep := readShard(src)
			if err != nil || !rep.OK() {
				t.Fatalf("the intact shard: %v %v", err, rep.Problems)
			}
			if len(data) < 20000 {
				t.Fatalf("shard of %d bytes, want tens of KB", len(data))
			}
			path := filepath.Join(t.TempDir(), "shard-000000.arrow")
			// Issue 25: bits 0, 3, 6, 7 of byte 40,116 of a 40,562-byte shard
			// (446 bytes from the end, in the footer's block list).
			for _, bit := range []int{0, 3, 6, 7} {
				pos := len(data) - (40562 - 40116)
				if got := flipOutcome(t, data, pos, bit, path, want); got == flipSilent {
					t.Errorf("footer flip of bit %d at byte %d: %s", bit, pos, got)
				}
			}
			rng := rules.NewRNG(25)
			counts := map[string]int{}
			for i := 0; i < 150; i++ {
				pos, bit := rng.U(len(data)), rng.U(8)
				got := flipOutcome(t, data, pos, bit, path, want)
				counts[got]++
				if got == flipSilent && !tc.allowSilent {
					t.Errorf("flip of bit %d at byte %d of %d read back different data and was not reported", bit, pos, len(data))
				}
			}
			t.Logf("%s shard (%d bytes): of 150 flips %d detected, %d read back identical, %d silent",
				tc.name, len(data), counts[flipDetected], counts[flipIdentical], counts[flipSilent])
			if counts[flipDetected] == 0 {
				t.Error("no flip detected")
			}
		})
	}
}

// FuzzShard feeds whole shard files (footer and body mutated) to the
// reader and to Validate: neither may panic, and what they allocate is
// bounded by the file's size (k·size + a constant).
func FuzzShard(f *testing.F) {
	// A tiny shard too (80 rows in 5 batches), whose mutants read in a
	// fraction of the time of the real ones, so the fuzzer runs more of them.
	g, err := rules.Lookup("nuggets")
	if err != nil {
		f.Fatal(err)
	}
	cfg := testConfig(f, g)
	tiny := f.TempDir()
	writeEpisodes(f, tiny, testMeta(f, cfg, 7), datasets.WriterOptions{BatchRows: 16}, generateMax(f, cfg, 2, 7, false, 10))
	for _, p := range []string{uncheckedShard, checkedShard(f), filepath.Join(tiny, "shard-000000.arrow")} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "shard-000000.arrow")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rows, err, _ := readShard(path)
		runtime.ReadMemStats(&after)
		if err == nil && len(rows) == 0 && len(data) > 0 {
			// A shard without rows is fine; just make sure it opened.
			if _, oerr := datasets.Open(path); oerr != nil {
				t.Fatalf("readShard succeeded, Open fails: %v", oerr)
			}
		}
		if err != nil && errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		bound := uint64(datasets.ReadAllocBound(int64(len(data))))
		if got := after.TotalAlloc - before.TotalAlloc; got > bound {
			t.Fatalf("reading a %d-byte file allocated %d bytes, bound %d", len(data), got, bound)
		}
	})
}

// A shard written before checksums reads as before, marked unchecked
// (Reader.Checked, Report.Unchecked and the validate text say so); one
// written now is checked; damage to either is an error matching
// ErrCorrupt that names the file.
func TestCheckedAndUnchecked(t *testing.T) {
	checked := checkedShard(t)
	for _, tc := range []struct {
		path    string
		checked bool
		rows    int64
	}{
		{uncheckedShard, false, 4160},
		{checked, true, -1},
	} {
		r, err := datasets.Open(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if r.Checked() != tc.checked || (tc.rows >= 0 && r.NumRows() != tc.rows) {
			t.Errorf("%s: Checked %v with %d rows, want %v with %d", tc.path, r.Checked(), r.NumRows(), tc.checked, tc.rows)
		}
		if err := r.Verify(); err != nil {
			t.Errorf("%s: Verify: %v", tc.path, err)
		}
		r.Close()
		rep, err := datasets.Validate(tc.path)
		if err != nil || !rep.OK() {
			t.Fatalf("%s: %v %v", tc.path, err, rep.Problems)
		}
		var text bytes.Buffer
		rep.WriteText(&text)
		if said := bytes.Contains(text.Bytes(), []byte("unchecked")); said == tc.checked || (len(rep.Unchecked) == 1) == tc.checked {
			t.Errorf("%s: report lists unchecked %q, text:\n%s", tc.path, rep.Unchecked, text.String())
		}

		// A flipped bit in the last record batch's body.
		data, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "shard-000000.arrow")
		footer := int(data[len(data)-10]) | int(data[len(data)-9])<<8 | int(data[len(data)-8])<<16
		data[len(data)-10-footer-100] ^= 4
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		err = datasets.EachRow(path, func(datasets.Meta, datasets.Row) error { return nil })
		if tc.checked {
			if !errors.Is(err, datasets.ErrCorrupt) || !bytes.Contains([]byte(err.Error()), []byte(path)) || !bytes.Contains([]byte(err.Error()), []byte("checksum mismatch")) {
				t.Errorf("checked shard with a flipped body bit: %v, want a checksum mismatch naming %s", err, path)
			}
			r, err := datasets.Open(path)
			if err != nil {
				t.Fatalf("the footer is intact, Open should succeed: %v", err)
			}
			if err := r.Verify(); !errors.Is(err, datasets.ErrCorrupt) {
				t.Errorf("Verify of the damaged shard: %v, want a mismatch", err)
			}
			r.Close()
		} else if err != nil && !errors.Is(err, datasets.ErrCorrupt) {
			t.Errorf("unchecked shard with a flipped body bit: %v does not match ErrCorrupt", err)
		}
	}
	if _, err := datasets.Open(t.TempDir()); err == nil || errors.Is(err, datasets.ErrCorrupt) {
		t.Errorf("Open of a directory: %v, want an error that is not ErrCorrupt", err)
	}
}
