package datasets_test

import (
	"testing"

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
