// Package env presents every registered game as a batched, Gym-style
// environment: N copies of a game with all their seats, stepped together with
// one action per (env, seat, head), in the manner of Gymnasium's vector API,
// PettingZoo's parallel API and EnvPool's preallocated batches.
//
// Buffers are structure-of-arrays, allocated once by New and written in place
// by Reset and Step; nothing is allocated per step. The batch is split over
// worker goroutines.
//
// Vec is gridgym's one game loop: training's rollouts and evaluations step it
// with decoded actions (Step), self-play (package selfplay) and tournaments
// (package eval) with their agents' real moves (SetMove, StepMoves, usually
// with NoObs), so episode ends, truncation, shaping and terminal rewards are
// computed here alone. Env i draws its random events from a stream of the
// seed scheme (rules/seeds.go): rules.EnvStream(Config.Seed, i), or the
// caller's own stream given to ResetEnv.
//
// Observations are the game encoder's planes (bytes, C×H×W per seat, in the
// seat's canonical frame) and scalar features; masks are bitsets (bit
// h·Actions+a = action a of head h is legal). Actions are in the canonical
// frame too; the encoder maps them to real moves.
//
// # Autoreset: same-step
//
// When an episode ends in Step, that call reports the final reward, sets
// Terminated (the game ended by its rules) or Truncated (Config.MaxSteps
// reached first), copies the final Outcome into FinalScore/FinalPoints/FinalWin
// and the episode length into FinalSteps, then resets that env at once: the
// observation, mask and Active flags returned are those of the new episode's
// first position. There is no extra "reset step" (Gymnasium's same-step mode,
// as EnvPool and most PPO implementations use it). With Config.Hold an env
// keeps its final position instead, until ResetEnv or Reset: tournaments read
// it (replays hash it).
//
// # Rewards
//
// By default (RewardRank) a seat's reward is zero until the episode ends, and
// then (points − (n−1)/2) / ((n−1)/2), in [−1, 1], from the game's placement
// points (seats ranked below + ½·ties): zero-sum in every game, and it rewards
// exactly what the competitions rank by. RewardScore gives instead
// (score − mean score) / ScoreScale, also zero-sum; RewardNone gives no
// terminal reward, for runs rewarded by the shaping alone. Shaping (optional, off by
// default) adds Shaping·(Φ(s′) − Φ(s)) every step for games whose encoder has a
// potential Φ; it is off by default because it changes what is optimal unless
// annealed away. Truncated episodes get no terminal reward (bootstrap instead).
package env
