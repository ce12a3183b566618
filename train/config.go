package train

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/configs"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/internal/inputfile"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
)

// Config is a training run: every field has its YAML name, meaning and valid
// range in its comment, and Validate names the field of any bad value. The
// defaults per game are the YAML files its registration declares (package configs).
type Config struct {
	Game   string            `yaml:"game"`   // registered game name
	Params map[string]string `yaml:"params"` // game parameters (see `gridgym games`); empty = the written rules
	Seed   uint64            `yaml:"seed"`   // master seed: same seed, same config → same run, bit for bit

	// Iterations is the planned length of the run (the LR schedule runs over
	// it), 1..1e6. Minutes, if > 0, stops the run earlier at an iteration
	// boundary (0..10000).
	Iterations int     `yaml:"iterations"`
	Minutes    float64 `yaml:"minutes"`

	Network NetworkConfig `yaml:"network"`

	// Envs games played at once, 1..4096. Each iteration plays whole
	// episodes from fresh starts (with ContinueCut, from the cut position
	// of a game cut before) until the learner has made at least
	// Decisions decisions (1..1e7); MaxEpisodeSteps (0 = the game's own end,
	// else 1..1e6) truncates long episodes, which are then scored by the
	// current ranking.
	Envs            int `yaml:"envs"`
	Decisions       int `yaml:"decisions"`
	MaxEpisodeSteps int `yaml:"max_episode_steps"`
	// ContinueCut plays a game cut at MaxEpisodeSteps on: the next
	// episode in that env starts from the cut position (seated afresh,
	// as every episode), across iterations too, until the rules end the
	// game, so the late game of a game longer than the cut is trained as
	// well as its opening. An episode is then scored by the change of
	// each learner seat's terminal reward over it (the reward at its cut
	// or end less the reward at the position it started from), so the
	// pieces of one game add up to the game's own terminal reward. Needs
	// max_episode_steps > 0. A resumed run starts every game afresh.
	ContinueCut bool `yaml:"continue_cut,omitempty"`
	// EnvsPerWorker (0..4096) sizes the acting by the cores: 0 (the
	// default) plays Envs games in one batch that the workers step
	// together; above 0 every worker is an actor of its own, with its
	// own games and its own batched inference over them, and the run
	// plays max(Envs, EnvsPerWorker·workers) games shared among them,
	// each actor until it has made its share of Decisions (actors.go).
	// A run then depends on the worker count (as its gradients do), not
	// on timing.
	EnvsPerWorker int `yaml:"envs_per_worker,omitempty"`

	Opponents OpponentConfig `yaml:"opponents"`
	PPO       PPOConfig      `yaml:"ppo"`
	BC        BCConfig       `yaml:"bc"`
	Eval      EvalConfig     `yaml:"eval"`
	// ExIt switches the iterations after the warm start from PPO to
	// Expert Iteration (exit.go); off (the zero section) by default.
	ExIt ExItConfig `yaml:"exit,omitempty"`
	// Play is the network's recommended play settings (issue 54), stored
	// in every weights file the run writes (neural.PlayKey), so that
	// tournament, play, pipeline and export play it so by default; the
	// run's own evaluations (eval, and so best.safetensors) play it so too.
	// Empty (temperature 0) = greedy, nothing stored.
	Play PlayConfig `yaml:"play,omitempty"`

	// CheckpointEvery iterations between checkpoints (1..1e6); the last
	// iteration always writes one.
	CheckpointEvery int `yaml:"checkpoint_every"`
	// Workers goroutines for acting and env stepping (with
	// envs_per_worker, the number of actors), and the parts each PPO
	// minibatch is split into (graph.Step), 0 = all cores (0..256). A run
	// gives the same bits for the same workers, ppo.overlap or not; with
	// other workers its gradients differ in the last bits (summed in
	// another order: the same update on 1, 2 and 3 workers gives three
	// different hashes, its losses equal within 1e-5,
	// TestUpdateSplitDeterministic), and with envs_per_worker it plays
	// other games (other actors, other shares of the decisions).
	Workers int `yaml:"workers"`
}

// PlayConfig is a network's recommended play settings (neural.Play
// without the seed, which is the player's): Rectangle's two copies share
// their placement under greedy play and collapse; a sampled placement
// (temperature 6, steps 1) keeps them apart (reports/rectangle/mirror.md).
type PlayConfig struct {
	Temperature float64 `yaml:"temperature"` // 0..100; 0 = greedy
	Steps       int     `yaml:"steps"`       // sample only in the first Steps steps, 0 = every step; 0..1e6
	// Opening, if > 0, plays the game's scripted opening of that size at
	// the placement (neural.Play.Opening: Rectangle's opening square).
	Opening int `yaml:"opening,omitempty"`
	// Guard plays the game's scripted guard in front of the network
	// (neural.Play.Guard: Bovine Borders' barn guard). Unlike the other
	// settings it also holds in training: the learner and its snapshots
	// play behind the guard in rollouts and evaluations, so PPO learns the
	// moves the guard leaves to the network.
	Guard bool `yaml:"guard,omitempty"`
}

// Neural is the same settings as the neural agent takes and weights store.
func (p PlayConfig) Neural() neural.Play {
	return neural.Play{Temperature: p.Temperature, Steps: p.Steps, Opening: p.Opening, Guard: p.Guard}
}

// PlayConfigOf is the play: section of the settings p (its seed left out:
// that is the player's).
func PlayConfigOf(p neural.Play) PlayConfig {
	return PlayConfig{Temperature: p.Temperature, Steps: p.Steps, Opening: p.Opening, Guard: p.Guard}
}

// Stores reports whether the section holds settings to store with the
// weights: a temperature, an opening or the guard (none: greedy, nothing
// stored).
func (p PlayConfig) Stores() bool { return p.Neural().Stores() }

// NetworkConfig shapes the policy/value network (package neural).
type NetworkConfig struct {
	Filters int `yaml:"filters"` // trunk channels, 1..512
	Layers  int `yaml:"layers"`  // trunk 3×3 convolutions, 1..20
	Hidden  int `yaml:"hidden"`  // global branch width, 1..4096
	// Coords adds the row and column of every cell as two input channels
	// (neural.Arch.Coords): for games whose bots steer by distances to a
	// corner or an edge. false or true; false keeps older runs' shapes.
	Coords bool `yaml:"coords"`
}

// OpponentConfig is the opponent pool. Every episode, seat (episode mod
// seats) — rotated, so the learner plays every seat — is the learner. Each
// other seat is, independently: the current policy with probability Self
// (its decisions are trained on too), a uniformly drawn past checkpoint of
// the pool with probability Past (if the pool is not empty), otherwise a
// uniformly drawn scripted bot of Scripted.
type OpponentConfig struct {
	Scripted  []string `yaml:"scripted"`   // registered bots of the game; at least one
	Self      float64  `yaml:"self"`       // 0..1
	Past      float64  `yaml:"past"`       // 0..1, Self+Past ≤ 1
	PoolEvery int      `yaml:"pool_every"` // iterations between snapshots added to the pool, 1..1e6
	PoolSize  int      `yaml:"pool_size"`  // snapshots kept (oldest dropped first), 0..1000
	// Clone (0..1, Self+Past+Clone ≤ 1) is the probability a seat is the
	// frozen cloned policy (checkpoint 0), sampling its moves.
	Clone float64 `yaml:"clone"`
	// PFSP (prioritised fictitious self-play): draw the past snapshot or
	// scripted bot of a seat not uniformly but with weight (1 − w)² + 0.05,
	// w the learner's win share against that opponent so far (an
	// exponential average over its games, ½ before any), favouring the
	// opponents it loses to. false or true.
	PFSP bool `yaml:"pfsp"`
	// Table, when set, is the other seats of every episode exactly: one
	// bot for each (the game's seats − 1; names as Scripted's), shuffled
	// into the seats each episode, so the learner always meets this
	// company, and Scripted's draw is not used. A best response trained in
	// the company a bot meets in its competition (gridgym exploit --with)
	// finds what copies of the target never show: how the target fares
	// when the others at the table are weak (reports/heldout-forms).
	Table []string `yaml:"table"`
	// TableShare (0..1) is the share of episodes seated at Table; the
	// others draw their seats as without a table (Self, Past, Clone,
	// Scripted). 0 means every episode (then Self, Past and Clone must be
	// 0). A share below 1 mixes the company where a policy loses with
	// self-play and snapshots in one run (reports/bovine-borders/table, C:
	// in Bovine Borders half and half kept neither the seating nor the
	// exploitability of the network it started from).
	TableShare float64 `yaml:"table_share"`
}

// tableAlways reports whether a TableShare seats the table in every
// episode (0, the default, or 1).
func (o *OpponentConfig) tableAlways() bool { return o.TableShare <= 0 || o.TableShare >= 1 }

// tableEpisode reports whether an episode is seated at opponents.table,
// drawing from rng only when the share is between 0 and 1 (so a run with a
// table for every episode draws exactly as before the share existed).
func (o *OpponentConfig) tableEpisode(rng *rules.RNG) bool {
	switch {
	case len(o.Table) == 0:
		return false
	case o.tableAlways():
		return true
	}
	return rng.Float64() < o.TableShare
}

// PPOConfig holds the PPO hyperparameters: the clipped objective, the
// advantage target (GAE, UPGO or V-trace) and the stabilisers; update.go's
// table says which term of the loss each weighs.
type PPOConfig struct {
	LR          float64 `yaml:"lr"`            // Adam learning rate, (0, 1]
	LRFinal     float64 `yaml:"lr_final"`      // final LR as a fraction of LR (linear schedule), 0..1
	Gamma       float64 `yaml:"gamma"`         // discount, 0..1
	Lambda      float64 `yaml:"lambda"`        // GAE λ, 0..1
	Clip        float64 `yaml:"clip"`          // ratio clip ε, (0, 1)
	Epochs      int     `yaml:"epochs"`        // passes over each iteration's data, 1..100
	Minibatch   int     `yaml:"minibatch"`     // samples per gradient step, 1..65536
	ValueCoef   float64 `yaml:"value_coef"`    // weight of the value loss, 0..100
	EntropyCoef float64 `yaml:"entropy_coef"`  // weight of the entropy bonus, 0..10
	MaxGradNorm float64 `yaml:"max_grad_norm"` // global gradient-norm clip, 0 = off, else (0, 1000]
	Augment     bool    `yaml:"augment"`       // act in a random D4 frame of the game's symmetries (data augmentation)
	// Reward is the learner's reward at the end of an episode: rank
	// (placement points mapped to −1..1, the default; also at truncation),
	// score (own score minus the table's mean, over the encoder's
	// ScoreScale) or none. Shaping (0..100, 0 = off) adds Shaping times the
	// change of the game's potential — its own score, scaled to about 0..1
	// (rules.Potential) — after every step: a dense signal for games judged
	// by their mean score (Nuggets, Rectangle), where the rank reward says
	// one bit per game. With reward none and shaping 1 a seat's rewards sum
	// to its final scaled score.
	Reward  string  `yaml:"reward"`
	Shaping float64 `yaml:"shaping"`
	// Potential names the shaping potential where the game offers more than
	// one (rules.Potentials; Bovine Borders: territory, the default, or
	// frontier); "" = the game's own.
	Potential string `yaml:"potential"`

	// The stabilisers for fine-tuning a cloned policy (all off at 0):
	//
	// CriticWarmup (0..1e6) iterations of value-only updates first: the
	// clone's own rollouts train the parameters that feed only the value
	// (neural: value.*, and global.*/hidden.* where no logit reads them),
	// the policy stays exactly the clone's, so the first policy updates see
	// advantages from a critic that knows the clone.
	CriticWarmup int `yaml:"critic_warmup"`
	// KLClone (0..100) weighs a penalty KL(π_clone ‖ π) per head towards the
	// frozen cloned policy (checkpoint 0), annealed linearly to 0 over
	// KLAnneal iterations of policy updates (1..1e6): the clone's knowledge
	// is kept while the advantages are still noisy, then let go.
	KLClone  float64 `yaml:"kl_clone"`
	KLAnneal int     `yaml:"kl_anneal"`
	// EntropyFloor (0..10 nats, mean per head) keeps the policy from turning
	// deterministic: while a minibatch's entropy is below it, the next
	// gradient step adds EntropyFloorCoef (0..10) to the entropy bonus.
	EntropyFloor     float64 `yaml:"entropy_floor"`
	EntropyFloorCoef float64 `yaml:"entropy_floor_coef"`
	// Target is the advantage estimator: gae (PPO's generalised advantage
	// estimation, the default) or upgo (UPGO, as in AlphaStar: the return
	// bootstraps through a later step only where that step's return beats
	// its value, i.e. follows the trajectory only while it did better than
	// expected; λ is then 1 along those stretches) or vtrace (V-trace, as
	// in IMPALA: before every epoch the current network scores the
	// iteration's decisions again, and the value targets and advantages
	// follow each trajectory only as far as the current policy would have
	// taken it — truncated importance weights min(1, π/μ) against the
	// behaviour policy μ that sampled it; for samples from older policies:
	// the later epochs, a distributed learner's shards; buffer.vtrace).
	Target string `yaml:"target"`
	// Overlap plays the next iteration's rollout while the network
	// learns from this one's, instead of one after the other: the actors
	// play with a frozen copy of the network as it was before the update
	// (one policy version stale, which PPO's clipped ratio, and V-trace's
	// traces with target vtrace, correct for), so the run gives the same
	// bits whatever the timing. false (the default) or true; Expert
	// Iteration (exit.expert) ignores it.
	Overlap bool `yaml:"overlap,omitempty"`
}

// BCConfig is behaviour cloning: a warm start before PPO (Samples > 0) from
// shards that Teacher plays against Opponents, written under the run
// folder, or from existing Shards.
type BCConfig struct {
	Teacher   string   `yaml:"teacher"`   // registered bot imitated ("" = no warm start)
	Opponents []string `yaml:"opponents"` // the teacher's opponents in the shards (default: the teacher itself)
	Shards    string   `yaml:"shards"`    // existing shard file or folder instead of playing ("" = play)
	Samples   int      `yaml:"samples"`   // teacher decisions to learn from, 0..1e8
	Epochs    int      `yaml:"epochs"`    // passes over them, 1..100
	LR        float64  `yaml:"lr"`        // Adam learning rate, (0, 1]
	Minibatch int      `yaml:"minibatch"` // 1..65536
	ValueCoef float64  `yaml:"value_coef"`
	// LabelSmoothing, ε in [0, 1), mixes each head's one-hot teacher
	// action with the uniform distribution over that head's legal actions:
	// the target is (1−ε)·onehot + ε/|legal| on legal actions (0 on illegal
	// ones), so the clone keeps entropy that PPO can explore from instead of
	// saturating on the teacher's move (bcTargets in bc.go). 0, the default,
	// is plain cloning.
	LabelSmoothing float64 `yaml:"label_smoothing"`
	// TimeShare bounds the warm start when the run has a time cap
	// (minutes > 0): playing the teacher and cloning it together take at
	// most this share of the run's minutes (two fifths playing, the rest
	// fitting), so that PPO always gets the remainder and a run always ends
	// with the clone checkpointed. 0 = no bound; else (0, 1].
	TimeShare float64 `yaml:"time_share"`
	// MaxEpisodeSteps is the length of the teacher's games that the clone
	// learns from: 0 (the default) = the run's max_episode_steps, −1 = the
	// game's own end, else 1..1e6 steps. A run that trains on short games
	// (Bovine Borders' Expert Iteration on the opening) can still clone
	// the teacher over whole ones.
	MaxEpisodeSteps int `yaml:"max_episode_steps,omitempty"`
	// Dagger is the number of DAgger rounds after the first clone, 0..20
	// (0, the default: none). In each, the network as cloned so far plays
	// the teacher's seat against Opponents for Samples more decisions,
	// every position labelled with the teacher's answer there
	// (agents.Dagger), and is cloned again on all the decisions so far
	// (trainer.dagger). It needs a Teacher bot to ask. With a time cap
	// the first clone and the rounds share TimeShare equally.
	Dagger int `yaml:"dagger,omitempty"`
}

// bcEpisodeSteps is the length of the teacher's games for the clone
// (BCConfig.MaxEpisodeSteps): 0 for the game's own end.
func (c *Config) bcEpisodeSteps() int {
	switch n := c.BC.MaxEpisodeSteps; {
	case n < 0:
		return 0
	case n == 0:
		return c.MaxEpisodeSteps
	default:
		return n
	}
}

// EvalConfig is the periodic evaluation: the greedy policy in one seat
// (rotated) against Baselines (default: the opponents' scripted bots).
type EvalConfig struct {
	Every     int      `yaml:"every"`     // iterations between evaluations, 0 = off, else 1..1e6
	Games     int      `yaml:"games"`     // games per evaluation, 1..100000
	Baselines []string `yaml:"baselines"` // registered bots
	// Select is the figure that picks best.safetensors: points (mean
	// placement points, the default), score (mean game score, for games
	// judged by their mean score) or margin (the policy's mean score minus
	// the best baseline's mean score in the same games: the figure a
	// `gridgym tournament` of the policy and the baselines compares).
	Select string `yaml:"select"`
	// Lineup seats the baselines themselves, one each, after the policy's
	// seat, instead of drawing every other seat uniformly from them: the
	// evaluation then plays the acceptance table. Game k seats them in the
	// (k / seats)-th of their orders (the listed order first) with the
	// policy in seat k mod seats, so that seats × (seats−1)! games play
	// every seating once, as `gridgym tournament --all-orders` does (one
	// cyclic order alone can decide a game: in Bovine Borders the bot
	// opposite the policy). It needs exactly seats − 1 baselines. false or
	// true.
	Lineup bool `yaml:"lineup"`
}

// ExItConfig is Expert Iteration (exit.go): each iteration the search agent
// Expert plays the learner's seat in games against Opponents, its root visit
// distributions label the learner's decisions, and the network learns them
// (cross-entropy, PolicyCoef) and the games' outcomes (squared error,
// ValueCoef) for ppo.epochs passes of ppo.minibatch samples at ppo.lr's
// schedule with ppo.max_grad_norm's clip. Expert "" (the default) is off:
// the run is PPO.
type ExItConfig struct {
	// Expert is a search bot spec (search:BOT[@N][:key=value…], package
	// search). The placeholder {net} in it stands for the learner's current
	// network: the trainer writes it to exit-expert.safetensors in the run
	// folder before each iteration's games, so search:{net}@64:opp=prior
	// searches with the network's greedy move as its prior and rollouts; it
	// may also stand for the rollout bot (roll={net}) or an alternative
	// proposer (alt={net}: the network's move is a candidate beside the
	// prior's), or the leaves' evaluator (value={net}: the network's value
	// head scores the rollouts' ends).
	Expert string `yaml:"expert"`
	// Decisions is the search-labelled learner decisions per iteration
	// (whole games), 1..1e6.
	Decisions int `yaml:"decisions"`
	// Opponents are the bots of the other seats, one drawn uniformly per
	// seat and game (default: opponents.scripted); {net} is the current
	// network (greedy), as in Expert.
	Opponents []string `yaml:"opponents"`
	// PolicyCoef (0..100) weighs the cross-entropy of the policy to the
	// visit distribution; ValueCoef (0..100) the value's squared error to
	// the game's rank outcome (−1..1, as ppo.reward rank).
	PolicyCoef float64 `yaml:"policy_coef"`
	ValueCoef  float64 `yaml:"value_coef"`
	// Temperature τ (0..10) of the policy target: each legal candidate's
	// share is its visits^(1/τ), normalised; 1 is the visit distribution
	// itself, smaller values sharpen it (with a few hundred simulations
	// over many legal moves most visits are exploration), and 0 (the
	// default) is the most visited candidate alone (ties: the earlier, as
	// the search plays).
	Temperature float64 `yaml:"temperature"`
	// Window (1..1000; 0 = 1, the default) is how many iterations'
	// decisions each update trains on: this iteration's and those of the
	// Window−1 before it, oldest dropped first — a replay window, as
	// AlphaZero's, so that one iteration's few thousand labels do not pull
	// the network about on their own (with a window, ppo.epochs 1 passes
	// over each label about Window times).
	Window int `yaml:"window,omitempty"`
	// Policy is what the policy target is made of: "visits" (the default,
	// "" = visits), the root's visit distribution at Temperature; or
	// "value", the search's action values ("improved action values"):
	// over the candidates with at least ValueMinShare of the root's visits,
	// weights exp((Q − Q_max)/Temperature), Q a candidate's mean value
	// (search.Value, 0..1), Temperature 0 the best alone. A PUCT search
	// keeps visiting its prior's move although another scores better, so
	// its visits say more about its prior than about what it found. Or
	// "played", the move the expert played alone: with a search that keeps
	// its prior's move unless another is better by a margin (search
	// margin=), the labels are the prior's moves except where the search is
	// sure.
	Policy string `yaml:"policy,omitempty"`
	// ValueMinShare (0..1; 0 = 0.05 with policy value) is the share of the
	// root's visits below which a candidate's value counts as noise and the
	// candidate is left out of the value target.
	ValueMinShare float64 `yaml:"value_min_share,omitempty"`
	// KeepPrior (0..1; 0 = 1, keep all, the default) is the probability
	// of keeping a decision where the expert played its prior's move (the
	// first root candidate); the decisions where it played another are
	// always kept. Where a search departs from its prior rarely but
	// decisively (Bovine Borders: a few moves of a 10,000-round game),
	// labels of every decision are its prior's moves all but a few in a
	// thousand, and a network learns the prior from them; keeping a share
	// of those brings the departures to a weight it can learn.
	KeepPrior float64 `yaml:"keep_prior,omitempty"`
	// KeepDisagree (0..1; 0 = off, the default) is, with keep_prior, the
	// probability of keeping a decision that keep_prior left out where the
	// network being trained would have played another move than the expert:
	// labels where the network errs (DAgger's idea), not only where the
	// search departs. A search that departs rarely labels only the
	// positions it departs in, so a network that has learnt a departure
	// can play it where the search would not (Rising Tide: lowering its own
	// wall the way the search lowers a rival's, reports/exit/rising-tide/keep-disagree),
	// and nothing corrects it.
	KeepDisagree float64 `yaml:"keep_disagree,omitempty"`
}

// Policy targets of ExItConfig.Policy.
const (
	ExItVisits = "visits"
	ExItValue  = "value"
	ExItPlayed = "played"
)

// valueMinShare is ValueMinShare with its default.
func (e *ExItConfig) valueMinShare() float64 {
	if e.ValueMinShare == 0 {
		return 0.05
	}
	return e.ValueMinShare
}

// NetPlaceholder in exit.expert and exit.opponents stands for the learner's
// current network (ExItConfig).
const NetPlaceholder = "{net}"

// validate checks the section (only when exit.expert is set).
func (e *ExItConfig) validate(game string) error {
	if e.Expert == "" {
		if e.Decisions != 0 || len(e.Opponents) > 0 || e.PolicyCoef != 0 || e.ValueCoef != 0 || e.Temperature != 0 || e.Window != 0 ||
			e.Policy != "" || e.ValueMinShare != 0 {
			return errors.New("field exit.expert: empty (Expert Iteration off), but other exit fields are set; name a search spec such as search:{net}@64:opp=prior")
		}
		return nil
	}
	if !strings.HasPrefix(e.Expert, search.Prefix) {
		return fmt.Errorf("field exit.expert = %q: want a search spec search:BOT[@N][:key=value…]", e.Expert)
	}
	if err := checkBotSpec(game, e.Expert); err != nil {
		return fmt.Errorf("field exit.expert: %w", err)
	}
	for _, r := range []struct {
		name   string
		v      float64
		lo, hi float64
	}{
		{"exit.decisions", float64(e.Decisions), 1, 1e6},
		{"exit.policy_coef", e.PolicyCoef, 0, 100},
		{"exit.value_coef", e.ValueCoef, 0, 100},
		{"exit.temperature", e.Temperature, 0, 10},
		{"exit.window", float64(e.Window), 0, 1000},
		{"exit.value_min_share", e.ValueMinShare, 0, 1},
		{"exit.keep_prior", e.KeepPrior, 0, 1},
		{"exit.keep_disagree", e.KeepDisagree, 0, 1},
	} {
		if !(r.v >= r.lo && r.v <= r.hi) {
			return fmt.Errorf("field %s = %v: want %g..%g", r.name, r.v, r.lo, r.hi)
		}
	}
	if e.Policy != "" && e.Policy != ExItVisits && e.Policy != ExItValue && e.Policy != ExItPlayed {
		return fmt.Errorf("field exit.policy = %q: want %s, %s or %s", e.Policy, ExItVisits, ExItValue, ExItPlayed)
	}
	if e.PolicyCoef == 0 && e.ValueCoef == 0 {
		return errors.New("field exit.policy_coef: both exit.policy_coef and exit.value_coef are 0; nothing to learn")
	}
	for _, o := range e.Opponents {
		if err := checkBotSpec(game, o); err != nil {
			return fmt.Errorf("field exit.opponents: %w", err)
		}
	}
	return nil
}

// checkBotSpec checks a bot spec of exit: a search spec is parsed and its
// bots looked up, {net} standing for a whole bot name (the prior, roll=, an
// alt= entry or value=: search:{net}@N…, …:alt={net}, …:value={net}); {net}
// is accepted as is; anything else must be a bot of the game.
func checkBotSpec(game, spec string) error {
	if spec == NetPlaceholder {
		return nil
	}
	if p, ok, err := search.ParseSpec(spec); ok {
		if err != nil {
			return err
		}
		names := []*string{&p.Prior, &p.Roll}
		for i := range p.Alt {
			names = append(names, &p.Alt[i])
		}
		if p.Prior == NetPlaceholder {
			p.Top = 1 // the network ranks its moves (top=K); the stand-in below cannot
		}
		whole := false // {net} stands for one of the spec's bots
		for _, n := range names {
			if *n == NetPlaceholder {
				*n, whole = "random", true // a bot of every game in its place: the network is written before each iteration
			}
		}
		if p.Value == NetPlaceholder {
			p.Value, whole = "", true // the network scores positions; no scripted bot can stand in
		}
		if rest := strings.Join(p.Bots(), "+"); strings.Contains(spec, NetPlaceholder) && (!whole || strings.Contains(rest, NetPlaceholder)) {
			return fmt.Errorf("%q: %s stands only for a whole bot name (search:%s@N…, roll=%s, alt=%s, value=%s)", spec, NetPlaceholder, NetPlaceholder, NetPlaceholder, NetPlaceholder, NetPlaceholder)
		}
		if _, err := p.Factory(game); err != nil {
			return fmt.Errorf("%q: %w", spec, err)
		}
		return nil
	}
	if strings.Contains(spec, NetPlaceholder) || !botExists(game, spec) {
		return fmt.Errorf("unknown bot %q for %s (valid: %s, %s, or a search spec)", spec, game, botNames(game), NetPlaceholder)
	}
	return nil
}

// DefaultConfig returns the embedded default config of game.
func DefaultConfig(game string) (Config, error) {
	b, err := configs.Default(game)
	if err != nil {
		return Config{}, err
	}
	return ParseConfig(b, configs.File(game, ""))
}

// PresetConfig returns game's embedded preset (<game folder>/train/<preset>.yaml,
// e.g. strong) over its default config.
func PresetConfig(game, preset string) (Config, error) {
	b, err := configs.Preset(game, preset)
	if err != nil {
		return Config{}, err
	}
	return parseConfig(b, configs.File(game, preset), game)
}

// MaxConfigBytes bounds a config file (a few KB), checked before it is
// read: a larger file, or one that is not a regular file, is refused.
const MaxConfigBytes = 1 << 20

// LoadConfig reads a YAML config file. Fields it leaves out keep the
// embedded defaults of its game.
func LoadConfig(path string) (Config, error) {
	b, err := inputfile.ReadFile(path, MaxConfigBytes, "a config file")
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return ParseConfig(b, path)
}

// LoadConfigFor is LoadConfig for a file meant for game (the command's
// --game): a file that names no game is read as game's, and one that names
// another game is refused.
func LoadConfigFor(path, game string) (Config, error) {
	b, err := inputfile.ReadFile(path, MaxConfigBytes, "a config file")
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return parseConfig(b, path, game)
}

// ParseConfig parses YAML config text over the defaults of the game it
// names, refusing unknown fields, and validates the result.
func ParseConfig(b []byte, name string) (Config, error) { return parseConfig(b, name, "") }

// parseConfig is ParseConfig with game ("" = none) standing in for a
// missing game field.
func parseConfig(b []byte, name, game string) (Config, error) {
	var head struct {
		Game string `yaml:"game"`
	}
	if err := yaml.Unmarshal(b, &head); err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case head.Game == "":
		head.Game = game
	case game != "" && head.Game != game:
		return Config{}, fmt.Errorf("%s: field game: %s, but the config is asked for %s", name, head.Game, game)
	}
	if head.Game == "" {
		return Config{}, fmt.Errorf("%s: field game: missing (valid: %s)", name, strings.Join(rules.Names(), ", "))
	}
	var c Config
	if d, err := configs.Default(head.Game); err == nil && !bytes.Equal(d, b) {
		if c, err = ParseConfig(d, configs.File(head.Game, "")); err != nil {
			return Config{}, err
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, nameFields(b, err))
	}
	if c.Game == "" {
		c.Game = head.Game // a game without an embedded default, named by the caller only
	}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// Validate checks every field's range, naming the field of the first bad one.
func (c *Config) Validate() error {
	g, err := rules.Lookup(c.Game)
	if err != nil {
		return fmt.Errorf("field game: %w", err)
	}
	rc, err := g.Configure(c.Params)
	if err != nil {
		return fmt.Errorf("field params: %w", err)
	}
	if err := c.checkRanges(); err != nil {
		return err
	}
	if err := c.checkModes(g, rc); err != nil {
		return err
	}
	if err := c.checkBots(); err != nil {
		return err
	}
	return c.ExIt.validate(c.Game)
}

// checkRanges is Validate's check of every number against its range.
func (c *Config) checkRanges() error {
	type check struct {
		field  string
		v      float64
		lo, hi float64
	}
	p, o, bc := c.PPO, c.Opponents, c.BC
	checks := []check{
		{"iterations", float64(c.Iterations), 1, 1e6},
		{"minutes", c.Minutes, 0, 10000},
		{"network.filters", float64(c.Network.Filters), 1, 512},
		{"network.layers", float64(c.Network.Layers), 1, 20},
		{"network.hidden", float64(c.Network.Hidden), 1, 4096},
		{"envs", float64(c.Envs), 1, 4096},
		{"envs_per_worker", float64(c.EnvsPerWorker), 0, 4096},
		{"decisions", float64(c.Decisions), 1, 1e7},
		{"max_episode_steps", float64(c.MaxEpisodeSteps), 0, 1e6},
		{"opponents.self", o.Self, 0, 1},
		{"opponents.past", o.Past, 0, 1 - o.Self},
		{"opponents.pool_every", float64(o.PoolEvery), 1, 1e6},
		{"opponents.pool_size", float64(o.PoolSize), 0, 1000},
		{"ppo.lr", p.LR, 1e-9, 1},
		{"ppo.lr_final", p.LRFinal, 0, 1},
		{"ppo.gamma", p.Gamma, 0, 1},
		{"ppo.lambda", p.Lambda, 0, 1},
		{"ppo.clip", p.Clip, 1e-6, 0.999},
		{"ppo.epochs", float64(p.Epochs), 1, 100},
		{"ppo.minibatch", float64(p.Minibatch), 1, 65536},
		{"ppo.value_coef", p.ValueCoef, 0, 100},
		{"ppo.entropy_coef", p.EntropyCoef, 0, 10},
		{"ppo.max_grad_norm", p.MaxGradNorm, 0, 1000},
		{"ppo.shaping", p.Shaping, 0, 100},
		{"ppo.critic_warmup", float64(p.CriticWarmup), 0, 1e6},
		{"ppo.kl_clone", p.KLClone, 0, 100},
		{"ppo.entropy_floor", p.EntropyFloor, 0, 10},
		{"ppo.entropy_floor_coef", p.EntropyFloorCoef, 0, 10},
		{"opponents.clone", o.Clone, 0, 1 - o.Self - o.Past},
		{"opponents.table_share", o.TableShare, 0, 1},
		{"bc.samples", float64(bc.Samples), 0, 1e8},
		{"eval.every", float64(c.Eval.Every), 0, 1e6},
		{"checkpoint_every", float64(c.CheckpointEvery), 1, 1e6},
		{"workers", float64(c.Workers), 0, 256},
		{"play.temperature", c.Play.Temperature, 0, neural.MaxTemperature},
		{"play.steps", float64(c.Play.Steps), 0, 1e6},
		{"play.opening", float64(c.Play.Opening), 0, neural.MaxOpening},
	}
	if bc.Samples > 0 {
		checks = append(checks,
			check{"bc.epochs", float64(bc.Epochs), 1, 100},
			check{"bc.lr", bc.LR, 1e-9, 1},
			check{"bc.minibatch", float64(bc.Minibatch), 1, 65536},
			check{"bc.value_coef", bc.ValueCoef, 0, 100},
			check{"bc.time_share", bc.TimeShare, 0, 1},
			check{"bc.max_episode_steps", float64(bc.MaxEpisodeSteps), -1, 1e6},
			check{"bc.dagger", float64(bc.Dagger), 0, 20})
	}
	if c.Eval.Every > 0 {
		checks = append(checks, check{"eval.games", float64(c.Eval.Games), 1, 100000})
	}
	for _, k := range checks {
		if !(k.v >= k.lo && k.v <= k.hi) { // also catches NaN
			return fmt.Errorf("field %s = %v: want %v..%v", k.field, k.v, k.lo, k.hi)
		}
	}
	return nil
}

// checkModes is Validate's check of the settings that name a mode (the
// advantage target, the reward, eval.select) or depend on the game
// (shaping, eval.lineup, opponents.table; rc is the game configured by
// c.Params), and of the values that only matter with another.
func (c *Config) checkModes(g *rules.Game, rc rules.Config) error {
	p, bc := c.PPO, c.BC
	others := func() int { return g.New(rc).Spec().Seats - 1 } // the seats beside the learner's
	if err := bc.checkLabelSmoothing(); err != nil {
		return err
	}
	if p.KLClone > 0 && !(p.KLAnneal >= 1 && p.KLAnneal <= 1e6) {
		return fmt.Errorf("field ppo.kl_anneal = %d: want 1..1000000 with ppo.kl_clone > 0", p.KLAnneal)
	}
	if c.ContinueCut && c.MaxEpisodeSteps == 0 {
		return fmt.Errorf("field continue_cut: needs max_episode_steps > 0 (with 0 every episode is a whole game)")
	}
	switch p.Target {
	case "", "gae", "upgo", "vtrace":
	default:
		return fmt.Errorf("field ppo.target = %q: want gae, upgo or vtrace", p.Target)
	}
	if _, err := c.RewardMode(); err != nil {
		return fmt.Errorf("field ppo.reward: %w", err)
	}
	if p.Shaping > 0 {
		if _, err := rules.PotentialOf(g.Encoder(rc), p.Potential); err != nil {
			if p.Potential != "" {
				return fmt.Errorf("field ppo.potential = %q: %s: %w", p.Potential, c.Game, err)
			}
			return fmt.Errorf("field ppo.shaping = %v: %s has no shaping potential; want 0", p.Shaping, c.Game)
		}
	} else if p.Potential != "" {
		return fmt.Errorf("field ppo.potential = %q: it needs ppo.shaping > 0", p.Potential)
	}
	if c.Play.Opening > 0 {
		if !rules.Opens(rc) {
			return fmt.Errorf("field play.opening = %d: %s has no scripted opening (rules.Opener); want 0", c.Play.Opening, c.Game)
		}
	}
	if c.Play.Guard && !rules.Guards(rc) {
		return fmt.Errorf("field play.guard = true: %s has no scripted guard (rules.Guarder); want false", c.Game)
	}
	switch c.Eval.Select {
	case "", "points", "score", "margin":
	default:
		return fmt.Errorf("field eval.select = %q: want points, score or margin", c.Eval.Select)
	}
	if o := c.Opponents; len(o.Table) > 0 {
		if n := others(); len(o.Table) != n {
			return fmt.Errorf("field opponents.table: %d bots, want exactly %d (one per other seat of %s)", len(o.Table), n, c.Game)
		}
		if o.tableAlways() && (o.Self > 0 || o.Past > 0 || o.Clone > 0) {
			return fmt.Errorf("field opponents.table: the table seats only its bots in every episode; set opponents.self, past and clone to 0 (have %g, %g, %g), or opponents.table_share below 1 for the table in a share of the episodes", o.Self, o.Past, o.Clone)
		}
	}
	if o := c.Opponents; o.TableShare > 0 && len(o.Table) == 0 {
		return fmt.Errorf("field opponents.table_share = %v: it needs opponents.table", o.TableShare)
	}
	if c.Eval.Lineup {
		if n := others(); len(c.Eval.Baselines) != n {
			return fmt.Errorf("field eval.lineup: true needs exactly %d eval.baselines (one per other seat of %s), have %d", n, c.Game, len(c.Eval.Baselines))
		}
	}
	return nil
}

// checkBots is Validate's check that every bot named is one of the game's.
func (c *Config) checkBots() error {
	o, bc := c.Opponents, c.BC
	if len(o.Scripted) == 0 {
		return fmt.Errorf("field opponents.scripted: empty; name at least one bot of %s (%s)", c.Game, botNames(c.Game))
	}
	lists := map[string][]string{"opponents.scripted": o.Scripted, "opponents.table": o.Table, "eval.baselines": c.Eval.Baselines, "bc.opponents": bc.Opponents}
	if bc.Teacher != "" {
		lists["bc.teacher"] = []string{bc.Teacher}
	}
	for _, field := range slices.Sorted(maps.Keys(lists)) {
		for _, name := range lists[field] {
			if !botExists(c.Game, name) {
				return fmt.Errorf("field %s: unknown bot %q for %s (valid: %s)", field, name, c.Game, botNames(c.Game))
			}
		}
	}
	if bc.Samples > 0 && bc.Teacher == "" && bc.Shards == "" {
		return fmt.Errorf("field bc.teacher: bc.samples = %d needs a teacher bot or bc.shards", bc.Samples)
	}
	if bc.Samples > 0 && bc.Dagger > 0 && bc.Teacher == "" {
		return fmt.Errorf("field bc.dagger: %d rounds need a teacher bot (bc.teacher) to label the clone's positions", bc.Dagger)
	}
	return nil
}

// RewardMode returns ppo.reward as the env's reward mode ("" = rank).
func (c *Config) RewardMode() (env.RewardMode, error) {
	if c.PPO.Reward == "" {
		return env.RewardRank, nil
	}
	return env.ParseRewardMode(c.PPO.Reward)
}

// Baselines returns the bots the run is evaluated against.
func (c *Config) Baselines() []string {
	if len(c.Eval.Baselines) > 0 {
		return c.Eval.Baselines
	}
	return c.Opponents.Scripted
}

// RulesConfig returns the configured game.
func (c *Config) RulesConfig() (rules.Config, error) {
	g, err := rules.Lookup(c.Game)
	if err != nil {
		return rules.Config{}, err
	}
	return g.Configure(c.Params)
}

// Equal reports whether two configs describe the same run.
func (c Config) Equal(d Config) bool { return bytes.Equal(c.YAML(), d.YAML()) }

// YAML renders the config.
func (c Config) YAML() []byte {
	b, _ := yaml.Marshal(c)
	return b
}

func botExists(game, name string) bool { _, err := agents.Lookup(game, name); return err == nil }

func botNames(game string) string { return strings.Join(agents.Names(game), ", ") }

// nameFields rewrites YAML type errors ("line 2: cannot unmarshal !!str
// `many` into int") to name the dotted field at that line of the source.
func nameFields(src []byte, err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	var root yaml.Node
	if yaml.Unmarshal(src, &root) != nil {
		return err
	}
	at := map[int]string{}
	keys := map[string]string{} // "line:key" → the key's path
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := n.Content[i].Value
				if path != "" {
					p = path + "." + p
				}
				keys[fmt.Sprintf("%d:%s", n.Content[i].Line, n.Content[i].Value)] = p
				v := n.Content[i+1]
				if _, ok := at[v.Line]; !ok || v.Kind == yaml.ScalarNode {
					at[v.Line] = p
				}
				walk(v, p)
			}
		}
	}
	walk(&root, "")
	msgs := make([]string, len(te.Errors))
	for i, m := range te.Errors {
		msgs[i] = m
		var line int
		var field, typ string
		if _, e := fmt.Sscanf(m, "line %d: field %s not found in type %s", &line, &field, &typ); e == nil {
			msgs[i] = unknownField(keys[fmt.Sprintf("%d:%s", line, field)], field, line)
		} else if _, e := fmt.Sscanf(m, "line %d:", &line); e == nil && at[line] != "" {
			msgs[i] = "field " + at[line] + ": " + m
		}
	}
	return fmt.Errorf("%s", strings.Join(msgs, "; "))
}

// unknownField describes yaml's "field F not found in type T" at path (the
// field's own path, "ppo.lrr"; "" if unknown) in the config's terms: the
// section, the field and the section's valid fields.
func unknownField(path, field string, line int) string {
	section := ""
	if i := strings.LastIndexByte(path, '.'); i >= 0 && strings.HasSuffix(path, "."+field) {
		section = path[:i]
	}
	t := reflect.TypeOf(Config{})
	for _, name := range strings.Split(section, ".") {
		if name == "" {
			break
		}
		if f, ok := yamlField(t, name); ok && f.Kind() == reflect.Struct {
			t = f
		} else {
			t = nil
			break
		}
	}
	where := "unknown field"
	if section != "" {
		where = section + ": unknown field"
	}
	msg := fmt.Sprintf("%s %q on line %d", where, field, line)
	if t != nil {
		var valid []string
		for i := range t.NumField() {
			if n := yamlName(t.Field(i)); n != "" {
				valid = append(valid, n)
			}
		}
		msg += " (valid: " + strings.Join(valid, ", ") + ")"
	}
	return msg
}

// yamlField returns the type of the field of struct type t that YAML key
// name sets.
func yamlField(t reflect.Type, name string) (reflect.Type, bool) {
	for i := range t.NumField() {
		if yamlName(t.Field(i)) == name {
			return t.Field(i).Type, true
		}
	}
	return nil, false
}

// yamlName is a struct field's YAML key ("" for none).
func yamlName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	n, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if n == "-" {
		return ""
	}
	if n == "" {
		n = strings.ToLower(f.Name)
	}
	return n
}

// Arch shapes the network of the config: the game's observation and action
// spaces with the network section's sizes.
func (c *Config) Arch() (neural.Arch, error) {
	rcfg, err := c.RulesConfig()
	if err != nil {
		return neural.Arch{}, err
	}
	g := rcfg.Game()
	arch, err := neural.NewArch(g.Name, g.Encoder(rcfg).Space(), c.Network.Filters, c.Network.Layers, c.Network.Hidden)
	if err != nil {
		return neural.Arch{}, fmt.Errorf("field network: %w", err)
	}
	arch.Coords = c.Network.Coords
	return arch, nil
}

// checkLabelSmoothing checks bc.label_smoothing's half-open range [0, 1),
// for Validate and for Clone (which a caller may give an unvalidated
// config).
func (b BCConfig) checkLabelSmoothing() error {
	if ls := b.LabelSmoothing; !(ls >= 0 && ls < 1) { // also catches NaN
		return fmt.Errorf("field bc.label_smoothing = %v: want 0 ≤ ε < 1", ls)
	}
	return nil
}
