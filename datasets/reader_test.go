package datasets_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v14/arrow"
	"github.com/apache/arrow/go/v14/arrow/array"
	"github.com/apache/arrow/go/v14/arrow/ipc"
	"github.com/apache/arrow/go/v14/arrow/memory"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/rules"
)

// writeArrow writes an Arrow IPC file of one record with the given schema
// and int32 columns.
func writeArrow(t *testing.T, path string, schema *arrow.Schema, n int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithZstd())
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range schema.Fields() {
		for k := 0; k < n; k++ {
			b.Field(i).(*array.Int32Builder).Append(int32(k))
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBadInput checks that Open refuses files that are not complete
// trajectory shards with an error naming the file and what is wrong, and
// that Validate reports them as problems.
func TestBadInput(t *testing.T) {
	meta, eps := slimeEpisodes(t, 3, 21)
	good := t.TempDir()
	writeEpisodes(t, good, meta, datasets.WriterOptions{BatchRows: 64}, eps)
	shard := filepath.Join(good, "shard-000000.arrow")
	data, err := os.ReadFile(shard)
	if err != nil {
		t.Fatal(err)
	}
	random := make([]byte, 4096)
	rng := rules.NewRNG(5)
	for i := range random {
		random[i] = byte(rng.U(256))
	}
	foreign := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)
	newer := meta
	newer.SchemaVersion = datasets.SchemaVersion + 1

	cases := []struct {
		name  string
		make  func(path string)
		wants []string // substrings of the error
	}{
		{"empty", func(p string) { os.WriteFile(p, nil, 0o644) }, []string{"empty file"}},
		{"random bytes", func(p string) { os.WriteFile(p, random, 0o644) }, []string{"not an Arrow IPC file"}},
		{"text", func(p string) { os.WriteFile(p, []byte("episode,step\n1,2\n"), 0o644) }, []string{"not an Arrow IPC file"}},
		{"truncated in the middle", func(p string) { os.WriteFile(p, data[:len(data)/2], 0o644) }, []string{"truncated or unfinished"}},
		{"truncated footer", func(p string) { os.WriteFile(p, data[:len(data)-3], 0o644) }, []string{"truncated or unfinished"}},
		{"magic only", func(p string) { os.WriteFile(p, data[:8], 0o644) }, []string{"truncated"}},
		{"footer garbage", func(p string) {
			bad := append([]byte(nil), data...)
			for i := len(bad) - 200; i < len(bad)-10; i++ {
				bad[i] ^= 0x5a
			}
			os.WriteFile(p, bad, 0o644)
		}, []string{"Arrow IPC file"}},
		{"foreign Arrow file", func(p string) { writeArrow(t, p, foreign, 10) }, []string{"not a gridgym trajectory shard", "gridgym.schema_version"}},
		{"foreign columns with gridgym metadata", func(p string) {
			s, _ := datasets.Schema(meta)
			md := s.Metadata()
			writeArrow(t, p, arrow.NewSchema(foreign.Fields(), &md), 3)
		}, []string{"column 0"}},
		{"newer schema version", func(p string) {
			s, _ := datasets.Schema(meta)
			md := s.Metadata()
			keys, vals := md.Keys(), append([]string(nil), md.Values()...)
			for i, k := range keys {
				if k == datasets.KeySchemaVersion {
					vals[i] = "2"
				}
			}
			nmd := arrow.NewMetadata(keys, vals)
			writeArrow(t, p, arrow.NewSchema(foreign.Fields(), &nmd), 3)
		}, []string{"schema version 2 is newer", "upgrade"}},
		{"bad metadata value", func(p string) {
			s, _ := datasets.Schema(meta)
			md := s.Metadata()
			keys, vals := md.Keys(), append([]string(nil), md.Values()...)
			for i, k := range keys {
				if k == datasets.KeyStateWords {
					vals[i] = "many"
				}
			}
			nmd := arrow.NewMetadata(keys, vals)
			writeArrow(t, p, arrow.NewSchema(foreign.Fields(), &nmd), 3)
		}, []string{datasets.KeyStateWords, `"many"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "bad.arrow")
			c.make(path)
			_, err := datasets.Open(path)
			if err == nil {
				t.Fatal("Open accepted it")
			}
			msg := err.Error()
			t.Logf("%s", msg)
			if !strings.Contains(msg, path) {
				t.Errorf("error %q does not name the file", msg)
			}
			for _, w := range c.wants {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
			rep, err := datasets.Validate(dir)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK() || len(rep.Problems) != 1 || rep.Problems[0].File != path {
				t.Errorf("Validate: %+v, want one problem naming the file", rep)
			}
			if _, err := datasets.Inspect(dir); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("Inspect: %v, want an error naming the file", err)
			}
		})
	}
	if _, err := datasets.Open(filepath.Join(good, "missing.arrow")); err == nil || !strings.Contains(err.Error(), "missing.arrow") {
		t.Errorf("Open(missing) = %v", err)
	}
	if _, err := datasets.Validate(t.TempDir()); err == nil {
		t.Error("Validate of an empty directory succeeded")
	}
}

// TestValidateTampered writes episodes with one thing wrong and checks that
// Validate finds it, with the row.
func TestValidateTampered(t *testing.T) {
	meta, eps := slimeEpisodes(t, 3, 22)
	g, _ := rules.Lookup("slime")
	sp := g.Encoder(testConfig(t, g)).Space()
	// firstActive returns the index of a row of ep 1 with an action.
	firstActive := func(rows []datasets.Row) int {
		for i, r := range rows {
			if r.Action[0] >= 0 {
				return i
			}
		}
		t.Fatal("no active row")
		return 0
	}
	cases := []struct {
		name   string
		mutate func(eps [][]datasets.Row)
		want   string
	}{
		{"untampered", func([][]datasets.Row) {}, ""},
		{"illegal action", func(e [][]datasets.Row) {
			i := firstActive(e[1])
			r := &e[1][i]
			a := r.Action[0]
			r.Legal[a>>6] &^= 1 << (a & 63)
		}, "not legal in the stored mask"},
		{"action outside the space", func(e [][]datasets.Row) { e[1][firstActive(e[1])].Action[0] = int32(sp.Actions) }, "outside the action space"},
		{"mask differs from the encoder's", func(e [][]datasets.Row) { e[2][5].Legal[0] ^= 1 << 63 }, "differs from the encoder's mask"},
		{"skipped step", func(e [][]datasets.Row) {
			for i := range e[1] {
				if e[1][i].Step >= 3 {
					e[1][i].Step++
				}
			}
		}, "step 4, want 3"},
		{"incomplete episode", func(e [][]datasets.Row) {
			for i := range e[0] {
				e[0][i].Done, e[0][i].Truncated = false, false
			}
		}, "incomplete"},
		{"row after the end", func(e [][]datasets.Row) { e[2][len(e[2])/2].Truncated = true }, "after the seat's episode ended"},
		{"missing seat rows", func(e [][]datasets.Row) {
			last := len(e[1]) - 1
			e[1][last-1] = e[1][last] // seat 2's last row replaced by seat 3's
		}, ""},
		{"bad state words", func(e [][]datasets.Row) {
			for k := range e[1][0].State {
				e[1][0].State[k] = ^uint64(0)
			}
		}, "state words do not decode"},
		{"episode ID reused", func(e [][]datasets.Row) {
			for i := range e[2] {
				e[2][i].EpisodeID = e[0][0].EpisodeID
			}
		}, "row after the seat's episode ended at step 29"},
		{"nan reward", func(e [][]datasets.Row) { e[0][3].Reward = float32(math.NaN()) }, "reward NaN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows := make([][]datasets.Row, len(eps))
			for k, ep := range eps {
				for _, r := range ep.rows {
					r = r.Clone()
					r.State = append([]uint64(nil), r.State...)
					rows[k] = append(rows[k], r)
				}
			}
			c.mutate(rows)
			dir := t.TempDir()
			w, err := datasets.NewWriter(dir, meta, datasets.WriterOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				if err := w.WriteEpisode(r); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			rep, err := datasets.Validate(dir)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			rep.WriteText(&b)
			if c.name == "untampered" {
				if !rep.OK() {
					t.Fatalf("untampered shard has problems:\n%s", b.String())
				}
				return
			}
			if rep.OK() {
				t.Fatalf("no problem found")
			}
			if c.want != "" && !strings.Contains(b.String(), c.want) {
				t.Errorf("report does not mention %q:\n%s", c.want, b.String())
			}
			for _, p := range rep.Problems {
				if p.File == "" || (p.Row < 0 && c.name != "bad file") {
					t.Errorf("problem without a position: %+v", p)
				}
			}
		})
	}
}

// TestValidateSplitEpisode checks that an episode found in two shards of one
// run is reported.
func TestValidateSplitEpisode(t *testing.T) {
	meta, eps := slimeEpisodes(t, 2, 26)
	dir := t.TempDir()
	half := len(eps[0].rows) / 8 * 4 // a step boundary (4 seats)
	writeEpisodes(t, dir, meta, datasets.WriterOptions{}, []episode{{rows: eps[0].rows[:half]}})
	writeEpisodes(t, dir, meta, datasets.WriterOptions{}, []episode{{rows: eps[0].rows[half:]}, eps[1]})
	rep, err := datasets.Validate(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rep.WriteText(&b)
	id, step := eps[0].rows[half].EpisodeID, eps[0].rows[half].Step
	for _, want := range []string{
		fmt.Sprintf("shard-000000.arrow: row %d: episode %d seat 0: incomplete", half-int(eps[0].rows[half-1].Seat)-1, id),
		fmt.Sprintf("shard-000001.arrow: row 0: episode %d step %d seat 0: episode also in", id, step),
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if rep.Files != 2 || rep.Episodes != 3 {
		t.Errorf("files %d episodes %d, want 2 and 3", rep.Files, rep.Episodes)
	}
}

// TestValidateCapsProblems checks that a report lists at most MaxProblems
// and counts the rest.
func TestValidateCapsProblems(t *testing.T) {
	meta, eps := slimeEpisodes(t, 2, 23)
	var rows []datasets.Row
	for _, r := range eps[0].rows {
		r = r.Clone()
		r.Legal = make([]uint64, len(r.Legal)) // every action illegal, every mask wrong
		rows = append(rows, r)
	}
	dir := t.TempDir()
	writeEpisodes(t, dir, meta, datasets.WriterOptions{}, []episode{{rows: rows}})
	rep, err := datasets.Validate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != datasets.MaxProblems || rep.Omitted == 0 {
		t.Errorf("%d problems listed, %d omitted; want %d listed and more omitted", len(rep.Problems), rep.Omitted, datasets.MaxProblems)
	}
}

// TestInspect checks Inspect's counts and per-agent means against the rows
// that were written.
func TestInspect(t *testing.T) {
	meta, eps := slimeEpisodes(t, 6, 24)
	// Give the rows distinct rewards so the means mean something.
	type key struct {
		ep   uint64
		seat uint8
	}
	ret, final, agentOf := map[key]float64{}, map[key]float64{}, map[key]string{}
	steps := 0
	for e := range eps {
		for i := range eps[e].rows {
			r := &eps[e].rows[i]
			r.Reward = float32(r.Step%5)*0.5 - float32(r.Seat)*0.25
			k := key{r.EpisodeID, r.Seat}
			ret[k] += float64(r.Reward)
			final[k] = float64(r.Reward)
			agentOf[k] = r.Agent
		}
		steps += int(eps[e].rows[len(eps[e].rows)-1].Step) + 1
	}
	dir := t.TempDir()
	per := len(eps[0].rows) * 2
	writeEpisodes(t, dir, meta, datasets.WriterOptions{RowsPerShard: per}, eps)
	s, err := datasets.Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, ep := range eps {
		rows += len(ep.rows)
	}
	if s.Rows != int64(rows) || s.Episodes != 6 || len(s.Files) != 3 || s.Steps != int64(steps) {
		t.Errorf("rows %d episodes %d files %d steps %d; want %d, 6, 3, %d", s.Rows, s.Episodes, len(s.Files), s.Steps, rows, steps)
	}
	if math.Abs(s.MeanLen-float64(steps)/6) > 1e-9 {
		t.Errorf("mean length %v, want %v", s.MeanLen, float64(steps)/6)
	}
	wantRet, wantFinal, n := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for k, a := range agentOf {
		wantRet[a] += ret[k]
		wantFinal[a] += final[k]
		n[a]++
	}
	if len(s.Agents) != len(n) {
		t.Fatalf("agents %+v, want %d", s.Agents, len(n))
	}
	for _, a := range s.Agents {
		if float64(a.Seats) != n[a.Name] ||
			math.Abs(a.MeanReturn-wantRet[a.Name]/n[a.Name]) > 1e-6 ||
			math.Abs(a.MeanFinal-wantFinal[a.Name]/n[a.Name]) > 1e-6 {
			t.Errorf("agent %+v, want seats %v return %v final %v", a, n[a.Name], wantRet[a.Name]/n[a.Name], wantFinal[a.Name]/n[a.Name])
		}
	}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"slime", "episodes:    6", "policy", "shard-000002.arrow", "fixed_size_list<item: uint64>"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("inspect text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestEachBatchAndFiles checks streaming record batches and that Files
// ignores what is not a finished shard.
func TestEachBatchAndFiles(t *testing.T) {
	meta, eps := slimeEpisodes(t, 2, 25)
	dir := t.TempDir()
	writeEpisodes(t, dir, meta, datasets.WriterOptions{BatchRows: 50}, eps)
	for _, junk := range []string{".shard-000009.arrow.tmp", "notes.txt", ".hidden.arrow"} {
		os.WriteFile(filepath.Join(dir, junk), []byte("x"), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "sub.arrow"), 0o755)
	files, err := datasets.Files(dir)
	if err != nil || len(files) != 1 || filepath.Base(files[0]) != "shard-000000.arrow" {
		t.Fatalf("Files = %v, %v", files, err)
	}
	r, err := datasets.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var n int64
	var batches int
	err = r.EachBatch(func(rec arrow.Record) error {
		n += rec.NumRows()
		batches++
		if rec.NumRows() > 50 {
			t.Errorf("batch of %d rows, BatchRows 50", rec.NumRows())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != r.NumRows() || batches != r.NumBatches() {
		t.Errorf("EachBatch saw %d rows in %d batches; NumRows %d NumBatches %d", n, batches, r.NumRows(), r.NumBatches())
	}
}
