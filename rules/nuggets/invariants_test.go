package nuggets

import (
	"fmt"
	"math/big"
	"sort"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

func TestConformance(t *testing.T) {
	for _, vals := range []map[string]string{
		nil,
		{"invalid_query": "pass"},
		{"setup_moves": "0", "build_moves": "30", "decay_table": "1-30:100,100,50,20,0"},
		{"setup_moves": "25", "build_moves": "0"},
		{"setup_moves": "5", "build_moves": "300", "decay_table": "1-150:3,2,1,0,0;151-300:9,9,9,9,9", "invalid_query": "pass"},
	} {
		cfg, err := Game.Configure(vals)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(cfg.String(), func(t *testing.T) { rulestest.Conformance(t, cfg, 10) })
	}
}

func TestParams(t *testing.T) {
	bad := []map[string]string{
		{"setup_moves": "-1"}, {"build_moves": "1001"}, {"setup_moves": "0", "build_moves": "0"},
		{"decay_table": ""}, {"decay_table": "1-200:5,4,2,1"}, {"decay_table": "1-200:5,4,2,1,0,0"},
		{"decay_table": "1-100:5,4,2,1,0;100-200:1,1,1,1,1"}, // overlap
		{"decay_table": "2-200:5,4,2,1,0"},                   // 1 not covered
		{"decay_table": "1-199:5,4,2,1,0"},                   // 200 not covered
		{"decay_table": "0-200:5,4,2,1,0"}, {"decay_table": "1-200:5,4,2,1,101"}, {"decay_table": "5-1:1,1,1,1,1"},
		{"decay_table": "1-200:a,4,2,1,0"}, {"decay_table": "1:5,4,2,1,0"}, {"invalid_query": "none"},
		{"build_moves": "300"}, // the default table stops at 200
	}
	for _, vals := range bad {
		if _, err := Game.Configure(vals); err == nil {
			t.Errorf("%v accepted", vals)
		}
	}
	good := []map[string]string{
		{"decay_table": " 1-200 : 1, 2, 3, 4, 5 "}, {"build_moves": "0", "decay_table": "7-9:0,0,0,0,0"},
		{"build_moves": "300", "decay_table": "201-300:1,1,1,1,1;" + DefaultDecayTable},
		{"setup_moves": "1000", "build_moves": "5"},
	}
	for _, vals := range good {
		if _, err := Game.Configure(vals); err != nil {
			t.Errorf("%v: %v", vals, err)
		}
	}
	// The default table is R12's.
	s := NewDefault()
	for m, want := range map[int][5]int32{200: {5, 4, 2, 1, 0}, 121: {5, 4, 2, 1, 0}, 120: {8, 6, 4, 3, 1}, 6: {8, 6, 4, 3, 1}, 5: {10, 8, 12, 8, 3}, 1: {10, 8, 12, 8, 3}} {
		if s.cfg.base[m] != want {
			t.Errorf("m=%d: bases %v, want %v", m, s.cfg.base[m], want)
		}
	}
	if sp := s.Spec(); sp.MaxSteps != 260 || sp.Seats != 4 || sp.Sequential || sp.Tournament != rules.SumScore || sp.ScoreName != "log-score" {
		t.Errorf("spec %+v", sp)
	}
}

// recorder wraps a State to keep, for the last Step, the state before it, the
// state after the actions alone (R9, R10) and the queries after R6.
type recorder struct {
	*State
	prev, mid, after State
	q                [Seats]int
}

func (r *recorder) Step(moves []rules.Move, rng *rules.RNG) {
	r.prev = *r.State
	for seat := range r.q {
		r.q[seat] = r.State.target(moves, seat)
	}
	r.mid, r.after = *r.State, *r.State
	if !r.Done() {
		r2 := *rng
		r.mid.act(&r.q, chance{rng: &r2})
		r.after = r.mid
		if r.after.t >= r.after.cfg.setup {
			r.after.decay(chance{rng: &r2})
		}
		r.after.t++
	}
	r.State.Step(moves, rng)
}

func owners(s *State) (o [Cells]int) {
	for c := range o {
		o[c] = s.Owner(c%Size, c/Size)
	}
	return
}

func queriedBy(q [Seats]int, c int) (who [Seats]bool, any bool) {
	for seat, qc := range q {
		if qc == c {
			who[seat], any = true, true
		}
	}
	return
}

// checkStep checks I1–I4 on the last step of r.
func (r *recorder) checkStep(defaultTable bool) error {
	if r.after != *r.State {
		return fmt.Errorf("Step differs from actions followed by decay")
	}
	if r.prev.Done() {
		if *r.State != r.prev {
			return fmt.Errorf("Step changed a finished game")
		}
		return nil
	}
	po, mo, no := owners(&r.prev), owners(&r.mid), owners(r.State)
	setup := r.prev.t < r.prev.cfg.setup
	if setup { // I1
		grow := 0
		for c := 0; c < Cells; c++ {
			if _, q := queriedBy(r.q, c); q && po[c] < 0 {
				grow++
			}
			if po[c] >= 0 && no[c] != po[c] {
				return fmt.Errorf("I1: setup move %d changed the coloured square %d", r.prev.t, c)
			}
		}
		if r.Colored() != r.prev.Colored()+grow {
			return fmt.Errorf("I1: setup move %d: P %d → %d, want +%d", r.prev.t, r.prev.Colored(), r.Colored(), grow)
		}
	} else { // I2
		changed := 0
		for c := 0; c < Cells; c++ {
			if mo[c] == po[c] {
				continue
			}
			changed++
			who, q := queriedBy(r.q, c)
			switch {
			case !q:
				return fmt.Errorf("I2: move %d: unqueried square %d changed", r.prev.t, c)
			case mo[c] >= 0 && !who[mo[c]]:
				return fmt.Errorf("I2: move %d: square %d took colour %d without its query", r.prev.t, c, mo[c])
			case mo[c] < 0 && !who[po[c]]:
				return fmt.Errorf("I2: move %d: square %d emptied without its owner's query", r.prev.t, c)
			}
		}
		if changed > 4 {
			return fmt.Errorf("I2: move %d: %d squares changed by action", r.prev.t, changed)
		}
	}
	// I3, I4: decay only empties, never in setup, never where base = 0.
	for c := 0; c < Cells; c++ {
		x, y := c%Size, c/Size
		if no[c] != mo[c] && (no[c] >= 0 || setup) {
			return fmt.Errorf("I3: move %d: decay changed square %d from %d to %d", r.prev.t, c, mo[c], no[c])
		}
		if mo[c] < 0 {
			continue
		}
		th := r.mid.DecayThreshold(x, y)
		if th == 0 && no[c] < 0 {
			return fmt.Errorf("I3: move %d: square %d decayed with base 0", r.prev.t, c)
		}
		if setup && th != 0 {
			return fmt.Errorf("I3: setup move %d has a decay threshold", r.prev.t)
		}
		if defaultTable && (th > 12*500 || float64(th)/DecayDenom >= 0.055) {
			return fmt.Errorf("I4: move %d: square %d has p = %d/110000", r.prev.t, c, th)
		}
	}
	return nil
}

// bfsNuggets returns seat's nugget sizes by a per-square flood fill (I5's
// independent method).
func bfsNuggets(s *State, seat int) []int {
	var seen [Cells]bool
	var sizes []int
	for c := 0; c < Cells; c++ {
		if seen[c] || s.Owner(c%Size, c/Size) != seat {
			continue
		}
		stack, n := []int{c}, 0
		seen[c] = true
		for len(stack) > 0 {
			d := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n++
			x, y := d%Size, d/Size
			for _, nb := range [][2]int{{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}} {
				e := nb[1]*Size + nb[0]
				if s.Owner(nb[0], nb[1]) == seat && !seen[e] {
					seen[e] = true
					stack = append(stack, e)
				}
			}
		}
		sizes = append(sizes, n)
	}
	return sizes
}

// checkScores checks I5.
func checkScores(s *State) error {
	for seat := 0; seat < Seats; seat++ {
		var sizes []int
		s.EachNugget(seat, func(n int) { sizes = append(sizes, n) })
		want := bfsNuggets(s, seat)
		var comps []int
		var comp, rest Board
		grid.Components4(s.own[seat][:], comp[:], rest[:], func(_ []uint64, n int) { comps = append(comps, n) })
		if fmt.Sprint(sizes) != fmt.Sprint(comps) {
			return fmt.Errorf("I5: seat %d nuggets %v, bitboard components %v", seat, sizes, comps)
		}
		sort.Ints(sizes)
		sort.Ints(want)
		if fmt.Sprint(sizes) != fmt.Sprint(want) {
			return fmt.Errorf("I5: seat %d nuggets %v, flood fill %v", seat, sizes, want)
		}
		sum, prod := 0, big.NewInt(1)
		for _, n := range want {
			sum += n
			prod.Mul(prod, big.NewInt(int64(n)))
		}
		if sq := s.Bits(seat); sum != countBoard(&sq) {
			return fmt.Errorf("I5: seat %d nuggets cover %d of its %d squares", seat, sum, countBoard(&sq))
		}
		if p := s.Product(seat); p.Cmp(prod) != 0 || p.Sign() < 1 {
			return fmt.Errorf("I5: seat %d product %v, want %v", seat, p, prod)
		}
		if l := s.LogScore(seat); l < 0 {
			return fmt.Errorf("I5: seat %d log-score %v < 0", seat, l)
		}
	}
	return nil
}

func countBoard(b *Board) (n int) {
	for y := range b {
		for x := 0; x < Size; x++ {
			n += int(b[y] >> uint(x) & 1)
		}
	}
	return
}

// I1–I5 over random playouts with garbage moves.
func TestInvariantsPlayouts(t *testing.T) {
	for _, vals := range []map[string]string{nil, {"invalid_query": "pass"}, {"setup_moves": "10", "build_moves": "40", "decay_table": "1-40:60,40,20,10,0"}} {
		cfg, err := Game.Configure(vals)
		if err != nil {
			t.Fatal(err)
		}
		for g := 0; g < 8; g++ {
			r := &recorder{State: New(cfg)}
			rng := rules.NewRNG(uint64(100 + g))
			_, err := rulestest.Playout(r, rng, 16+8*g, func(rules.State) error {
				if err := r.checkStep(vals == nil); err != nil {
					return err
				}
				if err := r.Check(); err != nil {
					return err
				}
				if r.t%13 == 0 || r.Done() {
					return checkScores(r.State)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%v game %d: %v", cfg, g, err)
			}
		}
	}
}

// The checker must catch a broken state.
func TestCheckCatches(t *testing.T) {
	s := NewDefault()
	s.own[0][3] = 1 << 20
	if s.Check() == nil {
		t.Errorf("bits off the board accepted")
	}
	s.Reset()
	s.own[0][3], s.own[2][3] = 1<<5, 1<<5
	if s.Check() == nil {
		t.Errorf("a square of two colours accepted")
	}
	s.Reset()
	s.t = 261
	if s.Check() == nil {
		t.Errorf("move 261 accepted")
	}
}

// sym is one of the 8 symmetries of the square (I6).
func sym(k, x, y int) (int, int) {
	if k&4 != 0 {
		x, y = y, x
	}
	if k&1 != 0 {
		x = Size - 1 - x
	}
	if k&2 != 0 {
		y = Size - 1 - y
	}
	return x, y
}

// transform returns s under symmetry k with seats renamed by perm.
func transform(s *State, k int, perm [Seats]int) *State {
	d := &State{cfg: s.cfg, t: s.t}
	for c := 0; c < Cells; c++ {
		if o := s.Owner(c%Size, c/Size); o >= 0 {
			x, y := sym(k, c%Size, c/Size)
			d.SetCell(x, y, perm[o])
		}
	}
	return d
}

func randomPerm(rng *rules.RNG) (p [Seats]int) {
	s := []int8{0, 1, 2, 3}
	rng.Shuffle(s)
	for i := range p {
		p[i] = int(s[i])
	}
	return
}

// randomStates plays a few random games and returns states along the way.
func randomStates(n int, seed uint64) []*State {
	var out []*State
	rng := rules.NewRNG(seed)
	for len(out) < n {
		s := NewDefault()
		stop := rng.U(260)
		rulestest.Playout(s, rng, 0, func(st rules.State) error {
			if s.t == stop {
				c := *s
				out = append(out, &c)
				s.SetMoveNum(s.cfg.total) // end this game
			}
			return nil
		})
	}
	return out
}

// I6: decay probabilities are invariant under the symmetries of the square
// and the renaming of seats, square by square.
func TestI6DecaySymmetry(t *testing.T) {
	rng := rules.NewRNG(77)
	for i, s := range randomStates(20, 5) {
		if s.t < s.cfg.setup {
			s.t += s.cfg.setup // read the board as a build-phase board
		}
		for k := 0; k < 8; k++ {
			perm := randomPerm(rng)
			d := transform(s, k, perm)
			for c := 0; c < Cells; c++ {
				x, y := sym(k, c%Size, c/Size)
				if a, b := s.DecayThreshold(c%Size, c/Size), d.DecayThreshold(x, y); a != b {
					t.Fatalf("state %d symmetry %d: (%d,%d) threshold %d, image %d", i, k, c%Size, c/Size, a, b)
				}
			}
		}
	}
}

// actDist enumerates the exact outcome distribution of the actions of one move
// (R9, R10) by scripting every draw sequence with values 0..59 (60 is a
// multiple of every n ≤ 5 drawn, so each value is equally likely). Weights
// are counts out of 60^maxDraws; ok=false if more draws are needed.
func actDist(s *State, q [Seats]int, maxDraws int) (dist map[[Seats]Board]int, ok bool) {
	dist = map[[Seats]Board]int{}
	var rec func(prefix []int) bool
	rec = func(prefix []int) bool {
		c := *s
		rng := rules.Scripted(append(prefix, 0)...)
		c.act(&q, chance{rng: rng})
		if rng.Used() > len(prefix) {
			if len(prefix) == maxDraws {
				return false
			}
			for v := 0; v < 60; v++ {
				if !rec(append(prefix[:len(prefix):len(prefix)], v)) {
					return false
				}
			}
			return true
		}
		w := 1
		for i := len(prefix); i < maxDraws; i++ {
			w *= 60
		}
		dist[c.own] += w
		return true
	}
	return dist, rec(nil)
}

// I6: the actions' outcome distribution commutes with the symmetries of the
// square and the renaming of seats.
func TestI6ActionSymmetry(t *testing.T) {
	rng := rules.NewRNG(78)
	checked, random := 0, 0
	for i, s := range randomStates(40, 6) {
		// Queries from three squares, so that contests are frequent.
		var pool [3]int
		for j := range pool {
			pool[j] = rng.U(Cells)
		}
		var q [Seats]int
		for seat := range q {
			q[seat] = pool[rng.U(3)]
		}
		dist, ok := actDist(s, q, 2)
		if !ok {
			continue
		}
		checked++
		if len(dist) > 1 {
			random++
		}
		for k := 0; k < 8; k++ {
			perm := randomPerm(rng)
			d := transform(s, k, perm)
			var dq [Seats]int
			for seat, c := range q {
				x, y := sym(k, c%Size, c/Size)
				dq[perm[seat]] = y*Size + x
			}
			got, ok := actDist(d, dq, 2)
			if !ok {
				t.Fatalf("state %d symmetry %d: the image needs more draws", i, k)
			}
			want := map[[Seats]Board]int{}
			for own, w := range dist {
				o := &State{cfg: s.cfg, t: s.t, own: own}
				want[transform(o, k, perm).own] += w
			}
			if len(got) != len(want) {
				t.Fatalf("state %d (t=%d) queries %v symmetry %d perm %v: %d outcomes, want %d", i, s.t, q, k, perm, len(got), len(want))
			}
			for own, w := range want {
				if got[own] != w {
					t.Fatalf("state %d (t=%d) queries %v symmetry %d perm %v: an outcome has weight %d, want %d", i, s.t, q, k, perm, got[own], w)
				}
			}
		}
	}
	if checked < 20 || random < 10 {
		t.Fatalf("only %d cases checked, %d random", checked, random)
	}
}
