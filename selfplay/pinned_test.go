package selfplay

import (
	"context"
	"encoding/binary"
	"hash"
	"hash/fnv"
	"math"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
)

// rowsHash is an FNV-1a hash of every field of every row of the shards in
// dir, in the order they were written.
func rowsHash(t *testing.T, dir string) (uint64, int) {
	t.Helper()
	h := fnv.New64a()
	n := 0
	err := datasets.EachRow(dir, func(_ datasets.Meta, r datasets.Row) error {
		hashRow(h, r)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return h.Sum64(), n
}

// hashRow writes every field of r into h.
func hashRow(h hash.Hash64, r datasets.Row) {
	var b [8]byte
	put := func(v uint64) { binary.LittleEndian.PutUint64(b[:], v); h.Write(b[:]) }
	put(r.EpisodeID)
	put(uint64(r.Step)<<8 | uint64(r.Seat))
	for _, w := range r.State {
		put(w)
	}
	for _, a := range r.Action {
		put(uint64(uint32(a)))
	}
	put(uint64(r.Move.Kind)<<16 | uint64(uint16(r.Move.N)))
	for _, a := range r.Move.Arg {
		put(uint64(uint16(a)))
	}
	for _, w := range r.Legal {
		put(w)
	}
	put(uint64(math.Float32bits(r.Reward)))
	flags := uint64(0)
	for i, f := range []bool{r.Done, r.Truncated, r.HasPolicy} {
		if f {
			flags |= 1 << i
		}
	}
	put(flags)
	put(uint64(math.Float32bits(r.LogP))<<32 | uint64(math.Float32bits(r.Value)))
	h.Write([]byte(r.Agent))
}

// The rows a fixed seed writes are pinned for every game (one worker, so the
// order is fixed too): a change to the self-play loop, the seed derivation or
// the shard format that alters any field of any row fails here. Shaping is on
// where the game offers a potential, and episodes are truncated, so the
// shaped, terminal and truncated rewards are all covered. A change of the
// rules or of an agent changes these numbers too: then re-pin them, saying
// why in the commit. The pins are the games' own (rules.Testdata,
// testdata.go in each game's folder).
func TestRunPinnedRows(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.Name, func(t *testing.T) {
			cfg := Config{Game: g.Default(), Agents: agents.Names(g.Name), Envs: 2, Steps: 900, Seed: 11, Workers: 1,
				Out: t.TempDir(), MaxEpisode: 150, Reward: env.RewardScore}
			if _, ok := g.Encoder(cfg.Game).(rules.Potential); ok {
				cfg.Shaping = 0.5
			}
			st, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			h, n := rowsHash(t, cfg.Out)
			if int64(n) != st.Rows {
				t.Fatalf("read %d rows, run wrote %d", n, st.Rows)
			}
			td := g.Testdata
			if td == nil {
				t.Fatalf("no pinned rows for %s (rules.Game.Testdata, in its folder): got hash %#x over %d rows", g.Name, h, n)
			}
			if h != td.Pins.SelfplayRows || n != td.Pins.SelfplayRowCount {
				t.Fatalf("rows hash %#x over %d rows, pinned %#x over %d (Testdata.Pins.SelfplayRows, SelfplayRowCount)", h, n, td.Pins.SelfplayRows, td.Pins.SelfplayRowCount)
			}
		})
	}
}
