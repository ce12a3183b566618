// Command nocap is the probe of reports/bovine-borders/captures/README.md: a
// Bovine Borders tournament (every seating order, as `gridgym tournament
// --all-orders`) in which a bot may be written nocapK:WEIGHTS, the network
// WEIGHTS played greedy except that it takes the first move of its K most
// probable actions (logits descending, then index ascending) that does not
// capture a rival's cow outside the barns; with none among them, its most
// probable action. nocap1 is the network played greedy. A bot written
// capbB:WEIGHTS plays the same network greedy with B subtracted from the
// logit of every such capture (a logit bias instead of a rank). It writes the
// tournament's games.jsonl, for reports/pair.py.
//
// A bot written switchK:A|B plays bot A (any spec but another switch) in
// rounds before K and bot B from round K on: the opening/late-game probe
// of reports/bovine-borders/continue. Both are reset at the game's start
// with generators split from the seat's; the entry carries B's parameters.
//
//	go run ./reports/bovine-borders/captures/nocap -bots X=nocap16:models/bovine-borders/final.safetensors,centre_cleo,greedy,defensive_dan_heng -games 480 -seed 1 -out DIR
//
// It is an experiment, not a gridgym feature: the README says why the rule
// was not made a play setting.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/eval"
	_ "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

func main() {
	bots := flag.String("bots", "", "comma-separated bots (LABEL=SPEC; SPEC may be nocapK:WEIGHTS)")
	games := flag.Int("games", 96, "games")
	seed := flag.Uint64("seed", 1, "master seed")
	out := flag.String("out", "", "folder for games.jsonl")
	flag.Parse()
	if err := run(*bots, *games, *seed, *out); err != nil {
		fmt.Fprintln(os.Stderr, "nocap:", err)
		os.Exit(1)
	}
}

func run(bots string, games int, seed uint64, out string) error {
	if bots == "" || out == "" || games < 1 {
		return fmt.Errorf("want -bots, -out and -games ≥ 1")
	}
	agents.RegisterResolver(resolve)
	agents.RegisterResolver(resolveSwitch)
	g, err := rules.Lookup(bovine.Name)
	if err != nil {
		return err
	}
	cfg, err := g.Configure(nil)
	if err != nil {
		return err
	}
	names := strings.Split(bots, ",")
	for _, n := range names {
		if _, err := agents.Lookup(bovine.Name, n); err != nil {
			return err
		}
	}
	res, err := eval.Run(context.Background(), eval.Config{Game: cfg, Bots: names, Games: games, Seed: seed, AllOrders: true})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(out, "games.jsonl"))
	if err != nil {
		return err
	}
	if err := eval.WriteJSONL(f, res); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// resolve answers nocapK:WEIGHTS.
func resolve(game, spec string) (agents.Entry, bool, error) {
	pre, path, ok := strings.Cut(spec, ":")
	if !ok || !strings.HasPrefix(pre, "nocap") && !strings.HasPrefix(pre, "capb") {
		return agents.Entry{}, false, nil
	}
	k, bias := 0, 0.0
	var err error
	if v, ok := strings.CutPrefix(pre, "nocap"); ok {
		k, err = strconv.Atoi(v)
		if err != nil || k < 1 {
			return agents.Entry{}, true, fmt.Errorf("bot %s: want nocapK:WEIGHTS with K ≥ 1", spec)
		}
	} else if bias, err = strconv.ParseFloat(strings.TrimPrefix(pre, "capb"), 64); err != nil || !(bias >= 0) {
		return agents.Entry{}, true, fmt.Errorf("bot %s: want capbB:WEIGHTS with B ≥ 0", spec)
	}
	net, cfg, err := neural.LoadFor(game, path)
	if err != nil {
		return agents.Entry{}, true, err
	}
	enc := cfg.Game().Encoder(cfg)
	sp := enc.Space()
	return agents.Entry{Game: game, Name: spec, Doc: "probe", Params: cfg.CarriedParams(), New: func() agents.Agent {
		if k > 0 {
			a, _ := neural.NewAgent(net, cfg, false) // cannot fail: LoadFor checked the shape
			return &nocap{a: a, k: k}
		}
		return &capb{net: net, enc: enc, bias: float32(bias), w: neural.NewWorkspace(net.Arch, 1),
			planes: make([]uint8, sp.ObsSize()), scalars: make([]float32, sp.Scalars), mask: make([]uint64, sp.MaskWords())}
	}}, true, nil
}

// nocap is nocapK's agent: the network's ranking (neural.Agent.Rank, the
// greedy move first) searched for a move that is not a capture.
type nocap struct {
	a    *neural.Agent
	k    int
	seat int
	buf  []rules.Move
}

func (n *nocap) Reset(st rules.State, seat int, rng *rules.RNG) {
	n.seat = seat
	n.a.Reset(st, seat, rng)
}

func (n *nocap) Act(st rules.State) rules.Move {
	n.buf = n.a.Rank(st, n.k, n.buf[:0])
	for _, m := range n.buf {
		if !capture(st.(*bovine.State), n.seat, m) {
			return m
		}
	}
	return n.buf[0]
}

// capb is capbB's agent: the network greedy with B subtracted from the
// logit of every capture.
type capb struct {
	net     *neural.Net
	enc     rules.Encoder
	bias    float32
	w       *neural.Workspace
	planes  []uint8
	scalars []float32
	mask    []uint64
	seat    int
}

func (n *capb) Reset(_ rules.State, seat int, _ *rules.RNG) { n.seat = seat }

func (n *capb) Act(st rules.State) rules.Move {
	s := st.(*bovine.State)
	n.enc.Observe(st, n.seat, n.planes, n.scalars)
	n.enc.Mask(st, n.seat, n.mask)
	neural.FillInput(n.net.Arch, n.w.Input, n.planes, n.scalars)
	n.net.Forward(n.w, 1, n.mask, len(n.mask))
	l := n.w.Logits[:n.net.Arch.Actions]
	var act [1]int32
	for a, x := range l {
		act[0] = int32(a)
		if !math.IsInf(float64(x), -1) && capture(s, n.seat, n.enc.Decode(st, n.seat, act[:])) {
			l[a] = x - n.bias
		}
	}
	act[0] = int32(neural.Argmax(l))
	return n.enc.Decode(st, n.seat, act[:])
}

// capture reports whether m takes a rival's cow outside the four barns.
func capture(s *bovine.State, seat int, m rules.Move) bool {
	if m.Kind != bovine.Full {
		return false
	}
	d := int(m.Arg[1])
	if d == 0 || d == bovine.Size-1 || d == bovine.Cells-1 || d == bovine.Cells-bovine.Size {
		return false
	}
	o := s.Cell(d/bovine.Size, d%bovine.Size)
	return o != bovine.Empty && o != seat
}

// resolveSwitch answers switchK:A|B.
func resolveSwitch(game, spec string) (agents.Entry, bool, error) {
	pre, rest, ok := strings.Cut(spec, ":")
	v, isSwitch := strings.CutPrefix(pre, "switch")
	if !ok || !isSwitch {
		return agents.Entry{}, false, nil
	}
	k, err := strconv.Atoi(v)
	a, b, two := strings.Cut(rest, "|")
	if err != nil || k < 0 || !two {
		return agents.Entry{}, true, fmt.Errorf("bot %s: want switchK:A|B with K ≥ 0", spec)
	}
	ea, err := agents.Lookup(game, a)
	if err != nil {
		return agents.Entry{}, true, fmt.Errorf("bot %s: %w", spec, err)
	}
	eb, err := agents.Lookup(game, b)
	if err != nil {
		return agents.Entry{}, true, fmt.Errorf("bot %s: %w", spec, err)
	}
	return agents.Entry{Game: game, Name: spec, Doc: "probe", Params: eb.Params, New: func() agents.Agent {
		return &switcher{k: k, a: ea.New(), b: eb.New()}
	}}, true, nil
}

// switcher is switchK's agent.
type switcher struct {
	k    int
	a, b agents.Agent
}

func (w *switcher) Reset(st rules.State, seat int, rng *rules.RNG) {
	w.a.Reset(st, seat, rules.NewRNG(rng.Uint64()))
	w.b.Reset(st, seat, rules.NewRNG(rng.Uint64()))
}

func (w *switcher) Act(st rules.State) rules.Move {
	if st.(*bovine.State).Steps() < w.k {
		return w.a.Act(st)
	}
	return w.b.Act(st)
}
