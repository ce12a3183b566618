package rules

import (
	"fmt"
	"io/fs"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// ParamKind is the type of a game parameter.
type ParamKind uint8

const (
	// Int parameters have an inclusive range [Min, Max].
	Int ParamKind = iota
	// Bool parameters take true/false (also 1/0, yes/no).
	Bool
	// Choice parameters take one of Choices.
	Choice
	// Text parameters are checked by the parameter's Check function.
	Text
)

// Param declares one parameter or variant flag of a game, with its default and
// valid values, so the CLI, configs and error messages can list them.
type Param struct {
	Name    string
	Doc     string
	Kind    ParamKind
	Default string
	Min     int                // Int only
	Max     int                // Int only
	Choices []string           // Choice only
	Check   func(string) error // Text only (optional)
	// Carried marks an observation-only parameter that the game state must
	// be built with: the rules ignore it, but the state keeps what the
	// encoder needs (a memory of past moves). A network trained with it is
	// played in games configured with it (CarriedParams, agents.Entry's
	// Params).
	Carried bool
	// Observation marks a parameter only the encoder reads (the rules and
	// the state ignore it): positions recorded under one value can be
	// encoded under another (datasets.NewObserverAs), so a network with
	// more input planes can be cloned on shards played without them.
	Observation bool
}

// Valid describes the valid values, for help and error messages.
func (p Param) Valid() string {
	switch p.Kind {
	case Int:
		return fmt.Sprintf("integer %d..%d", p.Min, p.Max)
	case Bool:
		return "true|false"
	case Choice:
		return strings.Join(p.Choices, "|")
	default:
		return "text"
	}
}

func (p Param) check(v string) (string, error) {
	switch p.Kind {
	case Int:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < p.Min || n > p.Max {
			return "", fmt.Errorf("parameter %s=%q: want an integer in %d..%d", p.Name, v, p.Min, p.Max)
		}
		return strconv.Itoa(n), nil
	case Bool:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true", "1", "yes", "on":
			return "true", nil
		case "false", "0", "no", "off":
			return "false", nil
		}
		return "", fmt.Errorf("parameter %s=%q: want true or false", p.Name, v)
	case Choice:
		for _, c := range p.Choices {
			if v == c {
				return v, nil
			}
		}
		return "", fmt.Errorf("parameter %s=%q: want one of %s", p.Name, v, strings.Join(p.Choices, ", "))
	default:
		if p.Check != nil {
			if err := p.Check(v); err != nil {
				return "", fmt.Errorf("parameter %s=%q: %w", p.Name, v, err)
			}
		}
		return v, nil
	}
}

// Game is a registered game: its name, parameters and constructor. A game
// package fills one in and calls Register from its init function; nothing
// downstream switches on game names.
type Game struct {
	Name    string  // registry name, e.g. "rising-tide"
	Title   string  // display name, e.g. "Rising Tide"
	Summary string  // one line for `gridgym games`
	Params  []Param // parameters and variant flags, defaults = the written rules
	// Validate checks constraints between parameters (optional).
	Validate func(Config) error
	// New returns a state at the start position for a validated config.
	New func(Config) State
	// Codec is the competition protocol.
	Codec Codec
	// Encoder returns the learner interface (observations, masks, actions)
	// for a validated config.
	Encoder func(Config) Encoder
	// Competition is the game's bot protocol and exported bot (nil: no
	// competition gridgym can host).
	Competition *Competition
	// Train holds the game's training configs (package configs reads
	// them), YAML files in the game's folder embedded as a tree: the
	// default, TrainDefault (train/default.yaml: what `gridgym train`
	// runs without --config, and the base a config file overrides field
	// by field), and one file per preset, TrainPreset(p)
	// (train/strong.yaml), which overrides the default the same way.
	// nil: the game has no training config.
	Train fs.FS
	// Testdata is what the generic tests hold the game to (its pins, its
	// new-bot tournament, its measured preset), declared in its folder
	// (testdata.go); nil fails those tests.
	Testdata *Testdata
	// Legend says what the symbols of the game's Render stand for, for
	// `gridgym play --render` (nil: no legend beyond the seats).
	Legend *Legend
}

// Legend describes a game's Render: the symbols of each seat, and the
// others.
type Legend struct {
	// Seat are a seat's symbols: seat s draws each as Base+s.
	Seat []LegendSymbol
	// Others describes the symbols that belong to no seat, e.g.
	// ". empty".
	Others string
}

// LegendSymbol is one kind of a seat's cells in Render: a filled cell
// without a piece (Shape 0) or a piece of Shape (rules.CellView.Shape),
// drawn as the character Base+seat.
type LegendSymbol struct {
	Shape, Base byte
	What        string
}

// Package returns the import path of the package that declares g, the
// package of its State type: where the game's folder and files are (for
// messages naming them, and the games package's check that no generic
// package imports a game). "" for a game whose New returns nil.
func (g *Game) Package() string {
	t := reflect.TypeOf(g.New(g.Default()))
	if t == nil {
		return ""
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath()
}

// TrainDefault is the path of a game's default training config in
// Game.Train.
const TrainDefault = "train/default.yaml"

// TrainPreset is the path of a game's training preset p (e.g. "strong") in
// Game.Train.
func TrainPreset(p string) string { return "train/" + p + ".yaml" }

// Config holds a game's validated parameter values.
type Config struct {
	game *Game
	vals map[string]string
}

// Game returns the game the config belongs to.
func (c Config) Game() *Game { return c.game }

// Get returns the canonical text value of parameter name.
func (c Config) Get(name string) string {
	if v, ok := c.vals[name]; ok {
		return v
	}
	for _, p := range c.game.Params {
		if p.Name == name {
			return p.Default
		}
	}
	panic("rules: game " + c.game.Name + " has no parameter " + name)
}

// Int returns an Int parameter.
func (c Config) Int(name string) int { n, _ := strconv.Atoi(c.Get(name)); return n }

// Bool returns a Bool parameter.
func (c Config) Bool(name string) bool { return c.Get(name) == "true" }

// Values returns every parameter with its value, in declaration order.
func (c Config) Values() [][2]string {
	out := make([][2]string, 0, len(c.game.Params))
	for _, p := range c.game.Params {
		out = append(out, [2]string{p.Name, c.Get(p.Name)})
	}
	return out
}

// CarriedParams returns the Carried parameters (Param.Carried) that c sets to
// other values than their defaults; nil if none.
func (c Config) CarriedParams() map[string]string {
	var out map[string]string
	for _, p := range c.game.Params {
		if v := c.Get(p.Name); p.Carried && v != p.Default {
			if out == nil {
				out = map[string]string{}
			}
			out[p.Name] = v
		}
	}
	return out
}

// String renders the config as name=value pairs.
func (c Config) String() string {
	var parts []string
	for _, kv := range c.Values() {
		parts = append(parts, kv[0]+"="+kv[1])
	}
	return strings.Join(parts, ",")
}

// Configure validates parameter values (name → text) against g's declarations.
// Unknown names and invalid values give errors that list the valid choices.
func (g *Game) Configure(values map[string]string) (Config, error) {
	c := Config{game: g, vals: map[string]string{}}
	for name, v := range values {
		var p *Param
		for i := range g.Params {
			if g.Params[i].Name == name {
				p = &g.Params[i]
			}
		}
		if p == nil {
			return Config{}, fmt.Errorf("game %s has no parameter %q (valid: %s)", g.Name, name, g.paramNames())
		}
		cv, err := p.check(v)
		if err != nil {
			return Config{}, fmt.Errorf("game %s: %w", g.Name, err)
		}
		c.vals[name] = cv
	}
	if g.Validate != nil {
		if err := g.Validate(c); err != nil {
			return Config{}, fmt.Errorf("game %s: %w", g.Name, err)
		}
	}
	return c, nil
}

// Default returns the config with every parameter at its default.
func (g *Game) Default() Config {
	c, err := g.Configure(nil)
	if err != nil {
		panic(err)
	}
	return c
}

func (g *Game) paramNames() string {
	if len(g.Params) == 0 {
		return "none"
	}
	names := make([]string, len(g.Params))
	for i, p := range g.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// ParseParams splits "k=v,k2=v2" (or repeated flags) into a map.
func ParseParams(specs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, spec := range specs {
		for _, kv := range strings.Split(spec, ",") {
			kv = strings.TrimSpace(kv)
			if kv == "" {
				continue
			}
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("parameter %q: want name=value", kv)
			}
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out, nil
}

var registry = map[string]*Game{}

// Register adds g to the registry. It panics on a duplicate or incomplete
// registration, which is a programming error caught at start-up. A game
// needs an encoder as well as its rules and codec: every loop (env.Vec,
// and so self-play, tournaments and training) plays on it.
func Register(g *Game) {
	if g.Name == "" || g.New == nil || g.Codec == nil || g.Encoder == nil {
		panic("rules: incomplete registration of game " + g.Name)
	}
	if g.Competition != nil {
		if err := g.Competition.check(g.Name); err != nil {
			panic("rules: " + err.Error())
		}
	}
	if g.Train != nil {
		if _, err := fs.Stat(g.Train, TrainDefault); err != nil {
			panic("rules: game " + g.Name + ": training configs without " + TrainDefault)
		}
	}
	if _, dup := registry[g.Name]; dup {
		panic("rules: game registered twice: " + g.Name)
	}
	for _, p := range g.Params {
		if _, err := p.check(p.Default); err != nil {
			panic("rules: bad default: " + err.Error())
		}
	}
	registry[g.Name] = g
}

// Lookup returns the registered game called name, or an error that lists the
// registered games.
func Lookup(name string) (*Game, error) {
	if g, ok := registry[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("unknown game %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the registered games in alphabetical order.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Games returns the registered games in name order.
func Games() []*Game {
	var gs []*Game
	for _, n := range Names() {
		gs = append(gs, registry[n])
	}
	return gs
}

// ParseConfigString parses rules.Config.String()'s "name=value,name=value" form for
// game g. Values may themselves contain ',' and '=' (Nuggets' decay_table
// does): a new pair starts only where ",name=" names one of g's parameters.
// The empty string gives no values (every parameter at its default).
func (g *Game) ParseConfigString(s string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	// starts reports the parameter name that begins s[i:] as "name=", if any.
	starts := func(i int) string {
		for _, p := range g.Params {
			if strings.HasPrefix(s[i:], p.Name+"=") {
				return p.Name
			}
		}
		return ""
	}
	name := starts(0)
	if name == "" {
		return nil, fmt.Errorf("game %s params %q: want name=value pairs of its parameters", g.Name, s)
	}
	i := len(name) + 1
	for {
		// The value runs to the next ",name=" of a known parameter.
		end, next := len(s), ""
		for j := i; j < len(s); j++ {
			if s[j] == ',' {
				if n := starts(j + 1); n != "" {
					end, next = j, n
					break
				}
			}
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("game %s params %q: parameter %s given twice", g.Name, s, name)
		}
		out[name] = s[i:end]
		if next == "" {
			return out, nil
		}
		name, i = next, end+1+len(next)+1
	}
}
