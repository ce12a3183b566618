package env

import (
	"time"

	"github.com/gridgym/gridgym/rules"
)

// Measurement is one throughput figure of Bench.
type Measurement struct {
	What    string  // what was measured
	N       int     // batch size (0 for raw rules)
	Workers int     // goroutines used
	Rate    float64 // steps per second (env steps: one per env per Step call)
	Steps   int64   // steps measured
}

// BenchRules times the raw rules: it records games random games and replays
// them with Step alone on one goroutine ("pre-drawn random legal actions")
// for at least d.
func BenchRules(cfg rules.Config, games int, d time.Duration) Measurement {
	st := cfg.Game().New(cfg)
	recs := rules.Record(st, games, nil)
	rng := rules.NewRNG(0)
	var steps int64
	start := time.Now()
	for i := 0; time.Since(start) < d; i++ {
		r := &recs[i%len(recs)]
		r.Replay(st, rng)
		steps += int64(len(r.Moves))
	}
	return Measurement{What: "rules Step, replayed random games", Workers: 1, Rate: float64(steps) / time.Since(start).Seconds(), Steps: steps}
}

// BenchVec times a batch of n envs with workers goroutines, stepping with
// uniformly random legal actions drawn from the masks inside the workers
// (StepRandom, sampling included in the time) for at least d.
func BenchVec(cfg rules.Config, n, workers int, noObs bool, d time.Duration) (Measurement, error) {
	v, err := New(Config{Game: cfg, N: n, Workers: workers, Seed: 1, NoObs: noObs})
	if err != nil {
		return Measurement{}, err
	}
	defer v.Close()
	for i := 0; i < 3; i++ { // warm up
		v.StepRandom()
	}
	var steps int64
	start := time.Now()
	for time.Since(start) < d {
		for k := 0; k < 8; k++ {
			v.StepRandom()
		}
		steps += 8 * int64(n)
	}
	what := "env Step: obs+masks+rewards, random legal actions"
	if noObs {
		what = "env Step: masks+rewards (NoObs), random legal actions"
	}
	return Measurement{What: what, N: n, Workers: v.workers, Rate: float64(steps) / time.Since(start).Seconds(), Steps: steps}, nil
}

// StepBytes is how many bytes one env step writes into the batch buffers for
// all seats: observation planes, scalars and mask words (obs false: masks
// only, as with Config.NoObs). Rewards and flags are left out.
func StepBytes(cfg rules.Config, obs bool) int {
	sp := cfg.Game().Encoder(cfg).Space()
	per := 8 * sp.MaskWords()
	if obs {
		per += sp.ObsSize() + 4*sp.Scalars
	}
	return cfg.Game().New(cfg).Spec().Seats * per
}

// BenchStores is the ceiling that memory puts on an env step: it clears a
// buffer of n·bytesPerStep bytes (the batch buffers of n envs) over and over
// with workers goroutines, each its share, at the speed of the runtime's
// memclr, and reports how many env steps per second that store rate allows
// if a step did nothing but write its bytes once. No env can step faster
// than this with the same buffers.
func BenchStores(n, bytesPerStep, workers int, d time.Duration) Measurement {
	if workers < 1 {
		workers = 1
	}
	buf := make([]byte, n*bytesPerStep)
	p := newPool(len(buf), workers)
	defer p.close()
	clearShare := func(lo, hi int) { clear(buf[lo:hi]) }
	p.run(clearShare) // touch every page once
	var rounds int64
	start := time.Now()
	for time.Since(start) < d {
		for k := 0; k < 8; k++ {
			p.run(clearShare)
		}
		rounds += 8
	}
	return Measurement{What: "ceiling: only storing the step's bytes (memclr)", N: n, Workers: workers,
		Rate: float64(rounds) * float64(n) / time.Since(start).Seconds(), Steps: rounds * int64(n)}
}
