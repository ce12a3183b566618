package rectangle

import (
	"embed"
	"fmt"

	"github.com/gridgym/gridgym/rules"
)

// Name is the registry name of the game.
const Name = "rectangle"

// Upper bounds of K and M (the rules only ask K ≥ 1 and M ≥ K).
const (
	maxIdleLimit = 100000
	maxMaxMoves  = 1000000
)

// Game is the registered game (read-only after init): its rules,
// parameters, encoder, competition (competition.go) and training
// configs.
var Game = &rules.Game{
	Name:    Name,
	Title:   "Rectangle",
	Summary: "robots paint trails; close a rectangle of your colour to claim its interior",
	Params: []rules.Param{
		{Name: "n", Doc: "grid side (R1)", Kind: rules.Int, Default: "20", Min: 8, Max: MaxN},
		{Name: "players", Doc: "number of players (R1)", Kind: rules.Int, Default: "4", Min: 2, Max: maxSeats},
		{Name: "robots", Doc: "robots per player (R1)", Kind: rules.Int, Default: "4", Min: 1, Max: MaxRobots},
		{Name: "idle_limit", Doc: "K: the game ends after K consecutive moves without a claim (R15)", Kind: rules.Int, Default: "100", Min: 1, Max: maxIdleLimit},
		{Name: "max_moves", Doc: "M: the game ends after move M (R15); M ≥ K", Kind: rules.Int, Default: "2000", Min: 1, Max: maxMaxMoves},
		{Name: "rings", Doc: "observation only (the rules ignore it): the encoder adds the ring planes, the large rectangle the encloser bot would close now and each robot's steps toward it (encode.go, ring.go)", Kind: rules.Bool, Default: "false"},
		{Name: "ring_memory", Doc: "observation only (it matters with rings=true, and the state carries it): the ring planes remember the seat's ring from move to move as the encloser bot does (a kept ring, parked rivals, a stall) instead of choosing afresh at every move (ring.go RingKept)", Kind: rules.Bool, Default: "false", Carried: true},
		{Name: "ring_guard", Doc: "observation only (with ring_memory=true; the state carries it): a seat's ring never crosses a rival's kept ring that the rival has painted at least half of, and a kept ring that does is dropped (ring.go RingKept), so that two ring-closers do not break each other's rings", Kind: rules.Bool, Default: "false", Carried: true},
		{Name: "ring_rule", Doc: "observation only (it matters with rings=true, and the state carries it): whose choices the ring planes show: encloser (a ring when it pays 1.5× planner's squares, sides up to 20) or mason (a ring whenever there is one, sides up to 8 near its robots and walls, the mason bot's; ring.go RuleOf)", Kind: rules.Choice, Choices: RingRules, Default: "encloser", Carried: true},
		{Name: "ring_step", Doc: "observation only (it matters with rings=true, and the state carries it): the ringer bot's step toward its part of the ring, which the ring_go planes show with ring_memory=true: first (the first of its best steps that its own robots leave free, else stay) or free (the best of the steps its own robots leave free, as the encloser and mason step; ring.go RingMoves)", Kind: rules.Choice, Choices: []string{"first", "free"}, Default: "first", Carried: true},
	},
	Validate: func(c rules.Config) error {
		if k, m := c.Int("idle_limit"), c.Int("max_moves"); m < k {
			return fmt.Errorf("max_moves=%d is less than idle_limit=%d (R1 wants M ≥ K)", m, k)
		}
		if c.Bool("ring_guard") && !c.Bool("ring_memory") {
			return fmt.Errorf("ring_guard=true needs ring_memory=true: the guard reads the rivals' kept rings")
		}
		return nil
	},
	New:         func(c rules.Config) rules.State { return New(c) },
	Codec:       Codec{},
	Encoder:     NewEncoder,
	Competition: competition,
	Train:       trainConfigs,
	Testdata:    testdata,
	Legend:      &rules.Legend{Seat: []rules.LegendSymbol{{Base: '0', What: "paint"}, {Shape: 'r', Base: 'A', What: "robot"}}, Others: ". unpainted, # unpaintable, * two or more robots"},
}

func init() { rules.Register(Game) }

// trainConfigs are the game's training configs (rules.Game.Train, package
// configs): train/default.yaml and the strong preset, train/strong.yaml.
//
//go:embed train/*.yaml
var trainConfigs embed.FS
