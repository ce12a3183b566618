package bovine

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// recorded is one random game: its seed and the moves of every round.
type recorded struct {
	seed  uint64
	moves [][Seats]rules.Move
	hash  uint64 // of the final position
}

// record plays a random game (RandomMove for every seat, from a generator of
// its own) and keeps its moves; Step's generator is seeded with seed, so a
// replay from seed is the same game without the cost of choosing.
func record(seed uint64) recorded {
	st := newState(false)
	rng, choose := rules.NewRNG(seed), rules.Derive(seed, 1)
	g := recorded{seed: seed}
	var m [Seats]rules.Move
	for !st.Done() {
		for seat := range m {
			m[seat] = st.RandomMove(seat, choose)
		}
		g.moves = append(g.moves, m)
		st.Step(m[:], rng)
	}
	g.hash, _ = rules.Hash(st, nil)
	return g
}

// BenchmarkStep replays recorded random games; one step is one Step call
// (one round of four seats).
func BenchmarkStep(b *testing.B) {
	games := []recorded{record(1), record(2), record(3)}
	st := newState(false)
	rng := rules.NewRNG(0)
	for _, g := range games { // the replay must be the recorded game
		st.Reset()
		rng.Seed(g.seed)
		for _, m := range g.moves {
			st.Step(m[:], rng)
		}
		if h, _ := rules.Hash(st, nil); h != g.hash {
			b.Fatalf("replay of seed %d ends in another position", g.seed)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; {
		g := games[i%len(games)]
		st.Reset()
		rng.Seed(g.seed)
		for _, m := range g.moves {
			st.Step(m[:], rng)
			steps++
		}
		i++
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkGame plays whole random games with RandomMove.
func BenchmarkGame(b *testing.B) {
	st := newState(false)
	rng := rules.NewRNG(0)
	var m [Seats]rules.Move
	b.ReportAllocs()
	rounds := 0
	for i := 0; i < b.N; i++ {
		st.Reset()
		rng.Seed(uint64(i))
		for !st.Done() {
			for seat := range m {
				m[seat] = st.RandomMove(seat, rng)
			}
			st.Step(m[:], rng)
			rounds++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(rounds)/float64(b.N), "rounds/game")
}
