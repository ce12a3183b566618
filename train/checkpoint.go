package train

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gridgym/gridgym/agents/neural"
)

// A run folder:
//
//	config.yaml                 the run's full config
//	metrics.csv                 one row per iteration (Metrics)
//	losses.png, winrate.png     plots of metrics.csv
//	checkpoints/iter-NNNNNN/    weights.safetensors (the policy, with metadata),
//	                            optim.safetensors (Adam moments), state.json
//	pool/iter-NNNNNN.safetensors the opponent pool's snapshots
//	latest                      the newest complete checkpoint's folder name
//	best.safetensors            the policy of the best evaluation (the cloned policy, iteration 0, included)
//	bc.json                     with a warm start: the cloning figures (BCStats) and the
//	                            cloned policy's evaluation
//	bc-shards/                  the teacher's games the warm start cloned (unless bc.shards)
//
// A checkpoint is complete once "latest" names it: that file is written last,
// atomically, so an interrupted run resumes from the last complete one.

// runState is state.json: what a resume needs beside the tensors.
type runState struct {
	Iteration int     `json:"iteration"`
	Elapsed   float64 `json:"elapsed_s"`
	EnvSteps  int64   `json:"env_steps"`
	Pool      []int   `json:"pool"` // iterations of the pool's snapshots, oldest first
	Best      float64 `json:"best_eval_points"`
	// League is PFSP's record (opponents.pfsp): the learner's win share
	// against each opponent label.
	League map[string]float64 `json:"league,omitempty"`
	// ActingIteration, with ppo.overlap, is the iteration whose rollout
	// was being played ahead, with the policy acting.safetensors and the
	// pool snapshots of iterations ActingPool: a resume plays it again with
	// them (0: none).
	ActingIteration int   `json:"acting_iteration,omitempty"`
	ActingPool      []int `json:"acting_pool,omitempty"`
}

func (t *trainer) meta() map[string]string {
	params, _ := json.Marshal(t.cfg.Params)
	m := map[string]string{
		"params":  string(params),
		"seed":    fmt.Sprint(t.cfg.Seed),
		"run":     filepath.Base(t.opt.Dir),
		"created": time.Now().UTC().Format(time.RFC3339),
	}
	if p := t.cfg.Play; p.Stores() { // the config's play: section (issue 54)
		m[neural.PlayKey] = neural.EncodePlay(p.Neural())
	}
	return m
}

// create starts a new run folder.
func (t *trainer) create() error {
	dir := t.opt.Dir
	if _, err := os.Stat(filepath.Join(dir, "config.yaml")); err == nil {
		if _, err := os.Stat(filepath.Join(dir, "latest")); err == nil {
			return fmt.Errorf("run folder %s already holds a run: pass --resume to continue it, or choose another --out", dir)
		}
		// A run that stopped before its first checkpoint (killed, a full
		// disk) left nothing to resume: start it again here rather than
		// send the user between --resume and a new folder (issue 56).
		if t.opt.Log != nil {
			t.opt.Log("run folder %s holds a run that stopped before its first checkpoint: starting it again", dir)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "checkpoints"), 0o755); err != nil {
		return fmt.Errorf("create run folder: %w", err)
	}
	if err := neural.WriteFileAtomic(filepath.Join(dir, "config.yaml"), t.cfg.YAML()); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "metrics.csv"), []byte(metricsHeader()), 0o644)
}

// checkpointName is iteration it's checkpoint folder (neural.CheckpointName,
// which gridgym heldout --curve reads back).
func checkpointName(it int) string { return neural.CheckpointName(it) }

// checkpoint writes iteration it's weights, optimiser and run state, then
// points "latest" at them.
func (t *trainer) checkpoint(it int) error {
	dir := filepath.Join(t.opt.Dir, "checkpoints", checkpointName(it))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	meta := t.meta()
	meta["iteration"] = fmt.Sprint(it)
	if err := t.net.Save(filepath.Join(dir, "weights.safetensors"), meta); err != nil {
		return err
	}
	ob, err := neural.EncodeSafetensors(t.adam.tensors(t.net), nil)
	if err != nil {
		return err
	}
	if err := neural.WriteFileAtomic(filepath.Join(dir, "optim.safetensors"), ob); err != nil {
		return err
	}
	poolDir := filepath.Join(t.opt.Dir, "pool")
	if err := os.MkdirAll(poolDir, 0o755); err != nil {
		return err
	}
	if err := t.savePool(poolDir, t.pool, t.poolI); err != nil {
		return err
	}
	ahead, isAhead := t.aheadOf(it)
	if isAhead { // the pool of the rollout played ahead (ppo.overlap), for a resume
		if err := t.savePool(poolDir, ahead.nets, ahead.pool); err != nil {
			return err
		}
	}
	st := runState{Iteration: it, Elapsed: t.elapsed().Seconds(), EnvSteps: t.envSteps, Pool: t.poolI, Best: t.best, League: t.league.share}
	if isAhead {
		if err := ahead.net.Save(filepath.Join(dir, "acting.safetensors"), meta); err != nil {
			return err
		}
		st.ActingIteration, st.ActingPool = ahead.it, ahead.pool
	}
	if err := writeJSON(filepath.Join(dir, "state.json"), st); err != nil {
		return err
	}
	t.saved = it
	return neural.WriteFileAtomic(filepath.Join(t.opt.Dir, "latest"), []byte(checkpointName(it)+"\n"))
}

// savePool writes the pool snapshots nets of iterations its into dir,
// those not written yet.
func (t *trainer) savePool(dir string, nets []*neural.Net, its []int) error {
	for k, net := range nets {
		p := filepath.Join(dir, checkpointName(its[k])+".safetensors")
		if _, err := os.Stat(p); err == nil {
			continue
		}
		if err := net.Save(p, t.meta()); err != nil {
			return err
		}
	}
	return nil
}

// loadOptim restores the optimiser state of checkpoint folder cp
// (optim.safetensors: Adam's moments and step count), which must be for
// the trainer's network.
func (t *trainer) loadOptim(cp string) error {
	ts, err := OptimizerState(cp)
	if err == nil {
		err = t.adam.load(t.net, ts)
	}
	if err != nil {
		return fmt.Errorf("%s: optimizer state: %w", cp, err)
	}
	return nil
}

// OptimizerState reads checkpoint folder cp's optimiser state
// (optim.safetensors): Adam's first and second moments of each parameter
// ("m.NAME", "v.NAME") and its step count ("t", one value). A run resumes
// from it, a league round continues it (Options.InitOptim), and tools
// and tests read it to see how far a run's optimiser has gone.
func OptimizerState(cp string) ([]neural.Tensor, error) {
	b, err := os.ReadFile(filepath.Join(cp, "optim.safetensors"))
	if err != nil {
		return nil, err
	}
	ts, _, err := neural.DecodeSafetensors(b)
	return ts, err
}

func (t *trainer) latestWeights() string {
	b, err := os.ReadFile(filepath.Join(t.opt.Dir, "latest"))
	if err != nil {
		return ""
	}
	return filepath.Join(t.opt.Dir, "checkpoints", strings.TrimSpace(string(b)), "weights.safetensors")
}

// restore loads the latest checkpoint of the run folder and returns its
// iteration. The folder's config must equal the one given.
func (t *trainer) restore() (int, error) {
	dir := t.opt.Dir
	saved, err := LoadConfig(filepath.Join(dir, "config.yaml"))
	if err != nil {
		return 0, fmt.Errorf("resume %s: %w", dir, err)
	}
	if !saved.Equal(t.cfg) {
		return 0, fmt.Errorf("resume %s: the run was started with another config (see its config.yaml); resume with that config", dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, "latest"))
	if errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("resume %s: no complete checkpoint yet (the run stopped before checkpoint_every = %d iterations); run the same command without --resume: it starts again in this folder", dir, t.cfg.CheckpointEvery)
	} else if err != nil {
		return 0, fmt.Errorf("resume: %w", err)
	}
	cp := filepath.Join(dir, "checkpoints", strings.TrimSpace(string(b)))
	var st runState
	sb, err := os.ReadFile(filepath.Join(cp, "state.json"))
	if err == nil {
		err = json.Unmarshal(sb, &st)
	}
	if err != nil {
		return 0, fmt.Errorf("resume %s: state.json: %w", cp, err)
	}
	net, _, err := neural.Load(filepath.Join(cp, "weights.safetensors"))
	if err != nil {
		return 0, fmt.Errorf("resume: %w", err)
	}
	if net.Arch != t.net.Arch {
		return 0, fmt.Errorf("resume %s: checkpoint network %+v differs from the config's %+v", cp, net.Arch, t.net.Arch)
	}
	t.net.CopyFrom(net)
	if err := t.loadOptim(cp); err != nil {
		return 0, fmt.Errorf("resume: %w", err)
	}
	t.pool, t.poolI = nil, nil
	for _, it := range st.Pool {
		p, _, err := neural.Load(filepath.Join(dir, "pool", checkpointName(it)+".safetensors"))
		if err != nil {
			return 0, fmt.Errorf("resume: pool: %w", err)
		}
		t.pool = append(t.pool, p)
		t.poolI = append(t.poolI, it)
	}
	t.league.share = st.League
	if err := t.restoreActing(cp, st); err != nil {
		return 0, err
	}
	if t.usesClone() {
		if err := t.restoreClone(dir); err != nil {
			return 0, err
		}
	}
	t.elapsed0 = time.Duration(st.Elapsed * float64(time.Second))
	t.start = time.Now()
	t.envSteps = st.EnvSteps
	t.iterations, t.saved, t.best = st.Iteration, st.Iteration, st.Best
	if err := truncateMetrics(filepath.Join(dir, "metrics.csv"), st.Iteration); err != nil {
		return 0, err
	}
	return st.Iteration, nil
}

// restoreActing loads what a checkpoint of a run with ppo.overlap kept of
// the rollout it was playing ahead: its policy and its pool's snapshots.
func (t *trainer) restoreActing(cp string, st runState) error {
	if st.ActingIteration == 0 {
		return nil
	}
	net, _, err := neural.Load(filepath.Join(cp, "acting.safetensors"))
	if err != nil {
		return fmt.Errorf("resume: the policy of the rollout played ahead (ppo.overlap): %w", err)
	}
	t.acting = actingPolicy{net: net, it: st.ActingIteration, pool: st.ActingPool}
	for _, it := range st.ActingPool {
		p, _, err := neural.Load(filepath.Join(t.opt.Dir, "pool", checkpointName(it)+".safetensors"))
		if err != nil {
			return fmt.Errorf("resume: pool: %w", err)
		}
		t.acting.nets = append(t.acting.nets, p)
	}
	return nil
}

// snapshot keeps a copy of the network's parameters and the optimiser's
// state, for rollback.
func (t *trainer) snapshot() {
	sn := &t.snap
	copyAll := func(dst *[][]float32, src [][]float32) {
		if len(*dst) != len(src) {
			*dst = make([][]float32, len(src))
		}
		for i, v := range src {
			(*dst)[i] = append((*dst)[i][:0], v...)
		}
	}
	copyAll(&sn.values, t.net.Values)
	copyAll(&sn.m, t.adam.m)
	copyAll(&sn.v, t.adam.v)
	sn.t = t.adam.t
}

// rollback restores the network and optimiser saved by snapshot, in place
// (the training graph and the actors share the parameter slices).
func (t *trainer) rollback() {
	sn := &t.snap
	for i, v := range sn.values {
		copy(t.net.Values[i], v)
	}
	for i := range sn.m {
		copy(t.adam.m[i], sn.m[i])
		copy(t.adam.v[i], sn.v[i])
	}
	t.adam.t = sn.t
}

// paramSnapshot is what snapshot keeps.
type paramSnapshot struct {
	values, m, v [][]float32
	t            int
}

// restoreClone sets the frozen policy of ppo.kl_clone and opponents.clone
// on resume: Options.Anchor where given, else checkpoint 0 of the run in
// dir.
func (t *trainer) restoreClone(dir string) error {
	if t.opt.Anchor != nil {
		t.clone = t.opt.Anchor.Clone()
		return nil
	}
	p := filepath.Join(dir, "checkpoints", checkpointName(0), "weights.safetensors")
	c, _, err := neural.Load(p)
	if err != nil {
		return fmt.Errorf("resume: the cloned policy (ppo.kl_clone, opponents.clone) is checkpoint 0: %w", err)
	}
	t.clone = c
	return nil
}
