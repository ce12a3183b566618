// Package search is a budget-limited Monte-Carlo tree search agent for every
// registered game, built only on the rules.State interface and a scripted bot
// of the game (agents.Agent) as its prior and rollout policy. Nothing in it
// names a game.
//
// # The bot spec
//
// Wherever a bot name is accepted (tournament, play, selfplay opponents), the
// spec
//
//	search:BOT[@N][:key=value…]
//
// is a search agent whose prior (candidate moves) and rollout policy is the bot
// BOT of the game (any name agents.Lookup accepts that is not itself a search
// spec, for example search:greedy, search:wall_warsaw, search:boxer@400). N is
// the simulation budget per move, summed over all trees (default DefaultBudget,
// which SetDefaultBudget changes for a program's --search-budget flag). The
// optional key=value settings are those of Params:
//
//	trees=T   independent trees (root parallelism), 1..MaxTrees, or auto: one per core
//	          (GOMAXPROCS when the agent is made), default 2, or auto with ms=
//	lanes=K   simulations of each tree run at once (leaf parallelism with virtual loss),
//	          1..MaxLanes: K descents in turn, each path counted as a visit before its
//	          value is known so the next one goes elsewhere, then their expansions and
//	          rollouts on up to K cores, then their backups in order; one tree on several
//	          cores, deterministic for a seed at any core count, default 1 (sequential)
//	depth=D   rollout length in steps after the tree, default 8
//	extra=K   random legal candidates per seat per node, besides the prior's move and Pass, default 3
//	top=K     the prior's K best moves as candidates, best first, not its one move (simultaneous
//	          games; a prior that ranks its moves, agents.Ranker: a network, or Nuggets'
//	          greedy bots by their evaluation), default 1
//	keyed=K   K > 0: draw the random candidates from a generator keyed on the position and K
//	          instead of the search's own, so a position always gets the same ones
//	          (Expert Iteration's labels at a repeated position then agree), default 0 (off)
//	alt=A+B   more proposers: the bots A, B… of the game (joined by +) each add their move
//	          as a candidate after the prior's, in simultaneous games, default none
//	c=X       exploration constant of the PUCT rule, default 1
//	prior=P   prior probability mass on the prior bot's move, default 0.5
//	roll=R    rollout policy: a bot name of the game, or "random" for RandomMove, default BOT
//	opp=O     the other seats: "search" (searched like the agent's own, default) or
//	          "prior" (they play the prior bot's move at every node; the tree
//	          branches on the agent's own candidates only and grows deeper)
//	value=V   score a rollout that ends before the game does with the bot V's value (a
//	          network: weights file or run folder, or Nuggets' greedy bots, which score a
//	          seat's nuggets by their own evaluation; agents.Evaluator) instead of the
//	          provisional outcome, default none
//	leaf=L    how a rollout that ends before the game does is scored: "outcome" (the
//	          provisional outcome, default) or "forecast" (the game's forecast of the
//	          final outcome, rules.Forecaster: Rising Tide's flood replayed as if every
//	          seat passed; not with value=)
//	margin=X  play the prior's move unless the most visited candidate's mean value (0..1)
//	          beats it by at least X: depart from the prior only where the search is sure,
//	          default 0 (off: play the most visited)
//	crn=1     common random numbers: the k-th simulation of every own root candidate plays in
//	          the same world, its chance drawn by event (rules.KeyedStepper: Nuggets), so
//	          the comparison of the candidates is not drowned by chance they do not touch,
//	          default 0 (off)
//	ms=M      stop each move's search after M milliseconds as well (not deterministic);
//	          without trees=, one tree per core (trees=auto), so every core adds simulations
//
// for example search:greedy@800:depth=4:trees=2 (colons, since command lines
// list bots with commas).
//
// # The search
//
// Each move the agent grows Params.Trees independent trees, each with its own
// generator seeded from the agent's and its share of the budget, and plays
// the root candidate of its seat with the most visits summed over the trees
// (with margin=, the prior's move unless that candidate's mean value is
// higher by the margin). Up to GOMAXPROCS workers search them, each taking
// the next tree not yet taken, so T trees on T cores take 1/T of one tree's
// wall time for the same budget, and the result is the same for a seed
// whatever the number of cores or the scheduling (trees=auto: the same for a
// seed and a core count). Under ms= the trees that are taken last may get
// less time, or none, when there are more trees than cores. With lanes=K a
// tree's own simulations also run K at a time (Params.Lanes): K descents
// choose their paths one after another from the statistics alone (each
// counting its path as visited, a virtual loss), then the calling worker
// and up to K−1 helpers, which spin between rounds (a round can take a few
// microseconds, less than waking a parked thread), play the paths, expand
// and roll out, and the backups follow in lane order. A path the game ends
// on before its last node is cut there and the visits past the cut are
// taken back. In a game without chance (rules.Spec.Deterministic) a joint
// move that ended the game stays in the tree with its outcome (a final
// node), so a simulation that chooses it again neither plays the path nor
// scores it: the same statistics for less work.
//
// Nodes are open-loop: a node is a sequence of joint moves from the root, and
// every simulation replays it on a copy of the position, drawing the game's
// chance events from the tree's generator (the real future randomness is
// unknown, so it is sampled). At each node every active seat has its own list
// of candidate moves and its own statistics (decoupled search): in
// simultaneous games the candidates are the prior bot's move, the
// alternative bots' moves (alt=), Pass and K random legal moves, since the
// legal move lists can be huge (a random move on a 20×20 board is rarely
// worth a simulation; another bot's considered move may be); in sequential
// games (Spec.Sequential, Slime) they are all the legal moves of the seat to
// move. Each seat picks the candidate that maximises the PUCT score
//
//	Q + c · P · √(N+1) / (1+n)
//
// with P the prior (mass Params.Mass on the prior bot's move, the rest
// uniform) and Q of an unvisited candidate the seat's mean at the node. A
// simulation descends to a joint move not yet in the tree, adds one node
// there, plays Params.Depth steps with the rollout policy for every seat and
// scores the position with Value, or, if the game goes on and value= names
// a network, with the network's value head (agents.Evaluator): a rollout of a
// few steps rarely reaches an outcome in a long game, and a provisional score
// may not say who is winning. Node and candidate pools are allocated once
// per tree and reused, so a simulation in steady state allocates nothing.
package search
