// Package selfplay runs many games at once with a mix of agents and writes
// their trajectories as Arrow shards (package datasets): one row per (env
// step, seat) with the compact state, the seat's legal-action mask, its
// action in the game's action space, the real move, the reward and the agent.
//
// Envs are split over worker goroutines; each worker plays its envs on one
// env.Vec (the one game loop: its masks, shaping, terminal rewards and
// truncation are the rows'), its agents answering with real moves
// (Vec.SetMove). Env i of a run draws its random events from
// rules.EnvStream(Seed, i) and its k-th episode's agents from
// rules.SelfplayAgentStream, whichever worker plays it. Each env keeps the
// rows of its current episode and hands the episode to a single writer
// goroutine when it ends, so shards hold whole episodes only. When the requested number of env
// steps has been played, or the context is cancelled (SIGINT/SIGTERM in the
// CLI), the episodes still in progress are discarded and the open shard is
// finished and renamed: no torn file is ever left under a final name.
package selfplay
