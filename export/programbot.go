package export

import (
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"time"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
)

// ProgramBot answers the requests of a program competition (Slime's R14:
// `P,row0,…`) with a network, as the exported executable does: the game's
// registration (rules.Competition.Program) turns the request into a
// position and the seat to move, the network picks its most probable legal
// action, and the registration writes the answer line (Slime's `r1 c1 r2
// c2`, R17). A request it cannot read, or a position without a legal move,
// gets the game's pass answer (Slime: "-1 -1 -1 -1", coordinates off the
// board, R15). With SetPlay it samples instead, as the exported Python bot
// with the same TEMPERATURE and SEED does.
type ProgramBot struct {
	net    *neural.Net
	game   *rules.Game
	prog   *rules.Program
	agents map[string]*neural.Agent // by config
	states map[string]rules.State
	search *searcher // SetSearch: answer with the search agent instead
	temp   float64   // SetPlay: the play-time temperature, 0 = greedy
	seed   uint64    // SetPlay: the draws' seed
}

// MetaPlaySeed is the metadata key of the seed baked into an exported
// executable's weights (Options.Play.Seed); without it the executable draws
// a seed per process, as the Python bot with SEED = None does.
const MetaPlaySeed = "play_seed"

// SetPlay makes b answer with the network's play-time sampling
// (neural.Agent's Temperature and Seed, PerSeat off): each move drawn from
// softmax(logits/temperature) over the legal moves by a draw that depends
// only on (seed, the encoded observation), so the same request gets the
// same move and the exported Python bot with SEED = seed answers alike.
// Temperature 0 plays greedy.
func (b *ProgramBot) SetPlay(temperature float64, seed uint64) {
	b.temp, b.seed = temperature, seed
}

// NewProgramBot returns the bot of a network for a registered game whose
// competition is answered by a program.
func NewProgramBot(net *neural.Net) (*ProgramBot, error) {
	g, err := rules.Lookup(net.Arch.Game)
	if err != nil {
		return nil, fmt.Errorf("a network for %s: %w", net.Arch.Game, err)
	}
	if g.Competition == nil || g.Competition.Program == nil {
		return nil, fmt.Errorf("a network for %s, whose competition runs no program bot", g.Name)
	}
	return &ProgramBot{net: net, game: g, prog: g.Competition.Program, agents: map[string]*neural.Agent{}, states: map[string]rules.State{}}, nil
}

// Answer returns the bot's output line for one request.
func (b *ProgramBot) Answer(arg string) string {
	vals, err := b.prog.Params(arg)
	if err != nil {
		return b.prog.Pass
	}
	cfg, err := b.game.Configure(vals)
	if err != nil {
		return b.prog.Pass
	}
	key := cfg.String()
	ag, st := b.agents[key], b.states[key]
	if st == nil {
		if b.search == nil {
			if ag, err = neural.NewAgent(b.net, cfg, false); err != nil {
				return b.prog.Pass // a network for another board size
			}
		}
		st = b.game.New(cfg)
		b.agents[key], b.states[key] = ag, st
	}
	seat, err := b.prog.Position(st, arg)
	if err != nil {
		return b.prog.Pass
	}
	var m rules.Move
	if b.search != nil {
		if m, err = b.search.move(b.game.Name, st, seat, arg); err != nil {
			return b.prog.Pass
		}
	} else {
		ag.Temperature, ag.Seed = b.temp, b.seed
		ag.Reset(st, seat, nil)
		m = ag.Act(st)
	}
	out, ok := b.prog.AppendAnswer(nil, st, m)
	if !ok {
		return b.prog.Pass
	}
	return string(out)
}

// RunEmbedded is the exported executable's main: if the running binary
// carries weights (AppendPayload), it answers the one request in args as the
// network's game's program bot, writes the line to stdout and reports
// handled = true. A plain gridgym binary returns handled = false. Every
// failure still answers, with the pass line (and a note on stderr), as a
// competition bot must. The runner links the games it answers for (Slime's
// cmd/slimebot links Slime's bots and, through them, its rules); weights it cannot read get the pass
// line of the one program game it links. Weights whose metadata name a
// search (Options.Search) answer with that search agent (SetSearch), its
// wall-clock limit counted from the call.
func RunEmbedded(args []string, stdout, stderr io.Writer) (handled bool) {
	start := time.Now()
	w, err := EmbeddedWeights()
	if w == nil && err == nil {
		return false
	}
	name, pass := "bot", ""
	if g := onlyProgramGame(); g != nil {
		name, pass = botName(g), g.Competition.Program.Pass
	}
	answer := pass
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, r)
			answer = pass
		}
		io.WriteString(stdout, answer)
	}()
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return true
	}
	net, meta, err := neural.Decode(w)
	if err == nil {
		var b *ProgramBot
		if b, err = NewProgramBot(net); err == nil {
			name, pass = botName(b.game), b.prog.Pass
			spec, seed, e := searchMeta(meta)
			if e == nil && spec != "" {
				e = b.SetSearch(spec, seed, start)
			}
			if e == nil {
				e = b.playMeta(meta)
			}
			if e != nil {
				fmt.Fprintf(stderr, "%s: %v\n", name, e)
				return true
			}
			if b.search != nil {
				b.search.log = stderr
			}
			arg := ""
			if len(args) > 0 {
				arg = args[0]
			}
			answer = b.Answer(arg)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
	}
	return true
}

// onlyProgramGame returns the one registered game with a program bot, or
// nil if there are none or several.
func onlyProgramGame() *rules.Game {
	var only *rules.Game
	for _, g := range rules.Games() {
		if g.Competition != nil && g.Competition.Program != nil {
			if only != nil {
				return nil
			}
			only = g
		}
	}
	return only
}

// botName is the name of g's exported executable, for its notes on stderr.
func botName(g *rules.Game) string {
	if e := g.Competition.Export; e != nil && e.Executable != "" {
		return e.Executable
	}
	return g.Name + "-bot"
}

// playMeta sets b's play-time sampling from an executable's weights
// metadata: the play settings they store (neural.PlayKey, which the export
// writes as it baked them in) and the seed under MetaPlaySeed, else one
// drawn from the operating system for this process (a fresh process answers
// every move, R14, so copies and moves draw differently, as the Python bot's
// os.urandom).
func (b *ProgramBot) playMeta(meta map[string]string) error {
	p, ok, err := neural.StoredPlay(meta)
	if err != nil || !ok || p.Temperature <= 0 {
		return err
	}
	var seed uint64
	if _, has := meta[MetaPlaySeed]; has {
		if seed, err = metaSeed(meta, MetaPlaySeed, "play"); err != nil {
			return err
		}
	} else {
		var r [8]byte
		if _, err := crand.Read(r[:]); err != nil {
			return fmt.Errorf("a seed for the play-time draws: %w", err)
		}
		seed = binary.LittleEndian.Uint64(r[:])
	}
	b.SetPlay(p.Temperature, seed)
	return nil
}
