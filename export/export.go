// Package export turns trained weights into the files a competition accepts:
// weights.safetensors and, per game, the competition's own entry point as
// the game's registration declares it (rules.Export): a one-file Python bot
// with the weights embedded — the shared NumPy network (py/common.py)
// followed by the game's own module from its folder (Export.Source), or for
// a Pure game (Slime, whose bot is started afresh for every move) a module
// with a network of its own in the standard library only — and, where the
// game declares one, a stand-alone executable (Export.Executable). The Python
// bots reproduce the Go policy's greedy action exactly (parity tests run them
// with /usr/bin/python3 against the Go policy on thousands of states).
//
// Options.Play bakes seeded play-time sampling into a NumPy bot (issue 22):
// TEMPERATURE = T samples each head from softmax(logits/T) over its legal
// actions with draws that depend only on (SEED, the observation, the head)
// (agents/neural/play.go, reproduced bit for bit by py/common.py), so the bot
// plays exactly what neural.Agent plays with Temperature T and Seed SEED.
// That breaks the symmetry between two copies of one bot in one game, which
// a greedy policy cannot (Rectangle: every request is relabelled so that
// the caller is player 0, so at the placement both copies see the same
// request, pick the same cells and R10 leaves shared cells unpainted). The
// competition tells a bot no seat, so copies differ only by their seed:
// without Play.Seed the bot draws one per process (os.urandom), with it the
// bot is reproducible. Play.Steps limits the sampling to the game's first
// steps (Rectangle and Nuggets, whose requests carry the step). The play
// settings a network's weights store (neural.PlayKey, issue 54) are baked
// in by default, so that the bot plays what was measured; Options.Play
// overrides them.
package export

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
)

// common is the shared network of the NumPy bots (every game's but a Pure
// one): the exported file carries it before the game's own module
// (rules.Export.Source, in the game's folder).
//
//go:embed py/common.py
var common []byte

// draw is the seeded play-time draws every exported bot carries, a Pure one
// too (neural.Mix64, Draw and the per-process seed).
//
//go:embed py/draw.py
var draw []byte

// Target is one game's exported entry point, as the game declares it on its
// registration (rules.Competition.Export): export names no game.
type Target struct {
	Game string
	rules.Export
}

// TargetOf returns the exported entry point of game; ok is false for a game
// that is not registered or declares no exporter.
func TargetOf(game string) (t Target, ok bool) {
	g, err := rules.Lookup(game)
	if err != nil || g.Competition == nil || g.Competition.Export == nil {
		return Target{}, false
	}
	return Target{Game: game, Export: *g.Competition.Export}, true
}

// Options tune an export.
type Options struct {
	// Game, if set, is the game the bot is meant for: a network of another
	// game is refused.
	Game string
	// Runner is a prebuilt runner binary (the game's Export.Runner, Slime's
	// cmd/slimebot) that becomes the game's stand-alone executable with the
	// weights appended. "" = build it with the Go toolchain (from the
	// gridgym module the current directory is in), or use a binary of the
	// runner's name next to the running executable.
	Runner string
	// NoBinary skips the stand-alone executable.
	NoBinary bool
	// Play is the bot's seeded play-time sampling. Where the weights store
	// play settings (neural.PlayKey: what the network was measured with,
	// issue 54) and Play gives no temperature, the stored temperature and
	// steps are baked in (Play.Steps, if given, replacing the stored steps;
	// Play.Seed applies either way); a temperature given (PlayGiven.Temp or
	// Play.Temperature > 0) replaces them, so Temperature 0 with
	// PlayGiven.Temp exports greedy. Without stored settings the zero value
	// plays greedily. README.txt says which settings came from the weights.
	Play Play
	// PlayGiven says which of Play the user set explicitly (export's
	// --temperature, --temp-steps): a zero value set explicitly still
	// overrides the weights' stored settings. Nonzero values count as set.
	PlayGiven neural.PlayGiven
	// Search, if set, is a search bot spec (package search, with or without
	// its search: prefix, e.g. greedy@2000:trees=1:opp=prior) that the
	// stand-alone executable answers with instead of the network, its draws
	// seeded by RequestSeed(SearchSeed, request). Games without an
	// executable refuse it; the Python bot still plays the network.
	Search     string
	SearchSeed uint64
	// Python, if set, is a Python interpreter that times the exported
	// Python bot where the competition starts a fresh process every move
	// and counts its start-up (Slime, R14/R16): pythonRuns runs on the
	// game's first position, written into README.txt, and a warning when
	// the slowest takes more than half the limit. "" skips it.
	Python string
}

// Play is an exported bot's play-time sampling: neural.Agent's Temperature,
// Seed and TempSteps (package comment).
type Play struct {
	// Temperature T: 0 = greedy; T > 0 samples from softmax(logits/T).
	Temperature float64
	// Steps, if > 0, samples only in the game's first Steps steps.
	Steps int
	// Seed keys the draws; nil draws a random seed per process.
	Seed *uint64
	// Opening, if > 0, plays the game's scripted opening of that size at the
	// placement (neural.Play.Opening), drawn like the sampling (OPENING);
	// only games whose module has one (rules.Export.Opening).
	Opening int
	// Guard plays the game's scripted guard in front of the network
	// (neural.Play.Guard, GUARD = 1); only games whose module has one
	// (rules.Export.Guard).
	Guard bool
}

// neural is p as the Go agent's settings, its seed left out (stored
// settings carry none).
func (p Play) neural() neural.Play {
	return neural.Play{Temperature: p.Temperature, Steps: p.Steps, Opening: p.Opening, Guard: p.Guard}
}

// check refuses what target t cannot bake in.
func (p Play) check(t Target) error {
	if !(p.Temperature >= 0 && p.Temperature <= neural.MaxTemperature) || p.Steps < 0 {
		return fmt.Errorf("temperature %g, steps %d: want a temperature in 0..%d and steps ≥ 0", p.Temperature, p.Steps, neural.MaxTemperature)
	}
	if p.Steps > 0 && !t.Steps {
		return fmt.Errorf("the %s bot is not told the game's step: a temperature for the first steps only cannot be baked in (use steps 0)", t.Game)
	}
	if p.Opening < 0 || p.Opening > neural.MaxOpening {
		return fmt.Errorf("opening %d: want 0..%d (0 = the network places)", p.Opening, neural.MaxOpening)
	}
	if p.Opening > 0 && !t.Opening {
		return fmt.Errorf("the %s bot has no scripted opening: opening %d cannot be baked in (use opening 0)", t.Game, p.Opening)
	}
	if p.Guard && t.Guard == "" {
		return fmt.Errorf("the %s bot has no scripted guard: the guard cannot be baked in (export it with --guard=false)", t.Game)
	}
	return nil
}

// withPlay returns the safetensors weights w (metadata meta) with the play
// settings p in their metadata as the executable reads them
// (ProgramBot.playMeta): p's temperature and steps under neural.PlayKey
// (none where p is greedy, as an export --temperature 0 of weights that
// store a temperature is) and its seed, if set, under MetaPlaySeed; w
// itself where nothing changes.
func withPlay(w []byte, meta map[string]string, p Play) ([]byte, error) {
	var play, seed string
	if np := p.neural(); np.Stores() {
		play = neural.EncodePlay(np)
		if p.Seed != nil {
			seed = strconv.FormatUint(*p.Seed, 10)
		}
	}
	if meta[neural.PlayKey] == play && meta[MetaPlaySeed] == seed {
		return w, nil
	}
	return neural.SetMetadata(w, func(m map[string]string) {
		for k, v := range map[string]string{neural.PlayKey: play, MetaPlaySeed: seed} {
			if v == "" {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
	})
}

// header returns the Python assignments of p that the bot's module reads
// (py/common.py's, or a Pure game's own).
func (p Play) header() string {
	seed := "None"
	if p.Seed != nil {
		seed = strconv.FormatUint(*p.Seed, 10)
	}
	guard := 0
	if p.Guard {
		guard = 1
	}
	return fmt.Sprintf("TEMPERATURE = %s\nTEMP_STEPS = %d\nSEED = %s\nOPENING = %d\nGUARD = %d\n", strconv.FormatFloat(p.Temperature, 'g', -1, 64), p.Steps, seed, p.Opening, guard)
}

// Report lists what an export wrote.
type Report struct {
	Game     string
	Files    []string // paths written, in order
	Warnings []string // what was skipped, and why
	// Submit is the file to hand in to the competition: the executable
	// where one was written (a few ms a move, Slime's R16 counts process
	// start), else the Python file. SubmitNote says when the other applies.
	Submit, SubmitNote string
}

// Export writes the bot of the network that spec names (a .safetensors file
// or a training run folder) into dir. It refuses networks of an unknown
// game or of another observation-encoding version.
func Export(spec, dir string, opt Options) (Report, error) {
	path, ok, err := neural.WeightsPath(spec)
	if err == nil && !ok {
		err = fmt.Errorf("%s: not a .safetensors file or training run folder", spec)
	}
	if err != nil {
		return Report{}, fmt.Errorf("export: %w", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return Report{}, fmt.Errorf("export: %w", err)
	}
	net, meta, err := neural.Decode(b)
	if err != nil {
		return Report{}, fmt.Errorf("export %s: %w", path, err)
	}
	game := net.Arch.Game
	if opt.Game != "" && opt.Game != game {
		return Report{}, fmt.Errorf("export %s: the network plays %s, not %s", path, game, opt.Game)
	}
	t, ok := TargetOf(game)
	if !ok {
		return Report{}, fmt.Errorf("export %s: no exporter for game %q (have %s)", path, game, strings.Join(TargetGames(), ", "))
	}
	cfg, err := neural.TrainedConfig(net, meta)
	if err != nil {
		return Report{}, fmt.Errorf("export %s: %w", path, err)
	}
	stored, has, err := neural.StoredPlay(meta)
	if err != nil {
		return Report{}, fmt.Errorf("export %s: %w", path, err)
	}
	play := opt.inForce(stored, has)
	if err := play.check(t); err != nil {
		if has && !opt.PlayGiven.Temp && opt.Play.Temperature == 0 {
			err = fmt.Errorf("%w; the weights store %s (gridgym weights play): export with --temperature 0 for a greedy bot", err, stored.Describe())
		}
		return Report{}, fmt.Errorf("export %s: %w", path, err)
	}
	if err := checkSearch(t, opt); err != nil {
		return Report{}, fmt.Errorf("export %s: %w", path, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Report{}, fmt.Errorf("export: %w", err)
	}
	rep := Report{Game: game}
	write := func(name string, data []byte, mode os.FileMode) error {
		p := filepath.Join(dir, name)
		if err := neural.WriteFileAtomic(p, data); err != nil {
			return err
		}
		if err := os.Chmod(p, mode); err != nil {
			return err
		}
		rep.Files = append(rep.Files, p)
		return nil
	}
	if err := write("weights.safetensors", b, 0o644); err != nil {
		return rep, err
	}
	src, err := PythonBotPlay(game, b, meta, play)
	if err != nil {
		return rep, err
	}
	if err := write(t.File, src, 0o755); err != nil {
		return rep, err
	}
	if t.Executable != "" && !opt.NoBinary {
		bin, err := runnerBinary(opt.Runner, t.Runner, dir)
		if err != nil && opt.Search != "" {
			return rep, fmt.Errorf("export %s: search %q: no executable: %w", path, opt.Search, err)
		}
		pw, perr := withPlay(b, meta, play)
		if perr == nil && opt.Search != "" {
			pw, perr = withSearch(pw, opt.Search, opt.SearchSeed)
		}
		if perr != nil {
			return rep, fmt.Errorf("export %s: %w", path, perr)
		}
		if err != nil {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("no %s executable: %v (the Python bot is there)", title(game), err))
		} else if err := write(t.Executable, AppendPayload(StripPayload(bin), pw), 0o755); err != nil {
			return rep, err
		} else {
			rep.Submit = filepath.Join(dir, t.Executable)
			rep.SubmitNote = fmt.Sprintf("where the competition accepts an executable; %s where it wants Python", t.File)
		}
	}
	if rep.Submit == "" {
		rep.Submit = filepath.Join(dir, t.File)
	}
	how := "The bot plays the network's most probable legal move; set SAMPLE = True in the Python file to sample.\n"
	if play.neural().Stores() {
		how = playReadme(t, play)
		if rep.Submit == filepath.Join(dir, t.Executable) && opt.Search == "" { // the executable was written
			how += fmt.Sprintf("%s samples alike, with the same seed (a seed of its own per process where SEED = None).\n", t.Executable)
		}
	}
	how += storedReadme(play, stored, has)
	if opt.Search != "" {
		how += searchReadme(t, opt)
	}
	how += memoryReadme(cfg.CarriedParams())
	if opt.Python != "" {
		text, warning := pythonNotes(runProcess, opt.Python, t, dir, cfg)
		how += text
		if warning != "" {
			rep.Warnings = append(rep.Warnings, warning)
		}
	}
	readme := fmt.Sprintf("gridgym export of %s (%s network: %d filters × %d layers, hidden %d; encoding v%d)\n\n%s\n\n"+
		"%sweights.safetensors holds the float32 tensors and their metadata (arch, game, params, training run).\n",
		path, game, net.Arch.Filters, net.Arch.Layers, net.Arch.Hidden, net.Arch.Encoding, t.Usage, how)
	if err := write("README.txt", []byte(readme), 0o644); err != nil {
		return rep, err
	}
	return rep, nil
}

// inForce returns the play settings the export bakes in: opt.Play over
// the settings the weights store (Options.Play), by the rule a weights
// spec's settings follow (neural.PlayGiven.Over), a nonzero value counting
// as given; the seed is Play.Seed's either way.
func (opt Options) inForce(stored neural.Play, has bool) Play {
	p := opt.Play
	if !has {
		return p
	}
	given := opt.PlayGiven
	given.Temp = given.Temp || p.Temperature > 0
	given.Steps = given.Steps || p.Steps != 0
	given.Opening = given.Opening || p.Opening != 0
	given.Guard = given.Guard || p.Guard
	o := given.Over(stored, p.neural())
	return Play{Temperature: o.Temperature, Steps: o.Steps, Seed: p.Seed, Opening: o.Opening, Guard: o.Guard}
}

// storedReadme says in README.txt where the bot's play settings came from
// where the weights store some (neural.PlayKey).
func storedReadme(p Play, stored neural.Play, has bool) string {
	if !has {
		return ""
	}
	inForce := p.neural().Describe()
	if p.neural() == stored { // stored settings carry no seed
		return fmt.Sprintf("These play settings (%s) came from the weights: the network was measured with them\n"+
			"(metadata %q; gridgym weights play shows them). export --temperature 0 exports it greedy.\n", inForce, neural.PlayKey)
	}
	return fmt.Sprintf("The weights store %s (metadata %q); this export overrode them: %s.\n", stored.Describe(), neural.PlayKey, inForce)
}

// TargetGames lists the registered games with an exporter, sorted.
func TargetGames() []string {
	var gs []string
	for _, g := range rules.Names() {
		if _, ok := TargetOf(g); ok {
			gs = append(gs, g)
		}
	}
	return gs
}

// title is game's display name, or its registry name.
func title(game string) string {
	if g, err := rules.Lookup(game); err == nil && g.Title != "" {
		return g.Title
	}
	return game
}

// memoryReadme says in README.txt that a bot trained with parameters the
// game state carries (rules.Param.Carried) keeps memory between calls.
func memoryReadme(carried map[string]string) string {
	if len(carried) == 0 {
		return ""
	}
	var kv []string
	for k, v := range carried {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return fmt.Sprintf("The network was trained with %s, which the game state carries: the bot keeps what it\n"+
		"needs from earlier moves in its module's globals. Call it once a move, in order (move_num t after\n"+
		"t-1), in one process per seat; a call whose move_num does not follow the last one starts afresh.\n",
		strings.Join(kv, ", "))
}

// playReadme says in README.txt how a bot with play-time sampling plays.
func playReadme(t Target, p Play) string {
	var b strings.Builder
	if p.Guard {
		fmt.Fprintf(&b, "The game's scripted guard answers before the network where it applies (GUARD = 1); the network\nplays every other move. %s\n", t.Guard)
	}
	if p.Opening > 0 {
		fmt.Fprintf(&b, "At the placement the bot plays the game's opening of size %d (OPENING), drawn from SEED and the request, not the network.\n", p.Opening)
	}
	if p.Temperature <= 0 && p.Opening <= 0 {
		b.WriteString("It plays the network's most probable legal move otherwise.\n")
		return b.String()
	}
	if p.Temperature > 0 {
		fmt.Fprintf(&b, "The bot samples each move from softmax(logits / %g) over the legal moves (TEMPERATURE)", p.Temperature)
		if p.Steps > 0 {
			fmt.Fprintf(&b, ",\nin the game's first %d step(s) only, then plays the most probable legal move (TEMP_STEPS)", p.Steps)
		}
		b.WriteString(".\n")
	}
	b.WriteString("The draws depend only on SEED, the request and the robot (head), as in gridgym's Go policy.\n")
	if p.Seed != nil {
		fmt.Fprintf(&b, "SEED = %d makes the bot reproducible: it plays as gridgym's Go policy with that seed.\n", *p.Seed)
	} else {
		b.WriteString("SEED = None: every process draws its own seed, so two copies of this file in one game break\n" +
			"each other's symmetry; set SEED to an integer to make the bot reproducible.\n")
	}
	return b.String()
}

// PythonBot returns the one-file Python bot of game with the safetensors
// weights w embedded, playing greedily.
func PythonBot(game string, w []byte, meta map[string]string) ([]byte, error) {
	return PythonBotPlay(game, w, meta, Play{})
}

// PythonBotPlay is PythonBot with play-time sampling p baked in.
func PythonBotPlay(game string, w []byte, meta map[string]string, p Play) ([]byte, error) {
	t, ok := TargetOf(game)
	if !ok {
		return nil, fmt.Errorf("export: no exporter for game %q", game)
	}
	if err := p.check(t); err != nil {
		return nil, fmt.Errorf("export %s: %w", game, err)
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "#!/usr/bin/env python3\n# %s bot exported by gridgym (game %s, run %s, encoding v%s).\n", title(game), game, meta["run"], meta["encoding"])
	needs := "Python 3 and NumPy"
	if t.Pure {
		needs = "Python 3 (standard library)"
	}
	fmt.Fprintf(&out, "# Needs only %s. Entry point: %s. %s\n", needs, t.Entry, strings.ReplaceAll(t.Usage, "\n", "\n# "))
	if t.Pure {
		lit, err := pureLiterals(w, meta)
		if err != nil {
			return nil, fmt.Errorf("export %s: %w", game, err)
		}
		out.WriteString(lit)
	}
	out.WriteString(p.header())
	out.Write(draw)
	out.WriteString("_WEIGHTS_B64 = (\n")
	enc := base64.StdEncoding.EncodeToString(w)
	for len(enc) > 0 {
		n := min(len(enc), 100)
		fmt.Fprintf(&out, "    %q\n", enc[:n])
		enc = enc[n:]
	}
	out.WriteString(")\n")
	if !t.Pure {
		out.Write(common)
		out.WriteString("\n")
	}
	out.Write(t.Source)
	return out.Bytes(), nil
}

// runnerBinary returns the bytes of the runner binary of main package pkg
// (Slime's cmd/slimebot): runner if given, else a fresh `go build` of pkg
// (small and quick to start: Slime's R16 counts start-up in the 0.1 s),
// else a binary of pkg's last element beside the running executable.
func runnerBinary(runner, pkg, dir string) ([]byte, error) {
	if runner != "" {
		return os.ReadFile(runner)
	}
	tmp := filepath.Join(dir, ".runner.build")
	defer os.Remove(tmp)
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", tmp, pkg)
	out, err := cmd.CombinedOutput()
	if err == nil {
		return os.ReadFile(tmp)
	}
	if exe, e := os.Executable(); e == nil {
		if b, e := os.ReadFile(filepath.Join(filepath.Dir(exe), path.Base(pkg))); e == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("cannot build %s (run gridgym from its source tree with Go installed, or pass --runner): %v: %s", pkg, err, bytes.TrimSpace(out))
}
