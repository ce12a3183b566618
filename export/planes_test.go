package export_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/nuggets"
	"github.com/gridgym/gridgym/rules/rectangle"
)

// planesDriver runs an exported bot's own feature code on request lines
// (JSON arrays of the entry point's arguments) and prints, per line, the
// planes and scalars its observe() builds. argv[2] is the game's Python
// expression of observe's result from the arguments a.
const planesDriver = `
import json, sys
g = {"__name__": "gridgym_bot"}
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), g)
for line in sys.stdin:
    g["a"] = json.loads(line)
    planes, scalars = eval(sys.argv[2], g)
    print(json.dumps({"planes": planes.astype(int).ravel().tolist(), "scalars": [float(x) for x in scalars]}))
`

// planePos is one position of a planes parity test: Go's observation and
// the request that the Python bot turns into its own.
type planePos struct {
	planes  []uint8
	scalars []float32
	req     []byte
}

// comparePlanes runs the exported bot of game on the positions' requests
// and fails at the first plane byte or scalar that differs from Go's.
func comparePlanes(t *testing.T, game, observe string, sp rules.Space, ps []planePos) {
	t.Helper()
	_, bot := pythonBot(t, game, 3)
	var in bytes.Buffer
	for _, p := range ps {
		in.Write(p.req)
		in.WriteByte('\n')
	}
	cmd := exec.Command(python, "-c", planesDriver, bot, observe)
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
		var got struct {
			Planes  []int     `json:"planes"`
			Scalars []float64 `json:"scalars"`
		}
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		p := ps[i]
		for j, v := range got.Planes {
			if j >= len(p.planes) || int(p.planes[j]) != v {
				cell := j % hw
				t.Fatalf("position %d: plane %s cell (row %d, column %d): Python %d, Go %d\nrequest %s",
					i, sp.PlaneNames[min(j/hw, sp.Planes-1)], cell/sp.Width, cell%sp.Width, v, p.planes[min(j, len(p.planes)-1)], p.req)
			}
		}
		if len(got.Planes) != len(p.planes) || fmt.Sprint(got.Scalars) != fmt.Sprint(float32sTo64(p.scalars)) {
			t.Fatalf("position %d: %d planes / scalars %v, Go %d / %v", i, len(got.Planes), got.Scalars, len(p.planes), p.scalars)
		}
	}
	if i != len(ps) {
		t.Fatalf("python answered %d of %d\n%s", i, len(ps), stderr.String())
	}
}

// scriptedPositions plays games of the registered bots names (seat order)
// at cfg's defaults and keeps every seat's observation and request at every
// every-th step, until it has n positions; marked counts the positions
// whose planes mark reports.
func scriptedPositions(t *testing.T, g *rules.Game, names []string, n, every int, mark func(planes []uint8) bool) (ps []planePos, marked int) {
	t.Helper()
	cfg := g.Default()
	enc := g.Encoder(cfg)
	sp := enc.Space()
	for game := 0; len(ps) < n; game++ {
		st := g.New(cfg)
		bots := make([]agents.Agent, len(names))
		for i, name := range names {
			e, err := agents.Lookup(g.Name, name)
			if err != nil {
				t.Fatal(err)
			}
			bots[i] = e.New()
			bots[i].Reset(st, i, rules.Derive(uint64(game), uint64(i)))
		}
		rng := rules.NewRNG(uint64(game))
		moves := make([]rules.Move, len(bots))
		for step := 0; !st.Done() && len(ps) < n; step++ {
			if step%every == game%every {
				for seat := range bots {
					p := planePos{planes: make([]uint8, sp.ObsSize()), scalars: make([]float32, sp.Scalars)}
					enc.Observe(st, seat, p.planes, p.scalars)
					p.req = g.Codec.AppendRequest(nil, st, seat)
					if mark(p.planes) {
						marked++
					}
					ps = append(ps, p)
				}
			}
			for i, b := range bots {
				moves[i] = b.Act(st)
			}
			st.Step(moves, rng)
		}
	}
	return ps, marked
}

// TestNuggetsPlanesParity: the exported bot's NumPy observe() equals
// Encoder.Observe, greedy_best (the one-ply evaluation, the part with real
// logic) included, in positions of games between the scripted bots.
func TestNuggetsPlanesParity(t *testing.T) {
	needPython(t)
	g, _ := rules.Lookup("nuggets")
	sp := g.Encoder(g.Default()).Space()
	ps, several := scriptedPositions(t, g, []string{"greedy_tuned", "greedy", "random", "greedy_tuned"}, 800, 3, func(planes []uint8) bool {
		n := bytes.Count(planes[nuggets.PlaneGreedyBest*nuggets.Cells:(nuggets.PlaneGreedyBest+1)*nuggets.Cells], []byte{1})
		return n > 1 && n < 50
	})
	if several < 100 {
		t.Fatalf("only %d of %d positions have a few tied best squares: the test would prove little", several, len(ps))
	}
	comparePlanes(t, "nuggets", "observe(_read_board(a[0]), _read_move_num(a[1]))", sp, ps)
	t.Logf("%d positions equal (%d with 2..49 best squares)", len(ps), several)
}

// TestRectanglePlanesParity: the exported bot's NumPy observe() equals
// Encoder.Observe plane for plane, the plan and step planes (rectangle.Plans,
// the part with real logic) included, in positions of games between the
// scripted bots, which draw and contest squares as trained bots do.
func TestRectanglePlanesParity(t *testing.T) {
	needPython(t)
	g, _ := rules.Lookup(rectangle.Name)
	cfg := g.Default()
	enc := g.Encoder(cfg)
	sp := enc.Space()
	ps, planned := scriptedPositions(t, g, []string{"planner", "boxer", "random", "planner"}, 600, 7, func(planes []uint8) bool {
		return bytes.IndexByte(planes[(2*4+4+1)*400:], 2) >= 0 // a plan with a target
	})
	rng := rules.NewRNG(5)
	// Synthetic positions: random paint in blobs and robots on random cells,
	// so that robots often stand on their own target (the wait rule) and
	// robots of other players on targets (the last-resort targets).
	for k := 0; k < 400; k++ {
		st := g.New(cfg).(*rectangle.State)
		for r := 0; r < 20; r++ {
			for c := 0; c < 20; c++ {
				v := rectangle.Unpainted
				switch x := rng.U(100); {
				case x < 4:
					v = rectangle.Unpaintable
				case x < 40:
					v = (r/4 + c/5 + k) % 4 // blobs of one colour
				}
				st.SetCell(r, c, v)
			}
		}
		for seat := 0; seat < 4; seat++ {
			r, c := rng.U(20), rng.U(20)
			stack := rng.U(3) == 0 // all on one cell, as R9 parks a failed bot's
			for i := 0; i < 4; i++ {
				if !stack {
					r, c = rng.U(20), rng.U(20)
				}
				st.SetRobot(seat, i, r, c)
			}
		}
		st.SetClock(1+rng.U(1999), 0)
		seat := rng.U(4)
		p := planePos{planes: make([]uint8, sp.ObsSize()), scalars: make([]float32, sp.Scalars)}
		enc.Observe(st, seat, p.planes, p.scalars)
		p.req = g.Codec.AppendRequest(nil, st, seat)
		ps = append(ps, p)
	}
	if planned < 300 {
		t.Fatalf("only %d of %d positions have a plan target: the test would prove little", planned, len(ps))
	}
	comparePlanes(t, rectangle.Name, "observe(*_read_request(*a))", sp, ps)
	t.Logf("%d positions equal (%d with a plan target)", len(ps), planned)
}

func float32sTo64(s []float32) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}
