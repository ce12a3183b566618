package rules

// The seed scheme: every generator of a run is Derive(seed, k) of the run's
// master seed, and the functions below name each stream a run uses, so that
// no package spells a salt or a key layout of its own. Each stream is fixed
// by (master seed, what it serves, index): the same seed gives the same
// games in env.Vec, self-play and tournaments on any machine, for any
// number of workers.
//
//	stream                     Derive's seed         Derive's key
//	EnvStream(seed, i)         seed                  i
//	EnvActionStream(seed, i)   ^seed                 i
//	SelfplayAgentStream        seed ^ AgentSalt      env<<32 | episode<<3 | seat
//	GameStream(seed, i)        seed                  2i
//	SeatStream(seed, i, s)     seed ^ (s+1)·Golden   2i+1
//	InitStream(seed)           seed                  0x1417
//	CloneStream(seed)          seed                  0xbc (CloneSalt)
//	IterationStream(seed,it,p) seed                  it<<8 | p
//	EvalSeed(seed, it)         a seed: seed ^ it·Golden
//	EvalSeatStream(seed,g,s)   seed                  g<<4 | s

// Golden is 2⁶⁴/φ, the increment of SplitMix64 (Derive's mixer): an odd
// constant whose multiples spread small integers over all 64 bits. Seeds
// are salted with its multiples where streams need distinct seed spaces.
const Golden uint64 = 0x9e3779b97f4a7c15

// AgentSalt is XORed into a self-play run's master seed for its agents'
// streams, so that they are independent of the envs' game streams.
const AgentSalt uint64 = 0x5eed5eed5eed5eed

// EnvStream is the stream of env i's random events (its game's chance) in
// env.Vec and self-play.
func EnvStream(seed uint64, i int) *RNG { return Derive(seed, uint64(i)) }

// EnvActionStream is the stream env.Vec's StepRandom samples env i's
// actions from.
func EnvActionStream(seed uint64, i int) *RNG { return Derive(^seed, uint64(i)) }

// SelfplayAgentStream is the stream of the agent in seat s of env's
// episode-th episode (counted from 0) in self-play.
func SelfplayAgentStream(seed uint64, env, episode, seat int) *RNG {
	return Derive(seed^AgentSalt, uint64(env)<<32|uint64(episode)<<3|uint64(seat))
}

// GameStream is the stream of the random events of a tournament's game
// index, so that a game can be replayed alone from (seed, index).
func GameStream(seed, index uint64) *RNG { return Derive(seed, 2*index) }

// SeatStream is the stream of the agent in seat s of a tournament's game
// index.
func SeatStream(seed, index uint64, seat int) *RNG {
	return Derive(seed^uint64(seat+1)*Golden, 2*index+1)
}

// The training run's streams (package train).

// CloneSalt is XORed into a training run's seed for the self-play of its
// behaviour-cloning teacher, and keys the cloning's own stream.
const CloneSalt uint64 = 0xbc

// InitStream is the stream a training run's network is initialised from.
func InitStream(seed uint64) *RNG { return Derive(seed, 0x1417) }

// CloneStream is the stream of behaviour cloning's minibatch order.
func CloneStream(seed uint64) *RNG { return Derive(seed, CloneSalt) }

// The phases of a training iteration that draw random numbers
// (IterationStream).
const (
	CollectPhase     = 1 // the rollout: seating, frames, sampled actions
	LearnPhase       = 2 // the update's minibatch order
	RemoteLearnPhase = 3 // the update of a learner fed by remote actors
)

// IterationStream is the stream of phase p of training iteration it.
func IterationStream(seed uint64, it, phase int) *RNG {
	return Derive(seed, uint64(it)<<8|uint64(phase))
}

// EvalSeed is the seed of the evaluation after training iteration it.
func EvalSeed(seed uint64, it int) uint64 { return seed ^ uint64(it)*Golden }

// EvalSeatStream is the stream of the baseline in seat s of an evaluation's
// game-th game.
func EvalSeatStream(seed uint64, game, seat int) *RNG {
	return Derive(seed, uint64(game)<<4|uint64(seat))
}
