// Package train is the learning algorithm that trains a game's
// policy/value network (agents/neural): an optional behaviour-cloning warm
// start from a scripted teacher, then PPO self-play against a league of
// opponents — or Expert Iteration — read top to bottom as CleanRL's ppo.py
// is. The network as a gorgonia graph, its executor and custom ops are
// package train/graph's: this package fills the graph's inputs, defines its
// loss (defineLoss) and takes the optimiser's steps.
//
// Every hyperparameter is a field of Config (config.go), each with its YAML
// name, one line of meaning and its range; a game's train/default.yaml sets
// them. update.go's table says which term of the loss each one weighs.
//
// Targets (ppo.target; rollout.go, vtrace.go):
//
//	GAE      generalised advantage estimation, GAE(γ, λ) (buffer.gae), the default
//	UPGO     upgoing policy update (AlphaStar): the return follows the
//	         trajectory only while it did better than its value (buffer.upgo)
//	V-trace  IMPALA's off-policy targets: the buffer scored again by the
//	         current network before every epoch (policyNow), truncated
//	         importance weights min(ρ̄, π/μ), min(c̄, π/μ), ρ̄ = c̄ = 1 (buffer.vtrace)
//
// Losses (update.go: defineLoss, one graph for all of them, each term
// weighed by an input set per step):
//
//	pg_loss   PPO's clipped surrogate, −mean min(ratio·A, clip(ratio, 1−ε, 1+ε)·A)
//	v_loss    mean (value − return)², weight ppo.value_coef
//	entropy   the bonus −ppo.entropy_coef·H(π) (raised by ppo.entropy_floor_coef
//	          after a minibatch below ppo.entropy_floor)
//	kl_loss   KL(π_clone ‖ π) towards the frozen clone, ppo.kl_clone annealed
//	          over ppo.kl_anneal (klCoef); in Expert Iteration the
//	          cross-entropy to the search's policy target, exit.policy_coef
//	bc_loss   behaviour cloning's cross-entropy to the teacher's move,
//	          label-smoothed by bc.label_smoothing (bcTargets), plus bc.value_coef·v_loss
//
// Schedules: the learning rate falls linearly from ppo.lr to
// ppo.lr·ppo.lr_final (trainer.lr); the KL weight to 0 over ppo.kl_anneal
// policy updates; ppo.critic_warmup iterations update the value alone
// (policy parameters frozen in Adam). Adam (adam.go) clips the global
// gradient norm at ppo.max_grad_norm.
//
// One run (Run), everything set by Config:
//
//	warm start (bc.go)       teacher plays → shards → Clone: bc_loss + value
//	                         loss; checkpoint 0 = the clone, evaluated,
//	                         bc.json; bounded by bc.time_share of --minutes
//	        │
//	        ▼
//	┌─ iteration it (ppo.go: iteration) ─────────────────────────────────────────┐
//	│ collect   (actors.go: play, rollout.go)   the actors' env.Vecs play whole     │
//	│           episodes: the learner in one seat, the others drawn from the league │
//	│           (seatEpisode: itself, past snapshots, the clone, scripted bots;     │
//	│           PFSP weights) → buffer: observations, masks, actions, log-probs,    │
//	│           values, rewards; one actor per worker with envs_per_worker, the     │
//	│           next iteration's rollout played during the update with ppo.overlap  │
//	│ advantages (rollout.go, vtrace.go)        GAE, UPGO or V-trace (above)        │
//	│ update    (update.go: learn, defineLoss)  epochs × minibatches of             │
//	│           c_pg·pg_loss + c_v·v_loss − c_ent·entropy + c_kl·kl_loss;           │
//	│           global-norm clip, Adam (adam.go); the minibatch split over the      │
//	│           workers (graph.Step)                                                 │
//	│ evaluate  (evaluate.go)                   greedy policy vs eval.baselines;    │
//	│           the best so far → best.safetensors                                  │
//	│ checkpoint (checkpoint.go), metrics.csv row (metrics.go)                      │
//	└──────────────────────────────────────────────────────────────────────────────┘
//	        │ until iterations or --minutes; Ctrl-C stops after the iteration
//	        ▼
//	losses.png, winrate.png (metrics.go)
//
// Acting (actors.go): with envs_per_worker every worker is an actor with
// its own games, batched inference and buffer, joined in actor order; with
// ppo.overlap the actors play iteration it+1's rollout with a frozen copy of
// the network from before iteration it's update while that update runs (one
// version stale: PPO's ratio, or V-trace, corrects for it). Both keep a run
// the same bits for a seed and a worker count, whatever the timing.
//
// Learner mode (remote.go: ShardLearner) runs the same update on shards
// that actors upload instead of collecting here.
//
// Expert Iteration (exit.go; config exit.*, off unless exit.expert names a
// search spec) replaces each iteration's collect and update: the search
// agent (package search) plays the learner's seat on env.Vec like every
// other game loop — with {net} in its spec standing for the current
// network, written to exit-expert.safetensors before the iteration's games
// — and the network learns the root's visit distributions (the
// cross-entropy on the graph's KL target input, exit.policy_coef) and the
// games' rank outcomes (env.TerminalReward; exit.value_coef), starting from
// the clone of the warm start. Evaluation, checkpoints and metrics.csv rows
// are PPO's; docs/expert-iteration.md says which column holds what.
//
// No function of this package is over 80 lines (TestFunctionsAreShort).
package train
