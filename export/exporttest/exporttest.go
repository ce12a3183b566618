// Package exporttest runs exported bots in tests. Package export's parity
// tests run on every registered game with it, and a game's own tests use
// it for what is particular to the game (rules/rectangle's synthetic
// positions, rules/slime's malformed requests): an exported bot of a
// random network, run through agents/host's host.py as the competition
// calls it, answers as the Go policy, and its own feature code builds
// exactly the Go encoder's planes.
package exporttest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/host"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/export"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train"
)

// Python is the interpreter the exported bots run with in tests: the
// system Python with Debian's python3-numpy (scripts/test installs it).
const Python = "/usr/bin/python3"

// Target is game's exported entry point (the zero Target for none).
func Target(game string) export.Target {
	t, _ := export.TargetOf(game)
	return t
}

// NeedPython skips the test when GRIDGYM_SKIP_PYTHON is set and fails it
// without Python, or without NumPy unless game's bot is Pure ("" = any
// game: NumPy needed).
func NeedPython(t testing.TB, game string) {
	t.Helper()
	if os.Getenv("GRIDGYM_SKIP_PYTHON") != "" {
		t.Skip("GRIDGYM_SKIP_PYTHON is set")
	}
	if game != "" && Target(game).Pure {
		if out, err := exec.Command(Python, "-c", "pass").CombinedOutput(); err != nil {
			t.Fatalf("%s is needed for the exported-bot tests: %v\n%s", Python, err, out)
		}
		return
	}
	if out, err := exec.Command(Python, "-c", "import numpy").CombinedOutput(); err != nil {
		t.Fatalf("%s with NumPy is needed for the exported-bot tests (Debian: apt-get install python3-numpy; scripts/test does it): %v\n%s", Python, err, out)
	}
}

// RandomNet returns a seeded random network for game (random weights make
// the policy's choices diverse, which is what parity needs) in the shape of
// the game's default training config (so the latencies logged are those of
// real exported bots), and its safetensors bytes and metadata.
func RandomNet(t testing.TB, game string, seed uint64) (*neural.Net, []byte, map[string]string) {
	t.Helper()
	return RandomNetParams(t, game, nil, seed)
}

// RandomNetFile writes RandomNet(game, seed)'s weights to dir/GAME.safetensors
// and returns the path: a network to export.
func RandomNetFile(t testing.TB, dir, game string, seed uint64) string {
	t.Helper()
	_, p := RandomNetInFile(t, dir, game, seed)
	return p
}

// RandomNetInFile is RandomNet(game, seed) and the path RandomNetFile
// writes its weights to: the network a test plays and the file it
// exports, made once.
func RandomNetInFile(t testing.TB, dir, game string, seed uint64) (*neural.Net, string) {
	t.Helper()
	net, w, _ := RandomNet(t, game, seed)
	p := filepath.Join(dir, game+".safetensors")
	if err := os.WriteFile(p, w, 0o644); err != nil {
		t.Fatal(err)
	}
	return net, p
}

// RandomNetParams is RandomNet for the game parameters params (nil: the
// defaults), which the metadata carries as a trained network's do.
func RandomNetParams(t testing.TB, game string, params map[string]string, seed uint64) (*neural.Net, []byte, map[string]string) {
	t.Helper()
	cfg, err := train.DefaultConfig(game)
	if err != nil {
		t.Fatal(err)
	}
	if params == nil {
		params = map[string]string{}
	}
	cfg.Params = params
	pj, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	arch, err := cfg.Arch()
	if err != nil {
		t.Fatal(err)
	}
	net, err := neural.NewInit(arch, rules.NewRNG(seed))
	if err != nil {
		t.Fatal(err)
	}
	meta := map[string]string{"params": string(pj), "run": "parity-test", "encoding": fmt.Sprint(arch.Encoding)}
	p := filepath.Join(t.TempDir(), "w.safetensors")
	if err := net.Save(p, meta); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, meta, err = neural.Decode(b); err != nil {
		t.Fatal(err)
	}
	return net, b, meta
}

// Bot writes the exported Python bot of RandomNet(game, seed) with
// play-time sampling p, and returns the network and the file.
func Bot(t testing.TB, game string, seed uint64, p export.Play) (*neural.Net, string) {
	t.Helper()
	return BotParams(t, game, nil, seed, p)
}

// BotParams is Bot for the game parameters params (RandomNetParams).
func BotParams(t testing.TB, game string, params map[string]string, seed uint64, p export.Play) (*neural.Net, string) {
	t.Helper()
	net, w, meta := RandomNetParams(t, game, params, seed)
	src, err := export.PythonBotPlay(game, w, meta, p)
	if err != nil {
		t.Fatal(err)
	}
	bot := filepath.Join(t.TempDir(), Target(game).File)
	if err := os.WriteFile(bot, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return net, bot
}

// Result is one answer line of agents/host's host.py.
type Result struct {
	Answer json.RawMessage `json:"answer"`
	Error  string          `json:"error"`
	US     int64           `json:"us"` // the call's time, µs
}

// Run runs the exported bot file of game on request lines (JSON arrays of
// its entry point's arguments) in one host.py process, which passes them in
// the competition's Python types (rules.Competition.Args) and tags the
// answers as package pyval reads them.
func Run(t testing.TB, game, bot string, requests [][]byte) []Result {
	t.Helper()
	mode := "plain"
	if c, ok := host.CompetitionOf(game); ok && c.Args != "" {
		mode = c.Args
	}
	var in bytes.Buffer
	for i, r := range requests {
		fmt.Fprintf(&in, "{\"id\": %d, \"args\": %s}\n", i, r)
	}
	cmd := exec.Command(Python, "-c", host.Script(), "--args", mode, bot, Target(game).Entry)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("host.py: %v\n%s%s", err, out, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	if !sc.Scan() || !bytes.Contains(sc.Bytes(), []byte(`"ready": true`)) {
		t.Fatalf("host.py did not get ready: %q\n%s", sc.Text(), stderr.String())
	}
	var res []Result
	for sc.Scan() {
		var r Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("host.py output %q: %v", sc.Text(), err)
		}
		res = append(res, r)
	}
	if len(res) != len(requests) {
		t.Fatalf("host.py answered %d of %d requests\n%s", len(res), len(requests), stderr.String())
	}
	return res
}

// program reports whether g's competition runs a program with the request
// as its last argument (rules.ProgramRun) rather than calling a function.
func program(g *rules.Game) bool {
	return g.Competition != nil && g.Competition.Protocol == rules.ProgramRun
}

// Request returns the entry point's argument list (JSON) for seat in st:
// the codec's request, which for a program competition is the one
// command-line argument.
func Request(g *rules.Game, st rules.State, seat int) []byte {
	req := g.Codec.AppendRequest(nil, st, seat)
	if program(g) {
		b, _ := json.Marshal([]string{string(req)})
		return b
	}
	return req
}

// Answer returns what g's codec parses of a host.py answer: a program's
// standard output, or the tagged Python value of a function's answer.
func Answer(g *rules.Game, ans json.RawMessage) []byte {
	if program(g) {
		var s string
		if json.Unmarshal(ans, &s) != nil {
			return nil
		}
		return []byte(s)
	}
	return ans
}

// Position is one (state, seat) a parity test asks about, with the Go
// policy's move.
type Position struct {
	St   rules.State
	Seat int
	Want rules.Move
}

// Positions plays random games of cfg and returns n positions where the
// seat is active, each with the move of the Go policy of net playing with
// settings p (seed p.Seed as it is, not mixed with the seat: an exported
// bot is told no seat).
func Positions(t testing.TB, cfg rules.Config, net *neural.Net, p neural.Play, n int, seed uint64) []Position {
	t.Helper()
	g := cfg.Game()
	policy, err := neural.NewAgent(net, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	policy.Temperature, policy.Seed, policy.TempSteps, policy.Opening, policy.Guard = p.Temperature, p.Seed, p.Steps, p.Opening, p.Guard
	rng := rules.NewRNG(seed)
	var out []Position
	for game := 0; len(out) < n; game++ {
		st := g.New(cfg)
		spec := st.Spec()
		moves := make([]rules.Move, spec.Seats)
		keep := 1 + rng.U(6) // sample every keep-th step of this game
		for step := 0; !st.Done() && len(out) < n && step < 3000; step++ {
			if step%keep == 0 {
				for s := 0; s < spec.Seats; s++ {
					if !st.Active(s) {
						continue
					}
					policy.Reset(st, s, nil)
					out = append(out, Position{St: st.Clone(), Seat: s, Want: policy.Act(st)})
				}
			}
			for s := range moves {
				moves[s] = st.RandomMove(s, rng)
			}
			st.Step(moves, rng)
		}
	}
	return out[:n]
}

// Percentile returns the p-quantile (0..1) of us.
func Percentile(us []int64, p float64) int64 {
	s := slices.Clone(us)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// Planes is one position of a planes parity test: Go's observation of it
// and the request that the Python bot turns into its own.
type Planes struct {
	Planes  []uint8
	Scalars []float32
	Request []byte // the entry point's argument list (Request)
}

// Observe returns seat's Planes in st under enc, an encoder of g.
func Observe(g *rules.Game, enc rules.Encoder, st rules.State, seat int) Planes {
	sp := enc.Space()
	p := Planes{Planes: make([]uint8, sp.ObsSize()), Scalars: make([]float32, sp.Scalars), Request: Request(g, st, seat)}
	enc.Observe(st, seat, p.Planes, p.Scalars)
	return p
}

// ScriptedPlanes plays games of g's registered bots names (cycled over the
// seats) at g's defaults and keeps every active seat's Planes at every
// every-th step, until it has n; marked counts those for which mark reports
// true.
func ScriptedPlanes(t testing.TB, g *rules.Game, names []string, n, every int, mark func(planes []uint8) bool) (ps []Planes, marked int) {
	t.Helper()
	return ScriptedPlanesParams(t, g, nil, names, n, every, mark)
}

// ScriptedPlanesParams is ScriptedPlanes for the game parameters params.
func ScriptedPlanesParams(t testing.TB, g *rules.Game, params map[string]string, names []string, n, every int, mark func(planes []uint8) bool) (ps []Planes, marked int) {
	t.Helper()
	cfg, err := g.Configure(params)
	if err != nil {
		t.Fatal(err)
	}
	enc := g.Encoder(cfg)
	for game := 0; len(ps) < n; game++ {
		st := g.New(cfg)
		seats := st.Spec().Seats
		bots := make([]agents.Agent, seats)
		for i := range bots {
			e, err := agents.Lookup(g.Name, names[i%len(names)])
			if err != nil {
				t.Fatal(err)
			}
			bots[i] = e.New()
			bots[i].Reset(st, i, rules.Derive(uint64(game), uint64(i)))
		}
		rng := rules.NewRNG(uint64(game))
		moves := make([]rules.Move, seats)
		for step := 0; !st.Done() && len(ps) < n; step++ {
			if step%every == game%every {
				for seat := range bots {
					if !st.Active(seat) {
						continue
					}
					p := Observe(g, enc, st, seat)
					if mark(p.Planes) {
						marked++
					}
					ps = append(ps, p)
				}
			}
			for i, b := range bots {
				moves[i] = rules.Move{}
				if st.Active(i) {
					moves[i] = b.Act(st)
				}
			}
			st.Step(moves, rng)
		}
	}
	return ps, marked
}

// planesDriver runs an exported bot's entry point (argv[2]) on request
// lines (JSON arrays of its arguments) with the shared network's
// net_logits (export/py/common.py) wrapped, and prints per line the planes
// and scalars of the entry point's first call of it — what the game's own
// feature code built — or null where the bot did not ask the network.
const planesDriver = `
import json, sys
g = {"__name__": "gridgym_bot"}
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), g)
entry, net_logits, seen = g[sys.argv[2]], g["net_logits"], []
def recorded(planes, scalars):
    seen.append((planes, scalars))
    return net_logits(planes, scalars)
g["net_logits"] = recorded
for line in sys.stdin:
    del seen[:]
    entry(*json.loads(line))
    if not seen:
        print("null")
        continue
    planes, scalars = seen[0]
    print(json.dumps({"planes": planes.astype(int).ravel().tolist(), "scalars": [float(x) for x in scalars]}))
`

// ComparePlanes runs the exported NumPy bot of game (not a Pure one) on the
// positions' requests and fails at the first plane byte or scalar that
// differs from Go's. It returns how many positions were compared: those
// where the bot asked its network (one without a legal move may not).
func ComparePlanes(t testing.TB, game string, ps []Planes) (compared int) {
	t.Helper()
	return ComparePlanesParams(t, game, nil, ps)
}

// ComparePlanesParams is ComparePlanes for the game parameters params (the
// positions' planes observed under them).
func ComparePlanesParams(t testing.TB, game string, params map[string]string, ps []Planes) (compared int) {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := g.Configure(params)
	if err != nil {
		t.Fatal(err)
	}
	sp := g.Encoder(cfg).Space()
	_, bot := BotParams(t, game, params, 3, export.Play{})
	var in bytes.Buffer
	for _, p := range ps {
		in.Write(p.Request)
		in.WriteByte('\n')
	}
	cmd := exec.Command(Python, "-c", planesDriver, bot, Target(game).Entry)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<22), 1<<22)
	hw := sp.Height * sp.Width
	i := 0
	for ; sc.Scan(); i++ {
		if i >= len(ps) {
			t.Fatalf("python answered more lines than the %d requests", len(ps))
		}
		if sc.Text() == "null" {
			continue
		}
		var got struct {
			Planes  []int     `json:"planes"`
			Scalars []float64 `json:"scalars"`
		}
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		p := ps[i]
		for j, v := range got.Planes {
			if j >= len(p.Planes) || int(p.Planes[j]) != v {
				cell := j % hw
				t.Fatalf("position %d: plane %s cell (row %d, column %d): Python %d, Go %d\nrequest %s",
					i, sp.PlaneNames[min(j/hw, sp.Planes-1)], cell/sp.Width, cell%sp.Width, v, p.Planes[min(j, len(p.Planes)-1)], p.Request)
			}
		}
		if len(got.Planes) != len(p.Planes) || fmt.Sprint(got.Scalars) != fmt.Sprint(float32sTo64(p.Scalars)) {
			t.Fatalf("position %d: %d planes / scalars %v, Go %d / %v", i, len(got.Planes), got.Scalars, len(p.Planes), p.Scalars)
		}
		compared++
	}
	if i != len(ps) {
		t.Fatalf("python answered %d of %d\n%s", i, len(ps), stderr.String())
	}
	return compared
}

func float32sTo64(s []float32) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}
