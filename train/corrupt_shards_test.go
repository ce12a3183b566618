package train

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/selfplay"
)

// corruptShards plays slime into dir/good (one shard of several record
// batches, every row marked as a policy decision) and returns it with two
// damaged copies in dir/mixed beside a copy of it: one with a bit flipped
// in its last record batch's body (found by that batch's checksum, after
// the first batches read fine) and one that is not an Arrow file at all.
func corruptShards(t *testing.T, cfg Config) (good, mixed string, bad []string) {
	t.Helper()
	dir := t.TempDir()
	played := filepath.Join(dir, "played")
	rc, err := cfg.RulesConfig()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := selfplay.Run(context.Background(), selfplay.Config{Game: rc, Agents: []string{"simplebot", "random"},
		Envs: 4, Steps: 400, Seed: 5, Workers: 1, Out: played, MaxEpisode: 40}); err != nil {
		t.Fatal(err)
	}
	// Rewrite the rows as a learner's shard: policy decisions, small batches.
	var w *datasets.Writer
	var ep []datasets.Row
	flush := func() {
		if len(ep) > 0 {
			if err := w.WriteEpisode(ep); err != nil {
				t.Fatal(err)
			}
			ep = ep[:0]
		}
	}
	good = filepath.Join(dir, "good")
	err = datasets.EachRow(played, func(meta datasets.Meta, row datasets.Row) error {
		if w == nil {
			var err error
			if w, err = datasets.NewWriter(good, meta, datasets.WriterOptions{BatchRows: 64}); err != nil {
				return err
			}
		}
		if len(ep) > 0 && ep[0].EpisodeID != row.EpisodeID {
			flush()
		}
		row = row.Clone()
		row.HasPolicy, row.LogP, row.Value = true, -1, 0.25
		ep = append(ep, row)
		return nil
	})
	if err != nil || w == nil {
		t.Fatalf("reading the played shards: %v", err)
	}
	flush()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(good, "shard-000000.arrow")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := datasets.Open(src); err != nil || r.NumBatches() < 3 {
		t.Fatalf("good shard: %v, want several batches", err)
	} else {
		r.Close()
	}
	mixed = filepath.Join(dir, "mixed")
	if err := os.MkdirAll(mixed, 0o755); err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), data...)
	footer := int(binary.LittleEndian.Uint32(data[len(data)-10:]))
	flipped[len(data)-10-footer-40] ^= 0x10 // in the last message's body
	for name, b := range map[string][]byte{
		"a-flipped-000000.arrow": flipped,
		"b-good-000000.arrow":    data,
		"c-garbage-000000.arrow": []byte("ARROW1\x00\x00 not really an arrow file ARROW1"),
	} {
		if err := os.WriteFile(filepath.Join(mixed, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return good, mixed, []string{filepath.Join(mixed, "a-flipped-000000.arrow"), filepath.Join(mixed, "c-garbage-000000.arrow")}
}

// A corrupt shard among good ones is skipped, logged, and costs nothing
// else: behaviour cloning and the PPO shard learner train on the rest as
// if it were not there.
func TestCorruptShardsAreSkipped(t *testing.T) {
	cfg := tinyConfig(t)
	good, mixed, bad := corruptShards(t, cfg)

	t.Run("clone", func(t *testing.T) {
		clone := func(shards string) (BCStats, []string) {
			var logged []string
			st, err := Clone(context.Background(), freshNet(t, cfg), CloneConfig{Shards: shards, Teacher: "simplebot",
				BC: BCConfig{Samples: 200, Epochs: 1, LR: 0.01, Minibatch: 32}, Seed: 1,
				Log: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }})
			if err != nil {
				t.Fatalf("clone %s: %v", shards, err)
			}
			return st, logged
		}
		want, _ := clone(good)
		got, logged := clone(mixed)
		if got.Skipped != 2 || want.Skipped != 0 {
			t.Fatalf("skipped %d corrupt shards (clean run %d), want 2", got.Skipped, want.Skipped)
		}
		for i, f := range bad {
			if len(logged) != 2 || !strings.Contains(logged[i], f) || !strings.Contains(logged[i], "corrupt") {
				t.Fatalf("log %q, want a line naming %s", logged, f)
			}
		}
		if got.Samples != want.Samples || got.Loss != want.Loss {
			t.Errorf("with corrupt shards beside it: %d samples, loss %v; alone %d samples, loss %v", got.Samples, got.Loss, want.Samples, want.Loss)
		}
	})

	t.Run("ppo", func(t *testing.T) {
		learn := func(files []string) ShardStats {
			l, err := NewShardLearner(cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			st, err := l.Learn(context.Background(), files)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		clean := filepath.Join(mixed, "b-good-000000.arrow")
		want := learn([]string{clean})
		got := learn([]string{bad[0], clean, bad[1]})
		if len(got.Skipped) != 2 || !strings.Contains(got.Skipped[0], bad[0]) || !strings.Contains(got.Skipped[1], bad[1]) {
			t.Fatalf("skipped %q, want both corrupt shards named", got.Skipped)
		}
		if want.Decisions == 0 || got.Decisions != want.Decisions || got.Rows != want.Rows || got.Metrics.PGLoss != want.Metrics.PGLoss {
			t.Errorf("with corrupt shards: %d rows, %d decisions, pg %v; alone %d, %d, %v",
				got.Rows, got.Decisions, got.Metrics.PGLoss, want.Rows, want.Decisions, want.Metrics.PGLoss)
		}
	})
}

// freshNet returns cfg's network, initialised from a fixed seed.
func freshNet(t *testing.T, cfg Config) *neural.Net {
	t.Helper()
	arch, err := cfg.Arch()
	if err != nil {
		t.Fatal(err)
	}
	net, err := neural.New(arch)
	if err != nil {
		t.Fatal(err)
	}
	net.Init(rules.Derive(1, 2))
	return net
}
