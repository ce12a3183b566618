package bitboard

import (
	"math/rand/v2"
	"testing"
)

// naive per-cell reference implementations, used only to check the word
// operations.
type cells [][]bool

func toCells(g Grid, b []uint64) cells {
	c := make(cells, g.H)
	for r := range c {
		c[r] = make([]bool, g.W)
		for x := range c[r] {
			c[r][x] = Has(b, r, x)
		}
	}
	return c
}

func (c cells) at(r, x int) bool { return r >= 0 && r < len(c) && x >= 0 && x < len(c[0]) && c[r][x] }

func randomBoard(g Grid, rng *rand.Rand, density float64) []uint64 {
	b := make([]uint64, g.H)
	for r := 0; r < g.H; r++ {
		for c := 0; c < g.W; c++ {
			if rng.Float64() < density {
				Set(b, r, c)
			}
		}
	}
	return b
}

var grids = []Grid{New(8, 8), New(18, 18), New(20, 20), New(5, 64), New(64, 64), New(1, 1), New(3, 17)}

func TestNeighbourOpsMatchCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, g := range grids {
		for trial := 0; trial < 50; trial++ {
			src := randomBoard(g, rng, rng.Float64()*0.5)
			c := toCells(g, src)
			s4, s8, d4, d8 := make([]uint64, g.H), make([]uint64, g.H), make([]uint64, g.H), make([]uint64, g.H)
			g.Side4(s4, src)
			g.Side8(s8, src)
			g.Dilate4(d4, src)
			g.Dilate8(d8, src)
			for r := 0; r < g.H; r++ {
				for x := 0; x < g.W; x++ {
					n4 := c.at(r-1, x) || c.at(r+1, x) || c.at(r, x-1) || c.at(r, x+1)
					n8 := n4 || c.at(r-1, x-1) || c.at(r-1, x+1) || c.at(r+1, x-1) || c.at(r+1, x+1)
					if Has(s4, r, x) != n4 || Has(s8, r, x) != n8 || Has(d4, r, x) != (n4 || c[r][x]) || Has(d8, r, x) != (n8 || c[r][x]) {
						t.Fatalf("%dx%d cell (%d,%d): side4 %v/%v side8 %v/%v", g.H, g.W, r, x, Has(s4, r, x), n4, Has(s8, r, x), n8)
					}
				}
			}
			for r := 0; r < g.H; r++ {
				if (s4[r]|s8[r]|d8[r])&^g.Full != 0 {
					t.Fatalf("bits outside the board in row %d", r)
				}
			}
		}
	}
}

// floodRef is a per-cell BFS flood fill.
func floodRef(g Grid, within cells, r0, c0 int) cells {
	out := make(cells, g.H)
	for r := range out {
		out[r] = make([]bool, g.W)
	}
	if !within.at(r0, c0) {
		return out
	}
	stack := [][2]int{{r0, c0}}
	out[r0][c0] = true
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			r, c := p[0]+d[0], p[1]+d[1]
			if within.at(r, c) && !out[r][c] {
				out[r][c] = true
				stack = append(stack, [2]int{r, c})
			}
		}
	}
	return out
}

func TestFill4MatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, g := range grids {
		for trial := 0; trial < 100; trial++ {
			within := randomBoard(g, rng, 0.3+rng.Float64()*0.5)
			r0, c0 := rng.IntN(g.H), rng.IntN(g.W)
			seed := make([]uint64, g.H)
			Set(seed, r0, c0)
			g.Fill4(seed, within)
			want := floodRef(g, toCells(g, within), r0, c0)
			got := toCells(g, seed)
			for r := range want {
				for c := range want[r] {
					if got[r][c] != want[r][c] {
						t.Fatalf("%dx%d trial %d: cell (%d,%d) fill %v, BFS %v", g.H, g.W, trial, r, c, got[r][c], want[r][c])
					}
				}
			}
		}
	}
}

// A spiral corridor needs many passes: Fill4 must still reach its end.
func TestFill4Spiral(t *testing.T) {
	g := New(20, 20)
	within := make([]uint64, 20)
	// Serpentine: rows 0,2,4,… fully open, joined alternately at the right and left ends.
	for r := 0; r < 20; r += 2 {
		within[r] = g.Full
		if r+1 < 20 {
			if (r/2)%2 == 0 {
				Set(within, r+1, 19)
			} else {
				Set(within, r+1, 0)
			}
		}
	}
	seed := make([]uint64, 20)
	Set(seed, 0, 0)
	g.Fill4(seed, within)
	if !Equal(seed, within) {
		t.Fatalf("serpentine not filled: %d of %d cells", Count(seed), Count(within))
	}
}

func TestComponents4(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := New(20, 20)
	comp, rest := make([]uint64, 20), make([]uint64, 20)
	for trial := 0; trial < 100; trial++ {
		b := randomBoard(g, rng, 0.45)
		total, union := 0, make([]uint64, 20)
		g.Components4(b, comp, rest, func(c []uint64, size int) {
			if size != Count(c) || size == 0 {
				t.Fatalf("size %d, count %d", size, Count(c))
			}
			for r := range c {
				if union[r]&c[r] != 0 {
					t.Fatalf("components overlap")
				}
				union[r] |= c[r]
			}
			r0, c0, _ := First(c)
			want := floodRef(g, toCells(g, b), r0, c0)
			if got := toCells(g, c); !sameCells(got, want) {
				t.Fatalf("component differs from BFS")
			}
			total += size
		})
		if !Equal(union, b) || total != Count(b) {
			t.Fatalf("components do not partition the board")
		}
	}
}

func sameCells(a, b cells) bool {
	for r := range a {
		for c := range a[r] {
			if a[r][c] != b[r][c] {
				return false
			}
		}
	}
	return true
}

func TestNthAndEach(t *testing.T) {
	g := New(20, 20)
	b := randomBoard(g, rand.New(rand.NewPCG(7, 8)), 0.2)
	k := 0
	Each(b, func(r, c int) {
		if nr, nc := Nth(b, k); nr != r || nc != c {
			t.Fatalf("Nth(%d) = (%d,%d), Each gives (%d,%d)", k, nr, nc, r, c)
		}
		k++
	})
	if k != Count(b) {
		t.Fatalf("Each visited %d of %d cells", k, Count(b))
	}
}

func TestOpsAllocateNothing(t *testing.T) {
	g := New(20, 20)
	var a, b, c, d [20]uint64
	a = [20]uint64(randomBoard(g, rand.New(rand.NewPCG(9, 9)), 0.5))
	allocs := testing.AllocsPerRun(100, func() {
		g.Dilate8(b[:], a[:])
		g.Side4(c[:], a[:])
		d = [20]uint64{}
		d[0] = 1
		g.Fill4(d[:], a[:])
	})
	if allocs != 0 {
		t.Fatalf("%v allocations", allocs)
	}
}

func BenchmarkFill4(b *testing.B) {
	g := New(20, 20)
	within := randomBoard(g, rand.New(rand.NewPCG(1, 1)), 0.6)
	seed := make([]uint64, 20)
	for i := 0; i < b.N; i++ {
		clear(seed)
		r, c, _ := First(within)
		Set(seed, r, c)
		g.Fill4(seed, within)
	}
}

func BenchmarkDilate8(b *testing.B) {
	g := New(20, 20)
	src := randomBoard(g, rand.New(rand.NewPCG(1, 1)), 0.3)
	dst := make([]uint64, 20)
	for i := 0; i < b.N; i++ {
		g.Dilate8(dst, src)
	}
}

func TestNextComponentAllocatesNothing(t *testing.T) {
	g := New(20, 20)
	b := randomBoard(g, rand.New(rand.NewPCG(2, 2)), 0.4)
	var rest, comp [20]uint64
	total := 0
	allocs := testing.AllocsPerRun(50, func() {
		copy(rest[:], b)
		total = 0
		for n := g.NextComponent(rest[:], comp[:]); n > 0; n = g.NextComponent(rest[:], comp[:]) {
			total += n
		}
	})
	if allocs != 0 || total != Count(b) {
		t.Fatalf("%v allocations, %d of %d cells", allocs, total, Count(b))
	}
}
