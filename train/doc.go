// Package train trains a game's policy/value network (agents/neural): an
// optional behaviour-cloning warm start from a scripted teacher, then PPO
// self-play against a league of opponents, as CleanRL's ppo.py does it, on
// gorgonia graphs with the custom convolution op of conv3.go.
//
// One run (Run), everything set by Config (config.go; a game's train/default.yaml):
//
//	warm start (bc.go)       teacher plays → shards → Clone: cross-entropy on the
//	                         teacher's moves + value loss; checkpoint 0 = the clone,
//	                         evaluated, bc.json; bounded by bc.time_share of --minutes
//	        │
//	        ▼
//	┌─ iteration it (ppo.go: iteration) ─────────────────────────────────────────┐
//	│ collect   (ppo.go: collect, rollout.go)   env.Vec plays whole episodes: the   │
//	│           learner in one seat, the others drawn from the league (seatEpisode: │
//	│           itself, past snapshots, the clone, scripted bots; PFSP weights)     │
//	│           → buffer: observations, masks, actions, log-probs, values, rewards  │
//	│ advantages (rollout.go: gae, upgo)        GAE(γ, λ), or UPGO                  │
//	│ update    (update.go: learn, defineLoss)  epochs × minibatches of             │
//	│           pg_loss (clipped ratio) + value_coef·v_loss − entropy_coef·entropy  │
//	│           + kl_coef(it)·KL(π_clone‖π); value only during critic_warmup;        │
//	│           global-norm clip, Adam (adam.go)                                    │
//	│ evaluate  (evaluate.go)                   greedy policy vs eval.baselines;    │
//	│           the best so far → best.safetensors                                  │
//	│ checkpoint (checkpoint.go), metrics.csv row (metrics.go)                      │
//	└──────────────────────────────────────────────────────────────────────────────┘
//	        │ until iterations or --minutes; Ctrl-C stops after the iteration
//	        ▼
//	losses.png, winrate.png (metrics.go)
//
// The update reads top to bottom in update.go, as CleanRL's ppo.py's does:
// learn's epochs and minibatches, then defineLoss, every term of the loss
// and the hyperparameter that weighs it (PPOConfig's fields, each with its
// meaning and range). graph.go is the gorgonia plumbing: the network as a
// graph and its inputs (fill); exec.go runs that graph (forward and G.Grad's
// backward ops) with every result kept from run to run, so a train step
// allocates nothing; conv3.go's 3×3 convolutions are segmented products on
// zero-bordered images (sgemm.GemmSegs); shard.go splits each minibatch's
// pass over the workers (config workers) and sums the gradients.
// Learner mode (remote.go) runs the same
// update on shards that actors upload instead of collecting here.
//
// Expert Iteration (exit.go; config exit.*, off unless exit.expert names a
// search spec) replaces each iteration's collect and update: the search
// agent (package search) plays the learner's seat — with {net} in its spec
// standing for the current network, written to exit-expert.safetensors
// before the iteration's games — and the network learns the root's visit
// distributions (cross-entropy, exit.policy_coef, on the graph's KL target
// input) and the games' outcomes (exit.value_coef), starting from the clone
// of the warm start. Evaluation, checkpoints and metrics.csv rows are PPO's;
// docs/expert-iteration.md says which column holds what.
package train
