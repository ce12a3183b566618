// Package league trains a game's network in a league, in the spirit of
// AlphaStar's (Vinyals et al. 2019): several learners of different roles
// train side by side against a growing pool of frozen players, so that
// the main agent learns to beat strategies rather than the few bots of a
// fixed opponent list (issue 54). It sits on top of train (every
// learner's training is a train.Run), eval (the payoff matches and the
// learning curve) and exploit (its margin).
//
// Players. The learners train every round: main agents (RoleMain) against
// a prioritised-fictitious-self-play (PFSP) mixture of the whole pool plus
// self-play; main exploiters (RoleMainExploiter) against their current
// main agent alone, reset to the initial network when they beat it
// (win share ≥ win_threshold) or after exploiter_budget rounds; league
// exploiters (RoleLeagueExploiter) against the whole pool with PFSP,
// frozen when they beat every opponent of their round and then reset with
// probability league_reset. The pool holds frozen players only: the
// initial network, the scripted bots of the base config's opponents
// (for a game's default config, the bots its default training meets), and
// a snapshot of every learner every snapshot_every rounds (and of an
// exploiter when it succeeds). Held-out bots (agents.HeldOut) never enter
// it: CheckNoHeldOut refuses the base config and every derived config
// that names one; they may be the learning curve's eval bots, which are
// only played against.
//
// A round (League.Step) reads as AlphaStar's loop:
//
//	for every learner:   opponents ← PFSP draws over the pool (or its main agent)
//	                     train.Run for `iterations` iterations from its weights
//	for every learner:   payoff matches against each opponent it met → payoff table
//	every K rounds:      freeze every learner into the pool
//	exploiters:          freeze on success; reset (main: on success or budget)
//	learning curve:      main agent vs each eval bot → curve.csv
//	commit:              league.json, atomically
//
// PFSP. A learner draws `draws` opponents from the pool with replacement,
// each with weight f(x) + 0.05, x its win share against it in the payoff
// table (½ before any match) and f AlphaStar's hard weighting (1 − x)²,
// which favours the opponents it loses to. The draws become the round's
// opponents.scripted list (train.OpponentConfig; a drawn network is a
// LABEL=weights-file bot spec, as exploit's target is), so an opponent
// drawn twice takes twice the games; a main agent's opponents.self is
// main_self. Train's own past snapshots, frozen clone, warm start, Expert
// Iteration and evaluations are off in a round: the league replaces them.
//
// Payoff. After training, every learner plays payoff_games games against
// each distinct opponent of its round (its new weights in one seat, the
// opponent in the others, seats rotated, eval.Run); the share of seat
// comparisons it won is added to Payoff[learner][opponent], earlier
// records weighed by payoff_decay, since a learner changes every round. A
// reset learner's records are forgotten.
//
// Files. The league folder holds league.json (State: settings, learners,
// pool, payoff table, round counter, learning curve), base.yaml (the base
// training config), initial.safetensors, pool/<member>.safetensors, and
// per learner <name>/weights-rNNNN.safetensors (its current weights),
// <name>/run-rNNNN/ (its last round's training run) and
// <name>/final.safetensors (its weights when the run ended; the main
// agent's, main/final.safetensors, is the league's product for
// tournament and export). league.json is written atomically after every
// round and every other file a round writes is named by the round, so a
// killed league resumes at the round it was playing and plays it again
// from the same inputs: the same seed and cores give the same league,
// straight through or resumed.
//
// Cores. With at least as many cores as learners, the learners train at
// once, each train.Run on its share of the cores (Shares); with fewer they
// train one after another on all of them. Matches use every core. Each
// round is a fresh train.Run started from the learner's weights and the
// optimiser state its last round ended with (train.Options.InitOptim;
// Learner.Optim names that checkpoint, and a reset forgets it), so a
// learner's rounds are one long run at a constant learning rate (ppo.lr);
// Settings.RestartOptimizer starts Adam's moments again each round, as
// leagues did before 2026-11-30.
package league
