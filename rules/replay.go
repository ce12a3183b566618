package rules

// Recording is a game kept for replay: the seed of its Step generator, every
// step's moves, and the hash of its final position. Benchmarks replay
// recordings to time Step alone ("pre-drawn random legal actions").
type Recording struct {
	Seed  uint64
	Moves [][]Move
	Hash  uint64
}

// Mover fills moves (one per seat) for the current position of st.
type Mover func(st State, rng *RNG, moves []Move)

// RandomMover gives every active seat a uniformly random legal move.
func RandomMover(st State, rng *RNG, moves []Move) {
	for s := range moves {
		moves[s] = Move{}
		if st.Active(s) {
			moves[s] = st.RandomMove(s, rng)
		}
	}
}

// Record plays games games from st's start position with mover (nil: random
// moves), game i with Step seed 1000+i and move seed 2000+i.
func Record(st State, games int, mover Mover) []Recording {
	if mover == nil {
		mover = RandomMover
	}
	out := make([]Recording, games)
	for g := range out {
		r := &out[g]
		r.Seed = uint64(1000 + g)
		st.Reset()
		rng, moveRNG := NewRNG(r.Seed), NewRNG(uint64(2000+g))
		for !st.Done() {
			m := make([]Move, st.Spec().Seats)
			mover(st, moveRNG, m)
			r.Moves = append(r.Moves, m)
			st.Step(m, rng)
		}
		r.Hash, _ = Hash(st, nil)
	}
	return out
}

// Replay resets st and plays the recording on it with rng reseeded to the
// recorded seed; it returns st. Replaying allocates nothing.
func (r *Recording) Replay(st State, rng *RNG) State {
	st.Reset()
	rng.Seed(r.Seed)
	for _, m := range r.Moves {
		st.Step(m, rng)
	}
	return st
}
