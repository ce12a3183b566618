package neural_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
	_ "github.com/gridgym/gridgym/rules/bovine"
	_ "github.com/gridgym/gridgym/rules/nuggets"
	_ "github.com/gridgym/gridgym/rules/rectangle"
	_ "github.com/gridgym/gridgym/rules/risingtide"
	_ "github.com/gridgym/gridgym/rules/slime"
)

func newNet(t testing.TB, game string) (*neural.Net, rules.Config) {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	cfg := g.Default()
	arch, err := neural.NewArch(game, g.Encoder(cfg).Space(), 8, 2, 16)
	if err != nil {
		t.Fatal(err)
	}
	net, err := neural.NewInit(arch, rules.NewRNG(1))
	if err != nil {
		t.Fatal(err)
	}
	return net, cfg
}

// The file follows the public safetensors layout, read here byte by byte
// without the package's decoder: an 8-byte little-endian header length, a
// JSON header with dtype/shape/data_offsets per tensor and string metadata,
// then the raw little-endian float32 data.
func TestSafetensorsLayout(t *testing.T) {
	ts := []neural.Tensor{
		{Name: "a", Shape: []int{2, 3}, Data: []float32{1, 2, 3, 4, 5, 6}},
		{Name: "b", Shape: []int{1}, Data: []float32{-0.5}},
	}
	b, err := neural.EncodeSafetensors(ts, map[string]string{"game": "slime"})
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint64(b)
	var h map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &h); err != nil {
		t.Fatalf("header is not JSON: %v", err)
	}
	var meta map[string]string
	json.Unmarshal(h["__metadata__"], &meta)
	if meta["game"] != "slime" {
		t.Fatalf("metadata %v", meta)
	}
	var e struct {
		Dtype   string `json:"dtype"`
		Shape   []int  `json:"shape"`
		Offsets []int  `json:"data_offsets"`
	}
	json.Unmarshal(h["b"], &e)
	if e.Dtype != "F32" || len(e.Shape) != 1 || e.Offsets[0] != 24 || e.Offsets[1] != 28 {
		t.Fatalf("tensor b entry %+v, want F32 [1] at [24, 28]", e)
	}
	data := b[8+n:]
	if len(data) != 28 || math.Float32frombits(binary.LittleEndian.Uint32(data[24:])) != -0.5 ||
		math.Float32frombits(binary.LittleEndian.Uint32(data[4:])) != 2 {
		t.Fatalf("data section %v", data)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	net, _ := newNet(t, "rectangle")
	path := filepath.Join(t.TempDir(), "w.safetensors")
	if err := net.Save(path, map[string]string{"run": "x"}); err != nil {
		t.Fatal(err)
	}
	got, meta, err := neural.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Arch != net.Arch || meta["run"] != "x" || meta["game"] != "rectangle" {
		t.Fatalf("arch %+v meta %v", got.Arch, meta)
	}
	for i := range net.Values {
		if !equal(got.Values[i], net.Values[i]) {
			t.Fatalf("tensor %s differs after the round trip", net.Params[i].Name)
		}
	}
}

func equal(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// Corrupt files get an error that says what is wrong, never a panic.
func TestDecodeRejectsCorruptFiles(t *testing.T) {
	net, _ := newNet(t, "slime")
	good, err := neural.EncodeSafetensors(net.Tensors(), map[string]string{"arch": "{}"})
	if err != nil {
		t.Fatal(err)
	}
	huge := append([]byte{}, good...)
	binary.LittleEndian.PutUint64(huge, 1<<40)
	for name, b := range map[string][]byte{
		"empty":       nil,
		"short":       good[:5],
		"truncated":   good[:len(good)-3],
		"huge header": huge,
		"not json":    append([]byte{4, 0, 0, 0, 0, 0, 0, 0}, "abcd"...),
		"no arch":     good,
	} {
		if _, _, err := neural.Decode(b); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
}

func FuzzDecode(f *testing.F) {
	net, _ := newNet(f, "slime")
	good, _ := neural.EncodeSafetensors(net.Tensors()[:2], map[string]string{"k": "v"})
	f.Add(good)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		ts, _, err := neural.DecodeSafetensors(b)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes to a file that decodes to the same tensors.
		b2, err := neural.EncodeSafetensors(ts, nil)
		if err != nil {
			t.Fatal(err)
		}
		ts2, _, err := neural.DecodeSafetensors(b2)
		if err != nil || len(ts2) != len(ts) {
			t.Fatalf("re-encoded file does not decode: %v", err)
		}
	})
}

// The agent answers every position of random games with a legal move (or
// the game's pass when it has no legal action), greedy and sampling.
func TestAgentPlaysLegalMoves(t *testing.T) {
	for _, game := range rules.Names() {
		for _, sample := range []bool{false, true} {
			net, cfg := newNet(t, game)
			st := cfg.Game().New(cfg)
			seats := st.Spec().Seats
			bots := make([]*neural.Agent, seats)
			for s := range bots {
				a, err := neural.NewAgent(net, cfg, sample)
				if err != nil {
					t.Fatal(err)
				}
				a.Reset(st, s, rules.NewRNG(uint64(s)))
				bots[s] = a
			}
			moves := make([]rules.Move, seats)
			rng := rules.NewRNG(2)
			for step := 0; step < 60 && !st.Done(); step++ {
				for s := range moves {
					moves[s] = rules.Move{}
					if st.Active(s) {
						moves[s] = bots[s].Act(st)
						if moves[s] != (rules.Move{}) && !st.Legal(s, moves[s]) {
							t.Fatalf("%s: seat %d played illegal move %+v at step %d", game, s, moves[s], step)
						}
					}
				}
				st.Step(moves, rng)
			}
		}
	}
}

func TestForwardAllocatesNothing(t *testing.T) {
	net, _ := newNet(t, "rising-tide")
	for _, batch := range []int{1, 8, 64} {
		for _, procs := range []int{1, 2} {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			w := neural.NewWorkspace(net.Arch, batch)
			net.Forward(w, batch, nil, 0)
			// 20 calls: fewer than one object a call on average (a
			// parked worker's rare sudog is the runtime's, not Forward's).
			if n := testing.AllocsPerRun(20, func() { net.Forward(w, batch, nil, 0) }); n != 0 {
				t.Errorf("batch %d, %d cores: Forward allocates %v times per call", batch, procs, n)
			}
		}
	}
}

// Forward gives the same logits and values on one core and on two (the
// batch split over cores in whole chunks of images), for every game's
// shape and batch sizes that leave a partial chunk and a partial tile.
func TestForwardSameOnEveryCoreCount(t *testing.T) {
	for _, game := range []string{"slime", "rising-tide", "bovine-borders", "nuggets", "rectangle"} {
		for _, batch := range []int{1, 17, 64} {
			t.Run(fmt.Sprintf("%s/b%d", game, batch), func(t *testing.T) {
				net, _ := newNet(t, game)
				run := func(procs int) ([]float32, []float32) {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
					w := neural.NewWorkspace(net.Arch, batch)
					r := rules.NewRNG(uint64(batch))
					for i := range w.Input {
						w.Input[i] = float32(r.U(3))
					}
					net.Forward(w, batch, nil, 0)
					return w.Logits, w.Value
				}
				l1, v1 := run(1)
				l2, v2 := run(2)
				for i := range l1 {
					if d := math.Abs(float64(l1[i] - l2[i])); d > 1e-5 {
						t.Fatalf("logit %d: %v on one core, %v on two", i, l1[i], l2[i])
					}
				}
				for i := range v1 {
					if d := math.Abs(float64(v1[i] - v2[i])); d > 1e-5 {
						t.Fatalf("value %d: %v on one core, %v on two", i, v1[i], v2[i])
					}
				}
			})
		}
	}
}

// A run folder means the policy training pointed to: its best.safetensors
// where it wrote one (issue 52), else the checkpoint "latest" names, else
// its newest checkpoint; files are read as they are.
func TestRunFolderPrefersBest(t *testing.T) {
	net, _ := newNet(t, "slime")
	run := t.TempDir()
	for _, it := range []string{"iter-000002", "iter-000005"} {
		cp := filepath.Join(run, "checkpoints", it)
		if err := os.MkdirAll(cp, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := net.Save(filepath.Join(cp, "weights.safetensors"), nil); err != nil {
			t.Fatal(err)
		}
	}
	latest := filepath.Join(run, "checkpoints", "iter-000002", "weights.safetensors")
	newest := filepath.Join(run, "checkpoints", "iter-000005", "weights.safetensors")
	best := filepath.Join(run, "best.safetensors")
	check := func(what, want string) {
		t.Helper()
		if p := neural.RunFolderWeights(run); p != want {
			t.Errorf("%s: RunFolderWeights = %s, want %s", what, p, want)
		}
		if p, ok, err := neural.WeightsPath(run); p != want || !ok || err != nil {
			t.Errorf("%s: WeightsPath = %s, %v, %v; want %s", what, p, ok, err, want)
		}
	}
	check("no pointer, no best", newest)
	if err := os.WriteFile(filepath.Join(run, "latest"), []byte("iter-000002\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("latest, no best", latest)
	if err := net.Save(best, nil); err != nil {
		t.Fatal(err)
	}
	check("latest and best", best)
	if p, _, _ := neural.WeightsPath(latest); p != latest {
		t.Errorf("a weights file resolves to %s, not itself", p)
	}
	if p := neural.RunFolderWeights(filepath.Join(run, "checkpoints")); p != "" {
		t.Errorf("a folder that is no run folder: RunFolderWeights = %q", p)
	}
}

// RunCheckpoints lists a run folder's checkpoints by iteration, numbers
// past the name's six digits included and folders the trainer did not name
// left out; a folder without checkpoints is an error that names it.
func TestRunCheckpoints(t *testing.T) {
	net, _ := newNet(t, "slime")
	run := t.TempDir()
	for _, it := range []string{"iter-000100", "iter-000020", "iter-1000000", "iter-000003", "iter-x", "iter-20"} {
		cp := filepath.Join(run, "checkpoints", it)
		if err := os.MkdirAll(cp, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := net.Save(filepath.Join(cp, "weights.safetensors"), nil); err != nil {
			t.Fatal(err)
		}
	}
	cps, err := neural.RunCheckpoints(run)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, c := range cps {
		got = append(got, c.Iteration)
		if want := filepath.Join(run, "checkpoints", fmt.Sprintf("iter-%06d", c.Iteration), "weights.safetensors"); c.Path != want {
			t.Errorf("iteration %d: %s, want %s", c.Iteration, c.Path, want)
		}
	}
	if want := []int{3, 20, 100, 1000000}; !slices.Equal(got, want) {
		t.Errorf("iterations %v, want %v", got, want)
	}
	other := t.TempDir()
	if _, err := neural.RunCheckpoints(other); err == nil || !strings.Contains(err.Error(), other) {
		t.Errorf("no checkpoints: %v", err)
	}
}

// A network shaped for one game is refused by another, naming both shapes.
func TestAgentRefusesOtherGame(t *testing.T) {
	net, _ := newNet(t, "slime")
	g, _ := rules.Lookup("nuggets")
	_, err := neural.NewAgent(net, g.Default(), false)
	if err == nil || !strings.Contains(err.Error(), "slime") || !strings.Contains(err.Error(), "nuggets") {
		t.Fatalf("err = %v", err)
	}
}

// Weights files and run folders are bots wherever a bot name is accepted
// (agents.Lookup), and bad specs get errors that say what is wrong.
func TestWeightsAreBots(t *testing.T) {
	net, cfg := newNet(t, "slime")
	dir := t.TempDir()
	file := filepath.Join(dir, "w.safetensors")
	if err := net.Save(file, map[string]string{"params": `{"max_turns":"300"}`}); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	cp := filepath.Join(run, "checkpoints", "iter-000007")
	if err := os.MkdirAll(cp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := net.Save(filepath.Join(cp, "weights.safetensors"), nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, "latest"), []byte("iter-000007\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{file, run} {
		e, err := agents.Lookup("slime", spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		st := cfg.Game().New(cfg)
		a := e.New()
		a.Reset(st, 0, rules.NewRNG(1))
		if m := a.Act(st); !st.Legal(0, m) {
			t.Fatalf("%s: illegal first move %v", spec, m)
		}
	}
	// A run folder without its pointer "latest" (issue 27: export refused
	// one) resolves to its newest checkpoint (TestRunFolderPrefersBest:
	// best.safetensors first).
	if err := os.Remove(filepath.Join(run, "latest")); err != nil {
		t.Fatal(err)
	}
	older := filepath.Join(run, "checkpoints", "iter-000002")
	if err := os.MkdirAll(older, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := net.Save(filepath.Join(older, "weights.safetensors"), nil); err != nil {
		t.Fatal(err)
	}
	if p, ok, err := neural.WeightsPath(run); err != nil || !ok || p != filepath.Join(cp, "weights.safetensors") {
		t.Errorf("run folder without latest: WeightsPath = %s, %v, %v; want iter-000007's weights", p, ok, err)
	}
	if p, ok, err := neural.WeightsPath(older); err != nil || !ok || p != filepath.Join(older, "weights.safetensors") {
		t.Errorf("checkpoint folder: WeightsPath = %s, %v, %v; want its own weights", p, ok, err)
	}
	if err := os.RemoveAll(filepath.Join(run, "checkpoints")); err != nil {
		t.Fatal(err)
	}
	if err := net.Save(filepath.Join(run, "best.safetensors"), nil); err != nil {
		t.Fatal(err)
	}
	if p, ok, err := neural.WeightsPath(run); err != nil || !ok || p != filepath.Join(run, "best.safetensors") {
		t.Errorf("run folder with only best.safetensors: WeightsPath = %s, %v, %v", p, ok, err)
	}
	if _, c, err := neural.LoadFor("slime", file); err != nil || c.String() == cfg.String() {
		t.Fatalf("LoadFor should configure the game as trained (max_turns=300): %v %s", err, c.String())
	}
	for _, tc := range []struct{ game, spec, want string }{
		{"bovine-borders", file, "network for slime"},
		{"slime", filepath.Join(dir, "missing.safetensors"), "no such file"},
		{"slime", dir, "neither a .safetensors file, a checkpoint folder nor a training run folder"},
		{"slime", filepath.Join(dir, "nothing-here"), "no such weights file or run folder"},
		{"slime", "deep_blue", "unknown bot"},
	} {
		if _, err := agents.Lookup(tc.game, tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Lookup(%s, %s) = %v, want an error mentioning %q", tc.game, tc.spec, err, tc.want)
		}
	}
}

// FillInput lays out the input channels as the architecture doc says: the
// planes as floats, one constant channel per scalar, then (Coords) the row
// r/(H−1) and the column c/(W−1) of every cell.
func TestFillInputLayout(t *testing.T) {
	for _, game := range []string{"nuggets", "slime"} {
		net, cfg := newNet(t, game)
		a := net.Arch
		a.Coords = true
		sp := cfg.Game().Encoder(cfg).Space()
		planes := make([]uint8, sp.ObsSize())
		for i := range planes {
			planes[i] = uint8(i % 3)
		}
		scalars := make([]float32, sp.Scalars)
		for i := range scalars {
			scalars[i] = float32(i) + 0.5
		}
		dst := make([]float32, a.InputSize())
		neural.FillInput(a, dst, planes, scalars)
		hw := a.Height * a.Width
		for i, b := range planes {
			if dst[i] != float32(b) {
				t.Fatalf("%s: input %d = %v, plane byte %d", game, i, dst[i], b)
			}
		}
		for s := range scalars {
			for i := 0; i < hw; i++ {
				if got := dst[(a.Planes+s)*hw+i]; got != scalars[s] {
					t.Fatalf("%s: scalar channel %d cell %d = %v, want %v", game, s, i, got, scalars[s])
				}
			}
		}
		base := (a.Planes + a.Scalars) * hw
		for r := 0; r < a.Height; r++ {
			for c := 0; c < a.Width; c++ {
				i := r*a.Width + c
				if got, want := dst[base+i], float32(r)/float32(a.Height-1); got != want {
					t.Fatalf("%s: row channel at (%d,%d) = %v, want %v", game, r, c, got, want)
				}
				if got, want := dst[base+hw+i], float32(c)/float32(a.Width-1); got != want {
					t.Fatalf("%s: column channel at (%d,%d) = %v, want %v", game, r, c, got, want)
				}
			}
		}
	}
}

// agentAt returns newNet's network for game, a greedy agent playing it, and
// the game's position after 5 steps of random moves drawn with seed.
func agentAt(t *testing.T, game string, seed uint64) (*neural.Net, *neural.Agent, rules.State) {
	t.Helper()
	net, cfg := newNet(t, game)
	st := cfg.Game().New(cfg)
	rng := rules.NewRNG(seed)
	moves := make([]rules.Move, st.Spec().Seats)
	for i := 0; i < 5 && !st.Done(); i++ {
		for s := range moves {
			moves[s] = rules.Move{}
			if st.Active(s) {
				moves[s] = st.RandomMove(s, rng)
			}
		}
		st.Step(moves, rng)
	}
	a, err := neural.NewAgent(net, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	return net, a, st
}

// TestEvaluate: Evaluate is the value head on the seat's own observation (a
// direct Forward of it), within −1..1, and does not change the agent's moves.
func TestEvaluate(t *testing.T) {
	for _, game := range rules.Names() {
		net, a, st := agentAt(t, game, 3)
		moves := make([]rules.Move, st.Spec().Seats)
		enc, sp := a.Enc, a.Enc.Space()
		w := neural.NewWorkspace(net.Arch, 1)
		planes, scalars := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars)
		for s := range moves {
			if !st.Active(s) {
				continue
			}
			a.Reset(st, s, nil)
			before := a.Act(st)
			v := a.Evaluate(st, (s+1)%len(moves))
			if after := a.Act(st); after != before {
				t.Errorf("%s seat %d: move %+v after Evaluate, %+v before", game, s, after, before)
			}
			enc.Observe(st, (s+1)%len(moves), planes, scalars)
			neural.FillInput(net.Arch, w.Input, planes, scalars)
			net.Forward(w, 1, nil, 0)
			if want := float64(w.Value[0]); v != want || v < -1 || v > 1 {
				t.Errorf("%s: Evaluate for seat %d = %v, want the value head's %v (in −1..1)", game, (s+1)%len(moves), v, want)
			}
		}
	}
}

// TestRank: Rank's moves are legal and distinct, the first is the greedy
// move Act plays, and in one-head games they come in the order of their
// masked logits; ranking allocates nothing once dst has room.
func TestRank(t *testing.T) {
	for _, game := range rules.Names() {
		net, a, st := agentAt(t, game, 4)
		moves := make([]rules.Move, st.Spec().Seats)
		sp := a.Enc.Space()
		w := neural.NewWorkspace(net.Arch, 1)
		planes, scalars := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars)
		mask, acts := make([]uint64, sp.MaskWords()), make([]int32, sp.Heads)
		for s := range moves {
			if !st.Active(s) {
				continue
			}
			a.Reset(st, s, nil)
			ranked := a.Rank(st, 6, nil)
			if len(ranked) < 2 || ranked[0] != a.Act(st) {
				t.Fatalf("%s seat %d: ranked %v, want at least 2 moves, the greedy %+v first", game, s, ranked, a.Act(st))
			}
			a.Enc.Observe(st, s, planes, scalars)
			a.Enc.Mask(st, s, mask)
			neural.FillInput(net.Arch, w.Input, planes, scalars)
			net.Forward(w, 1, mask, len(mask))
			prev := float32(math.Inf(1))
			for i, m := range ranked {
				if !st.Legal(s, m) || slices.Contains(ranked[:i], m) {
					t.Errorf("%s seat %d: ranked move %d %+v illegal or repeated", game, s, i, m)
				}
				if sp.Heads == 1 && a.Enc.Encode(st, s, m, acts) {
					if l := w.Logits[acts[0]]; l > prev {
						t.Errorf("%s seat %d: ranked move %d has logit %v above the one before (%v)", game, s, i, l, prev)
					} else {
						prev = l
					}
				}
			}
			buf := make([]rules.Move, 0, 16)
			if n := testing.AllocsPerRun(20, func() { a.Rank(st, 6, buf[:0]) }); n != 0 {
				t.Errorf("%s: Rank allocates %v times", game, n)
			}
		}
	}
}

// JointLogProb sums each head's log-softmax at its action, and skips a head
// whose action is out of range or whose logit is masked (−Inf: nothing
// legal on that head), as the trainer stores a decision's log-probability.
func TestJointLogProb(t *testing.T) {
	inf := float32(math.Inf(-1))
	logits := []float32{
		0, math.Ln2, inf, // head 0: softmax (1/3, 2/3, 0)
		inf, inf, inf, // head 1: nothing legal
		1, 1, 1, // head 2: uniform
	}
	for _, c := range []struct {
		acts []int32
		want float64
	}{
		{[]int32{1, 0, 2}, math.Log(2.0/3) + math.Log(1.0/3)},
		{[]int32{0, 2, 0}, math.Log(1.0/3) + math.Log(1.0/3)},
		{[]int32{2, 0, 1}, math.Log(1.0 / 3)}, // head 0's action is masked
		{[]int32{-1, 0, 3}, 0},                // out of range on heads 0 and 2
	} {
		if got := neural.JointLogProb(logits, 3, c.acts); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("acts %v: %v, want %v", c.acts, got, c.want)
		}
	}
}

// WithPlanes: the grown network (Bovine Borders with frontier_planes, coords
// on and off) gives on the observation with the new planes exactly the
// logits and value the old one gives on the observation without them, its
// other parameters are copied, and any other change of shape is refused.
func TestWithPlanes(t *testing.T) {
	g, _ := rules.Lookup("bovine-borders")
	def := g.Default()
	wide, err := g.Configure(map[string]string{"frontier_planes": "true"})
	if err != nil {
		t.Fatal(err)
	}
	for _, coords := range []bool{false, true} {
		old, _ := neural.NewArch(g.Name, g.Encoder(def).Space(), 8, 2, 16)
		old.Coords = coords
		net, err := neural.NewInit(old, rules.NewRNG(3))
		if err != nil {
			t.Fatal(err)
		}
		arch, _ := neural.NewArch(g.Name, g.Encoder(wide).Space(), 8, 2, 16)
		arch.Coords = coords
		grown, err := net.WithPlanes(arch)
		if err != nil {
			t.Fatal(err)
		}
		st := g.New(def)
		rng := rules.NewRNG(9)
		m := make([]rules.Move, 4)
		for range 40 {
			rules.RandomMover(st, rng, m)
			st.Step(m, rng)
		}
		run := func(n *neural.Net, cfg rules.Config) ([]float32, []float32) {
			sp := g.Encoder(cfg).Space()
			planes, scalars := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars)
			g.Encoder(cfg).Observe(st, 1, planes, scalars)
			w := neural.NewWorkspace(n.Arch, 1)
			neural.FillInput(n.Arch, w.Input, planes, scalars)
			n.Forward(w, 1, nil, 0)
			return w.Logits, w.Value
		}
		l0, v0 := run(net, def)
		l1, v1 := run(grown, wide)
		if !equal(l0, l1) || !equal(v0, v1) {
			t.Fatalf("coords %v: the grown network plays otherwise (value %v, want %v)", coords, v1, v0)
		}
		if !equal(net.Param("hidden.w"), grown.Param("hidden.w")) || !equal(net.Param("trunk1.w"), grown.Param("trunk1.w")) {
			t.Errorf("coords %v: parameters after the first layer not copied", coords)
		}
		// A nonzero weight on a new plane changes what it plays: the planes
		// reach the network.
		w := grown.Param("trunk0.w")
		for f := 0; f < arch.Filters; f++ {
			for k := 0; k < 9; k++ {
				w[(f*arch.Cin()+old.Planes)*9+k] = 0.5
			}
		}
		if l2, _ := run(grown, wide); equal(l0, l2) {
			t.Errorf("coords %v: a weight on the new plane changed nothing", coords)
		}
		bad := arch
		bad.Filters++
		if _, err := net.WithPlanes(bad); err == nil {
			t.Errorf("coords %v: grown to another filter count", coords)
		}
		if _, err := net.WithPlanes(old); err == nil {
			t.Errorf("coords %v: grown by no plane", coords)
		}
	}
}
