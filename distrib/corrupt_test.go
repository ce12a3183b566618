package distrib_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gridgym/gridgym/distrib"
	"github.com/gridgym/gridgym/train"
)

// A corrupt shard in the object store (a flipped bit in a record batch
// body: its footer is intact, so it downloads and opens, and only its
// checksum tells) is skipped and logged; the learner learns from the
// others and publishes its version.
func TestLearnerSkipsCorruptShard(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pub, shards := filepath.Join(dir, "pub"), filepath.Join(dir, "shards")
	cfg, err := train.DefaultConfig("slime")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Network.Filters, cfg.Network.Layers, cfg.Network.Hidden = 4, 1, 8
	var mu sync.Mutex
	var logged []string
	learner := func(lc distrib.LearnerConfig) distrib.LearnerStats {
		t.Helper()
		lc.Train, lc.Shards, lc.Publish, lc.Poll = cfg, shards, pub, 20*time.Millisecond
		lc.Log = func(f string, a ...any) {
			mu.Lock()
			logged = append(logged, fmt.Sprintf(f, a...))
			mu.Unlock()
		}
		st, err := distrib.RunLearner(ctx, lc)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	learner(distrib.LearnerConfig{Minutes: 0.001}) // publishes v0
	game, err := cfg.RulesConfig()
	if err != nil {
		t.Fatal(err)
	}
	ast, err := distrib.RunActor(ctx, distrib.ActorConfig{Weights: pub, Out: shards, Game: game,
		Envs: 2, RoundSteps: 100, Steps: 300, Seed: 3, Workers: 1, MaxEpisode: 50})
	if err != nil {
		t.Fatal(err)
	}
	if ast.Shards < 2 {
		t.Fatalf("actor uploaded %d shards, want several", ast.Shards)
	}
	var files []string
	filepath.WalkDir(shards, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".arrow") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != ast.Shards {
		t.Fatalf("%d shard files in %s, the actor says %d", len(files), shards, ast.Shards)
	}
	bad := files[0]
	data, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	footer := int(binary.LittleEndian.Uint32(data[len(data)-10:]))
	data[len(data)-10-footer-60] ^= 0x20
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st := learner(distrib.LearnerConfig{Versions: 1, MinShards: ast.Shards, MaxWait: time.Minute})
	if st.Version != 1 || st.Shards != ast.Shards-1 || st.Dropped != 1 {
		t.Fatalf("learner: %+v, want v1 from %d shards and the corrupt one dropped", st, ast.Shards-1)
	}
	key := filepath.Base(bad)
	found := false
	for _, l := range logged {
		found = found || (strings.Contains(l, "skipping corrupt shard") && strings.Contains(l, key) && strings.Contains(l, "checksum mismatch"))
	}
	if !found {
		t.Errorf("no log line names the corrupt shard %s:\n%s", key, strings.Join(logged, "\n"))
	}
}
