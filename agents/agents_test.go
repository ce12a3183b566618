package agents

import (
	"strings"
	"testing"
)

func TestGenericAgentsForEveryGame(t *testing.T) {
	for _, name := range []string{"random", "pass"} {
		e, err := Lookup("any-game", name)
		if err != nil || e.Name != name || e.Game != "any-game" || e.New() == nil {
			t.Errorf("Lookup(any-game, %s) = %+v, %v", name, e, err)
		}
	}
	if got := strings.Join(Names("any-game"), ","); got != "pass,random" {
		t.Errorf("Names = %s", got)
	}
	_, err := Lookup("any-game", "nobody")
	if err == nil || !strings.Contains(err.Error(), "valid: pass, random") {
		t.Errorf("unknown bot error %v should list the valid bots", err)
	}
}

func TestLineupsRotateSeats(t *testing.T) {
	cases := []struct{ bots, seats, lineups int }{{4, 4, 4}, {2, 4, 2}, {1, 4, 1}, {6, 4, 15 * 4}, {5, 4, 5 * 4}, {3, 2, 3 * 2}}
	for _, c := range cases {
		ls := Lineups(c.bots, c.seats)
		if len(ls) != c.lineups {
			t.Errorf("%d bots, %d seats: %d lineups, want %d", c.bots, c.seats, len(ls), c.lineups)
			continue
		}
		// Every bot sits in every seat equally often.
		count := make([][]int, c.bots)
		for b := range count {
			count[b] = make([]int, c.seats)
		}
		for _, l := range ls {
			seen := map[int]bool{}
			for s, b := range l {
				count[b][s]++
				if c.bots >= c.seats && seen[b] {
					t.Fatalf("bot %d twice in lineup %v", b, l)
				}
				seen[b] = true
			}
		}
		for b := range count {
			for s := range count[b] {
				if count[b][s] != count[b][0] {
					t.Errorf("%d bots, %d seats: bot %d seat counts %v", c.bots, c.seats, b, count[b])
					break
				}
			}
		}
	}
}
