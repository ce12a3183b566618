package nuggetsheldout

import (
	"hash/fnv"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/agentstest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/nuggets"
)

var names = []string{"quad_quinn", "actuary_ada", "hunter_hana"}

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

// TestHeldOutRegistered: the three bots are Nuggets' held-out bots, each
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
	bots := []agents.Agent{fresh(t, names[0]), fresh(t, names[1]), fresh(t, names[2]), nil}
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
		bots := []agents.Agent{fresh(t, n), fresh(t, names[0]), fresh(t, names[1]), fresh(t, names[2])}
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
