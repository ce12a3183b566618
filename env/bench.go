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
