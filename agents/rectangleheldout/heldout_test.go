package rectangleheldout

import (
	"hash/fnv"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/agentstest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

var names = []string{"blitz", "pairs", "raider"}

func config(t *testing.T, kv map[string]string) rules.Config {
	return agentstest.Config(t, rectangle.Name, kv)
}

func fresh(t *testing.T, name string) agents.Agent { return agentstest.Fresh(t, rectangle.Name, name) }

// play plays one game (nil bots: random) and returns the scores; check
// sees every answer before the step is played.
func play(cfg rules.Config, seed uint64, bots []agents.Agent, check func(s *rectangle.State, seat int, m rules.Move)) []int {
	s := rectangle.New(cfg)
	var hook func(int, rules.Move)
	if check != nil {
		hook = func(seat int, m rules.Move) { check(s, seat, m) }
	}
	agentstest.Play(s, seed, nil, bots, hook)
	out := make([]int, s.Players())
	for i := range out {
		out[i] = s.Score(i)
	}
	return out
}

// TestHeldOutRegistered: the three bots are Rectangle's held-out bots,
// each with a doc, out of agents.Names.
func TestHeldOutRegistered(t *testing.T) { agentstest.CheckHeldOut(t, rectangle.Name, names) }

// TestLegal: over games with several parameter sets (R1), every move of
// every held-out bot is legal (R20), against each other and random.
func TestLegal(t *testing.T) {
	for _, kv := range []map[string]string{
		{"max_moves": "200"},
		{"n": "8", "players": "2", "robots": "8", "idle_limit": "20", "max_moves": "150"},
		{"n": "12", "players": "8", "robots": "3", "idle_limit": "20", "max_moves": "150"},
		{"n": "30", "players": "3", "robots": "1", "idle_limit": "20", "max_moves": "150"},
		{"n": "9", "players": "4", "robots": "5", "idle_limit": "20", "max_moves": "150"},
	} {
		cfg := config(t, kv)
		p := cfg.Int("players")
		for g := 0; g < 2; g++ {
			bots := make([]agents.Agent, p)
			for i := 0; i < p; i++ {
				if (i+g)%4 != 3 { // a random bot in some seats
					bots[i] = fresh(t, names[(i+g)%len(names)])
				}
			}
			answers := 0
			play(cfg, uint64(100+g), bots, func(s *rectangle.State, i int, m rules.Move) {
				answers++
				if !s.Legal(i, m) {
					t.Fatalf("%v game %d move %d seat %d (%T): illegal %+v", kv, g, s.MoveNum(), i, bots[i], m)
				}
			})
			if answers < 10*p {
				t.Fatalf("%v: only %d answers", kv, answers)
			}
		}
	}
}

// TestDeterministic: the same seed gives the same moves, also after a
// Reset of a used bot; another seed gives another game.
func TestDeterministic(t *testing.T) {
	cfg := config(t, map[string]string{"max_moves": "120"})
	bots := []agents.Agent{fresh(t, "blitz"), fresh(t, "pairs"), fresh(t, "raider"), nil}
	run := func(seed uint64) uint64 {
		h := fnv.New64a()
		play(cfg, seed, bots, func(_ *rectangle.State, _ int, m rules.Move) {
			h.Write([]byte{byte(m.Kind), m.N})
			for _, a := range m.Arg[:m.N] {
				h.Write([]byte{byte(a), byte(a >> 8)})
			}
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

// TestBeatsRandom: each held-out bot, against three random bots over 4
// seeded games of 200 moves (seats rotated), claims far more than they do
// and wins every game.
func TestBeatsRandom(t *testing.T) {
	cfg := config(t, map[string]string{"max_moves": "200"})
	for _, n := range names {
		const games = 4
		own, rnd, wins := 0.0, 0.0, 0
		for g := 0; g < games; g++ {
			bots := make([]agents.Agent, 4)
			bots[g%4] = fresh(t, n)
			sc := play(cfg, uint64(300+g), bots, nil)
			won := true
			for i, v := range sc {
				if i == g%4 {
					own += float64(v)
				} else {
					rnd += float64(v) / 3
					won = won && sc[g%4] > v
				}
			}
			if won {
				wins++
			}
		}
		t.Logf("%s: mean %.1f, random %.1f, %d wins of %d", n, own/games, rnd/games, wins, games)
		if own < 50*games || own <= 10*rnd || wins < games {
			t.Errorf("%s: mean %.1f, random mean %.1f, %d wins of %d", n, own/games, rnd/games, wins, games)
		}
	}
}

// TestActAllocatesNothing: after its first moves, no held-out bot
// allocates in Act.
func TestActAllocatesNothing(t *testing.T) {
	cfg := config(t, nil)
	for _, n := range names {
		s := rectangle.New(cfg)
		bots := []agents.Agent{fresh(t, n), fresh(t, "blitz"), fresh(t, "pairs"), fresh(t, "raider")}
		for i, b := range bots {
			b.Reset(s, i, rules.Derive(5, uint64(i)))
		}
		moves := make([]rules.Move, 4)
		for s.MoveNum() < 30 {
			for i := range moves {
				moves[i] = bots[i].Act(s)
			}
			s.Step(moves, nil)
		}
		if a := testing.AllocsPerRun(20, func() { bots[0].Act(s) }); a != 0 {
			t.Errorf("%s: %.1f allocations a move", n, a)
		}
	}
}
