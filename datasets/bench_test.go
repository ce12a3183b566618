package datasets_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/rules"
)

// BenchmarkWrite measures the writer per game: one op is one row written
// (built into record batches, zstd-compressed, written to disk; Close with
// its fsync included). The rows come from random play of the game's default
// rules, episodes truncated at 500 steps, enough distinct episodes to fill
// several record batches so compression sees realistic data. Metrics:
// rows/s and bytes/row on disk.
func BenchmarkWrite(b *testing.B) {
	for _, g := range rules.Games() {
		b.Run(g.Name, func(b *testing.B) {
			cfg := g.Default()
			const poolRows = 3 * 16384
			var pool []episode
			rows := 0
			for seed := uint64(1); rows < poolRows; seed++ {
				eps := generateMax(b, cfg, 2, seed, false, 500)
				for _, ep := range eps {
					pool = append(pool, ep)
					rows += len(ep.rows)
				}
			}
			meta := testMeta(b, cfg, 1)
			dir := b.TempDir()
			w, err := datasets.NewWriter(dir, meta, datasets.WriterOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			written, id := 0, uint64(0)
			for written < b.N {
				ep := pool[id%uint64(len(pool))]
				for i := range ep.rows {
					ep.rows[i].EpisodeID = id
				}
				if err := w.WriteEpisode(ep.rows); err != nil {
					b.Fatal(err)
				}
				written += len(ep.rows)
				id++
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			st := w.Stats()
			b.ReportMetric(float64(st.Rows)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(st.Bytes)/float64(st.Rows), "bytes/row")
		})
	}
}

// BenchmarkRead measures Reader.Each over a shard of random Bovine Borders
// play (one op is one row decoded, with decompression).
func BenchmarkRead(b *testing.B) {
	g, err := rules.Lookup("bovine-borders")
	if err != nil {
		b.Fatal(err)
	}
	cfg := g.Default()
	dir := b.TempDir()
	writeEpisodes(b, dir, testMeta(b, cfg, 1), datasets.WriterOptions{}, generateMax(b, cfg, 20, 1, false, 500))
	files, _ := datasets.Files(dir)
	r, err := datasets.Open(files[0])
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.ReportAllocs()
	b.ResetTimer()
	read := 0
	var sum int64
	for read < b.N {
		err := r.Each(func(row datasets.Row) error {
			sum += int64(row.Step)
			read++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(read)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCompressFloor is the floor under any zstd writer of this schema:
// the rows' column buffers, laid out as Arrow lays them out (state and legal
// words, then the narrow columns), compressed with one reused klauspost
// zstd encoder at the default level (the level Arrow's IPC writer uses), one
// goroutine, with no Arrow, no file and no allocation. One op is one row;
// compare its rows/s with BenchmarkWrite's.
func BenchmarkCompressFloor(b *testing.B) {
	for _, g := range rules.Games() {
		b.Run(g.Name, func(b *testing.B) {
			cfg := g.Default()
			var rows []datasets.Row
			for seed := uint64(1); len(rows) < 3*16384; seed++ {
				for _, ep := range generateMax(b, cfg, 2, seed, false, 500) {
					rows = append(rows, ep.rows...)
				}
			}
			le := binary.LittleEndian
			var state, legal, narrow []byte
			for i := range rows {
				r := &rows[i]
				for _, w := range r.State {
					state = le.AppendUint64(state, w)
				}
				for _, w := range r.Legal {
					legal = le.AppendUint64(legal, w)
				}
			}
			// The narrow columns, one after another as separate buffers would be.
			for i := range rows {
				narrow = le.AppendUint64(narrow, rows[i].EpisodeID)
			}
			for i := range rows {
				narrow = le.AppendUint32(narrow, uint32(rows[i].Step))
			}
			for i := range rows {
				narrow = append(narrow, rows[i].Seat)
			}
			for i := range rows {
				for _, a := range rows[i].Action {
					narrow = le.AppendUint32(narrow, uint32(a))
				}
			}
			for i := range rows {
				m := &rows[i].Move
				narrow = le.AppendUint16(narrow, uint16(m.Kind))
				narrow = le.AppendUint16(narrow, uint16(m.N))
				for _, v := range m.Arg {
					narrow = le.AppendUint16(narrow, uint16(v))
				}
			}
			for i := range rows {
				narrow = le.AppendUint32(narrow, math.Float32bits(rows[i].Reward))
			}
			narrow = append(narrow, make([]byte, 4*4*len(rows))...) // logp, value, agent, game/run indices
			enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
			if err != nil {
				b.Fatal(err)
			}
			defer enc.Close()
			var dst []byte
			b.ResetTimer()
			for done := 0; done < b.N; done += len(rows) {
				for _, buf := range [][]byte{state, legal, narrow} {
					dst = enc.EncodeAll(buf, dst[:0])
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(len(state)+len(legal)+len(narrow))/float64(len(rows)), "raw-bytes/row")
		})
	}
}

// BenchmarkExportParquet measures ExportParquet over a shard of random
// Nuggets play (one op is one row exported); ms/row is CPU-bound, so
// compare it across commits on the same machine.
func BenchmarkExportParquet(b *testing.B) {
	g, err := rules.Lookup("nuggets")
	if err != nil {
		b.Fatal(err)
	}
	cfg := g.Default()
	dir := b.TempDir()
	writeEpisodes(b, dir, testMeta(b, cfg, 1), datasets.WriterOptions{}, generateMax(b, cfg, 16, 1, false, 2000))
	rows := shardRows(b, dir)[0]
	out := b.TempDir()
	b.ReportAllocs()
	b.ResetTimer()
	done := int64(0)
	for done < int64(b.N) {
		if err := datasets.ExportParquet(dir, out); err != nil {
			b.Fatal(err)
		}
		done += rows
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(done), "ms/row")
}
