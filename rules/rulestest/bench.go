package rulestest

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// Recording is a game kept for replay: the seed of its Step generator, every
// step's moves, and the hash of its final position.
type Recording struct {
	Seed  uint64
	Moves [][]rules.Move
	Hash  uint64
}

// Mover fills moves (one per seat) for the current position of st.
type Mover func(st rules.State, rng *rules.RNG, moves []rules.Move)

// RandomMover gives every active seat a uniformly random legal move.
func RandomMover(st rules.State, rng *rules.RNG, moves []rules.Move) {
	for s := range moves {
		moves[s] = rules.Move{}
		if st.Active(s) {
			moves[s] = st.RandomMove(s, rng)
		}
	}
}

// Record plays games games from st's start position with mover (nil: random
// moves), each with Step seed 1000+i and a separate move generator, so that
// BenchSteps can replay them with Step alone.
func Record(st rules.State, games int, mover Mover) []Recording {
	if mover == nil {
		mover = RandomMover
	}
	out := make([]Recording, games)
	for g := range out {
		r := &out[g]
		r.Seed = uint64(1000 + g)
		st.Reset()
		rng, moveRNG := rules.NewRNG(r.Seed), rules.NewRNG(uint64(2000+g))
		for !st.Done() {
			m := make([]rules.Move, st.Spec().Seats)
			mover(st, moveRNG, m)
			r.Moves = append(r.Moves, m)
			st.Step(m, rng)
		}
		r.Hash, _ = rules.Hash(st, nil)
	}
	return out
}

// BenchSteps measures Step alone by replaying recs (the "pre-drawn random
// legal actions" benchmark), after checking that each replay ends in the
// recorded position. It reports steps/s, a step being one Step call.
func BenchSteps(b *testing.B, st rules.State, recs []Recording) {
	rng := rules.NewRNG(0)
	for _, r := range recs {
		st.Reset()
		rng.Seed(r.Seed)
		for _, m := range r.Moves {
			st.Step(m, rng)
		}
		if h, _ := rules.Hash(st, nil); h != r.Hash {
			b.Fatalf("replay of seed %d ends in another position: Step is not deterministic", r.Seed)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; i++ {
		r := &recs[i%len(recs)]
		st.Reset()
		rng.Seed(r.Seed)
		for _, m := range r.Moves {
			st.Step(m, rng)
		}
		steps += len(r.Moves)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchGames plays whole random games (RandomMove for every active seat) and
// reports games/s and steps/game.
func BenchGames(b *testing.B, st rules.State) {
	rng := rules.NewRNG(1)
	moves := make([]rules.Move, st.Spec().Seats)
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; i++ {
		st.Reset()
		for !st.Done() {
			RandomMover(st, rng, moves)
			st.Step(moves, rng)
			steps++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(steps)/float64(b.N), "steps/game")
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}
