package bovine

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// bruteValid is R7 cell by cell.
func bruteValid(st *State, seat, src, dst int, nonadj bool) bool {
	if src < 0 || src >= Cells || dst < 0 || dst >= Cells || !st.Alive(seat) {
		return false
	}
	sr, sc, dr, dc := src/Size, src%Size, dst/Size, dst%Size
	if st.Cell(sr, sc) != seat || st.Cell(dr, dc) == seat {
		return false
	}
	return nonadj || abs(sr-dr)+abs(sc-dc) == 1
}

// TestLegalMovesBruteForce: LegalMoves is Pass plus every default-rules valid
// full move (R7), in source-then-destination row-major order, in both
// variants; Legal agrees with R7 (and R8 for destinations) on every pair.
func TestLegalMovesBruteForce(t *testing.T) {
	for g := 0; g < 8; g++ {
		nonadj := g%2 == 1
		st := randomState(nonadj, uint64(g), 150*g)
		for seat := 0; seat < Seats; seat++ {
			want := []rules.Move{{}}
			if st.Active(seat) {
				for src := 0; src < Cells; src++ {
					for dst := 0; dst < Cells; dst++ {
						if bruteValid(st, seat, src, dst, false) {
							want = append(want, FullMove(src, dst))
						}
					}
				}
			}
			got := st.LegalMoves(seat, nil)
			if len(got) != len(want) {
				t.Fatalf("game %d seat %d: %d legal moves, want %d", g, seat, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("game %d seat %d: move %d is %+v, want %+v", g, seat, i, got[i], want[i])
				}
			}
			if !st.Active(seat) {
				continue
			}
			for src := 0; src < Cells; src++ {
				for dst := 0; dst < Cells; dst += 1 + src%3 {
					if got, want := st.Legal(seat, FullMove(src, dst)), bruteValid(st, seat, src, dst, nonadj); got != want {
						t.Fatalf("game %d seat %d: Legal(%d→%d) = %v, want %v", g, seat, src, dst, got, want)
					}
				}
			}
			for dst := 0; dst < Cells; dst++ {
				want := false
				for _, src := range []int{dst - Size, dst - 1, dst + 1, dst + Size} {
					want = want || bruteValid(st, seat, src, dst, false)
				}
				if got := st.Legal(seat, DstMove(dst)); got != want {
					t.Fatalf("game %d seat %d: Legal(Dst %d) = %v, want %v", g, seat, dst, got, want)
				}
			}
		}
	}
}

// TestRandomMoveUniform: RandomMove is uniform over LegalMoves (loose
// chi-square bound), Pass included.
func TestRandomMoveUniform(t *testing.T) {
	st := start(t, map[int][]cell{0: {{0, 1}, {1, 0}, {5, 5}}})
	legal := st.LegalMoves(0, nil)
	if len(legal) != 1+2+2+4 {
		t.Fatalf("%d legal moves, want 9", len(legal))
	}
	index := map[rules.Move]int{}
	for i, m := range legal {
		index[m] = i
	}
	rng := rules.NewRNG(9)
	const n = 90000
	counts := make([]int, len(legal))
	for i := 0; i < n; i++ {
		m := st.RandomMove(0, rng)
		k, ok := index[m]
		if !ok {
			t.Fatalf("RandomMove %+v not among LegalMoves", m)
		}
		counts[k]++
	}
	exp := float64(n) / float64(len(legal))
	chi := 0.0
	for _, c := range counts {
		chi += (float64(c) - exp) * (float64(c) - exp) / exp
	}
	if chi > 30 { // 8 degrees of freedom: p < 0.0003
		t.Fatalf("chi² = %.1f over %v", chi, counts)
	}
	if st.RandomMove(0, rules.Scripted(0)) != (rules.Move{}) {
		t.Error("draw 0 is not Pass")
	}
	if m := st.RandomMove(0, rules.Scripted(8)); m != legal[8] {
		t.Errorf("draw 8 gives %+v, want the last legal move %+v", m, legal[8])
	}
}

// TestNoAllocations: the hot paths bots and envs call allocate nothing.
func TestNoAllocations(t *testing.T) {
	st := randomState(false, 1, 500)
	rng := rules.NewRNG(2)
	buf := make([]rules.Move, 0, 512)
	req := make([]byte, 0, 4096)
	allocs := testing.AllocsPerRun(100, func() {
		for seat := 0; seat < Seats; seat++ {
			m := st.RandomMove(seat, rng)
			st.Legal(seat, m)
			st.Legal(seat, DstMove(rng.U(Cells)))
			buf = st.LegalMoves(seat, buf[:0])
			v := View(st, seat)
			_ = v
			req = Codec{}.AppendRequest(req[:0], st, seat)
			st.Connected(seat)
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per run", allocs)
	}
}
