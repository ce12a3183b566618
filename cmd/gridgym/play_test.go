package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/rules"
)

// play --render starts with a legend, symbol → seat → bot, before the
// first board (issue 52, item 7).
func TestRenderLegend(t *testing.T) {
	out := mustRun(t, "legend", "play", "-g", "slime", "-b", "simplebot,random", "--render")
	legend, rest, _ := strings.Cut(out, "\n\n")
	for s, want := range []string{"1 cells  → seat 0  → simplebot", "2 cells  → seat 1  → random", "3 cells  → seat 2  → simplebot", "4 cells  → seat 3  → random"} {
		if !strings.Contains(legend, want) {
			t.Errorf("seat %d: the legend lacks %q:\n%s", s, want, legend)
		}
	}
	if strings.Contains(legend, "to move") || !strings.Contains(rest, "to move") {
		t.Errorf("the legend should come before the first board:\n%s", out[:min(len(out), 600)])
	}
	out = mustRun(t, "A robot", "play", "-g", "rectangle", "-b", "random", "-p", "players=2", "--render")
	if !strings.Contains(out, "1 paint, B robot  → seat 1  → random") {
		t.Errorf("rectangle's legend names paint and robot:\n%s", out[:min(len(out), 600)])
	}
}

// Every game has a legend, and it tells the truth: in a seeded game of
// random bots, each cell a seat fills or holds a piece of is drawn with
// the legend's symbol for that seat, and every symbol of the legend shows.
func TestRenderLegendMatchesTheBoard(t *testing.T) {
	for _, g := range rules.Games() {
		if g.Legend == nil {
			t.Errorf("%s: no legend on its registration (rules.Game.Legend)", g.Name)
			continue
		}
		rulesOf := g.Legend.Seat
		cfg := g.Default()
		e, err := agents.Lookup(g.Name, "random")
		if err != nil {
			t.Fatal(err)
		}
		seats := g.New(cfg).Spec().Seats
		lineup := make([]int, seats)
		seen := map[byte]bool{}
		var bad []string
		var cells []rules.CellView
		eval.PlayGame(cfg, []agents.Entry{e}, lineup, 1, 0, func(st rules.State) {
			cells = st.(rules.Viewer).Cells(cells[:0])
			for _, cv := range cells {
				seat, shape := int(cv.Piece), cv.Shape
				if cv.Piece < 0 {
					seat, shape = int(cv.Fill), 0
				}
				if seat < 0 || cv.Glyph == '*' {
					continue // empty, or several pieces (Legend.Others)
				}
				found := false
				for _, r := range rulesOf {
					if r.Shape == shape {
						found, seen[shape] = true, true
						if cv.Glyph != r.Base+byte(seat) && len(bad) < 3 {
							bad = append(bad, fmt.Sprintf("seat %d's %s drawn %q, the legend says %q", seat, r.What, cv.Glyph, r.Base+byte(seat)))
						}
					}
				}
				if !found && len(bad) < 3 {
					bad = append(bad, fmt.Sprintf("seat %d's shape %q (glyph %q) is not in the legend", seat, shape, cv.Glyph))
				}
			}
		})
		for _, m := range bad {
			t.Errorf("%s: %s", g.Name, m)
		}
		for _, r := range rulesOf {
			if !seen[r.Shape] {
				t.Errorf("%s: the legend's %s never showed in a game", g.Name, r.What)
			}
		}
	}
}

// play --every N draws the boards --render draws at steps 0, N, 2N, … and
// the final one, each exactly as --render draws it, after the same legend.
func TestRenderEvery(t *testing.T) {
	boards := func(out string) (legend string, bs []string) {
		legend, rest, _ := strings.Cut(out, "\n\n")
		rest, _, _ = strings.Cut(rest, "\n\nSlime: ") // the result after the last board
		return legend, strings.Split(rest, "\n\n")
	}
	args := []string{"play", "-g", "slime", "-b", "simplebot,random", "--seed", "4"}
	legendAll, all := boards(mustRun(t, "to move", append(args, "--render")...))
	if len(all) < 20 {
		t.Fatalf("%d boards with --render, want a longer game to sample", len(all))
	}
	const every = 7
	var want []string
	for i := 0; i < len(all); i += every {
		want = append(want, all[i])
	}
	if (len(all)-1)%every != 0 {
		want = append(want, all[len(all)-1])
	}
	legend, got := boards(mustRun(t, "to move", append(args, "--every", fmt.Sprint(every))...))
	if legend != legendAll {
		t.Errorf("--every's legend differs from --render's:\n%s\n---\n%s", legend, legendAll)
	}
	if len(got) != len(want) {
		t.Fatalf("--every %d drew %d boards of %d, want %d (the start, every %dth and the final one)", every, len(got), len(all), len(want), every)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("board %d of --every %d:\n%s\nwant --render's:\n%s", i, every, got[i], want[i])
		}
	}
	if _, err := run(append(args, "--every", "-2")...); err == nil || !strings.Contains(err.Error(), "--every -2") {
		t.Errorf("--every -2: %v, want an error naming it", err)
	}
}
