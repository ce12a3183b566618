package train

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/rules"
)

// ShardLearner trains a policy from self-play shards that arrive over time
// (the learner of a distributed run, package distrib), rather than from games
// it plays itself.
//
// What it learns from: the rows of a shard where a learned policy acted
// (policy_logp and value set, every head's action in the action space). For
// each (episode, seat) those decisions form a chain: a row's reward, and the
// rewards the seat receives on steps where it did not decide, go to its
// latest decision; the chain ends at the episode's last row (done: terminal;
// truncated: bootstrapped from the last decision's own value estimate).
// Advantages and returns come from GAE (PPO's gamma and lambda) on the stored
// values — or, with ppo.target vtrace, from V-trace on the current network's
// values and log-probabilities, whose truncated importance weights cut the
// returns where the current policy would not have followed the older one —
// and the update is PPO's clipped objective with the stored
// policy_logp as the old log-probability — the same loss, minibatches,
// epochs and optimiser as `gridgym train`. Because the acting policy is the
// one that wrote policy_logp, the ratio exp(log π − log π_old) corrects for
// a policy that is a few versions behind, and the clip bounds how far one
// batch moves it; data from much older policies is not used (the caller's
// staleness rule; see package distrib). Rows of scripted bots (no
// policy_logp) are not trained on.
type ShardLearner struct {
	t  *trainer
	it int
}

// ShardStats summarises one Learn call.
type ShardStats struct {
	Files     int
	Rows      int64 // rows read
	EnvSteps  int64 // env steps those rows record (rows of seat 0)
	Decisions int   // policy decisions trained on
	Metrics   Metrics
	Seconds   float64
	Skipped   []string // corrupt shards skipped (datasets.ErrCorrupt), "file: what is wrong"; none of their rows is learned
}

// NewShardLearner starts a learner for cfg's game and network from net (nil:
// a fresh network initialised from cfg.Seed, like `gridgym train`).
func NewShardLearner(cfg Config, net *neural.Net) (*ShardLearner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	t, err := newLearner(cfg, net, Options{Dir: "distributed"})
	if err != nil {
		return nil, err
	}
	return &ShardLearner{t: t}, nil
}

// Net is the network being trained (updated in place by Learn).
func (l *ShardLearner) Net() *neural.Net { return l.t.net }

// Weights returns the current network as a safetensors file, with the
// metadata `gridgym train` writes (game params, seed) plus meta.
func (l *ShardLearner) Weights(meta map[string]string) ([]byte, error) {
	m := l.t.meta()
	for k, v := range meta {
		m[k] = v
	}
	dir, err := os.MkdirTemp("", "gridgym-weights-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "w.safetensors")
	if err := l.t.net.Save(p, m); err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// Learn reads the local shard files and runs PPO's epochs over their policy
// decisions. It returns an error only for unreadable data; files without
// policy decisions leave the network unchanged.
func (l *ShardLearner) Learn(ctx context.Context, files []string) (ShardStats, error) {
	t0 := time.Now()
	t := l.t
	b := &t.buf
	b.reset()
	st := ShardStats{Files: len(files)}
	r := &shardReader{t: t, st: &st, planes: make([]uint8, b.os), scalars: make([]float32, b.ns)}
	for _, f := range files {
		if ctx.Err() != nil {
			return st, ctx.Err()
		}
		if err := r.read(f); err != nil {
			return st, err
		}
	}
	st.Decisions = b.len()
	if st.Decisions == 0 {
		st.Seconds = time.Since(t0).Seconds()
		return st, nil
	}
	l.it++
	m := Metrics{Iteration: l.it, LR: t.lr(min(l.it, max(1, t.cfg.Iterations)))}
	if err := t.learn(context.Background(), l.it, rules.IterationStream(t.cfg.Seed, l.it, rules.RemoteLearnPhase), m.LR, &m); err != nil { // a version is learned whole
		return st, err
	}
	st.Metrics = m
	st.Seconds = time.Since(t0).Seconds()
	return st, nil
}

// shardReader reads actors' shards into the trainer's buffer (Learn).
type shardReader struct {
	t       *trainer
	st      *ShardStats
	planes  []uint8
	scalars []float32
	obs     *datasets.Observer // the current shard's
	last    map[[2]uint64]int  // (episode, seat) → its latest decision in the buffer
}

// read appends shard f's decisions to the buffer; a corrupt shard is
// skipped (named in ShardStats.Skipped), what was taken from it before the
// damage dropped.
func (r *shardReader) read(f string) error {
	b, st := &r.t.buf, r.st
	r.obs, r.last = nil, map[[2]uint64]int{}
	n0, lp, ls, lm, la, rows0, steps0 := b.len(), len(b.planes), len(b.scalars), len(b.masks), len(b.actions), st.Rows, st.EnvSteps
	err := datasets.EachRow(f, r.row)
	if errors.Is(err, datasets.ErrCorrupt) {
		b.planes, b.scalars, b.masks, b.actions = b.planes[:lp], b.scalars[:ls], b.masks[:lm], b.actions[:la]
		b.logp, b.value, b.reward, b.done, b.next = b.logp[:n0], b.value[:n0], b.reward[:n0], b.done[:n0], b.next[:n0]
		st.Rows, st.EnvSteps = rows0, steps0
		st.Skipped = append(st.Skipped, err.Error())
		return nil
	}
	if err != nil {
		return fmt.Errorf("learn from %s: %w", f, err)
	}
	return nil
}

// row takes one row of a shard: a decision of the learner's policy becomes
// a buffer row, the rewards of the seat's other rows go to its latest
// decision, and an episode's end closes it (a truncated one bootstrapped
// from the value).
func (r *shardReader) row(meta datasets.Meta, row datasets.Row) error {
	t := r.t
	b := &t.buf
	r.st.Rows++
	if row.Seat == 0 {
		r.st.EnvSteps++
	}
	if r.obs == nil {
		o, err := datasets.NewObserver(meta)
		if err != nil {
			return err
		}
		if err := t.net.Arch.Fits(meta.Game, o.Space()); err != nil {
			return fmt.Errorf("shards of %s do not fit the network: %w", meta.Game, err)
		}
		r.obs = o
	}
	key := [2]uint64{row.EpisodeID, uint64(row.Seat)}
	prev, hasPrev := r.last[key]
	decided := row.HasPolicy
	for _, a := range row.Action {
		if a < 0 {
			decided = false
		}
	}
	if decided {
		if err := r.obs.Observe(row, r.planes, r.scalars); err != nil {
			return err
		}
		i := b.len()
		b.planes = append(b.planes, r.planes...)
		b.scalars = append(b.scalars, r.scalars...)
		b.masks = append(b.masks, row.Legal...)
		b.actions = append(b.actions, row.Action...)
		b.logp = append(b.logp, row.LogP)
		b.value = append(b.value, row.Value)
		b.reward = append(b.reward, row.Reward)
		b.done = append(b.done, false)
		b.next = append(b.next, -1)
		if hasPrev {
			b.next[prev] = int32(i)
		}
		r.last[key], prev, hasPrev = i, i, true
	} else if hasPrev {
		b.reward[prev] += row.Reward
	}
	if row.Done || row.Truncated {
		if hasPrev {
			if row.Done {
				b.done[prev] = true
			} else {
				b.reward[prev] += float32(t.cfg.PPO.Gamma) * b.value[prev] // bootstrap the cut episode
				b.done[prev] = true
			}
		}
		delete(r.last, key)
	}
	return nil
}
