package bovine

import (
	"fmt"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bitboard"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// randomState plays a random game with garbage moves mixed in for up to
// rounds rounds and returns it.
func randomState(nonadj bool, seed uint64, rounds int) *State {
	st := newState(nonadj)
	rng := rules.NewRNG(seed)
	var m [Seats]rules.Move
	for i := 0; i < rounds && !st.Done(); i++ {
		for seat := range m {
			switch rng.U(8) {
			case 0:
				m[seat] = rulestest.Garbage(rng)
			case 1:
				m[seat] = DstMove(rng.U(Cells))
			case 2:
				m[seat] = FullMove(rng.U(Cells), rng.U(Cells))
			default:
				m[seat] = st.RandomMove(seat, rng)
			}
		}
		st.Step(m[:], rng)
	}
	return st
}

// naiveConnected is R4 by breadth-first search over cells, independent of the
// bitboard fill.
func naiveConnected(st *State, seat int) board {
	var out board
	if !st.Alive(seat) {
		return out
	}
	br, bc := Barn(seat)
	queue := []cell{{br, bc}}
	out[br] |= 1 << uint(bc)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, d := range []cell{{-1, 0}, {0, -1}, {0, 1}, {1, 0}} {
			r, c := p[0]+d[0], p[1]+d[1]
			if st.Cell(r, c) == seat && out[r]>>uint(c)&1 == 0 {
				out[r] |= 1 << uint(c)
				queue = append(queue, cell{r, c})
			}
		}
	}
	return out
}

// TestConnectedMatchesBFS: the cached, incrementally kept connected sets
// (R4) equal a plain BFS after every round of random games, both variants.
func TestConnectedMatchesBFS(t *testing.T) {
	for _, nonadj := range []bool{false, true} {
		st := newState(nonadj)
		rng := rules.NewRNG(5)
		_, err := rulestest.Playout(st, rng, 32, func(rules.State) error {
			for seat := 0; seat < Seats; seat++ {
				if got, want := st.Connected(seat), naiveConnected(st, seat); got != want {
					return fmt.Errorf("seat %d connected set differs from BFS", seat)
				}
				// Force the cache to be used, then compare again.
				if st.Alive(seat) {
					st.connectedCell(seat, 10, 10)
					if st.conn[seat] != naiveConnected(st, seat) {
						return fmt.Errorf("seat %d refilled cache differs from BFS", seat)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("nonadjacent=%v: %v", nonadj, err)
		}
	}
}

// TestRemovalSafeTable checks the local removal test against brute force on
// every 3×3 pattern: when it says safe, the side-neighbours of the centre stay
// side-connected within the square without the centre.
func TestRemovalSafeTable(t *testing.T) {
	safe := 0
	for p := 0; p < 512; p++ {
		var sq board
		for b := 0; b < 9; b++ {
			if p>>uint(b)&1 != 0 && b != 4 {
				sq[b/3] |= 1 << uint(b%3)
			}
		}
		// Components of the square without its centre, by BFS on 3×3.
		comp := map[cell]int{}
		id := 0
		for b := 0; b < 9; b++ {
			start := cell{b / 3, b % 3}
			if sq[start[0]]>>uint(start[1])&1 == 0 || comp[start] != 0 {
				continue
			}
			id++
			q := []cell{start}
			comp[start] = id
			for len(q) > 0 {
				x := q[0]
				q = q[1:]
				for _, d := range []cell{{-1, 0}, {0, -1}, {0, 1}, {1, 0}} {
					y := cell{x[0] + d[0], x[1] + d[1]}
					if y[0] < 0 || y[0] > 2 || y[1] < 0 || y[1] > 2 || sq[y[0]]>>uint(y[1])&1 == 0 || comp[y] != 0 {
						continue
					}
					comp[y] = id
					q = append(q, y)
				}
			}
		}
		ids := map[int]bool{}
		for _, n := range []cell{{0, 1}, {1, 0}, {1, 2}, {2, 1}} {
			if c := comp[n]; c != 0 {
				ids[c] = true
			}
		}
		want := len(ids) == 1
		if removalSafe[p] != want {
			t.Errorf("pattern %09b: removalSafe %v, want %v", p, removalSafe[p], want)
		}
		if want {
			safe++
		}
	}
	if safe == 0 {
		t.Fatal("no safe pattern")
	}
}

// TestInvariantsI1I2I4 follows random games with garbage (both variants):
// I1 (one owner per cell, live seats own their barns, eliminated seats own
// nothing and never come back; Check), I2 (live seats never grow; at least
// one alive under the default rules), I4 (at most 10 000 rounds).
func TestInvariantsI1I2I4(t *testing.T) {
	for _, nonadj := range []bool{false, true} {
		for g := 0; g < 4; g++ {
			st := newState(nonadj)
			rng := rules.NewRNG(uint64(100 + g))
			prevAlive := st.AliveCount()
			var wasOut [Seats]bool
			n, err := rulestest.Playout(st, rng, 64, func(rules.State) error {
				if err := st.Check(); err != nil {
					return err
				}
				if st.AliveCount() > prevAlive {
					return fmt.Errorf("I2: live seats grew from %d to %d", prevAlive, st.AliveCount())
				}
				prevAlive = st.AliveCount()
				if !nonadj && prevAlive == 0 {
					return fmt.Errorf("I2: no seat alive")
				}
				for seat := 0; seat < Seats; seat++ {
					if wasOut[seat] && (st.Alive(seat) || st.Territory(seat) != 0) {
						return fmt.Errorf("I1: eliminated seat %d is back", seat)
					}
					wasOut[seat] = !st.Alive(seat)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("nonadjacent=%v game %d: %v", nonadj, g, err)
			}
			if n > MaxRounds || st.Round() != n {
				t.Fatalf("I4: %d rounds played, Round() = %d", n, st.Round())
			}
		}
	}
}

// stepObserved plays one round like Step, calling see after each executed
// move with the seat, its cells, the effect and the territories and
// connected sets before the move.
func stepObserved(st *State, moves []rules.Move, rng *rules.RNG,
	see func(seat, src, dst int, e effect, terr [Seats]int, conn [Seats]board, alive uint8)) {
	if st.Done() {
		return
	}
	st.round++
	st.submit(moves, rng)
	n := st.drawOrder(rng)
	for _, seat := range st.order[:n] {
		var terr [Seats]int
		var conn [Seats]board
		for s := 0; s < Seats; s++ {
			terr[s] = st.Territory(s)
			conn[s] = naiveConnected(st, s)
		}
		alive := st.alive
		e := st.execute(int(seat))
		see(int(seat), int(st.src[seat]), int(st.dst[seat]), e, terr, conn, alive)
	}
}

// TestInvariantsI3I4I7 checks every executed move of random games: I3's
// territory changes, I4's at most one executed move per seat alive at round
// start, and I7 (side-adjacent under the default rules; a place never
// disconnects anything and removes no cow). stepObserved is checked to be
// Step itself by comparing hashes with a copy stepped normally.
func TestInvariantsI3I4I7(t *testing.T) {
	seen := map[effect]int{}
	for _, nonadj := range []bool{false, true} {
		st := newState(nonadj)
		twin := newState(nonadj)
		moveRNG := rules.NewRNG(77)
		for round := 0; round < 3000 && !st.Done(); round++ {
			var m [Seats]rules.Move
			for seat := range m {
				if moveRNG.U(16) == 0 {
					m[seat] = FullMove(moveRNG.U(Cells), moveRNG.U(Cells))
				} else {
					m[seat] = st.RandomMove(seat, moveRNG)
				}
			}
			startAlive := st.alive
			var executed [Seats]int
			seed := uint64(round)
			stepObserved(st, m[:], rules.NewRNG(seed), func(seat, src, dst int, e effect, terr [Seats]int, conn [Seats]board, alive uint8) {
				if e == skipped {
					return
				}
				seen[e]++
				executed[seat]++
				if startAlive>>uint(seat)&1 == 0 {
					t.Fatalf("I4: seat %d was not alive at round start but moved", seat)
				}
				sr, sc, dr, dc := src/Size, src%Size, dst/Size, dst%Size
				if !nonadj && abs(sr-dr)+abs(sc-dc) != 1 {
					t.Fatalf("I7: executed move %v→%v is not side-adjacent", cell{sr, sc}, cell{dr, dc})
				}
				if st.alive != alive { // eliminations: I3 does not apply
					return
				}
				var want [Seats]int
				rival := -1
				for s := 0; s < Seats; s++ {
					if s != seat && st.Territory(s) != terr[s] {
						rival = s
					}
				}
				switch e {
				case placed:
					want[seat] = 1
					for s := 0; s < Seats; s++ {
						now := naiveConnected(st, s)
						for r := range now {
							if conn[s][r]&^now[r] != 0 {
								t.Fatalf("I7: a place disconnected a cow of seat %d", s)
							}
						}
					}
				case captured:
					if rival >= 0 {
						want[rival] = -1
					}
				case bothDied:
					want[seat] = -1
					if rival >= 0 {
						want[rival] = -1
					}
				}
				for s := 0; s < Seats; s++ {
					if d := st.Territory(s) - terr[s]; d != want[s] {
						t.Fatalf("I3: effect %d of seat %d changed seat %d's territory by %d, want %d", e, seat, s, d, want[s])
					}
				}
				if (e == captured || e == bothDied) && rival < 0 {
					t.Fatalf("I3: effect %d of seat %d took no rival cow", e, seat)
				}
			})
			for seat, k := range executed {
				if k > 1 {
					t.Fatalf("I4: seat %d executed %d moves in a round", seat, k)
				}
			}
			twin.Step(m[:], rules.NewRNG(seed))
			if a, b := mustHash(st), mustHash(twin); a != b {
				t.Fatalf("round %d: stepObserved differs from Step", round)
			}
		}
	}
	for _, e := range []effect{placed, moved, captured, bothDied} {
		if seen[e] == 0 {
			t.Errorf("no move with effect %d was seen", e)
		}
	}
}

func mustHash(st rules.State) uint64 { h, _ := rules.Hash(st, nil); return h }

// rho is I6's clockwise quarter turn, seat s's barn to seat s+1's.
func rho(r, c int) (int, int) { return c, Size - 1 - r }

// rotated returns ρ(B) with seats renamed s → s+1.
func rotated(st *State) *State {
	out := newState(st.nonadj)
	for seat := 0; seat < Seats; seat++ {
		out.own[seat] = board{}
	}
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			if o := st.Cell(r, c); o != Empty {
				r2, c2 := rho(r, c)
				out.own[(o+1)%Seats][r2] |= 1 << uint(c2)
			}
		}
	}
	out.round = st.round
	out.alive = st.alive<<1&allAlive | st.alive>>3
	out.nElim = st.nElim
	for seat := 0; seat < Seats; seat++ {
		out.elim[(seat+1)%Seats] = st.elim[seat]
		out.elimSeq[(seat+1)%Seats] = st.elimSeq[seat]
	}
	out.connOK = 0
	return out
}

func rotMove(m rules.Move) rules.Move {
	if m.Kind != Full {
		return m
	}
	for k := 0; k < 2; k++ {
		r, c := rho(int(m.Arg[k])/Size, int(m.Arg[k])%Size)
		m.Arg[k] = int16(r*Size + c)
	}
	return m
}

// TestI6Symmetry: stepping ρ(B) with seats renamed and moves mapped gives
// ρ of stepping B (full moves; the execution order is mapped by choosing the
// shuffle draws), and seat s+1's view of ρ(B) is seat s's view of B.
func TestI6Symmetry(t *testing.T) {
	for g := 0; g < 6; g++ {
		st := randomState(g%2 == 1, uint64(g), 200+300*g)
		rng := rules.NewRNG(uint64(1000 + g))
		for round := 0; round < 200 && !st.Done(); round++ {
			rot := rotated(st)
			if err := rot.Check(); err != nil {
				t.Fatalf("ρ(B): %v", err)
			}
			for seat := 0; seat < Seats; seat++ {
				if View(st, seat) != View(rot, (seat+1)%Seats) {
					t.Fatalf("I6: seat %d's view of B differs from seat %d's view of ρ(B)", seat, (seat+1)%Seats)
				}
			}
			var m, mr [Seats]rules.Move
			for seat := range m {
				m[seat] = st.RandomMove(seat, rng)
				if rng.U(8) == 0 {
					m[seat] = FullMove(rng.U(Cells), rng.U(Cells))
				}
				mr[(seat+1)%Seats] = rotMove(m[seat])
			}
			var alive8 []int8
			for seat := 0; seat < Seats; seat++ {
				if st.Alive(seat) {
					alive8 = append(alive8, int8(seat))
				}
			}
			rng.Shuffle(alive8)
			var alive, order []int
			for _, s := range alive8 {
				alive = append(alive, int(s))
				order = append(order, (int(s)+1)%Seats)
			}
			st.Step(m[:], rules.Scripted(drawsFor(st, alive)...))
			rot.Step(mr[:], rules.Scripted(drawsFor(rot, order)...))
			if mustHash(rotated(st)) != mustHash(rot) {
				t.Fatalf("game %d round %d: stepping ρ(B) differs from ρ(step B)", g, round)
			}
		}
	}
}

// TestI5Rotation: R19's maps are inverse bijections of the board for every
// seat, and relabelling maps own cells to 0 and the others bijectively.
func TestI5Rotation(t *testing.T) {
	for seat := 0; seat < Seats; seat++ {
		seen := map[cell]bool{}
		for r := 0; r < Size; r++ {
			for c := 0; c < Size; c++ {
				i, j := RealToView(seat, r, c)
				if i < 0 || i >= Size || j < 0 || j >= Size || seen[cell{i, j}] {
					t.Fatalf("seat %d: (%d,%d) maps to %v twice or off the board", seat, r, c, cell{i, j})
				}
				seen[cell{i, j}] = true
				if r2, c2 := ViewToReal(seat, i, j); r2 != r || c2 != c {
					t.Fatalf("seat %d: round trip of (%d,%d) gives (%d,%d)", seat, r, c, r2, c2)
				}
			}
		}
		// Every seat sees itself at (0,0) and seat+k at the k-th corner clockwise.
		corners := [Seats]cell{{0, 0}, {0, 19}, {19, 19}, {19, 0}}
		for k := 0; k < Seats; k++ {
			br, bc := Barn((seat + k) % Seats)
			if i, j := RealToView(seat, br, bc); (cell{i, j}) != corners[k] {
				t.Errorf("seat %d sees seat %d's barn at (%d,%d), want %v", seat, (seat+k)%Seats, i, j, corners[k])
			}
		}
		labels := map[int8]int{}
		for o := 0; o < Seats; o++ {
			labels[Label(o, seat)] = o
		}
		if len(labels) != Seats || labels[0] != seat || Label(Empty, seat) != -1 {
			t.Errorf("seat %d: labels %v are not a bijection with own = 0", seat, labels)
		}
	}
	// Cell by cell on random states: view[i][j] = label of real (ViewToReal).
	for g := 0; g < 4; g++ {
		st := randomState(false, uint64(g), 400*g)
		for seat := 0; seat < Seats; seat++ {
			v := View(st, seat)
			for i := 0; i < Size; i++ {
				for j := 0; j < Size; j++ {
					r, c := ViewToReal(seat, i, j)
					if v[i][j] != Label(st.Cell(r, c), seat) {
						t.Fatalf("seat %d view (%d,%d) = %d, real (%d,%d) owner %d", seat, i, j, v[i][j], r, c, st.Cell(r, c))
					}
				}
			}
		}
	}
}

// TestRemoveKeepsConnectedExact removes random connected cows from random
// dense cow sets (many loops and thin bridges) and checks the connected set
// kept by remove (local test, splitOff, or refill) against a BFS.
func TestRemoveKeepsConnectedExact(t *testing.T) {
	rng := rules.NewRNG(21)
	splits, refills := 0, 0
	for trial := 0; trial < 3000; trial++ {
		st := newState(false)
		seat := rng.U(Seats)
		density := 35 + rng.U(50)
		for r := 0; r < Size; r++ {
			for c := 0; c < Size; c++ {
				if rng.U(100) < density {
					st.SetCell(r, c, seat)
				}
			}
		}
		br, bc := Barn(seat)
		st.SetCell(br, bc, seat)
		st.connectedCell(seat, br, (bc+1)%Size) // fill the cache
		for k := 0; k < 20; k++ {
			conn := st.conn[seat]
			n := bitboard.Count(conn[:])
			if n <= 1 || st.connOK>>uint(seat)&1 == 0 {
				break
			}
			r, c := bitboard.Nth(conn[:], rng.U(n))
			if r == br && c == bc {
				continue
			}
			before := removalSafe[ring(&conn, r, c)]
			st.remove(seat, r, c)
			if st.connOK>>uint(seat)&1 == 0 {
				refills++
				st.connectedCell(seat, r, c)
			} else if !before {
				splits++
			}
			if st.conn[seat] != naiveConnected(st, seat) {
				t.Fatalf("trial %d: connected set wrong after removing (%d,%d)", trial, r, c)
			}
		}
	}
	t.Logf("splitOff successes %d, refills %d", splits, refills)
	if splits == 0 || refills == 0 {
		t.Errorf("splitOff successes %d, refills %d: both should occur", splits, refills)
	}
}
