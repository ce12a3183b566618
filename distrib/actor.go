// Package distrib runs self-play actors and one learner on separate machines
// that meet only in an object store (package store: a local folder, or any
// S3-compatible store) — no home-made cluster protocol.
//
// # Keys
//
// Under the learner's publish location:
//
//	weights/vNNNNNN.safetensors   every published version (v000000 = the initial network)
//	weights/LATEST                {"version", "key", "sha256", "created"}: the newest, written after its weights
//	learner.csv                   one row per published version (throughput, losses)
//
// Under the shard location (actors' --out, the learner's --from-shards):
//
//	vNNNNNN/<actor>-<token>-<round>-shard-NNNNNN.arrow
//
// where vNNNNNN is the policy version that played the shard, <actor> the
// actor's id (JOB_COMPLETION_INDEX in an Indexed Job) and <token> random per
// actor process, so restarts never overwrite. A shard is uploaded only once
// complete and appears under its key in one step (the upload is the commit):
// killing an actor loses at most the shard it was playing or uploading.
//
// # Actors
//
// An actor loops: read weights/LATEST (waiting until there is one), download
// the weights if the version changed (checking the sha256), play a round of
// self-play with the policy sampling on every seat (plus optional scripted
// opponents), writing policy_logp and value into the rows, and upload the
// round's shards. The policy is picked up between rounds, so a round's
// length (--round-steps) bounds an actor's lag.
//
// # Learner
//
// The learner publishes its initial network as version 0, then loops: list
// new shard keys, drop stale ones, download the rest, and once at least
// MinShards new shards are in (or MaxWait has passed with at least one),
// run one PPO update on them (train.ShardLearner) and publish the next
// version.
//
// Staleness rule: a shard played by policy version v is used while the
// learner's current version c satisfies c − v ≤ MaxStale (default 2), and
// dropped (left in the store, not learned from, counted in learner.csv)
// otherwise. PPO's importance ratio with the stored log-probabilities and its
// clip correct for a lag of a few versions; beyond that the clipped ratio
// mostly zeroes the gradient and the data costs time without teaching much.
package distrib

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/selfplay"
	"github.com/gridgym/gridgym/store"
)

// ActorConfig is one actor.
type ActorConfig struct {
	Weights    string // location of the learner's published weights (weights/LATEST)
	Out        string // location the shards go to
	ID         string // actor id in shard keys ("" = a0)
	Game       rules.Config
	Opponents  []string // scripted bots that share the seats with the policy (none = pure self-play)
	Envs       int
	RoundSteps int64 // env steps per round: one round = one set of uploaded shards
	Steps      int64 // total env steps; 0 = until ctx is done
	Seed       uint64
	Workers    int
	MaxEpisode int
	Reward     env.RewardMode
	Poll       time.Duration // how often to look for the first weights (default 1 s)
	Work       string        // local scratch folder ("" = a temporary one)
	Log        func(format string, args ...any)
}

// ActorStats counts an actor's work.
type ActorStats struct {
	Rounds, Shards  int
	Steps, Rows     int64
	Bytes           int64
	Versions        []int // the policy versions it played, in order
	Elapsed         time.Duration
	PlaySeconds     float64
	UploadSeconds   float64
	LastVersionSeen int
}

// stallEnv is a test hook: "N:DURATION" makes the actor's N-th upload write
// half the shard, print "upload-stall KEY" on stdout, and wait DURATION
// before finishing (the integration test kills the actor there).
const stallEnv = "GRIDGYM_TEST_UPLOAD_STALL"

// maxReadFailures is how many rounds in a row an actor tolerates failing to
// read the weights pointer or the weights before it stops with the error.
const maxReadFailures = 10

func token() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ShardKey is the key of a shard played by policy version v.
func ShardKey(v int, actor, tok string, round int, base string) string {
	return fmt.Sprintf("v%06d/%s-%s-r%06d-%s", v, actor, tok, round, base)
}

// ShardVersion returns the policy version in a shard key.
func ShardVersion(key string) (int, bool) {
	dir, _, ok := strings.Cut(key, "/")
	if !ok || len(dir) < 2 || dir[0] != 'v' {
		return 0, false
	}
	var v int
	if _, err := fmt.Sscanf(dir[1:], "%d", &v); err != nil {
		return 0, false
	}
	return v, true
}

// RunActor plays and uploads until cfg.Steps env steps are played or ctx is
// done.
func RunActor(ctx context.Context, cfg ActorConfig) (ActorStats, error) {
	logf := cfg.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if cfg.ID == "" {
		cfg.ID = "a0"
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.RoundSteps <= 0 {
		cfg.RoundSteps = 20000
	}
	t0 := time.Now()
	var st ActorStats
	wstore, err := store.Open(ctx, cfg.Weights)
	if err != nil {
		return st, err
	}
	defer wstore.Close()
	out, err := store.Open(ctx, cfg.Out)
	if err != nil {
		return st, err
	}
	defer out.Close()
	work := cfg.Work
	if work == "" {
		if work, err = os.MkdirTemp("", "gridgym-actor-"); err != nil {
			return st, err
		}
		defer os.RemoveAll(work)
	}
	tok := token()
	stallAt, stall := 0, time.Duration(0)
	if n, d, ok := strings.Cut(os.Getenv(stallEnv), ":"); ok {
		stallAt, _ = strconv.Atoi(n)
		stall, _ = time.ParseDuration(d)
	}
	uploads, failures := 0, 0
	version, weights := -1, ""
	for round := 1; ; round++ {
		if ctx.Err() != nil || (cfg.Steps > 0 && st.Steps >= cfg.Steps) {
			break
		}
		// The newest policy. Reading it can fail for a while (a network
		// blip; a store that serves the pointer while it is being
		// overwritten, as s3rver does): keep the current policy and try
		// again next round, and give up only after maxReadFailures in a
		// row.
		p, ok, err := wstore.Latest(ctx)
		var b []byte
		if err == nil && ok && p.Version != version {
			b, err = wstore.FetchWeights(ctx, p)
		}
		if err != nil {
			if ctx.Err() != nil {
				break // stopped while reading: a clean stop, not an error
			}
			if failures++; failures >= maxReadFailures {
				return st, err
			}
			logf("actor %s: %v (try %d of %d)", cfg.ID, err, failures, maxReadFailures)
			ok = false
		} else {
			failures = 0
		}
		if !ok {
			if version < 0 {
				if err == nil {
					logf("actor %s: waiting for weights at %s", cfg.ID, store.Redact(cfg.Weights))
				}
				select {
				case <-ctx.Done():
				case <-time.After(cfg.Poll):
				}
				round--
				continue
			}
		} else if b != nil {
			path := filepath.Join(work, fmt.Sprintf("v%06d.safetensors", p.Version))
			if err := os.WriteFile(path, b, 0o644); err != nil {
				return st, err
			}
			if weights != "" {
				os.Remove(weights)
			}
			version, weights = p.Version, path
			st.Versions = append(st.Versions, version)
			logf("actor %s: policy v%06d", cfg.ID, version)
		}
		// One round of self-play.
		dir := filepath.Join(work, fmt.Sprintf("round-%06d", round))
		steps := cfg.RoundSteps
		if cfg.Steps > 0 {
			steps = min(steps, cfg.Steps-st.Steps)
		}
		// Whole episodes only: every env must be able to finish one.
		lineup := append([]string{SamplePrefix + weights}, cfg.Opponents...)
		envs := max(1, cfg.Envs)
		t1 := time.Now()
		ps, err := selfplay.Run(ctx, selfplay.Config{
			Game: cfg.Game, Agents: lineup, Envs: envs, Steps: steps, Seed: cfg.Seed + uint64(round)*0x9e3779b9,
			Workers: cfg.Workers, Reward: cfg.Reward, Out: dir, MaxEpisode: cfg.MaxEpisode,
		})
		st.PlaySeconds += time.Since(t1).Seconds()
		if err != nil {
			return st, fmt.Errorf("actor %s: %w", cfg.ID, err)
		}
		st.Rounds++
		st.Steps += ps.Steps
		// Upload the round's complete shards; each appears in one step.
		files, err := datasets.Files(dir)
		if err != nil {
			return st, err
		}
		t2 := time.Now()
		for _, f := range files {
			key := ShardKey(version, cfg.ID, tok, round, filepath.Base(f))
			fi, _ := os.Stat(f)
			if uploads++; stall > 0 && uploads == stallAt {
				err = stalledPut(ctx, out, key, f, stall, logf)
			} else {
				// A cancelled context must not stop the upload of a
				// finished shard: give it its own bounded context.
				uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
				err = out.PutFile(uctx, key, f)
				cancel()
			}
			if err != nil {
				return st, err
			}
			st.Shards++
			st.Bytes += fi.Size()
			os.Remove(f)
		}
		st.UploadSeconds += time.Since(t2).Seconds()
		st.Rows += ps.Rows
		os.RemoveAll(dir)
		logf("actor %s: round %d with v%06d: %d steps, %d rows, %d shards uploaded (%.0f steps/s)",
			cfg.ID, round, version, ps.Steps, ps.Rows, len(files), float64(ps.Steps)/max(ps.Elapsed.Seconds(), 1e-9))
	}
	st.Elapsed = time.Since(t0)
	st.LastVersionSeen = version
	return st, nil
}

// stalledPut is PutFile that stops half-way for d (the test hook).
func stalledPut(ctx context.Context, s *store.Store, key, path string, d time.Duration, logf func(string, ...any)) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return s.PutStream(ctx, key, func(w io.Writer) error {
		if _, err := w.Write(b[:len(b)/2]); err != nil {
			return err
		}
		fmt.Fprintf(os.Stdout, "upload-stall %s\n", key)
		logf("actor: upload of %s stalled for %s (test hook)", key, d)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
		_, err := w.Write(b[len(b)/2:])
		return err
	})
}
