package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/internal/atomicfile"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/selfplay"
	"github.com/gridgym/gridgym/train/graph"
)

// errEnough stops reading shards once enough samples are in.
var errEnough = errors.New("enough samples")

// BCStats summarises a behaviour-cloning run.
type BCStats struct {
	Samples  int     // teacher decisions learned from
	Steps    int     // gradient steps
	Loss     float64 // last epoch's mean cross-entropy to the target (bcTargets): −log π(teacher action) without label smoothing
	Accuracy float64 // last epoch's share of samples whose greedy action is the teacher's (every head)
	// Entropy is the last epoch's mean policy entropy per head, in nats
	// (before each step), PPO's entropy metric on the teacher's decisions.
	Entropy float64
	Seconds float64
	Skipped int // corrupt shards skipped (datasets.ErrCorrupt), each logged
	// Stopped says cloning ended before its planned epochs: its deadline
	// passed or it was interrupted. The network keeps the steps taken.
	Stopped bool `json:",omitempty"`
	// Planned is the number of gradient steps bc.epochs asked for.
	Planned int `json:",omitempty"`
	// Dagger is the DAgger round whose clone this is (bc.dagger); 0: the
	// first clone, of the teacher's own games.
	Dagger int `json:",omitempty"`
}

// CloneConfig is behaviour cloning on its own: learn net to imitate Teacher's
// decisions in the shards at Shards.
type CloneConfig struct {
	Shards   string
	Teacher  string // agent name in the shards ("" = every agent)
	BC       BCConfig
	Augment  bool // random D4 frame per sample
	Seed     uint64
	Progress func(Progress)
	// Deadline, if not zero, ends cloning at the first gradient step
	// after it (Stopped in the result); so does ctx's end. Neither is an
	// error: the network keeps what it learned.
	Deadline time.Time
	// Log receives a line for each corrupt shard skipped (nil: the log
	// package's standard logger).
	Log func(format string, args ...any)
	// Game, if set, encodes the shards' positions with this config's
	// encoder instead of the shards' own (datasets.NewObserverAs: only
	// observation parameters may differ), as the run's network expects.
	Game *rules.Config
}

// Clone trains net by behaviour cloning (cross-entropy on the teacher's
// actions, plus value regression on the episode outcome from the teacher
// seat's view when ValueCoef > 0).
func Clone(ctx context.Context, net *neural.Net, cc CloneConfig) (BCStats, error) {
	t0 := time.Now()
	if err := cc.BC.checkLabelSmoothing(); err != nil {
		return BCStats{}, fmt.Errorf("behaviour cloning: %w", err)
	}
	files, err := datasets.Files(cc.Shards)
	if err != nil {
		return BCStats{}, fmt.Errorf("behaviour cloning: %w", err)
	}
	if len(files) == 0 {
		return BCStats{}, fmt.Errorf("behaviour cloning: no shards under %s", cc.Shards)
	}
	// Shards written by several workers hold their episodes in an order
	// that varies from run to run; reading up to 4·bc.samples and then
	// keeping the first bc.samples in episode-ID order (selfplay's IDs are
	// (env, n-th episode of the env)) makes the clone the same every run
	// whenever the shards hold fewer (the warm start's do).
	r := &bcReader{ctx: ctx, net: net, game: cc.Game, teacher: cc.Teacher, limit: 4 * cc.BC.Samples,
		pending: map[[2]uint64][]int{}, got: map[[2]uint64]float64{}}
	// With a deadline, reading takes at most a third of the time left, so
	// that gradient steps get the rest (a time-cut clone is not the same
	// every run, as no time-bounded run is).
	if !cc.Deadline.IsZero() {
		r.readEnd = t0.Add(time.Until(cc.Deadline) / 3)
	}
	skipped := 0
	skip := func(file string, err error) {
		skipped++
		logf := cc.Log
		if logf == nil {
			logf = log.Printf
		}
		logf("behaviour cloning: skipping corrupt shard %s: %v", file, err)
	}
	err = datasets.EachRowSkipping(cc.Shards, skip, r.row)
	if err != nil && !errors.Is(err, errEnough) {
		return BCStats{}, fmt.Errorf("behaviour cloning: %w", err)
	}
	if len(r.values) == 0 {
		return BCStats{}, fmt.Errorf("behaviour cloning: no decisions of %q in %s", cc.Teacher, cc.Shards)
	}
	drop := map[int]bool{} // the samples of episodes unfinished when time cut reading
	if r.cut {
		for _, is := range r.pending {
			for _, i := range is {
				drop[i] = true
			}
		}
	}
	obs := r.obs
	s, values := firstByEpisode(r.s, r.values, r.episodes, drop, cc.BC.Samples)
	var sym rules.Symmetric
	if cc.Augment {
		// The shards' own game config: a board of another size has
		// another encoder.
		sym, _ = obs.Encoder().(rules.Symmetric)
	}
	st, err := fit(ctx, net, s, values, sym, cc, t0)
	st.Skipped = skipped
	return st, err
}

// bcReader is Clone's reading of the shards: the teacher's decisions as
// samples, each with its value target, the seat's return from its row on.
type bcReader struct {
	ctx      context.Context
	net      *neural.Net
	game     *rules.Config // encode with this config (nil: the shards')
	teacher  string        // the agent whose rows are read ("" = every agent)
	limit    int           // read up to this many samples
	readEnd  time.Time     // stop reading then (zero: no deadline)
	s        graph.Samples
	values   []float32
	episodes []uint64              // episode ID of each sample
	pending  map[[2]uint64][]int   // (episode, seat) → sample indices awaiting the outcome
	npend    int                   // how many samples pending holds
	got      map[[2]uint64]float64 // (episode, seat) → rewards so far
	cut      bool                  // reading stopped for time (readEnd) or ctx
	obs      *datasets.Observer
	planes   []uint8
	scalars  []float32
}

// row reads one row of the shards (datasets.EachRow's callback); it
// returns errEnough to stop reading.
func (r *bcReader) row(meta datasets.Meta, row datasets.Row) error {
	if r.obs == nil {
		newObserver := datasets.NewObserver
		if r.game != nil {
			newObserver = func(m datasets.Meta) (*datasets.Observer, error) { return datasets.NewObserverAs(m, *r.game) }
		}
		o, err := newObserver(meta)
		if err != nil {
			return err
		}
		space := o.Space()
		r.obs = o
		if err := r.net.Arch.Fits(meta.Game, space); err != nil {
			return fmt.Errorf("shards of %s do not fit the network: %w", meta.Game, err)
		}
		r.s = graph.Samples{OS: space.ObsSize(), NS: space.Scalars, MW: space.MaskWords(), Heads: space.Heads}
		r.planes, r.scalars = make([]uint8, r.s.OS), make([]float32, r.s.NS)
	}
	// A sample's value target is the seat's return from its row on:
	// the rewards of its row and of the seat's later rows (the terminal
	// reward alone when the shards were played with rank rewards).
	key := [2]uint64{row.EpisodeID, uint64(row.Seat)}
	before := r.got[key]
	r.got[key] += float64(row.Reward)
	take := !((r.teacher != "" && row.Agent != r.teacher) || len(r.values) >= r.limit)
	if take {
		for _, a := range row.Action {
			if a < 0 {
				take = false // not the seat's turn, or a move outside the action space
			}
		}
	}
	if take {
		if err := r.obs.Observe(row, r.planes, r.scalars); err != nil {
			return err
		}
		r.pending[key] = append(r.pending[key], len(r.values))
		r.npend++
		r.episodes = append(r.episodes, row.EpisodeID)
		r.s.Planes = append(r.s.Planes, r.planes...)
		r.s.Scalars = append(r.s.Scalars, r.scalars...)
		r.s.Masks = append(r.s.Masks, row.Legal...)
		r.s.Actions = append(r.s.Actions, row.Action...)
		r.values = append(r.values, float32(before)) // the return so far; the episode's total replaces it below
	}
	if row.Done || row.Truncated {
		total := r.got[key]
		for _, i := range r.pending[key] {
			r.values[i] = float32(total - float64(r.values[i]))
		}
		r.npend -= len(r.pending[key])
		delete(r.pending, key)
		delete(r.got, key)
	}
	// Enough samples: stop once every episode read has finished (the
	// same clone every run). Out of time: stop now; the samples of
	// unfinished episodes, which have no return yet, are dropped (Clone).
	if len(r.values) >= r.limit && len(r.pending) == 0 {
		return errEnough
	}
	if len(r.values) > r.npend && (r.ctx.Err() != nil || !r.readEnd.IsZero() && time.Now().After(r.readEnd)) {
		r.cut = true
		return errEnough
	}
	return nil
}

// fit is behaviour cloning's gradient steps: cc.BC.Epochs passes over
// samples s in minibatches, each the cross-entropy to the targets bcTargets
// makes of the teacher's actions (plus, with a value weight, the squared
// error of the value to the sample's return in values), and an Adam step.
// Each sample is seen in a random frame of sym (nil: as stored; cc.Augment
// is Clone's). t0 is when cloning began (reading the shards), for Progress
// and Seconds.
func fit(ctx context.Context, net *neural.Net, s graph.Samples, values []float32, sym rules.Symmetric, cc CloneConfig, t0 time.Time) (BCStats, error) {
	eps := cc.BC.LabelSmoothing
	n := len(values)
	B := cc.BC.Minibatch
	gr, err := bcGraph(net, B, cc.BC.ValueCoef)
	if err != nil {
		return BCStats{}, err
	}
	opt := newAdam(net)
	rng := rules.CloneStream(cc.Seed)
	var syms []rules.D4
	if sym != nil {
		syms = sym.Symmetries()
	}
	st := BCStats{Samples: n}
	perm := make([]int, n)
	teacher := make([]int, B*net.Arch.Heads) // per head row of a minibatch, the teacher's action (−1: none)
	idx := make([]int, B)
	frames := make([]rules.D4, B)
	total := cc.BC.Epochs * max(1, (n+B-1)/B)
	st.Planned = total
	if cc.Progress != nil {
		cc.Progress(Progress{Phase: "bc", Done: 0, Of: total, Elapsed: time.Since(t0)})
	}
	lastReport := time.Now()
	stop := func() bool {
		return ctx.Err() != nil || (!cc.Deadline.IsZero() && time.Now().After(cc.Deadline))
	}
epochs:
	for e := 0; e < cc.BC.Epochs; e++ {
		for i := range perm {
			perm[i] = i
		}
		shuffle(perm, rng)
		var loss, entropy, correct, count float64
		for start := 0; start < n; start += B {
			if stop() {
				st.Stopped = true
				if count > 0 {
					st.Loss, st.Entropy, st.Accuracy = loss/count, entropy/count, correct/(count*float64(B))
				}
				break epochs
			}
			gr.Fill(s, idx, sym, bcMinibatch(idx, frames, perm[start:], n, syms, rng))
			bcTargets(gr.Onehot.Data().([]float32), gr.MaskBias.Data().([]float32), net.Arch.Actions, eps, teacher)
			ret := gr.Ret.Data().([]float32)
			for j, r := range idx {
				ret[j] = values[r]
			}
			if err := gr.Run(); err != nil {
				return st, fmt.Errorf("behaviour cloning step: %w", err)
			}
			grads, err := gr.Grads()
			if err != nil {
				return st, err
			}
			opt.step(net.Values, grads, cc.BC.LR, 1)
			st.Steps++
			loss += float64(gr.Read(gr.BCLoss)[0])
			entropy += float64(gr.Read(gr.Entropy)[0])
			count++
			correct += float64(bcCorrect(net.Arch, B, gr.Read(gr.Logits), gr.MaskBias.Data().([]float32), teacher))
			if cc.Progress != nil && (st.Steps%10 == 0 || time.Since(lastReport) > time.Second) {
				lastReport = time.Now()
				cc.Progress(Progress{Phase: "bc", Done: st.Steps, Of: total, Elapsed: time.Since(t0)})
			}
		}
		st.Loss, st.Entropy, st.Accuracy = loss/count, entropy/count, correct/(count*float64(B))
	}
	st.Seconds = time.Since(t0).Seconds()
	return st, nil
}

// bcGraph is behaviour cloning's training graph of net for minibatches
// of B: the cloning term and the value loss weighted by valueCoef, the
// policy-gradient term off (its clip range [0, 2] unused).
func bcGraph(net *neural.Net, B int, valueCoef float64) (*graph.Graph, error) {
	gr, err := newGraph(net, B)
	if err != nil {
		return nil, err
	}
	if err := gr.Coefficients(0, float32(valueCoef), 0, 1); err != nil {
		return nil, err
	}
	lo, hi := gr.Lo.Data().([]float32), gr.Hi.Data().([]float32)
	for i := range lo {
		lo[i], hi[i] = 0, 2
	}
	return gr, nil
}

// bcMinibatch writes into idx a minibatch's sample indices, the next of
// perm (this epoch's order of the n samples), past its end samples drawn
// with replacement, and, with symmetries syms, each sample's random frame
// into frames, which it returns (nil without: samples as stored).
func bcMinibatch(idx []int, frames []rules.D4, perm []int, n int, syms []rules.D4, rng *rules.RNG) []rules.D4 {
	for j := range idx {
		if j < len(perm) {
			idx[j] = perm[j]
		} else {
			idx[j] = rng.U(n)
		}
		if syms != nil {
			frames[j] = syms[rng.U(len(syms))]
		}
	}
	if syms == nil {
		return nil
	}
	return frames
}

// bcCorrect is how many of a minibatch's B samples the network's greedy
// actions (the logits' argmax over legal actions, mask bias mb) match the
// teacher's actions on every head.
func bcCorrect(a neural.Arch, B int, logits, mb []float32, teacher []int) int {
	correct := 0
	for j := 0; j < B; j++ {
		ok := true
		for h := 0; h < a.Heads; h++ {
			row := (j*a.Heads + h) * a.Actions
			best, bi := float32(0), -1
			for k := 0; k < a.Actions; k++ {
				if v := logits[row+k] + mb[row+k]; bi < 0 || v > best {
					best, bi = v, k
				}
			}
			if bi != teacher[j*a.Heads+h] {
				ok = false
			}
		}
		if ok {
			correct++
		}
	}
	return correct
}

// bcTargets turns the one-hot teacher actions that graph.Graph.Fill wrote into
// onehot ([rows][actions], rows = minibatch × heads) into behaviour
// cloning's targets in place, with label smoothing eps (bc.label_smoothing,
// 0 ≤ ε < 1) over each row's legal actions (mask bias 0; the illegal ones
// have graph.MaskedLogit, probability 0):
//
//	target_k = (1−ε)·[k = teacher] + ε/|legal|   k legal
//	target_k = 0                                  k illegal
//
// The graph's bc_loss (defineLoss), −mean over samples of Σ_heads Σ_k
// target_k·log π_k, is then the cross-entropy to the target, and its
// gradient by a row's logit k (policyGradOp: −(target_k − π_k·Σ target)
// over the minibatch size) is (π_k − target_k)/minibatch, as Σ target = 1.
// ε = 0 leaves onehot as it was (the one-hot teacher actions); so does a row
// without a teacher action or without a legal action. teacher receives
// each row's teacher action (−1: none), for the accuracy.
func bcTargets(onehot, maskBias []float32, actions int, eps float64, teacher []int) {
	for r := range teacher {
		oh, mb := onehot[r*actions:(r+1)*actions], maskBias[r*actions:(r+1)*actions]
		teacher[r] = -1
		legal := 0
		for k, o := range oh {
			if o == 1 {
				teacher[r] = k
			}
			if mb[k] == 0 {
				legal++
			}
		}
		if eps == 0 || teacher[r] < 0 || legal == 0 {
			continue
		}
		for k := range oh {
			t := 0.0
			if k == teacher[r] {
				t = 1 - eps
			}
			if mb[k] == 0 {
				t += eps / float64(legal)
			}
			oh[k] = float32(t)
		}
	}
}

// firstByEpisode keeps the first limit samples (but those in drop) in the
// order of their episodes' IDs by (episode number within the env, env
// index), samples of one episode in the order read (a stable sort).
func firstByEpisode(s graph.Samples, values []float32, episodes []uint64, drop map[int]bool, limit int) (graph.Samples, []float32) {
	order := make([]int, 0, len(values))
	for i := range values {
		if !drop[i] {
			order = append(order, i)
		}
	}
	key := func(id uint64) uint64 { return id<<32 | id>>32 } // (played, env)
	sort.SliceStable(order, func(a, b int) bool { return key(episodes[order[a]]) < key(episodes[order[b]]) })
	order = order[:min(limit, len(order))]
	k := len(order)
	out := graph.Samples{OS: s.OS, NS: s.NS, MW: s.MW, Heads: s.Heads,
		Planes: make([]uint8, 0, k*s.OS), Scalars: make([]float32, 0, k*s.NS),
		Masks: make([]uint64, 0, k*s.MW), Actions: make([]int32, 0, k*s.Heads)}
	vals := make([]float32, 0, k)
	for _, i := range order {
		out.Planes = append(out.Planes, s.Planes[i*s.OS:(i+1)*s.OS]...)
		out.Scalars = append(out.Scalars, s.Scalars[i*s.NS:(i+1)*s.NS]...)
		out.Masks = append(out.Masks, s.Masks[i*s.MW:(i+1)*s.MW]...)
		out.Actions = append(out.Actions, s.Actions[i*s.Heads:(i+1)*s.Heads]...)
		vals = append(vals, values[i])
	}
	return out, vals
}

// warmStart plays the teacher into shards under the run folder (unless the
// config names shards) and clones it.
//
// With a time cap (minutes > 0 and bc.time_share > 0) playing ends at two
// fifths of the warm start's share of the run's time, keeping the episodes
// finished by then, and cloning ends at the whole share, keeping the steps
// taken; an interruption (ctx) ends either phase the same way. Neither is an
// error: the network is as far as it got. Only a warm start that finished no
// teacher episode at all leaves the network as initialised (t.bc.Samples 0).
func (t *trainer) warmStart(ctx context.Context) error {
	bc := t.cfg.BC
	deadlines := t.warmDeadlines(1 + bc.Dagger)
	shards := bc.Shards
	playEnd, cloneEnd := deadlines(0)
	if shards == "" {
		shards = filepath.Join(t.opt.Dir, "bc-shards")
		played, err := t.playTeacher(ctx, bc.Teacher, "bc-play", shards, t.cfg.Seed^rules.CloneSalt, bc.Samples, playEnd)
		if err != nil {
			return fmt.Errorf("behaviour cloning: play %s: %w", bc.Teacher, err)
		}
		if played.Episodes == 0 {
			why := "in its time (bc.time_share of minutes)"
			if ctx.Err() != nil {
				why = "before the interruption"
			}
			t.logf("behaviour cloning: %s finished no episode %s; the network starts as initialised", bc.Teacher, why)
			return nil
		}
	}
	st, err := t.cloneOn(ctx, shards, bc.Samples, cloneEnd)
	if err != nil {
		return err
	}
	t.bc = st
	if bc.Dagger > 0 && ctx.Err() == nil {
		return t.dagger(ctx, shards, deadlines)
	}
	return nil
}

// warmDeadlines splits the warm start's share of a capped run's time
// (bc.time_share of minutes) into phases equal slices, the first clone
// and each DAgger round: phase k plays until two fifths of its slice and
// fits until its end. Without a cap (or a share) every deadline is zero.
func (t *trainer) warmDeadlines(phases int) func(k int) (playEnd, fitEnd time.Time) {
	var slice time.Duration
	if t.cfg.Minutes > 0 && t.cfg.BC.TimeShare > 0 {
		slice = time.Duration(t.cfg.Minutes*t.cfg.BC.TimeShare*float64(time.Minute)) / time.Duration(phases)
	}
	return func(k int) (playEnd, fitEnd time.Time) {
		if slice == 0 {
			return playEnd, fitEnd
		}
		start := t.start.Add(slice * time.Duration(k))
		return start.Add(slice * 2 / 5), start.Add(slice)
	}
}

// playTeacher writes shards under out of the seat agent (a bot spec,
// LABEL=SPEC allowed) playing bc.opponents, enough games for samples of its
// decisions, until end (zero: no deadline) or ctx's end; phase names the
// progress reports.
func (t *trainer) playTeacher(ctx context.Context, agent, phase, out string, seed uint64, samples int, end time.Time) (selfplay.Stats, error) {
	bc := t.cfg.BC
	lineup := append([]string{agent}, bc.Opponents...)
	perStep := float64(t.v.Seats) / float64(len(lineup))
	if t.v.Spec.Sequential {
		perStep = 1 / float64(len(lineup))
	}
	longest, episode := t.v.Spec.MaxSteps, t.cfg.bcEpisodeSteps()
	if episode > 0 {
		longest = episode
	}
	envs, steps := teacherBudget(samples, perStep, t.v.Spec.MaxSteps, longest)
	mode, err := t.cfg.RewardMode()
	if err != nil {
		return selfplay.Stats{}, err
	}
	t0 := time.Now()
	if !end.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, end)
		defer cancel()
	}
	progress := func(s selfplay.Stats) {
		if t.opt.Progress != nil {
			t.opt.Progress(Progress{Phase: phase, Done: int(s.Steps), Of: int(steps), Elapsed: time.Since(t0)})
		}
	}
	progress(selfplay.Stats{})
	return selfplay.Run(ctx, selfplay.Config{
		Game: t.rcfg, Agents: lineup, Envs: envs, Steps: steps, Seed: seed,
		Workers: t.cfg.Workers, Reward: mode, Shaping: t.cfg.PPO.Shaping, Potential: t.cfg.PPO.Potential, Out: out, MaxEpisode: episode,
		Progress: progress,
	})
}

// cloneOn clones the network on the teacher's decisions in shards, at
// most samples of them, fitting until end (zero: no deadline).
func (t *trainer) cloneOn(ctx context.Context, shards string, samples int, end time.Time) (BCStats, error) {
	bc := t.cfg.BC
	bc.Samples = samples
	return Clone(ctx, t.net, CloneConfig{Shards: shards, Teacher: bc.Teacher, BC: bc, Augment: t.cfg.PPO.Augment, Game: &t.rcfg,
		Seed: t.cfg.Seed, Progress: t.opt.Progress, Deadline: end, Log: t.opt.Log})
}

// dagger is the warm start's DAgger rounds (bc.dagger; agents.Dagger): in
// round k the network as cloned so far plays the teacher's seat against
// bc.opponents for bc.samples more decisions, each labelled with the
// teacher's answer in the position the network reached, and the network
// is cloned again (from where it stands) on every decision so far. The
// network of round k is kept as dagger/round-K/player.safetensors, its
// games under dagger/round-K/shards; dagger/all links every round's shards
// (the first clone's too) for the clone to read. A clone learns only the
// positions its teacher reaches; where its first mistake leads elsewhere it
// was never told what to do. The rounds teach the recovery: in Rising Tide
// a clone of siege_sofia's own games lost by 187 rounds a game to a
// held-out bot, after four rounds it was level (reports/rising-tide/siege).
func (t *trainer) dagger(ctx context.Context, first string, deadlines func(int) (time.Time, time.Time)) error {
	bc := t.cfg.BC
	all := filepath.Join(t.opt.Dir, "dagger", "all")
	if err := linkShards(first, all, "round-0-"); err != nil {
		return err
	}
	for k := 1; k <= bc.Dagger && ctx.Err() == nil; k++ {
		dir := filepath.Join(t.opt.Dir, "dagger", fmt.Sprintf("round-%d", k))
		player := filepath.Join(dir, "player.safetensors")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := t.net.Save(player, t.meta()); err != nil {
			return fmt.Errorf("dagger round %d: %w", k, err)
		}
		playEnd, cloneEnd := deadlines(k)
		spec := bc.Teacher + "=" + agents.DaggerPrefix + bc.Teacher + ":" + player
		played, err := t.playTeacher(ctx, spec, "dagger-play", filepath.Join(dir, "shards"), t.cfg.Seed^rules.CloneSalt+uint64(k), bc.Samples, playEnd)
		if err != nil {
			return fmt.Errorf("dagger round %d: play: %w", k, err)
		}
		if played.Episodes == 0 {
			t.logf("dagger round %d: the clone finished no episode in its time; the warm start ends with round %d's clone", k, k-1)
			return nil
		}
		if err := linkShards(filepath.Join(dir, "shards"), all, fmt.Sprintf("round-%d-", k)); err != nil {
			return err
		}
		st, err := t.cloneOn(ctx, all, bc.Samples*(k+1), cloneEnd)
		if err != nil {
			return fmt.Errorf("dagger round %d: %w", k, err)
		}
		st.Dagger = k
		t.bc = st
	}
	return nil
}

// linkShards puts every shard of src (a shard file or folder) into folder
// dst under prefix+its name, as a hard link where the file system allows
// one, else a copy.
func linkShards(src, dst, prefix string) error {
	files, err := datasets.Files(src)
	if err != nil {
		return fmt.Errorf("dagger: %w", err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("dagger: %w", err)
	}
	for _, f := range files {
		to := filepath.Join(dst, prefix+filepath.Base(f))
		if err := os.Link(f, to); err == nil {
			continue
		}
		if err := copyShard(f, to); err != nil {
			return fmt.Errorf("dagger: %w", err)
		}
	}
	return nil
}

// copyShard copies the shard file from to to (atomically: a reader never
// sees part of it), streaming it rather than holding it in memory.
func copyShard(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	return atomicfile.Write(to, 0o644, func(w io.Writer) error { _, err := io.Copy(w, src); return err })
}

// teacherBudget is the self-play of the warm start's teacher: envs games at
// once and steps env steps in all, for samples teacher decisions at perStep
// decisions per env step (30% spare, plus a quarter of a capped game), in
// games of at most maxSteps steps whose episodes are cut at longest. Only
// whole episodes are written, so every env gets at least two of the longest
// episodes' worth of steps; games whose episodes can be long for the budget
// are played in fewer envs (at least 2, at most 32) rather than in more
// steps than the samples need (32 envs of 10,000-step Bovine Borders games
// were 15 times the steps of a 60,000-sample warm start).
func teacherBudget(samples int, perStep float64, maxSteps, longest int) (envs int, steps int64) {
	steps = int64(float64(samples)/perStep*1.3) + int64(maxSteps/4)
	per := 2 * int64(longest+1)
	n := min(max(steps/per, 2), 32)
	return int(n), max(steps, n*per)
}
