package risingtidebots

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

// siege_sofia defends first: whenever wall_warsaw has a move on its view,
// it plays one of wall_warsaw's moves (a unit onto the innermost
// unfinished ring from the ring outside it); and against three seats that
// never defend (pass_perth: their settlements flood in round 502
// untouched, E6) it then drowns one well before that and survives.
func TestSiegeSofiaDefendsThenAttacks(t *testing.T) {
	for g := 0; g < 4; g++ {
		bots := [risingtide.Seats]string{"pass_perth", "pass_perth", "pass_perth", "pass_perth"}
		bots[g] = "siege_sofia"
		var w WallWarsaw
		w.Reset(nil, g, rules.NewRNG(1))
		walls, attacks := 0, 0
		s := play(t, bots, uint64(40+g), func(s *risingtide.State, seat int, m rules.Move) {
			if seat != g {
				return
			}
			if m != (rules.Move{}) && !s.Legal(seat, m) {
				t.Fatalf("game %d: siege_sofia answered illegal %+v", g, m)
			}
			v := risingtide.View(s, seat)
			mv, moved := viewAnswer(seat, m)
			if _, defend := w.Decide(&v); defend {
				walls++
				if !moved || ring(mv.I2, mv.J2) > 2 || ring(mv.I1, mv.J1) != ring(mv.I2, mv.J2)+1 || v.Terrain[mv.I2][mv.J2] >= wallTop {
					t.Fatalf("game %d, round %d: the wall has work, siege_sofia plays %+v", g, s.Round(), mv)
				}
			} else if moved {
				attacks++
			}
		})
		first := 800
		for seat := range bots {
			if seat != g {
				first = min(first, s.Score(seat))
			}
		}
		t.Logf("game %d: %d, first %d, walls %d, attacks %d", g, s.Score(g), first, walls, attacks)
		if s.Score(g) != 800 || first > 450 || walls < 40 || attacks < 20 {
			t.Errorf("game %d: siege_sofia %d rounds, first rival drowned in %d, %d wall moves, %d attacks; want 800, ≤ 450, ≥ 40, ≥ 20", g, s.Score(g), first, walls, attacks)
		}
	}
}

// ring is a view cell's Chebyshev distance from the own settlement (5, 5).
func ring(i, j int) int { return max(abs(i-5), abs(j-5)) }
