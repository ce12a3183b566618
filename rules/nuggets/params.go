package nuggets

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gridgym/gridgym/rules"
)

// DefaultDecayTable is R12's table in the written form of ParseDecayTable.
const DefaultDecayTable = "121-200:5,4,2,1,0;6-120:8,6,4,3,1;1-5:10,8,12,8,3"

// Bounds of the parameters.
const (
	MaxPhaseMoves = 1000 // most moves of either phase (setup_moves, build_moves)
	MaxBase       = 100  // largest base percentage of a decay table entry
)

// Band is one row of a decay table: for moves left m in [Lo, Hi], a square
// with N same-colour neighbours has base percentage Base[N] (R12).
type Band struct {
	Lo, Hi int
	Base   [5]int
}

// ParseDecayTable reads a decay table written as bands separated by ';', each
// "lo-hi:b0,b1,b2,b3,b4" (moves left lo..hi, 1 ≤ lo ≤ hi ≤ 1000, and the base
// percentages 0..100 for N = 0..4), e.g. DefaultDecayTable. Spaces are
// allowed around the numbers; bands must not overlap. Moves left outside every
// band have base 0, but the game's Validate requires the table to cover
// 1..build_moves.
func ParseDecayTable(text string) ([]Band, error) {
	var bands []Band
	for _, part := range strings.Split(text, ";") {
		rng, vals, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("band %q: want lo-hi:b0,b1,b2,b3,b4", strings.TrimSpace(part))
		}
		los, his, ok := strings.Cut(rng, "-")
		if !ok {
			return nil, fmt.Errorf("band %q: moves left must be lo-hi", strings.TrimSpace(part))
		}
		var b Band
		var err error
		if b.Lo, err = atoiIn(los, 1, MaxPhaseMoves); err != nil {
			return nil, fmt.Errorf("band %q: lo: %w", strings.TrimSpace(part), err)
		}
		if b.Hi, err = atoiIn(his, b.Lo, MaxPhaseMoves); err != nil {
			return nil, fmt.Errorf("band %q: hi: %w", strings.TrimSpace(part), err)
		}
		fields := strings.Split(vals, ",")
		if len(fields) != 5 {
			return nil, fmt.Errorf("band %q: want 5 base percentages (N = 0..4), got %d", strings.TrimSpace(part), len(fields))
		}
		for n, f := range fields {
			if b.Base[n], err = atoiIn(f, 0, MaxBase); err != nil {
				return nil, fmt.Errorf("band %q: base for N=%d: %w", strings.TrimSpace(part), n, err)
			}
		}
		for _, o := range bands {
			if b.Lo <= o.Hi && o.Lo <= b.Hi {
				return nil, fmt.Errorf("bands %d-%d and %d-%d overlap", o.Lo, o.Hi, b.Lo, b.Hi)
			}
		}
		bands = append(bands, b)
	}
	return bands, nil
}

func atoiIn(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q is not an integer in %d..%d", strings.TrimSpace(s), lo, hi)
	}
	return n, nil
}

// config is the immutable part of a game, shared by a state and its clones.
type config struct {
	spec         rules.Spec
	setup, total int        // setup moves; setup + build moves
	invalidPass  bool       // invalid_query=pass (R6 variant)
	base         [][5]int32 // base[m][N], m = moves left 0..build (row 0 unused)
}

func newConfig(c rules.Config) *config {
	setup, build := c.Int("setup_moves"), c.Int("build_moves")
	bands, err := ParseDecayTable(c.Get("decay_table"))
	if err != nil {
		panic("nuggets: unvalidated config: " + err.Error())
	}
	cf := &config{
		spec: rules.Spec{
			Game: "nuggets", Seats: Seats, Rows: Size, Cols: Size,
			MaxSteps: setup + build, ScoreName: "log-score", Tournament: rules.SumScore,
		},
		setup: setup, total: setup + build,
		invalidPass: c.Get("invalid_query") == "pass",
		base:        make([][5]int32, build+1),
	}
	for _, b := range bands {
		for m := b.Lo; m <= b.Hi && m <= build; m++ {
			for n, v := range b.Base {
				cf.base[m][n] = int32(v)
			}
		}
	}
	return cf
}

func validate(c rules.Config) error {
	build := c.Int("build_moves")
	if c.Int("setup_moves")+build < 1 {
		return fmt.Errorf("setup_moves + build_moves must be at least 1")
	}
	bands, err := ParseDecayTable(c.Get("decay_table"))
	if err != nil {
		return fmt.Errorf("decay_table: %w", err)
	}
	for m := 1; m <= build; m++ {
		covered := false
		for _, b := range bands {
			covered = covered || b.Lo <= m && m <= b.Hi
		}
		if !covered {
			return fmt.Errorf("decay_table does not cover %d moves left (it must cover 1..build_moves=%d)", m, build)
		}
	}
	return nil
}

// New returns a game of config c (a validated nuggets config) at its start.
func New(c rules.Config) *State {
	return &State{cfg: newConfig(c)}
}

// NewDefault returns a game with the written rules (every parameter at its default).
func NewDefault() *State { return New(Game.Default()) }
