package distrib

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/store"
	"github.com/gridgym/gridgym/train"
)

// LearnerConfig is the learner of a distributed run.
type LearnerConfig struct {
	Train     train.Config  // game, network, PPO hyperparameters, seed
	Shards    string        // location the actors upload shards to
	Publish   string        // location weights (and learner.csv) are published to
	MaxStale  int           // use shards of versions ≥ current − MaxStale (default 2; < 0 = only the current version)
	MinShards int           // new shards per update (default 2)
	MaxWait   time.Duration // update with fewer shards after waiting this long (default 30 s)
	Versions  int           // stop after publishing this many new versions (0 = no limit)
	Minutes   float64       // stop after this long (0 = no limit)
	Poll      time.Duration // how often to list new shards (default 1 s)
	Work      string        // local scratch folder ("" = a temporary one)
	Log       func(format string, args ...any)
}

// LearnerStats counts a learner's work.
type LearnerStats struct {
	Version   int // the last version published
	Updates   int
	Shards    int   // shards learned from
	Dropped   int   // shards dropped: stale, unreadable or corrupt (each logged)
	Rows      int64 // rows read
	EnvSteps  int64 // env steps those rows came from
	Decisions int64 // policy decisions trained on
	Samples   int64 // minibatch samples of gradient steps
	Elapsed   time.Duration
	LearnSecs float64
}

// learnerSeen is the object, beside the weights, listing the shard keys a
// learner has taken (one per line), rewritten at every published version.
const learnerSeen = "learner-seen.txt"

const learnerCSVHeader = "version,elapsed_s,shards,dropped,rows,env_steps,decisions,samples,learn_s,pg_loss,value_loss,entropy,approx_kl,clip_frac\n"

// RunLearner publishes version 0 (or resumes from the newest published
// version, skipping the shards listed in learner-seen.txt), then learns from
// arriving shards until a limit or ctx is done.
func RunLearner(ctx context.Context, cfg LearnerConfig) (LearnerStats, error) {
	logf := cfg.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if cfg.MaxStale == 0 {
		cfg.MaxStale = 2
	}
	if cfg.MaxStale < 0 {
		cfg.MaxStale = 0
	}
	if cfg.MinShards <= 0 {
		cfg.MinShards = 2
	}
	if cfg.MaxWait <= 0 {
		cfg.MaxWait = 30 * time.Second
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	t0 := time.Now()
	var st LearnerStats
	pub, err := store.Open(ctx, cfg.Publish)
	if err != nil {
		return st, err
	}
	defer pub.Close()
	src, err := store.Open(ctx, cfg.Shards)
	if err != nil {
		return st, err
	}
	defer src.Close()
	work := cfg.Work
	if work == "" {
		if work, err = os.MkdirTemp("", "gridgym-learner-"); err != nil {
			return st, err
		}
		defer os.RemoveAll(work)
	}

	// Start: resume from the newest published version, or publish v0.
	var net *neural.Net
	version := 0
	p, ok, err := pub.Latest(ctx)
	if err != nil {
		return st, err
	}
	if ok {
		b, err := pub.FetchWeights(ctx, p)
		if err != nil {
			return st, err
		}
		if net, _, err = neural.Decode(b); err != nil {
			return st, fmt.Errorf("resume from %s: %w", p.Key, err)
		}
		version = p.Version
		logf("learner: resuming from v%06d", version)
	}
	l, err := train.NewShardLearner(cfg.Train, net)
	if err != nil {
		return st, err
	}
	var csv bytes.Buffer
	if old, err := pub.Get(ctx, "learner.csv"); err == nil && ok {
		csv.Write(old)
	} else {
		csv.WriteString(learnerCSVHeader)
	}
	publish := func(v int) error {
		b, err := l.Weights(map[string]string{"version": fmt.Sprint(v), "iteration": fmt.Sprint(v)})
		if err != nil {
			return err
		}
		if _, err := pub.PublishWeights(context.WithoutCancel(ctx), v, b); err != nil {
			return err
		}
		logf("learner: published v%06d", v)
		return nil
	}
	if !ok {
		if err := publish(0); err != nil {
			return st, err
		}
	}
	st.Version = version

	// seen holds the shard keys taken (learned from or dropped); done lists
	// them for learnerSeen, so a resumed learner does not learn a shard
	// twice. Keys read but not yet learned are not in done: after a crash
	// they are read again.
	seen := map[string]bool{}
	var done []string
	if ok {
		if b, err := pub.Get(ctx, learnerSeen); err == nil {
			for _, k := range strings.Fields(string(b)) {
				seen[k] = true
				done = append(done, k)
			}
			logf("learner: %d shards taken before the resume are skipped", len(done))
		}
	}
	tries := map[string]int{} // failed reads per key
	var pending []string      // local files
	var pendingKeys []string
	var waitStart time.Time
	deadline := time.Time{}
	if cfg.Minutes > 0 {
		deadline = t0.Add(time.Duration(cfg.Minutes * float64(time.Minute)))
	}
	for {
		if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) ||
			(cfg.Versions > 0 && st.Updates >= cfg.Versions) {
			break
		}
		objs, err := src.List(ctx, "")
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return st, err
		}
		for _, o := range objs {
			if seen[o.Key] || !strings.HasSuffix(o.Key, ".arrow") {
				continue
			}
			seen[o.Key] = true
			v, ok := ShardVersion(o.Key)
			if !ok {
				logf("learner: ignoring %s (no policy version in its key)", o.Key)
				continue
			}
			if version-v > cfg.MaxStale {
				done = append(done, o.Key)
				st.Dropped++
				logf("learner: dropping stale shard %s (v%06d, learner at v%06d, max staleness %d)", o.Key, v, version, cfg.MaxStale)
				continue
			}
			dst := filepath.Join(work, filepath.FromSlash(o.Key))
			if err := readShard(ctx, src, o.Key, dst); err != nil {
				if ctx.Err() != nil {
					break
				}
				// A store may list an object before it serves all of it
				// (s3rver writes in place); try again at the next poll,
				// and drop the shard after maxReadFailures tries.
				if tries[o.Key]++; tries[o.Key] < maxReadFailures {
					seen[o.Key] = false
					logf("learner: %v (try %d of %d)", err, tries[o.Key], maxReadFailures)
				} else {
					done = append(done, o.Key)
					st.Dropped++
					logf("learner: dropping unreadable shard %s: %v", o.Key, err)
				}
				continue
			}
			if len(pending) == 0 {
				waitStart = time.Now()
			}
			pending = append(pending, dst)
			pendingKeys = append(pendingKeys, o.Key)
		}
		ready := len(pending) >= cfg.MinShards || (len(pending) > 0 && time.Since(waitStart) >= cfg.MaxWait)
		if !ready {
			select {
			case <-ctx.Done():
			case <-time.After(cfg.Poll):
			}
			continue
		}
		ls, err := l.Learn(ctx, pending)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return st, err
		}
		for _, f := range pending {
			os.Remove(f)
		}
		for _, msg := range ls.Skipped {
			logf("learner: skipping corrupt shard: %s", msg)
		}
		st.Dropped += len(ls.Skipped)
		st.Shards += len(pending) - len(ls.Skipped)
		st.Rows += ls.Rows
		st.EnvSteps += ls.EnvSteps
		st.Decisions += int64(ls.Decisions)
		st.Samples += int64(ls.Metrics.Samples)
		st.LearnSecs += ls.Seconds
		done = append(done, pendingKeys...)
		pending, pendingKeys = pending[:0], pendingKeys[:0]
		if ls.Decisions == 0 {
			logf("learner: %d shards without policy decisions", ls.Files)
			continue
		}
		version++
		st.Updates++
		if err := publish(version); err != nil {
			return st, err
		}
		st.Version = version
		m := ls.Metrics
		fmt.Fprintf(&csv, "%d,%.1f,%d,%d,%d,%d,%d,%d,%.2f,%.4f,%.4f,%.4f,%.5f,%.4f\n", version, time.Since(t0).Seconds(),
			ls.Files, st.Dropped, ls.Rows, ls.EnvSteps, ls.Decisions, m.Samples, ls.Seconds, m.PGLoss, m.ValueLoss, m.Entropy, m.ApproxKL, m.ClipFrac)
		if err := pub.Put(context.WithoutCancel(ctx), "learner.csv", csv.Bytes()); err != nil {
			return st, err
		}
		// After the weights: a crash in between makes a resumed learner
		// learn this update's shards once more, never skip unlearned ones.
		if err := pub.Put(context.WithoutCancel(ctx), learnerSeen, []byte(strings.Join(done, "\n")+"\n")); err != nil {
			return st, err
		}
		logf("learner: v%06d from %d shards: %d decisions, %d samples in %.1fs (pg %.3f, value %.3f, entropy %.2f, kl %.4f)",
			version, ls.Files, ls.Decisions, m.Samples, ls.Seconds, m.PGLoss, m.ValueLoss, m.Entropy, m.ApproxKL)
	}
	st.Elapsed = time.Since(t0)
	return st, nil
}

// readShard downloads the shard at key to dst and checks that it opens as a
// complete shard.
func readShard(ctx context.Context, src *store.Store, key, dst string) error {
	if err := src.GetFile(ctx, key, dst); err != nil {
		return err
	}
	r, err := datasets.Open(dst)
	if err != nil {
		os.Remove(dst)
		return fmt.Errorf("shard %s: %w", key, err)
	}
	return r.Close()
}
