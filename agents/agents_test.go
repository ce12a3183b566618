package agents

import (
	"fmt"
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

// Orders seats the bots in every distinct order of each rotation: each bot
// in every seat equally often, as with Lineups, and also each bot directly
// after each other bot (the next seat) equally often, which rotations do
// not give (with 4 bots at 4 seats bot 1 always follows bot 0).
func TestOrdersEveryNeighbour(t *testing.T) {
	cases := []struct{ bots, seats, orders int }{
		{4, 4, 24},     // 4!
		{2, 4, 6},      // the arrangements of {0,0,1,1}
		{1, 4, 1},      // one bot everywhere
		{5, 4, 5 * 24}, // every 4 of 5, in every order
		{3, 2, 6},      // every ordered pair
	}
	for _, c := range cases {
		os := Orders(Lineups(c.bots, c.seats))
		if len(os) != c.orders {
			t.Errorf("%d bots, %d seats: %d orders, want %d", c.bots, c.seats, len(os), c.orders)
			continue
		}
		seat := make([][]int, c.bots)  // seat[b][s]
		after := make([][]int, c.bots) // after[a][b]: b sits in the seat after a's
		for b := range seat {
			seat[b], after[b] = make([]int, c.seats), make([]int, c.bots)
		}
		seen := map[string]bool{}
		for _, o := range os {
			if k := fmt.Sprint(o); seen[k] {
				t.Fatalf("%d bots, %d seats: order %v twice", c.bots, c.seats, o)
			} else {
				seen[k] = true
			}
			for s, b := range o {
				seat[b][s]++
				if c.seats > 1 {
					after[b][o[(s+1)%c.seats]]++
				}
			}
		}
		for b := range seat {
			for s := range seat[b] {
				if seat[b][s] != seat[b][0] {
					t.Errorf("%d bots, %d seats: bot %d seat counts %v", c.bots, c.seats, b, seat[b])
				}
			}
			for a := range after[b] {
				if a != b && after[b][a] != after[0][1] {
					t.Errorf("%d bots, %d seats: bot %d is followed by the others %v times, unequally", c.bots, c.seats, b, after[b])
				}
			}
		}
	}
	// Rotations alone: bot 1 always sits after bot 0.
	if l := Lineups(4, 4); l[0][1] != 1 || l[1][1] != 2 {
		t.Fatalf("Lineups(4, 4) = %v", l)
	}
}

// Company resolves the words reference and field to what the game
// registered, nothing else; a second registration of either panics.
func TestCompanyWords(t *testing.T) {
	RegisterReference("company-game", "a", "b")
	RegisterField("company-game", "c", "c")
	for _, c := range []struct {
		word string
		want string
		ok   bool
	}{{"reference", "a,b", true}, {"field", "c,c", true}, {"a,b", "", false}, {"Field", "", false}} {
		bots, ok := Company("company-game", c.word)
		if ok != c.ok || strings.Join(bots, ",") != c.want {
			t.Errorf("Company(%q) = %v, %v; want %q, %v", c.word, bots, ok, c.want, c.ok)
		}
	}
	if bots, ok := Company("no-such-game", "field"); !ok || bots != nil {
		t.Errorf("a game without a field: %v, %v; want nil, true", bots, ok)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "field registered twice") {
			t.Errorf("a second field: %v, want a panic naming it", r)
		}
	}()
	RegisterField("company-game", "d")
}
