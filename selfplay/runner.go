package selfplay

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
)

// Config describes a self-play run.
type Config struct {
	Game         rules.Config
	Agents       []string       // agent names; seats rotate through agents.Lineups per episode
	Envs         int            // games played at once
	Steps        int64          // env steps to play in all: each env plays ⌈Steps/Envs⌉
	Seed         uint64         // master seed: env i plays rules.EnvStream(Seed, i), its agents rules.SelfplayAgentStream
	Workers      int            // goroutines; 0 = GOMAXPROCS
	Reward       env.RewardMode // terminal reward written in the rows
	Shaping      float64        // adds Shaping·(Φ(s′) − Φ(s)) to each row's reward (the game's rules.Potential); 0 = off
	Potential    string         // the shaping potential by name (rules.PotentialOf); "" = the game's own
	Out          string         // output directory; "" = write nothing (measures self-play alone)
	RowsPerShard int            // shard roll-over; 0 = the datasets default
	MaxEpisode   int            // truncate episodes after this many steps; 0 (or less) = the game's own end
	Compression  string         // shard compression: "zstd" (default) or "lz4"
	// Progress, if set, is called about every 200 ms from the run's goroutine.
	Progress func(Stats)
}

// Stats counts a run's work.
type Stats struct {
	Steps    int64 // env steps played
	Rows     int64 // rows written (complete episodes only)
	Episodes int64 // episodes written
	Shards   int   // shards finished
	Bytes    int64 // bytes of finished shards
	Elapsed  time.Duration
}

// Run plays and writes until every env has played its ⌈Steps/Envs⌉ steps, or
// ctx is done. Cancellation is not an error: the finished episodes are kept.
// Each env's games depend only on (Seed, env index), so the set of episodes
// written is the same for any number of workers (their order in the shards
// may differ with more than one worker).
func Run(ctx context.Context, cfg Config) (Stats, error) {
	g := cfg.Game.Game()
	if g == nil || g.Encoder == nil {
		return Stats{}, errors.New("selfplay: game has no encoder")
	}
	if cfg.Envs < 1 || cfg.Steps < 1 || len(cfg.Agents) == 0 {
		return Stats{}, fmt.Errorf("selfplay: need ≥ 1 env, ≥ 1 step and ≥ 1 agent (got %d, %d, %d)", cfg.Envs, cfg.Steps, len(cfg.Agents))
	}
	entries := make([]agents.Entry, len(cfg.Agents))
	names := make([]string, len(cfg.Agents)) // as the rows name them: LABEL of LABEL=SPEC
	for i, name := range cfg.Agents {
		e, err := agents.Lookup(g.Name, name)
		if err != nil {
			return Stats{}, err
		}
		entries[i], names[i] = e, e.Name
	}
	enc := g.Encoder(cfg.Game)
	probe := g.New(cfg.Game)
	sp := enc.Space()
	meta := datasets.Meta{
		SchemaVersion: datasets.SchemaVersion,
		RunID:         fmt.Sprintf("%s-%d-%s", g.Name, cfg.Seed, time.Now().UTC().Format("20060102T150405")),
		Game:          g.Name,
		Params:        cfg.Game.String(),
		Seed:          cfg.Seed,
		Agents:        uniq(names),
		CodeVersion:   CodeVersion(),
		StateWords:    len(probe.AppendWords(nil)),
		MaskWords:     sp.MaskWords(),
		Heads:         sp.Heads,
		Reward:        rewardName(cfg),
		Created:       time.Now().UTC(),
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Envs)
	lineups := agents.Lineups(len(cfg.Agents), probe.Spec().Seats)
	free := make(chan *episodeBuf, 8*workers) // written episodes' buffers, back to the workers
	// Each worker's envs, made here so that a config the envs refuse is an
	// error of Run's; each worker closes its own.
	var ranges []*envRange
	closeRanges := func() {
		for _, r := range ranges {
			r.v.Close()
		}
	}
	for k := 0; k < workers; k++ {
		r, err := newRange(cfg, entries, lineups, k*cfg.Envs/workers, (k+1)*cfg.Envs/workers, free)
		if err != nil {
			closeRanges()
			return Stats{}, err
		}
		ranges = append(ranges, r)
	}
	var w *datasets.Writer
	if cfg.Out != "" {
		var err error
		w, err = datasets.NewWriter(cfg.Out, meta, datasets.WriterOptions{RowsPerShard: cfg.RowsPerShard, Compression: cfg.Compression})
		if err != nil {
			closeRanges()
			return Stats{}, err
		}
	}

	episodes := make(chan *episodeBuf, 4*workers)
	var steps, rows, eps atomic.Int64
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }

	var wg sync.WaitGroup
	for _, r := range ranges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer r.v.Close()
			r.run(ctx, stop, (cfg.Steps+int64(cfg.Envs)-1)/int64(cfg.Envs), &steps, episodes)
		}()
	}
	go func() { wg.Wait(); close(episodes) }()

	// The writer: this goroutine. It also reports progress.
	start := time.Now()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var werr error
	stats := func() Stats {
		s := Stats{Steps: steps.Load(), Rows: rows.Load(), Episodes: eps.Load(), Elapsed: time.Since(start)}
		if w != nil {
			ws := w.Stats()
			s.Shards, s.Bytes = ws.Shards, ws.Bytes
		}
		return s
	}
loop:
	for {
		select {
		case ep, ok := <-episodes:
			if !ok {
				break loop
			}
			if w != nil && werr == nil {
				if werr = w.WriteEpisode(ep.rows); werr != nil {
					halt()
					continue
				}
			}
			rows.Add(int64(len(ep.rows)))
			eps.Add(1)
			select { // the writer copied the rows: the buffer can hold another episode
			case free <- ep:
			default:
			}
		case <-tick.C:
			if cfg.Progress != nil {
				cfg.Progress(stats())
			}
		}
	}
	if w != nil {
		if werr != nil {
			w.Abort()
			return stats(), fmt.Errorf("selfplay: %w", werr)
		}
		if err := w.Close(); err != nil {
			return stats(), fmt.Errorf("selfplay: %w", err)
		}
	}
	s := stats()
	if cfg.Progress != nil {
		cfg.Progress(s)
	}
	return s, nil
}

// envRange is one worker's share of the envs, the run's envs lo..hi−1,
// played on one env.Vec: its env j is the run's env lo+j.
type envRange struct {
	cfg     Config
	v       *env.Vec
	enc     rules.Encoder
	entries []agents.Entry
	lineups [][]int
	envs    []*game // per env of v
	heads   int
	mw      int
	free    chan *episodeBuf // buffers the writer is done with
}

// episodeBuf is one episode's rows and the arrays their slices point into,
// one array per field (structure of arrays): rows[i] of step k has
// State = state[stateEnd[k−1]:stateEnd[k]] (from 0 for k = 0),
// Action = action[i·heads:(i+1)·heads] and Legal = legal[i·mw:(i+1)·mw]. The arrays grow while the episode is
// played and the rows' slices are bound when it is handed to the writer
// (bind); the writer copies the rows and gives the buffer back, so a run
// reaches a steady state in which no row allocates.
type episodeBuf struct {
	rows     []datasets.Row
	state    []uint64
	stateEnd []int // per step: the end of its words in state
	action   []int32
	legal    []uint64
}

// reset empties b, keeping its arrays.
func (b *episodeBuf) reset() {
	b.rows, b.state, b.stateEnd, b.action, b.legal = b.rows[:0], b.state[:0], b.stateEnd[:0], b.action[:0], b.legal[:0]
}

// bind points every row's slices into the arrays (which no longer grow).
func (b *episodeBuf) bind(seats, heads, mw int) {
	for i := range b.rows {
		k, lo := i/seats, 0
		if k > 0 {
			lo = b.stateEnd[k-1]
		}
		hi := b.stateEnd[k]
		r := &b.rows[i]
		r.State = b.state[lo:hi:hi]
		r.Action = b.action[i*heads : (i+1)*heads : (i+1)*heads]
		r.Legal = b.legal[i*mw : (i+1)*mw : (i+1)*mw]
	}
}

// grow extends s by n elements, reusing its capacity, and returns the
// longer slice and the n new elements.
func grow[T any](s []T, n int) ([]T, []T) {
	s = slices.Grow(s, n)[:len(s)+n]
	return s, s[len(s)-n:]
}

// game is one env's agents and the rows of its current episode.
type game struct {
	index   int // the env's index in the run
	bots    []agents.Agent
	names   []string
	episode uint64
	played  int         // episodes started
	buf     *episodeBuf // the current episode's rows
}

// newRange makes the envs lo..hi−1 of a run, each at the start of its first
// episode: env i draws its random events from rules.EnvStream(Seed, i)
// whichever worker plays it.
func newRange(cfg Config, entries []agents.Entry, lineups [][]int, lo, hi int, free chan *episodeBuf) (*envRange, error) {
	v, err := env.New(env.Config{Game: cfg.Game, N: hi - lo, Seed: cfg.Seed, Workers: 1, NoObs: true,
		Reward: cfg.Reward, Shaping: cfg.Shaping, Potential: cfg.Potential, MaxSteps: max(cfg.MaxEpisode, 0)})
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	r := &envRange{cfg: cfg, v: v, enc: v.Encoder(), entries: entries, lineups: lineups,
		heads: v.Space.Heads, mw: v.Space.MaskWords(), free: free}
	for j := range v.N {
		v.ResetEnv(j, rules.EnvStream(cfg.Seed, lo+j))
		e := &game{index: lo + j, bots: make([]agents.Agent, v.Seats), names: make([]string, v.Seats)}
		r.envs = append(r.envs, e)
		r.startEpisode(j, e)
	}
	return r, nil
}

// startEpisode seats the next lineup in env j, at the start of an episode:
// the run's env i plays its k-th episode with lineup (i + k) mod
// len(lineups) and episode id i·2³² + k.
func (r *envRange) startEpisode(j int, e *game) {
	if e.buf == nil {
		select {
		case e.buf = <-r.free:
		default:
			e.buf = new(episodeBuf)
		}
	}
	e.buf.reset()
	e.episode = uint64(e.index)<<32 | uint64(e.played)
	lineup := r.lineups[(e.index+e.played)%len(r.lineups)]
	st := r.v.State(j)
	for s := range e.bots {
		entry := r.entries[lineup[s]]
		e.bots[s] = entry.New()
		e.names[s] = entry.Name
		e.bots[s].Reset(st, s, rules.SelfplayAgentStream(r.cfg.Seed, e.index, e.played, s))
	}
	e.played++
}

// run plays budget steps of every env: the agents answer, the Vec steps
// them all, and each episode that ended goes to the writer and its env
// starts the next (the Vec has already reset it).
func (r *envRange) run(ctx context.Context, stop <-chan struct{}, budget int64, steps *atomic.Int64, out chan<- *episodeBuf) {
	for played := int64(0); played < budget; played++ {
		select {
		case <-ctx.Done():
			return
		case <-stop:
			return
		default:
		}
		for j, e := range r.envs {
			r.act(j, e)
		}
		r.v.StepMoves()
		for j, e := range r.envs {
			if done := r.record(j, e); !done {
				continue
			}
			e.buf.bind(r.v.Seats, r.heads, r.mw)
			select {
			case out <- e.buf:
			case <-ctx.Done():
				return
			case <-stop:
				return
			}
			e.buf = nil // handed over; the next episode takes a buffer the writer gave back
			r.startEpisode(j, e)
		}
		steps.Add(int64(len(r.envs)))
	}
}

// Budget reports the env steps a run of cfg plays: Envs·⌈Steps/Envs⌉.
func (cfg Config) Budget() int64 {
	return int64(cfg.Envs) * ((cfg.Steps + int64(cfg.Envs) - 1) / int64(cfg.Envs))
}

// act appends the rows of env j's position, the state before the step with
// each seat's mask, answer and its action, and gives the Vec the answers of
// the active seats.
func (r *envRange) act(j int, e *game) {
	v, st, b := r.v, r.v.State(j), e.buf
	b.state = st.AppendWords(b.state)
	b.stateEnd = append(b.stateEnd, len(b.state))
	for s := range v.Seats {
		k := j*v.Seats + s
		// The row's State, Action and Legal are bound at the episode's end
		// (episodeBuf.bind); its action and mask are written in place here.
		row := datasets.Row{EpisodeID: e.episode, Step: v.Steps[j], Seat: uint8(s), Agent: e.names[s]}
		var action []int32
		var legal []uint64
		b.action, action = grow(b.action, r.heads)
		b.legal, legal = grow(b.legal, r.mw)
		copy(legal, v.Mask[k*r.mw:(k+1)*r.mw])
		for h := range action {
			action[h] = -1
		}
		if v.Active[k] {
			m, _ := agents.SafeAct(e.bots[s], st)
			v.SetMove(j, s, m)
			row.Move = m
			if pr, ok := e.bots[s].(PolicyReporter); ok {
				row.LogP, row.Value, row.HasPolicy = pr.LastPolicy()
			}
			label := m
			if lb, ok := e.bots[s].(Labeler); ok {
				label = lb.Label()
			}
			if !r.enc.Encode(st, s, label, action) {
				for h := range action {
					action[h] = -1
				}
			}
		}
		b.rows = append(b.rows, row)
	}
}

// record writes the step's rewards and ends into env j's last rows (the
// Vec's: shaping, terminal reward, truncation at MaxEpisode); it reports
// whether the episode ended.
func (r *envRange) record(j int, e *game) bool {
	v := r.v
	rows := e.buf.rows[len(e.buf.rows)-v.Seats:]
	for s := range rows {
		rows[s].Reward = v.Reward[j*v.Seats+s]
		rows[s].Done, rows[s].Truncated = v.Terminated[j], v.Truncated[j]
	}
	return v.Terminated[j] || v.Truncated[j]
}

// rewardName is the shards' reward metadata: the terminal reward mode, and
// the shaping weight where there is one ("none+shaping 1").
func rewardName(cfg Config) string {
	if cfg.Shaping != 0 && cfg.Potential != "" {
		return fmt.Sprintf("%s+shaping %g %s", cfg.Reward, cfg.Shaping, cfg.Potential)
	}
	if cfg.Shaping != 0 {
		return fmt.Sprintf("%s+shaping %g", cfg.Reward, cfg.Shaping)
	}
	return cfg.Reward.String()
}

func uniq(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// CodeVersion identifies the writer: the module version, else the VCS
// revision, else "devel".
func CodeVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			return s.Value
		}
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	return "devel"
}
