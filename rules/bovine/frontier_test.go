package bovine

import (
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// naiveRace is the race of Frontier by one breadth-first search per seat
// over cells, on the real board: first[x] when the empty cell x is nearer
// seat's connected cows than every live rival's, rival[x] when some live
// rival's are nearer than seat's (a tie: neither). An eliminated seat
// reaches nothing.
func naiveRace(st *State, seat int) (first, rival [Cells]bool) {
	var dist [Seats][Cells]int
	for k := range Seats {
		d := &dist[k]
		for i := range d {
			d[i] = -1
		}
		if !st.Alive(k) {
			continue
		}
		conn := naiveConnected(st, k)
		var queue []int
		for r := range Size {
			for c := range Size {
				if conn[r]>>uint(c)&1 != 0 {
					d[r*Size+c] = 0
					queue = append(queue, r*Size+c)
				}
			}
		}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			r, c := x/Size, x%Size
			for _, n := range [][2]int{{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}} {
				if n[0] < 0 || n[0] >= Size || n[1] < 0 || n[1] >= Size {
					continue
				}
				y := n[0]*Size + n[1]
				if d[y] < 0 && st.Cell(n[0], n[1]) == Empty {
					d[y] = d[x] + 1
					queue = append(queue, y)
				}
			}
		}
	}
	for x := range Cells {
		if st.Cell(x/Size, x%Size) != Empty {
			continue
		}
		best := -1 // the rivals' nearest distance
		for k := range Seats {
			if k != seat && dist[k][x] >= 0 && (best < 0 || dist[k][x] < best) {
				best = dist[k][x]
			}
		}
		mine := dist[seat][x]
		first[x] = mine >= 0 && (best < 0 || mine < best)
		rival[x] = best >= 0 && (mine < 0 || best < mine)
	}
	return first, rival
}

// naiveFrontier counts naiveRace's first cells.
func naiveFrontier(st *State, seat int) int {
	first, _ := naiveRace(st, seat)
	n := 0
	for _, f := range first {
		if f {
			n++
		}
	}
	return n
}

// TestFrontierStart: at the start every seat reaches its own 10×10 quarter
// first (distance r+c from (0,0) against the other corners), barn excepted:
// 99 cells, potential 100/400.
func TestFrontierStart(t *testing.T) {
	st := newState(false)
	p, err := rules.PotentialOf(registered(t), PotentialFrontier)
	if err != nil {
		t.Fatal(err)
	}
	for seat := range Seats {
		if n := st.Frontier(seat); n != 99 {
			t.Errorf("seat %d: frontier %d at the start, want 99", seat, n)
		}
		if v := p.Potential(st, seat); v != 0.25 {
			t.Errorf("seat %d: frontier potential %v at the start, want 0.25", seat, v)
		}
	}
}

// TestFrontierMatchesBFS: the bitboard search counts what one
// breadth-first search per seat counts, on every encoder test state.
func TestFrontierMatchesBFS(t *testing.T) {
	p, err := rules.PotentialOf(registered(t), PotentialFrontier)
	if err != nil {
		t.Fatal(err)
	}
	for n, st := range encodeStates(t) {
		for seat := range Seats {
			want := naiveFrontier(st, seat)
			if got := st.Frontier(seat); got != want {
				t.Fatalf("state %d (round %d) seat %d: frontier %d, want %d", n, st.Round(), seat, got, want)
			}
			wantP := float64(st.Territory(seat)+want) / Cells
			if !st.Alive(seat) {
				wantP = 0
			}
			if got := p.Potential(st, seat); got != wantP {
				t.Fatalf("state %d seat %d: frontier potential %v, want %v", n, seat, got, wantP)
			}
		}
	}
}

// TestFrontierRace: a seat that has pushed a line toward the centre reaches
// more of the board first than one that filled the same number of cells
// around its barn, though both hold the same territory: the difference the
// potential exists for.
func TestFrontierRace(t *testing.T) {
	line, block := newState(false), newState(false)
	for i := 1; i <= 8; i++ { // a diagonal staircase of 8 cows from (0,0)
		line.SetCell((i+1)/2, i/2, 0)
	}
	for _, c := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {0, 2}, {2, 0}, {1, 2}, {2, 1}, {2, 2}} {
		block.SetCell(c[0], c[1], 0)
	}
	if line.Territory(0) != block.Territory(0) {
		t.Fatalf("territories %d and %d differ", line.Territory(0), block.Territory(0))
	}
	// Same territory, and with the rivals at their barns every cell of the
	// quarter is already seat 0's; give seat 1 a front near the top middle
	// so that the reach matters.
	for _, st := range []*State{line, block} {
		for c := 10; c <= 18; c++ {
			st.SetCell(0, c, 1)
		}
		for r := 1; r <= 6; r++ {
			st.SetCell(r, 10, 1)
		}
	}
	if l, b := line.Frontier(0), block.Frontier(0); l <= b {
		t.Errorf("frontier of the line %d, of the block %d: want the line's above", l, b)
	}
}

// TestPotentialOfNames: the names resolve, an unknown one is an error that
// lists the names.
func TestPotentialOfNames(t *testing.T) {
	e := registered(t)
	for _, name := range []string{"", PotentialTerritory, PotentialFrontier} {
		if _, err := rules.PotentialOf(e, name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	_, err := rules.PotentialOf(e, "voronoi")
	if err == nil || !strings.Contains(err.Error(), "territory, frontier") {
		t.Errorf("unknown potential: error %v, want one naming territory, frontier", err)
	}
}

// TestFrontierAfter: FrontierAfter is Frontier of the position with the
// cow placed (SetCell), for every place of every seat in the test positions.
func TestFrontierAfter(t *testing.T) {
	n := 0
	for _, st := range encodeStates(t) {
		for seat := range Seats {
			for _, m := range st.LegalMoves(seat, nil) {
				if m.Kind != Full || st.Cell(int(m.Arg[1])/Size, int(m.Arg[1])%Size) != Empty {
					continue
				}
				conn := st.Connected(seat)
				src := int(m.Arg[0])
				if conn[src/Size]>>uint(src%Size)&1 == 0 {
					continue // a move, not a place
				}
				r, c := int(m.Arg[1])/Size, int(m.Arg[1])%Size
				placed := st.Clone().(*State)
				placed.SetCell(r, c, seat)
				if got, want := st.FrontierAfter(seat, r, c), placed.Frontier(seat); got != want {
					t.Fatalf("round %d seat %d place (%d,%d): %d, want %d", st.Round(), seat, r, c, got, want)
				}
				n++
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d places checked", n)
	}
}
