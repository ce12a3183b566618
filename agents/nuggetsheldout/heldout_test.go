package nuggetsheldout

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/agentstest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/nuggets"
)

var names = []string{"quad_quinn", "actuary_ada", "hunter_hana", "appraiser_april"}

func config(t *testing.T, kv map[string]string) rules.Config {
	return agentstest.Config(t, nuggets.Name, kv)
}

func fresh(t *testing.T, name string) agents.Agent { return agentstest.Fresh(t, nuggets.Name, name) }

// play plays one game (nil bots: random) and returns the log-scores; check
// sees every answer before the step is played.
func play(cfg rules.Config, seed uint64, bots []agents.Agent, check func(s *nuggets.State, seat int, m rules.Move)) []float64 {
	s := nuggets.New(cfg)
	var hook func(int, rules.Move)
	if check != nil {
		hook = func(seat int, m rules.Move) { check(s, seat, m) }
	}
	agentstest.Play(s, seed, rules.Derive(seed, 99), bots, hook)
	out := make([]float64, len(bots))
	for i := range out {
		out[i] = s.LogScore(i)
	}
	return out
}

// TestHeldOutRegistered: the four bots are Nuggets' held-out bots, each
// with a doc, out of agents.Names.
func TestHeldOutRegistered(t *testing.T) { agentstest.CheckHeldOut(t, nuggets.Name, names) }

// TestLegal: every query of every held-out bot is legal and well-formed
// (a square in 0..19², R20), in the default game and in shorter ones,
// against each other and random.
func TestLegal(t *testing.T) {
	for _, kv := range []map[string]string{
		nil,
		{"setup_moves": "10", "build_moves": "40"},
		{"setup_moves": "0", "build_moves": "30", "invalid_query": "pass"},
	} {
		cfg := config(t, kv)
		for g := 0; g < 2; g++ {
			bots := make([]agents.Agent, 4)
			for i := 0; i < 4; i++ {
				if (i+g)%4 != 3 {
					bots[i] = fresh(t, names[(i+g)%len(names)])
				}
			}
			answers := 0
			play(cfg, uint64(100+g), bots, func(s *nuggets.State, i int, m rules.Move) {
				answers++
				_, _, ok := nuggets.QueryXY(m)
				if !ok || !s.Legal(i, m) {
					t.Fatalf("%v game %d move %d seat %d: illegal %+v", kv, g, s.MoveNum(), i, m)
				}
			})
			if answers < 4*30 {
				t.Fatalf("%v: only %d answers", kv, answers)
			}
		}
	}
}

// TestDeterministic: the same seed gives the same game, also with used
// bots Reset again; another seed another game.
func TestDeterministic(t *testing.T) {
	cfg := config(t, nil)
	bots := []agents.Agent{fresh(t, names[0]), fresh(t, names[1]), fresh(t, names[2]), fresh(t, names[3])}
	run := func(seed uint64) uint64 {
		h := fnv.New64a()
		play(cfg, seed, bots, func(_ *nuggets.State, _ int, m rules.Move) {
			h.Write([]byte{byte(m.Arg[0]), byte(m.Arg[0] >> 8)})
		})
		return h.Sum64()
	}
	a, b := run(7), run(7)
	if a != b {
		t.Fatalf("seed 7 played twice: %x, %x", a, b)
	}
	if c := run(8); c == a {
		t.Fatalf("seeds 7 and 8 played the same game")
	}
}

// TestBeatsRandom: each held-out bot against three random bots, over 3
// seeded games (seats rotated), wins every game by a wide margin.
func TestBeatsRandom(t *testing.T) {
	cfg := config(t, nil)
	for _, n := range names {
		const games = 3
		for g := 0; g < games; g++ {
			bots := make([]agents.Agent, 4)
			bots[g%4] = fresh(t, n)
			sc := play(cfg, uint64(300+g), bots, nil)
			for i, v := range sc {
				if i != g%4 && sc[g%4] < v+5 {
					t.Errorf("%s game %d: %.2f, random seat %d %.2f", n, g, sc[g%4], i, v)
				}
			}
			t.Logf("%s game %d: %.2f against random %.2f %.2f %.2f", n, g, sc[g%4], sc[(g+1)%4], sc[(g+2)%4], sc[(g+3)%4])
		}
	}
}

// TestActAllocatesNothing: after its first move no held-out bot allocates
// in Act.
func TestActAllocatesNothing(t *testing.T) {
	cfg := config(t, nil)
	for _, n := range names {
		s := nuggets.New(cfg)
		bots := []agents.Agent{fresh(t, n), fresh(t, names[0]), fresh(t, names[1]), fresh(t, names[3])}
		for i, b := range bots {
			b.Reset(s, i, rules.Derive(5, uint64(i)))
		}
		rng := rules.Derive(5, 99)
		moves := make([]rules.Move, 4)
		for s.MoveNum() < 80 {
			for i := range moves {
				moves[i] = bots[i].Act(s)
			}
			s.Step(moves, rng)
		}
		if a := testing.AllocsPerRun(10, func() { bots[0].Act(s) }); a != 0 {
			t.Errorf("%s: %.1f allocations a move", n, a)
		}
	}
}

// TestAppraise: the appraisal of hand-checked shapes (risk(N) = 0.1·(N+1),
// kappa 1, singleton 0): a line of three loses ln 3 − ln 2 at either end
// (risk 0.2 each, N = 1) and ln 3 at its middle (risk 0.3, N = 2); a 2×2
// block loses ln 4 − ln 3 at any square (risk 0.3, N = 2); a pair loses
// ln 2 at either square.
func TestAppraise(t *testing.T) {
	var bt Bot
	risk := [5]float64{0.1, 0.2, 0.3, 0.4, 0.5}
	ln := math.Log
	for _, c := range []struct {
		name string
		sq   []int16
		want float64
	}{
		{"line of 3", []int16{0, 1, 2}, ln(3) - 2*0.2*(ln(3)-ln(2)) - 0.3*ln(3)},
		{"L of 3", []int16{0, 1, side + 1}, ln(3) - 2*0.2*(ln(3)-ln(2)) - 0.3*ln(3)},
		{"2×2 block", []int16{0, 1, side, side + 1}, ln(4) - 4*0.3*(ln(4)-ln(3))},
		{"line of 4", []int16{5, 6, 7, 8}, ln(4) - 2*0.2*(ln(4)-ln(3)) - 2*0.3*(ln(4)-ln(2))},
		{"pair", []int16{side*7 + 3, side*8 + 3}, ln(2) - 2*0.2*ln(2)},
		{"row wrap is no side", []int16{side - 1, side}, 0},
	} {
		got := bt.appraise(c.sq, 0, &risk, 1)
		if c.name == "row wrap is no side" {
			// (19,0) and (0,1) are not adjacent: no pair, two singletons
			if adjacent(c.sq[0], c.sq[1]) {
				t.Errorf("(19,0) and (0,1) taken as side-neighbours")
			}
			continue
		}
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: appraised %.6f, want %.6f", c.name, got, c.want)
		}
	}
	// the block beats the line of 4 that ln 4 cannot tell apart
	if b, l := bt.appraise([]int16{0, 1, side, side + 1}, 0, &risk, 1), bt.appraise([]int16{5, 6, 7, 8}, 0, &risk, 1); b <= l {
		t.Errorf("2×2 block %.4f not above a line of 4 %.4f", b, l)
	}
}

// TestAppraiserPrefersBlock: ten moves before the end, holding only the L
// tromino (0,0), (1,0), (0,1) on a board whose other coloured squares are
// a rival's far away, the appraiser closes the 2×2 block at (1,1) — any
// single loss leaves it a tromino — rather than lengthening the L at (2,0)
// or (0,2), which ln 4 values the same.
func TestAppraiserPrefersBlock(t *testing.T) {
	v := nuggets.View{MoveNum: 250, SetupMoves: 60, TotalMoves: 260}
	for y := range v.Board {
		for x := range v.Board[y] {
			v.Board[y][x] = -1
			if y >= 10 && x%2 == 0 {
				v.Board[y][x] = 2
			}
		}
	}
	v.Board[0][0], v.Board[0][1], v.Board[1][0] = 0, 0, 0
	bt := fresh(t, "appraiser_april").(*Bot)
	bt.Reset(nuggets.New(config(t, nil)), 0, rules.Derive(1, 0))
	bt.load(&v)
	for c := range bt.scores {
		bt.scores[c] = math.Inf(-1)
	}
	bt.appraiserScores()
	if c := bt.pick(); c != side+1 {
		t.Errorf("picked (%d,%d), want (1,1): scores (1,1) %.4f, (2,0) %.4f, (0,2) %.4f",
			c%side, c/side, bt.scores[side+1], bt.scores[2], bt.scores[2*side])
	}
	if bt.scores[side+1] <= bt.scores[2]+0.01 {
		t.Errorf("closing the block %.4f hardly above lengthening the L %.4f", bt.scores[side+1], bt.scores[2])
	}
}
