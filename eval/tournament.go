package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/stats"
)

// Config describes a tournament.
type Config struct {
	Game    rules.Config // the game and its parameters
	Bots    []string     // bot names (agents registry); a name may repeat
	Games   int          // number of games to play
	Seed    uint64       // master seed: game i uses streams derived from (Seed, i)
	Workers int          // parallel games; 0 = GOMAXPROCS
	// AllOrders seats the bots in every order (agents.Orders), not only in
	// Lineups' rotations, so that in a sequential game every bot moves
	// after every other equally often.
	AllOrders bool
	// Progress, if set, is called after each finished game with the number done.
	Progress func(done int)
	// Replays saves the first Replays games (index < Replays) as replay files
	// (ReplayFormat: moves and seeds) ReplayDir/replay-NNNN.jsonl, NNNN the game index; the
	// other games record nothing. ReplayDir is created if missing.
	Replays   int
	ReplayDir string
	// Recorded marks a Result rebuilt from games.jsonl records
	// (FromRecords): the games' seatings are whatever the records hold.
	Recorded bool
}

// GameResult is the outcome of one tournament game.
type GameResult struct {
	Index   int
	Lineup  []int // Lineup[seat] = index into Config.Bots
	Steps   int
	Outcome *rules.Outcome
	Errors  []int // per seat: moves the bot did not answer (a panic; a hosted bot's crash, time-out or garbage)
	// Search is, per seat, a search bot's work (agents.Searcher); nil when
	// no seat searched.
	Search []SearchCount
	// Answers is, per seat, the bot's answer times in this process; nil in
	// a result read back from games.jsonl, which does not keep them (they
	// differ from run to run).
	Answers []AnswerTimes `json:"-"`
	// Digest hashes every move of the game in order (MoveDigest), so that
	// two games with the same digest played the same moves: sampled play
	// makes games differ that end with the same steps and scores. 0 in a
	// result read back from games.jsonl, which does not keep it.
	Digest uint64 `json:"-"`
}

// MoveDigest folds seat's move m into the digest d of a game's moves.
func MoveDigest(d uint64, seat int, m rules.Move) uint64 {
	h := uint64(m.Kind)<<8 | uint64(m.N) | uint64(seat+1)<<16
	for _, a := range m.Arg[:min(int(m.N), len(m.Arg))] {
		h = rules.Mix64(h ^ uint64(uint16(a)))
	}
	return rules.Mix64(d ^ h)
}

// SearchCount is a search bot's work in some games (agents.Searcher).
type SearchCount struct {
	Searched    int `json:"searched"`    // moves searched
	Departed    int `json:"departed"`    // of them, moves other than its prior bot's
	Simulations int `json:"simulations"` // simulations run
}

func (c *SearchCount) add(d SearchCount) {
	c.Searched += d.Searched
	c.Departed += d.Departed
	c.Simulations += d.Simulations
}

// BotStats aggregates one bot's results over its games.
type BotStats struct {
	Name       string
	Games      int         // seats played (a bot listed twice in a lineup counts twice)
	Score      float64     // the game's tournament score (Spec.Tournament)
	MeanScore  float64     // mean per-game score
	ScoreCI    float64     // half-width of the 95% normal interval of MeanScore
	MeanPoints float64     // mean placement points
	PointsCI   float64     // half-width of the 95% interval of MeanPoints
	WinShare   float64     // mean win share
	Ranks      []int       // Ranks[k] = games finished at rank k+1 (ties share the better rank)
	Errors     int         // bot errors (panics) counted as passes
	Search     SearchCount // a search bot's work summed over its games (zero for other bots)
	Answers    AnswerTimes // its answer times over its games (none in a result read back from games.jsonl)
	scores     []float64   // per-game scores
	points     []float64
}

// Result is a finished tournament.
type Result struct {
	Spec   rules.Spec
	Config Config
	Games  []GameResult
	Bots   []BotStats // one entry per distinct bot name, in first-listed order
	// Replays are the replay files written (Config.Replays), in game order.
	Replays []string
}

// MaxGames and MaxWorkers bound Config.Games and Config.Workers: every
// game's result stays in memory until the tournament ends (a few KB each,
// for the table, the ratings and games.jsonl), and each worker holds its
// own game. More games than MaxGames are played as several tournaments
// with other seeds, pooled by 'gridgym rate'.
const (
	MaxGames   = 1_000_000
	MaxWorkers = 4096
)

// Run plays the tournament. It stops early, with the games finished so far,
// when ctx is cancelled. A replay file that cannot be written does not stop
// the tournament: Run finishes it and returns the first such error (joined
// with ctx's) along with the result.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if len(cfg.Bots) == 0 {
		return nil, errors.New("tournament: no bots")
	}
	if cfg.Games < 1 || cfg.Games > MaxGames {
		return nil, fmt.Errorf("tournament: games = %d, want 1..%d", cfg.Games, MaxGames)
	}
	if cfg.Workers > MaxWorkers {
		return nil, fmt.Errorf("tournament: workers = %d, want at most %d", cfg.Workers, MaxWorkers)
	}
	if cfg.Replays < 0 {
		return nil, fmt.Errorf("tournament: replays = %d, want ≥ 0", cfg.Replays)
	}
	if cfg.Replays > 0 {
		if cfg.ReplayDir == "" {
			return nil, errors.New("tournament: replays asked for without a replay folder")
		}
		if err := os.MkdirAll(cfg.ReplayDir, 0o755); err != nil {
			return nil, fmt.Errorf("tournament: replays: %w", err)
		}
	}
	g := cfg.Game.Game()
	entries := make([]agents.Entry, len(cfg.Bots))
	for i, name := range cfg.Bots {
		e, err := agents.Lookup(g.Name, name)
		if err != nil {
			return nil, err
		}
		entries[i] = e
	}
	// Tables, reports and replays name each bot by its label (agents.Labels:
	// LABEL=SPEC's label, paths made short).
	labels, err := agents.Labels(cfg.Bots)
	if err != nil {
		return nil, fmt.Errorf("tournament: %w", err)
	}
	cfg.Bots = labels
	spec := *g.New(cfg.Game).Spec()
	lineups := Seatings(cfg, spec.Seats)
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Games)
	// Each worker plays its games one after another on its own env.Vec.
	vecs := make([]*env.Vec, workers)
	for w := range vecs {
		v, err := newGameVec(cfg.Game)
		if err != nil {
			for _, v := range vecs[:w] {
				v.Close()
			}
			return nil, fmt.Errorf("tournament: %w", err)
		}
		vecs[w] = v
	}
	// Results are kept as games finish (memory grows with the games
	// played, not with the games asked for), put in game order at the end.
	var results []GameResult
	replays := make([]string, min(cfg.Replays, cfg.Games))
	var replayErr error
	jobs := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for _, v := range vecs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer v.Close()
			for i := range jobs {
				// Only the recorded games pay for recording.
				rec := i < len(replays)
				var moves [][]rules.Move
				var final uint64
				var onMoves func(rules.State, []rules.Move)
				if rec {
					onMoves = func(st rules.State, ms []rules.Move) {
						if ms != nil {
							moves = append(moves, append([]rules.Move(nil), ms...))
						} else {
							final, _ = rules.Hash(st, nil)
						}
					}
				}
				r := play(v, entries, lineups[i%len(lineups)], cfg.Seed, uint64(i), nil, onMoves)
				r.Index = i
				var path string
				var err error
				if rec {
					path = replayPath(cfg.ReplayDir, i)
					err = SaveReplay(path, gameReplay(cfg, r, moves, final))
				}
				mu.Lock()
				if rec {
					if err == nil {
						replays[i] = path
					} else if replayErr == nil {
						replayErr = fmt.Errorf("tournament: %w", err)
					}
				}
				results = append(results, r)
				done++
				if cfg.Progress != nil {
					cfg.Progress(done)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := 0; i < cfg.Games; i++ {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	slices.SortFunc(results, func(a, b GameResult) int { return cmp.Compare(a.Index, b.Index) })
	res := &Result{Spec: spec, Config: cfg, Games: results}
	for _, p := range replays {
		if p != "" {
			res.Replays = append(res.Replays, p)
		}
	}
	res.Bots = aggregate(spec, cfg.Bots, res.Games)
	return res, errors.Join(ctx.Err(), replayErr)
}

// gameReplay makes the replay of tournament game r from its moves and the
// hash of its final position.
func gameReplay(cfg Config, r GameResult, moves [][]rules.Move, hash uint64) *Replay {
	bots := make([]string, len(r.Lineup))
	for s, bi := range r.Lineup {
		bots[s] = cfg.Bots[bi]
	}
	return &Replay{Config: cfg.Game, Bots: bots, Seed: cfg.Seed, Index: r.Index,
		Moves: moves, Hash: hash, Outcome: r.Outcome, Errors: r.Errors}
}

// PlayGame plays one game of cfg with entries seated by lineup. The game's
// random events use rules.GameStream(seed, index) and seat s's agent
// rules.SeatStream(seed, index, s), so a game can be replayed alone. onStep, if set, sees
// the position before the first step and after every step. The game is
// played on an env.Vec, so cfg's game must have an encoder, as every
// registered game has (rules.Register refuses a game without one); PlayGame
// panics otherwise.
func PlayGame(cfg rules.Config, entries []agents.Entry, lineup []int, seed, index uint64, onStep func(rules.State)) GameResult {
	return playGame(cfg, entries, lineup, seed, index, onStep, nil)
}

// playGame is PlayGame; onMoves, if set, sees every step's moves (one per
// seat, reused: copy them) with the position they are played from, and the
// final position with nil moves.
func playGame(cfg rules.Config, entries []agents.Entry, lineup []int, seed, index uint64, onStep func(rules.State), onMoves func(rules.State, []rules.Move)) GameResult {
	v, err := newGameVec(cfg)
	if err != nil {
		panic(fmt.Sprintf("eval: PlayGame: %v", err))
	}
	defer v.Close()
	return play(v, entries, lineup, seed, index, onStep, onMoves)
}

// newGameVec makes the env.Vec that games of cfg are played on, one after
// another: one env, neither observations nor masks (the bots answer with
// real moves), held at its final position for replays (Config.Hold), and
// truncated after Spec.MaxSteps+1 steps, as tournaments have always played
// (while Steps ≤ MaxSteps).
func newGameVec(cfg rules.Config) (*env.Vec, error) {
	g := cfg.Game()
	if g == nil {
		return nil, errors.New("no game configured")
	}
	return env.New(env.Config{Game: cfg, N: 1, Workers: 1, NoObs: true, NoMask: true, Hold: true, MaxSteps: g.New(cfg).Spec().MaxSteps + 1})
}

// play is playGame on v (newGameVec), which it restarts with the game's
// stream: a tournament's worker plays all its games on one Vec.
func play(v *env.Vec, entries []agents.Entry, lineup []int, seed, index uint64, onStep func(rules.State), onMoves func(rules.State, []rules.Move)) GameResult {
	v.ResetEnv(0, rules.GameStream(seed, index))
	st := v.State(0)
	bots := make([]agents.Agent, v.Seats)
	for s := range bots {
		bots[s] = entries[lineup[s]].New()
		bots[s].Reset(st, s, rules.SeatStream(seed, index, s))
		// Hosted bots (package agents/host) name the game in their bot log.
		if g, ok := bots[s].(interface{ SetGame(index uint64) }); ok {
			g.SetGame(index)
		}
	}
	moves := make([]rules.Move, v.Seats)
	res := GameResult{Lineup: lineup, Errors: make([]int, v.Seats), Answers: make([]AnswerTimes, v.Seats)}
	if onStep != nil {
		onStep(st)
	}
	for !st.Done() && !v.Truncated[0] {
		for s := range moves {
			moves[s] = rules.Move{}
			if v.Active[s] {
				var failed bool
				start := time.Now()
				moves[s], failed = agents.SafeAct(bots[s], st)
				res.Answers[s].Add(time.Since(start))
				if failed {
					res.Errors[s]++
				}
				v.SetMove(0, s, moves[s])
				res.Digest = MoveDigest(res.Digest, s, moves[s])
			}
		}
		if onMoves != nil {
			onMoves(st, moves)
		}
		v.StepMoves()
		res.Steps++
		if onStep != nil {
			onStep(st)
		}
	}
	if onMoves != nil {
		onMoves(st, nil)
	}
	res.Outcome = rules.NewOutcome(v.Seats)
	st.Outcome(res.Outcome)
	for s, b := range bots {
		// Hosted bots (package agents/host) count the moves they did not
		// answer (crash, time-out, garbage: played as the rules' no-answer)
		// and hold a process until closed.
		if n, ok := b.(interface{ NoAnswers() int }); ok {
			res.Errors[s] += n.NoAnswers()
		}
		if sr, ok := b.(agents.Searcher); ok {
			if res.Search == nil {
				res.Search = make([]SearchCount, v.Seats)
			}
			c := &res.Search[s]
			c.Searched, c.Departed, c.Simulations = sr.SearchCounts()
		}
		if c, ok := b.(io.Closer); ok {
			c.Close()
		}
	}
	return res
}

func aggregate(spec rules.Spec, names []string, games []GameResult) []BotStats {
	var out []BotStats
	index := map[string]int{}
	for _, n := range names {
		if _, ok := index[n]; !ok {
			index[n] = len(out)
			out = append(out, BotStats{Name: n, Ranks: make([]int, spec.Seats)})
		}
	}
	for _, g := range games {
		for s, bi := range g.Lineup {
			b := &out[index[names[bi]]]
			b.Games++
			b.scores = append(b.scores, g.Outcome.Score[s])
			b.points = append(b.points, g.Outcome.Points[s])
			b.WinShare += g.Outcome.Win[s]
			b.Errors += g.Errors[s]
			if g.Search != nil {
				b.Search.add(g.Search[s])
			}
			if g.Answers != nil {
				b.Answers.Merge(&g.Answers[s])
			}
			better := 0
			for t := range g.Lineup {
				if g.Outcome.Points[t] > g.Outcome.Points[s] {
					better++
				}
			}
			b.Ranks[better]++
		}
	}
	for i := range out {
		b := &out[i]
		if b.Games == 0 {
			continue
		}
		b.MeanScore, b.ScoreCI = stats.MeanCI(b.scores)
		b.MeanPoints, b.PointsCI = stats.MeanCI(b.points)
		b.WinShare /= float64(b.Games)
		switch spec.Tournament {
		case rules.SumScore:
			b.Score = b.MeanScore * float64(b.Games)
		case rules.MeanPoints:
			b.Score = b.MeanPoints
		default:
			b.Score = b.MeanScore
		}
	}
	return out
}

// Seatings are the seat assignments a tournament of cfg cycles through,
// game i taking seating i mod len: Lineups' rotations, or with AllOrders
// every order of them (agents.Orders).
func Seatings(cfg Config, seats int) [][]int {
	l := agents.Lineups(len(cfg.Bots), seats)
	if cfg.AllOrders {
		l = agents.Orders(l)
	}
	return l
}

// seatingWords says how a tournament seated its bots, for tables and reports.
func seatingWords(cfg Config) string {
	if cfg.Recorded {
		return "seats as recorded"
	}
	if cfg.AllOrders {
		return "seats in every order"
	}
	return "seats rotated"
}
