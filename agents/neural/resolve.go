package neural

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

func init() { agents.RegisterResolver(resolve) }

// WeightsPath returns the weights file a bot spec names: a .safetensors file
// itself, a checkpoint folder's weights (runs/x/checkpoints/iter-000050:
// its weights.safetensors), or a training run folder's policy
// (RunFolderWeights: its best.safetensors where training wrote one, else
// its latest checkpoint).
// ok is false when spec names neither kind (a registered bot's name, say).
// Every command that takes a run folder as a bot or as weights resolves it
// here, so they all mean the same file.
func WeightsPath(spec string) (path string, ok bool, err error) {
	if i := strings.IndexByte(spec, ':'); i > 1 && !strings.ContainsAny(spec[:i], `/\.`) {
		return "", false, nil // a scheme (py:, cmd:) for another resolver
	}
	if strings.HasSuffix(spec, ".safetensors") {
		return spec, true, nil
	}
	if p := filepath.Join(spec, "weights.safetensors"); fileExists(p) {
		return p, true, nil // a checkpoint folder
	}
	if p := RunFolderWeights(spec); p != "" {
		return p, true, nil
	}
	if strings.ContainsRune(spec, os.PathSeparator) || strings.ContainsRune(spec, '/') {
		if _, serr := os.Stat(spec); serr == nil {
			return "", true, fmt.Errorf("%s: neither a .safetensors file, a checkpoint folder nor a training run folder (no %s or %s)", spec, filepath.Join(spec, "weights.safetensors"), filepath.Join(spec, "latest"))
		}
		return "", true, fmt.Errorf("bot %s: no such weights file or run folder", spec)
	}
	return "", false, nil
}

// RunFolderWeights returns the policy of the training run folder dir: the
// best.safetensors that training points to (the policy of its best
// evaluation), else the checkpoint its pointer "latest" names, else (a run
// stopped before it wrote the pointer, or copied without it) its newest
// checkpoint; "" if dir holds none of them.
func RunFolderWeights(dir string) string {
	if p := filepath.Join(dir, "best.safetensors"); fileExists(p) {
		return p
	}
	if b, err := os.ReadFile(filepath.Join(dir, "latest")); err == nil {
		return filepath.Join(dir, "checkpoints", strings.TrimSpace(string(b)), "weights.safetensors")
	}
	cps, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "iter-*", "weights.safetensors"))
	if len(cps) > 0 {
		sort.Strings(cps) // iter-%06d: the names sort by iteration
		return cps[len(cps)-1]
	}
	return ""
}

// CheckpointName is the folder of iteration it's checkpoint in a training
// run folder (dir/checkpoints/CheckpointName(it)): iter-NNNNNN, so that the
// names sort by iteration. Training writes it, RunCheckpoints reads it.
func CheckpointName(it int) string { return fmt.Sprintf("iter-%06d", it) }

// RunCheckpoint is one checkpoint of a training run folder: its iteration
// and its weights file (dir/checkpoints/iter-NNNNNN/weights.safetensors).
type RunCheckpoint struct {
	Iteration int
	Path      string
}

// RunCheckpoints lists the checkpoints of the training run folder dir in
// the order of their iterations (the points of a learning curve); an error
// names the folder when it holds none.
func RunCheckpoints(dir string) ([]RunCheckpoint, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "checkpoints", "iter-*", "weights.safetensors"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	var cps []RunCheckpoint
	for _, p := range paths {
		var it int
		name := filepath.Base(filepath.Dir(p))
		if _, err := fmt.Sscanf(name, "iter-%d", &it); err != nil || CheckpointName(it) != name {
			continue // not a checkpoint the trainer named
		}
		cps = append(cps, RunCheckpoint{Iteration: it, Path: p})
	}
	if len(cps) == 0 {
		return nil, fmt.Errorf("%s: not a training run folder with checkpoints (no %s)", dir, filepath.Join(dir, "checkpoints", "iter-*", "weights.safetensors"))
	}
	sort.Slice(cps, func(i, j int) bool { return cps[i].Iteration < cps[j].Iteration })
	return cps, nil
}

// LoadFor loads the network a bot spec names (WeightsPath) for game and the
// game config it was trained with (TrainedConfig).
func LoadFor(game, spec string) (*Net, rules.Config, error) {
	path, _, err := WeightsPath(spec)
	if err != nil {
		return nil, rules.Config{}, err
	}
	net, cfg, _, err := loadFor(game, path)
	return net, cfg, err
}

// loadFor is LoadFor on the weights file itself; it also returns the
// file's metadata.
func loadFor(game, path string) (*Net, rules.Config, map[string]string, error) {
	net, meta, err := Load(path)
	if err != nil {
		return nil, rules.Config{}, nil, err
	}
	if net.Arch.Game != game {
		return nil, rules.Config{}, nil, fmt.Errorf("%s: a network for %s, not %s", path, net.Arch.Game, game)
	}
	cfg, err := TrainedConfig(net, meta)
	if err != nil {
		return nil, rules.Config{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	return net, cfg, meta, nil
}

// TrainedConfig returns the config of the game a decoded network was
// trained on (the "params" of its metadata) and checks that the network
// fits that game's encoder under this encoding version.
func TrainedConfig(net *Net, meta map[string]string) (rules.Config, error) {
	g, err := rules.Lookup(net.Arch.Game)
	if err != nil {
		return rules.Config{}, err
	}
	params := map[string]string{}
	if p := meta["params"]; p != "" && p != "null" {
		if err := json.Unmarshal([]byte(p), &params); err != nil {
			return rules.Config{}, fmt.Errorf("metadata params: %w", err)
		}
	}
	cfg, err := g.Configure(params)
	if err != nil {
		return rules.Config{}, fmt.Errorf("trained with params %v: %w", params, err)
	}
	if err := net.Arch.Fits(g.Name, g.Encoder(cfg).Space()); err != nil {
		return rules.Config{}, err
	}
	return cfg, nil
}

// resolve makes weights files and run folders usable wherever a bot name is
// (tournaments, play, self-play): an Agent of the network, observing with
// the game parameters it was trained on, playing with the settings the
// weights store (PlayKey: greedy where they store none) overridden by the
// spec's own FILE[:temp=T][:seed=S][:steps=K] (SplitPlaySpecGiven,
// PlayGiven.Over): at a temperature T > 0 sampling with draws seeded by
// SeatSeed(S, seat) and the game's generator. The network is shared, read
// only, by every agent made from the entry.
func resolve(game, spec string) (agents.Entry, bool, error) {
	base, given, which, err := SplitPlaySpecGiven(spec)
	if err != nil {
		return agents.Entry{}, true, err // a malformed temp= or seed= setting
	}
	path, ok, err := WeightsPath(base)
	if !ok || err != nil {
		return agents.Entry{}, ok, err
	}
	net, cfg, meta, err := loadFor(game, path)
	if err != nil {
		return agents.Entry{}, true, err
	}
	stored, has, err := StoredPlay(meta)
	if err != nil {
		return agents.Entry{}, true, fmt.Errorf("%s: %w", path, err)
	}
	play := which.Over(stored, given)
	if play.Opening > 0 {
		if !rules.Opens(cfg) {
			return agents.Entry{}, true, fmt.Errorf("%s: opening=%d: %s has no scripted opening (rules.Opener); opening=0 lets the network place", spec, play.Opening, game)
		}
	}
	if play.Guard && !rules.Guards(cfg) {
		return agents.Entry{}, true, fmt.Errorf("%s: guard=1: %s has no scripted guard (rules.Guarder); guard=0 lets the network play every move", spec, game)
	}
	a := net.Arch
	how := "greedy"
	if play.Temperature > 0 {
		how = fmt.Sprintf("sampling at temperature %g, seed %d mixed with the seat and game", play.Temperature, play.Seed)
		if play.Steps > 0 {
			how += fmt.Sprintf(", in the first %d steps (greedy after)", play.Steps)
		}
	}
	if play.Opening > 0 {
		how += fmt.Sprintf(", the game's opening %d at the placement (drawn with seed %d mixed with the seat and game)", play.Opening, play.Seed)
	}
	if play.Guard {
		how += ", behind the game's scripted guard"
	}
	if has {
		how += fmt.Sprintf(" (%s)", Settings{Play: play, Stored: stored, HasStored: true, Given: which}.Note())
	}
	return agents.Entry{
		Game: game, Name: spec,
		Doc: fmt.Sprintf("trained network (%d filters × %d layers, hidden %d), %s", a.Filters, a.Layers, a.Hidden, how),
		New: func() agents.Agent {
			ag, _ := NewAgent(net, cfg, false) // cannot fail: LoadFor checked the shape
			ag.Temperature, ag.Seed, ag.TempSteps, ag.PerSeat = play.Temperature, play.Seed, play.Steps, true
			ag.Opening, ag.Guard = play.Opening, play.Guard
			return ag
		},
		Params: cfg.CarriedParams(),
	}, true, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
