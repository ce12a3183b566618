package slime

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// TestSymFormulas: rules.D4 is R18's rot90 for g = 1, 2, 3, and transposes
// first for g ≥ 4; the 8 symmetries are distinct and Inverse undoes each.
func TestSymFormulas(t *testing.T) {
	for n := 4; n <= 8; n++ {
		seen := map[[2]int]int{}
		for g := 0; g < 8; g++ {
			img := [2]int{}
			img[0], img[1] = rules.D4(g).Point(n, 0, 1)
			if prev, dup := seen[img]; dup {
				t.Fatalf("symmetries %d and %d agree", prev, g)
			}
			seen[img] = g
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					r, c := rules.D4(g).Point(n, a, b)
					want := map[int][2]int{0: {a, b}, 1: {n - 1 - b, a}, 2: {n - 1 - a, n - 1 - b}, 3: {b, n - 1 - a}}
					if g < 4 && [2]int{r, c} != want[g] {
						t.Fatalf("n=%d g=%d (%d,%d) → (%d,%d), want %v", n, g, a, b, r, c, want[g])
					}
					if g >= 4 {
						if rt, ct := rules.D4(g&3).Point(n, b, a); [2]int{r, c} != [2]int{rt, ct} {
							t.Fatalf("g=%d is not a transpose then rotation %d", g, g&3)
						}
					}
					if ri, ci := rules.D4(g).Inverse().Point(n, r, c); ri != a || ci != b {
						t.Fatalf("Inverse of %d does not undo it", g)
					}
				}
			}
		}
	}
}

// TestSymBoard: the word-level SymBoard agrees with rules.D4 cell by cell.
func TestSymBoard(t *testing.T) {
	rng := rules.NewRNG(2)
	for i := 0; i < 2000; i++ {
		n := 4 + rng.U(5)
		b := (rng.Uint64() & rng.Uint64()) & boardMask[n]
		for g := 0; g < 8; g++ {
			var want uint64
			for x := b; x != 0; x &= x - 1 {
				bit := 0
				for x>>uint(bit)&1 == 0 {
					bit++
				}
				r, c := rules.D4(g).Point(n, bit/8, bit%8)
				want |= 1 << uint(r*8+c)
			}
			if got := SymBoard(n, rules.D4(g), b); got != want {
				t.Fatalf("n=%d g=%d %#x: %#x, want %#x", n, g, b, got, want)
			}
		}
	}
}

// TestCanonical: R18 puts every seat's start corner at the top-left, with
// k = 0, 1, 3, 2 for players 1..4, and FromCanonical undoes ToCanonical.
func TestCanonical(t *testing.T) {
	for n := 4; n <= 8; n++ {
		s := New(config(t, "board_size", string(rune('0'+n))))
		for seat := 0; seat < Seats; seat++ {
			corner := cellOf[n][bitsIndex(s.Slime(seat))]
			if got := s.ToCanonical(seat, int(corner)); got != 0 {
				t.Fatalf("n=%d seat %d: corner %d → %d, want 0", n, seat, corner, got)
			}
			k := [4]rules.D4{0, 1, 3, 2}[seat]
			if CanonicalSym(seat) != k {
				t.Fatalf("seat %d: k %d", seat, CanonicalSym(seat))
			}
			for cell := 0; cell < n*n; cell++ {
				a, b := cell/n, cell%n
				var want [2]int
				switch k {
				case 0:
					want = [2]int{a, b}
				case 1:
					want = [2]int{n - 1 - b, a}
				case 2:
					want = [2]int{n - 1 - a, n - 1 - b}
				case 3:
					want = [2]int{b, n - 1 - a}
				}
				v := s.ToCanonical(seat, cell)
				if v != want[0]*n+want[1] {
					t.Fatalf("n=%d seat %d (%d,%d) → %d, want %v", n, seat, a, b, v, want)
				}
				if back := s.FromCanonical(seat, v); back != cell {
					t.Fatalf("FromCanonical(%d) = %d, want %d", v, back, cell)
				}
			}
			if s.ToCanonical(seat, -1) != -1 || s.FromCanonical(seat, n*n) != n*n {
				t.Fatalf("off-board cells must pass through")
			}
		}
	}
}

func bitsIndex(b uint64) int {
	i := 0
	for b>>uint(i)&1 == 0 {
		i++
	}
	return i
}
