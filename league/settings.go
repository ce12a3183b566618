package league

import (
	"fmt"

	"github.com/gridgym/gridgym/exploit"
)

// Settings are a league's fixed choices, stored in league.json when it is
// created and kept on every resume. Every field has its meaning and range
// in its comment; Defaults gives AlphaStar's proportions at this
// project's scale.
type Settings struct {
	// Seed is the league's master seed: the initial network, every
	// round's PFSP draws, training runs and matches derive from it.
	Seed uint64 `json:"seed"`
	// Iterations are the PPO iterations each learner trains a round
	// (1..1e6).
	Iterations int `json:"iterations"`
	// MainAgents, MainExploiters and LeagueExploiters are the learners of
	// each role (1..8, 0..8, 0..8).
	MainAgents       int `json:"main_agents"`
	MainExploiters   int `json:"main_exploiters"`
	LeagueExploiters int `json:"league_exploiters"`
	// SnapshotEvery is the rounds between frozen snapshots of every
	// learner added to the pool (1..1e6).
	SnapshotEvery int `json:"snapshot_every"`
	// Draws is the PFSP draws from the pool that make a learner's
	// opponents for a round (1..64): each drawn opponent takes an equal
	// share of the round's games, so one drawn twice plays twice as often.
	Draws int `json:"draws"`
	// MainSelf is the share of a main agent's opponent seats that are
	// itself, learning from both sides (self-play; 0..0.9). AlphaStar's
	// main agents play 35% self-play.
	MainSelf float64 `json:"main_self"`
	// PayoffGames are the games of each payoff match, after every round,
	// between a learner and each distinct opponent it trained against
	// (1..10000).
	PayoffGames int `json:"payoff_games"`
	// PayoffDecay weighs a learner's earlier payoff records at each new
	// match (0..1): 1 keeps them all, 0 only the newest.
	PayoffDecay float64 `json:"payoff_decay"`
	// WinThreshold is the win share (0.5..1) at which an exploiter has
	// succeeded: a main exploiter against its main agent, a league
	// exploiter against every opponent of its round. It is then frozen
	// into the pool and (main exploiter: always; league exploiter: with
	// probability LeagueReset) reset to the initial network.
	WinThreshold float64 `json:"win_threshold"`
	// ExploiterBudget is the rounds after which a main exploiter that has
	// not succeeded is reset anyway (1..1e6).
	ExploiterBudget int `json:"exploiter_budget"`
	// LeagueReset is the probability a successful league exploiter is
	// reset (0..1); AlphaStar's 0.25.
	LeagueReset float64 `json:"league_reset"`
	// Eval are bots the first main agent is evaluated against after every
	// round, EvalGames games each (1..100000): the learning curve
	// (curve.csv). They are only evaluated against, never trained
	// against; held-out bots belong here.
	Eval      []string `json:"eval,omitempty"`
	EvalGames int      `json:"eval_games"`
	// EvalWith are the bots that sit beside the main agent and each Eval
	// bot, one a seat, filling the table: issue 54's acceptance form
	// {network, held-out bot, the two strongest scripted bots}, played in
	// every seating order, the curve's margin then the main agent's
	// per-game margin over the Eval bot (eval.PairMargin). Empty: copies
	// of the Eval bot fill every other seat, seats rotated. The words
	// field and reference, alone, are the game's bots of that name
	// (agents.Company), stored resolved.
	EvalWith []string `json:"eval_with,omitempty"`
	// ExploitWith are the bots that sit beside every main exploiter and
	// its main agent, one a seat (the game's seats − 2 of them, never a
	// held-out bot), both when it trains (opponents.table) and in its
	// payoff match (every seating order; its win share the share of seat
	// comparisons it wins against the main agent), as `gridgym exploit
	// --with` does. Empty: copies of the main agent fill every other seat.
	// Three copies of a target never show a weakness that needs weaker
	// company at the table; an exploiter beside the competition's sample
	// bots found one in Slime (+2.69 cells) and Rising Tide (+37 rounds)
	// where exploiters against copies found none (reports/heldout-forms).
	ExploitWith []string `json:"exploit_with,omitempty"`
	// Anchor (0..100) weighs a KL penalty KL(π_initial ‖ π) that keeps
	// every main agent near the league's initial network, at the same
	// weight in every round (ppo.kl_clone of its round's run, not
	// annealed, towards the initial network rather than the round's own
	// start). AlphaStar's main agents keep such a term towards their
	// supervised policy; without it a league started from a shipped
	// network drifts from the play it started with (reports/league). 0:
	// none (exploiters never have one).
	Anchor float64 `json:"anchor,omitempty"`
	// RestartOptimizer makes every round's run start Adam's moments and
	// step count from zero, as leagues did before 2026-11-30 (session 70's
	// Bovine Borders league among them). Off (the default), a learner's
	// round continues the optimiser state its last round ended with, as one
	// long run would, until the learner is reset to the initial network: a
	// fresh Adam's first steps are its largest relative to the gradient,
	// and a league of 10-iteration rounds would take them every round.
	RestartOptimizer bool `json:"restart_optimizer,omitempty"`
}

// Defaults are the settings `gridgym league` starts from, its flags
// changing some: one main agent, one main exploiter and one league exploiter, 10
// iterations a round, snapshots every 2 rounds.
func Defaults() Settings {
	return Settings{Seed: 1, Iterations: 10, MainAgents: 1, MainExploiters: 1, LeagueExploiters: 1, SnapshotEvery: 2,
		Draws: 8, MainSelf: 0.35, PayoffGames: 16, PayoffDecay: 0.5, WinThreshold: 0.7, ExploiterBudget: 4,
		LeagueReset: 0.25, EvalGames: 40}
}

// Validate checks every field's range, naming the field of the first bad
// one.
func (s *Settings) Validate() error {
	checks := []struct {
		field  string
		v      float64
		lo, hi float64
	}{
		{"iterations", float64(s.Iterations), 1, 1e6},
		{"main_agents", float64(s.MainAgents), 1, 8},
		{"main_exploiters", float64(s.MainExploiters), 0, 8},
		{"league_exploiters", float64(s.LeagueExploiters), 0, 8},
		{"snapshot_every", float64(s.SnapshotEvery), 1, 1e6},
		{"draws", float64(s.Draws), 1, 64},
		{"main_self", s.MainSelf, 0, 0.9},
		{"payoff_games", float64(s.PayoffGames), 1, 10000},
		{"payoff_decay", s.PayoffDecay, 0, 1},
		{"win_threshold", s.WinThreshold, 0.5, 1},
		{"exploiter_budget", float64(s.ExploiterBudget), 1, 1e6},
		{"league_reset", s.LeagueReset, 0, 1},
		{"eval_games", float64(s.EvalGames), 1, 100000},
		{"anchor", s.Anchor, 0, 100},
	}
	for _, c := range checks {
		if !(c.v >= c.lo && c.v <= c.hi) { // also catches NaN
			return fmt.Errorf("league setting %s = %v: want %v..%v", c.field, c.v, c.lo, c.hi)
		}
	}
	return nil
}

// resolveCompanies replaces the words field and reference in EvalWith and
// ExploitWith by the game's bots (exploit.CompanyOf), as league.json
// stores them.
func (s *Settings) resolveCompanies(game string) {
	s.EvalWith, s.ExploitWith = exploit.CompanyOf(game, s.EvalWith), exploit.CompanyOf(game, s.ExploitWith)
}
