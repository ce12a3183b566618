package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/host"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/internal/inputfile"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/store"
)

// gameFlags are the flags every command that plays a game shares.
type gameFlags struct {
	game   string
	params []string
	seed   uint64
	cmd    *cobra.Command // the command they belong to: its stderr takes notes
}

func (f *gameFlags) add(c *cobra.Command, defaultGame string) {
	f.cmd = c
	c.Flags().StringVarP(&f.game, "game", "g", defaultGame, "game to play (see 'gridgym games')")
	c.Flags().StringArrayVarP(&f.params, "param", "p", nil, "game parameter name=value (repeatable, or comma-separated)")
	f.seed = 1
	c.Flags().Var((*seedValue)(&f.seed), "seed", "random seed, 0..2^64-1: same seed, same games")
}

// seedValue is a uint64 flag whose error names the valid range.
type seedValue uint64

func (s *seedValue) String() string { return strconv.FormatUint(uint64(*s), 10) }
func (s *seedValue) Type() string   { return "uint64" }
func (s *seedValue) Set(v string) error {
	n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return fmt.Errorf("want an integer in 0..18446744073709551615")
	}
	*s = seedValue(n)
	return nil
}

// config resolves the game and its parameters; bad input is a usage error.
func (f *gameFlags) config() (rules.Config, error) {
	g, err := rules.Lookup(f.game)
	if err != nil {
		return rules.Config{}, usageError{err}
	}
	kv, err := rules.ParseParams(f.params)
	if err != nil {
		return rules.Config{}, usageError{err}
	}
	cfg, err := g.Configure(kv)
	if err != nil {
		return rules.Config{}, usageError{err}
	}
	return cfg, nil
}

// configAndBots resolves the game and a comma-separated bot list (empty:
// every bot of the game); bad input is a usage error.
func (f *gameFlags) configAndBots(list string) (rules.Config, []string, error) {
	cfg, err := f.config()
	if err != nil {
		return rules.Config{}, nil, err
	}
	game := cfg.Game().Name
	if strings.TrimSpace(list) == "" {
		list = strings.Join(agents.Names(game), ",")
	}
	bots, entries, err := botList(game, list)
	if err != nil {
		return rules.Config{}, nil, err
	}
	f.noteRunFolders(bots)
	cfg, err = f.carry(cfg, bots, entries)
	return cfg, bots, err
}

// carry returns cfg with the parameters that the bots must be played with
// (agents.Entry's Params: a network trained with a parameter the game
// state carries, rules.Param.Carried), which the user did not set; a value
// the user set otherwise, or two bots that need different values, is a
// usage error. It notes on stderr what it adds. entries are the bots'
// (botList).
func (f *gameFlags) carry(cfg rules.Config, bots []string, entries []agents.Entry) (rules.Config, error) {
	g := cfg.Game()
	set, err := rules.ParseParams(f.params)
	if err != nil {
		return rules.Config{}, usageError{err}
	}
	need, by := map[string]string{}, map[string]string{}
	for i, b := range bots {
		name := b
		if label, _ := agents.SplitLabel(b); label != "" {
			name = label
		}
		for k, v := range entries[i].Params {
			if _, ok := set[k]; ok && cfg.Get(k) != v {
				return rules.Config{}, usagef("bot %s was trained with %s=%s, which the game state must carry (the rules ignore it); this game has %s=%s: drop -p %s or set it to %s", name, k, v, k, cfg.Get(k), k, v)
			}
			if w, ok := need[k]; ok && w != v {
				return rules.Config{}, usagef("bots %s and %s were trained with %s=%s and %s=%s, which the game state carries: they cannot play one game", by[k], name, k, w, k, v)
			}
			if _, ok := by[k]; !ok {
				need[k], by[k] = v, name // the first bot that needs it names it
			}
		}
	}
	added := false
	for k, v := range need {
		if _, ok := set[k]; !ok {
			set[k], added = v, true
			fmt.Fprintf(os.Stderr, "note: playing with %s=%s, which bot %s was trained with (observation only: the rules ignore it)\n", k, v, by[k])
		}
	}
	if !added {
		return cfg, nil
	}
	out, err := g.Configure(set)
	if err != nil {
		return rules.Config{}, usageError{err}
	}
	return out, nil
}

// noteRunFolders notes on the command's stderr which weights file each
// training run folder among bots (checked by botList) plays with
// (weightsOf), once per folder.
func (f *gameFlags) noteRunFolders(bots []string) {
	if f.cmd == nil {
		return
	}
	seen := map[string]bool{}
	for _, b := range bots {
		_, spec := agents.SplitLabel(b)
		base, _, err := neural.SplitPlaySpec(spec)
		if err != nil || seen[base] {
			continue
		}
		seen[base] = true
		weightsOf(f.cmd.ErrOrStderr(), base) // botList resolved it: no error left
	}
}

// botList splits and checks a comma-separated bot list for game, and
// returns the bots' entries beside their specs.
func botList(game, list string) ([]string, []agents.Entry, error) {
	var bots []string
	var entries []agents.Entry
	for _, b := range strings.Split(list, ",") {
		if b = strings.TrimSpace(b); b == "" {
			continue
		}
		// A weights file that is a named pipe would hang the loader.
		_, spec := agents.SplitLabel(b)
		if base, _, err := neural.SplitPlaySpec(spec); err == nil && !store.IsURL(base) {
			if _, _, err := weightsOf(nil, base); inputfile.Is(err) {
				return nil, nil, err
			}
		}
		e, err := agents.Lookup(game, b)
		if err != nil {
			return nil, nil, usageError{err}
		}
		bots, entries = append(bots, b), append(entries, e)
	}
	if len(bots) == 0 {
		return nil, nil, usagef("no bots given (valid for %s: %s)", game, strings.Join(append(agents.Names(game), agents.HeldOut(game)...), ", "))
	}
	return bots, entries, nil
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// shellWord returns s as one word of a POSIX shell command line: unchanged
// when it holds only characters no shell treats specially, else in single
// quotes (a quote inside closes them, is escaped and reopens them). The
// commands gridgym prints for the user to run next (a learning curve, a
// resumed run, a replay, a new bot's first tournament) name folders the
// user chose, which may hold spaces. (mvdan.cc/sh's syntax.Quote does this
// too, inside a whole shell parser: not worth the dependency for one word.)
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// botSpecsHelp documents the bot specs, for the help of every command that
// takes bots (addBotSpecsHelp).
const botSpecsHelp = `
Bot specs (a comma-separated list names the bots; each is one of):
  NAME                a bot of the game ('gridgym games' lists them), e.g. random
  FILE.safetensors    trained weights; a training run folder means its
                      best.safetensors (the policy of its best evaluation),
                      else its latest checkpoint (gridgym train writes both)
  FILE:temp=T[:seed=S][:steps=K]  weights sampled at temperature T, seeded per seat
                      (a plain FILE plays the settings its weights store, if
                      any: 'gridgym weights play FILE'; temp=0 is greedy;
                      :opening=K Rectangle's scripted opening, :guard=1|0
                      Bovine Borders' barn guard in front of the network)
  URL                 file://… or s3://bucket/run?endpoint=…: weights or a run
                      folder, downloaded first
  py:FILE[:ENTRY]     your Python bot in its competition's form: FILE is
                      imported and ENTRY (default: my_bot_fn for Rising Tide,
                      bot for the others) called once a move with the
                      competition's arguments, in a sandboxed process of its
                      own, 0.1 s a move; Rising Tide's util module is provided
  cmd:PROGRAM [ARGS]  your program, for program competitions (Slime): run once
                      a move with the board (P,row0,…) as its last argument;
                      its first line of output is the move
  search:BOT[@N][:key=value…]
                      tree search with the bot BOT as its prior and rollouts,
                      N simulations a move (e.g. search:greedy@400:depth=4);
                      settings trees= lanes= depth= extra= top= alt=A+B
                      keyed= c= prior= roll= opp=prior|search value=NETWORK
                      leaf=outcome|forecast margin= crn=0|1 ms= (each
                      explained by 'go doc github.com/gridgym/gridgym/search')
  dagger:TEACHER:PLAYER
                      plays PLAYER's moves (any spec: a network, say) and, in
                      self-play shards, records TEACHER's answer to the same
                      position as the action: DAgger's data, for cloning
                      again with bc.shards (e.g. dagger:siege_sofia:clone.safetensors)
'gridgym new-bot --game G' writes a py:/cmd: bot to start from. Hosted bots
(py:, cmd:) get --bot-memory, --bot-cpu and --bot-procs limits; tournament
and play keep their own output with --bot-log DIR and print their answer
times (p50, p99) against the limit.`

// botSpecsCommands are the commands that take bots (pipeline takes none:
// it plays the network it trains against the config's baselines).
var botSpecsCommands = []string{"play", "tournament", "selfplay"}

// addBotSpecsHelp appends botSpecsHelp to the help of root and of its
// commands that take bots.
func addBotSpecsHelp(root *cobra.Command) {
	root.Long = strings.TrimRight(root.Long, "\n") + "\n" + botSpecsHelp
	for _, c := range root.Commands() {
		for _, name := range botSpecsCommands {
			if c.Name() == name {
				c.Long = strings.TrimRight(c.Long, "\n") + "\n" + botSpecsHelp
			}
		}
	}
}

// addBotLogFlag adds --bot-log, bound to host.Defaults.BotLog, to c.
func addBotLogFlag(c *cobra.Command) {
	c.Flags().StringVar(&host.Defaults.BotLog, "bot-log", "",
		"keep what each hosted bot (py:, cmd:) prints in this folder, one file per bot, DIR/BOT-GAME.log: "+
			"each line after its game and seat ('[game 3, seat 1] ', from 0, as in reports), "+
			"a Python bot's exceptions with their tracebacks")
}
