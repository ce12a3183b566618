package train

import (
	"fmt"
	"math"
	"slices"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/stats"
)

// Evaluate plays games episodes of the greedy policy net against baselines:
// game k seats the policy at seat k mod seats (every seat equally often) and
// fills every other seat with a baseline drawn uniformly. It is the quick
// check a training run plots; `gridgym tournament` is the full evaluation.
func Evaluate(cfg rules.Config, net *neural.Net, baselines []string, games int, seed uint64, workers int) (EvalResult, error) {
	return evaluate(cfg, net, baselines, false, games, seed, workers, PlayConfig{})
}

// EvaluateLineup is Evaluate with the baselines themselves in the other
// seats, one each in their listed order after the policy's seat: the table
// `gridgym tournament` plays with the policy listed first (eval.lineup).
func EvaluateLineup(cfg rules.Config, net *neural.Net, baselines []string, games int, seed uint64, workers int) (EvalResult, error) {
	return evaluate(cfg, net, baselines, true, games, seed, workers, PlayConfig{})
}

// evaluate is Evaluate (lineup false) or EvaluateLineup (true) with the
// policy played by play: greedy at temperature 0, else sampling from
// softmax(logits/T) in the game's first play.Steps steps (every step at 0)
// and greedy after, as the neural agent plays a network whose weights store
// those settings: each draw a hash of the seed and the observation
// (neural.Draw, neural.ObsKey), the seed drawn per game from
// rules.EvalSeatStream of its seat. Fresh draws every step (as the rollouts
// sample) play another policy: over a Bovine Borders game's 10,000 rounds
// they eventually draw the rare move that ruins a position, where the
// hashed draw repeats its choice while the position stands; the shipped
// network scored 0.60 points a game against three copies of itself so
// (24 games), where the copies scored 1.80.
func evaluate(cfg rules.Config, net *neural.Net, baselines []string, lineup bool, games int, seed uint64, workers int, play PlayConfig) (EvalResult, error) {
	if games < 1 || len(baselines) == 0 {
		return EvalResult{}, fmt.Errorf("evaluate: %d games against %d baselines: want at least one of each", games, len(baselines))
	}
	entries, err := lookupBaselines(cfg.Game().Name, baselines)
	if err != nil {
		return EvalResult{}, err
	}
	n := min(games, 64)
	v, err := env.New(env.Config{Game: cfg, N: n, Seed: seed, Workers: workers})
	if err != nil {
		return EvalResult{}, fmt.Errorf("evaluate: %w", err)
	}
	defer v.Close()
	if workers <= 0 {
		workers = defaultWorkers()
	}
	pl := newPlayer(v, cfg, net, workers)
	pl.play, pl.drawSeed = play.Neural(), make([]uint64, n) // drawSeed: the policy's draws where it samples
	rng, seats := rules.NewRNG(seed), v.Seats
	policySeat, order := make([]int, n), make([]int, len(baselines))
	for b := range order {
		order[b] = b // the listed order first
	}
	active := make([]bool, n)
	started := 0
	seat := func(i int) {
		if lineup && started > 0 && started%seats == 0 {
			nextOrder(order)
		}
		policySeat[i] = started % seats
		if play.Temperature > 0 { // as neural.Agent.Reset seeds a seat with PerSeat
			pl.drawSeed[i] = neural.SeatSeed(0, policySeat[i]) ^ rules.EvalSeatStream(seed, started, policySeat[i]).Uint64()
		}
		for s := 0; s < seats; s++ {
			if s == policySeat[i] {
				pl.actors[i][s] = seatActor{kind: byLearner}
				continue
			}
			b := (s - policySeat[i] + seats - 1) % seats
			if !lineup || b >= len(baselines) {
				b = rng.U(len(baselines))
			} else {
				b = order[b]
			}
			pl.actors[i][s] = seatActor{kind: byScripted, bot: entries[b].New(), label: baselines[b]}
			pl.actors[i][s].bot.Reset(v.State(i), s, rules.EvalSeatStream(seed, started, s))
		}
		started++
		active[i] = true
	}
	v.Reset(seed)
	for i := 0; i < n; i++ {
		seat(i)
	}
	var res EvalResult
	var scores []float64
	res.BaselineScore = make(map[string]float64, len(baselines)) // sums until the end
	res.BaselineSeats = make(map[string]int, len(baselines))
	for running := n; running > 0; {
		pl.request(active, byLearner, -1, false, nil)
		pl.decide(net, play.Temperature == 0, nil, nil)
		pl.scripted(active)
		v.Step(pl.actions)
		for i := 0; i < n; i++ {
			if !active[i] || !(v.Terminated[i] || v.Truncated[i]) {
				continue
			}
			scores = res.add(v, i, policySeat[i], pl.actors[i], scores)
			if started < games {
				seat(i)
			} else {
				active[i] = false
				running--
			}
		}
	}
	res.summarise(scores)
	return res, nil
}

// lookupBaselines returns the registry entries of an evaluation's baselines.
func lookupBaselines(game string, baselines []string) ([]agents.Entry, error) {
	entries := make([]agents.Entry, len(baselines))
	for b, name := range baselines {
		e, err := agents.Lookup(game, name)
		if err != nil {
			return nil, fmt.Errorf("evaluate: baseline %q: %w", name, err)
		}
		entries[b] = e
	}
	return entries, nil
}

// nextOrder moves order to the next of its orders (lexicographically, by
// rules.NextPermutation), the first again after the last: the games of a
// lineup evaluation seat the baselines in a new order every seats games, so
// that the relative seatings (which baseline sits opposite the policy, which
// beside it) cycle through every order as `tournament --all-orders` does,
// not one of them.
func nextOrder(order []int) {
	if !rules.NextPermutation(order) {
		slices.Sort(order)
	}
}

// add counts env i's ended game, the policy in seat ps and the baselines
// in the seats of actors, into the sums of res, and returns scores with
// the policy's score appended.
func (res *EvalResult) add(v *env.Vec, i, ps int, actors []seatActor, scores []float64) []float64 {
	seats := v.Seats
	k := i*seats + ps
	res.Games++
	res.Win += v.FinalWin[k]
	res.Points += v.FinalPoints[k]
	scores = append(scores, v.FinalScore[k])
	for s, a := range actors {
		if a.kind == byScripted {
			res.BaselineScore[a.label] += v.FinalScore[i*seats+s]
			res.BaselineSeats[a.label]++
		}
	}
	if v.FinalWin[k] == 1 {
		res.First++
	}
	return scores
}

// summarise turns the sums of res into means, with their intervals, over
// its games, the policy's scores being scores.
func (res *EvalResult) summarise(scores []float64) {
	g := float64(res.Games)
	res.Win /= g
	res.Points /= g
	res.WinLo, res.WinHi = stats.Wilson(res.First, g)
	res.First /= g
	var half float64
	res.Score, half = stats.MeanCI(scores)
	res.Margin = math.Inf(1)
	for name, n := range res.BaselineSeats {
		res.BaselineScore[name] /= float64(n)
		res.Margin = min(res.Margin, res.Score-res.BaselineScore[name])
	}
	if len(res.BaselineSeats) == 0 {
		res.Margin = 0
	}
	if g > 1 {
		res.ScoreLo, res.ScoreHi = res.Score-half, res.Score+half
	}
}
