package risingtidebots

import (
	"slices"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

// TestWallWarsawLegal: in every seat against the sample bots, every answer
// is legal, the same seed gives the same game and another seed another.
func TestWallWarsawLegal(t *testing.T) {
	rivals := []string{"nearby_new_orleans", "border_barcelona", "trench_tunis"}
	record := func(ws int, seed uint64) []rules.Move {
		var bots [4]string
		for seat := range bots {
			bots[seat] = rivals[(seat+ws)%3]
		}
		bots[ws] = "wall_warsaw"
		var got []rules.Move
		play(t, bots, seed, func(s *risingtide.State, seat int, m rules.Move) {
			if !s.Legal(seat, m) {
				t.Fatalf("seat %d answered illegal %+v in round %d", seat, m, s.Round())
			}
			if seat == ws {
				got = append(got, m)
			}
		})
		return got
	}
	for ws := 0; ws < 4; ws++ {
		a := record(ws, uint64(ws))
		if ws == 2 {
			if b := record(ws, uint64(ws)); !slices.Equal(a, b) {
				t.Fatal("same seed, different games")
			}
			if c := record(ws, 77); slices.Equal(a, c) {
				t.Fatal("different seeds, same game")
			}
		}
	}
}

// TestWallWarsawGolden: from the start board it raises the lowest wall
// cells first (height 5: the 5 neighbours of (5,5) in rows 4..6 and column
// 4, R3) from ring-2 cells; with the wall complete but one cell dug to 7 it
// repairs that cell; with both rings at 8 it passes.
func TestWallWarsawGolden(t *testing.T) {
	for seat := 0; seat < 4; seat++ {
		s := newState(t)
		b := &WallWarsaw{}
		b.Reset(s, seat, rules.NewRNG(uint64(seat)))
		for k := 0; k < 20; k++ {
			i1, j1, i2, j2, ok := risingtide.MoveToView(seat, b.Act(s))
			if !ok || max(abs(i2-5), abs(j2-5)) != 1 || max(abs(i1-5), abs(j1-5)) != 2 {
				t.Fatalf("seat %d: move (%d,%d)→(%d,%d), want ring 2 → ring 1", seat, i1, j1, i2, j2)
			}
			v := risingtide.View(s, seat)
			if v.Terrain[i2][j2] != 5 {
				t.Fatalf("seat %d: raised a cell of height %d, want a lowest one (5)", seat, v.Terrain[i2][j2])
			}
		}
	}
	s := newState(t)
	for i := 3; i <= 7; i++ {
		for j := 3; j <= 7; j++ {
			if i != 5 || j != 5 {
				s.SetCell(i, j, 8)
			}
		}
	}
	b := &WallWarsaw{}
	b.Reset(s, 0, rules.NewRNG(1))
	if m := b.Act(s); m != (rules.Move{}) {
		t.Fatalf("both rings complete: want a pass, got %+v", m)
	}
	s.SetCell(6, 4, 7)
	for _, c := range [][2]int{{5, 3}, {6, 3}, {7, 3}} {
		s.SetCell(c[0], c[1], 6) // the highest sources left: (7,4), (7,5)
	}
	i1, j1, i2, j2, ok := risingtide.MoveToView(0, b.Act(s))
	if !ok || i2 != 6 || j2 != 4 || i1 != 7 || (j1 != 4 && j1 != 5) {
		t.Fatalf("repair: got (%d,%d)→(%d,%d), want (7,4|5)→(6,4)", i1, j1, i2, j2)
	}
}

func BenchmarkWallWarsawAct(b *testing.B) {
	s := newState(b)
	w := &WallWarsaw{}
	w.Reset(s, 0, rules.NewRNG(1))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w.Act(s)
	}
}
