// Package rulestest is the conformance suite every registered game runs, in
// the manner of OpenSpiel's generic game tests: random playouts that check the
// promises of the rules.State interface (determinism, legality of generated
// moves, serialisation round trips, no panic on garbage, no allocation in Step,
// the game's own invariants through rules.Checker), plus a shared fuzz driver.
package rulestest

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// Playout plays one game from st's current position with uniformly random
// legal moves for active seats, mixing in a garbage move with probability
// garbage/256, calling after (if non-nil) after every step. It returns the
// number of steps played.
func Playout(st rules.State, rng *rules.RNG, garbage int, after func(rules.State) error) (int, error) {
	sp := st.Spec()
	moves := make([]rules.Move, sp.Seats)
	n := 0
	for !st.Done() {
		if n > sp.MaxSteps {
			return n, fmt.Errorf("game did not end within MaxSteps=%d", sp.MaxSteps)
		}
		for s := range moves {
			if rng.U(256) < garbage {
				moves[s] = Garbage(rng)
			} else {
				moves[s] = st.RandomMove(s, rng)
			}
		}
		st.Step(moves, rng)
		n++
		if after != nil {
			if err := after(st); err != nil {
				return n, fmt.Errorf("after step %d: %w", n, err)
			}
		}
	}
	return n, nil
}

// Garbage returns a move with random kind and arguments, most of them
// meaningless or out of range for any game.
func Garbage(rng *rules.RNG) rules.Move {
	m := rules.Move{Kind: rules.MoveKind(rng.U(8)), N: uint8(rng.U(10))}
	for i := range m.Arg {
		switch rng.U(4) {
		case 0:
			m.Arg[i] = int16(rng.U(65536) - 32768)
		case 1:
			m.Arg[i] = int16(rng.U(8))
		default:
			m.Arg[i] = int16(rng.U(4200))
		}
	}
	return m
}

func check(st rules.State) error {
	if c, ok := st.(rules.Checker); ok {
		return c.Check()
	}
	return nil
}

// Conformance runs the generic suite on game g with config cfg.
func Conformance(t *testing.T, cfg rules.Config, games int) {
	g := cfg.Game()
	t.Run("playouts", func(t *testing.T) {
		for i := 0; i < games; i++ {
			st := g.New(cfg)
			rng := rules.NewRNG(uint64(i))
			if err := check(st); err != nil {
				t.Fatalf("start position: %v", err)
			}
			_, err := Playout(st, rng, 16, func(st rules.State) error {
				if err := check(st); err != nil {
					return err
				}
				return nil
			})
			if err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
			checkOutcome(t, st)
		}
	})
	t.Run("determinism", func(t *testing.T) {
		// Two runs of the same seeded game: identical hashes at every step.
		var hashes [2][]uint64
		for run := 0; run < 2; run++ {
			st := g.New(cfg)
			rng := rules.NewRNG(42)
			var buf []uint64
			h, buf := rules.Hash(st, buf)
			hashes[run] = append(hashes[run], h)
			Playout(st, rng, 8, func(st rules.State) error {
				h, buf = rules.Hash(st, buf)
				hashes[run] = append(hashes[run], h)
				return nil
			})
		}
		if len(hashes[0]) != len(hashes[1]) {
			t.Fatalf("lengths differ: %d vs %d steps", len(hashes[0]), len(hashes[1]))
		}
		for i := range hashes[0] {
			if hashes[0][i] != hashes[1][i] {
				t.Fatalf("hash differs at step %d", i)
			}
		}
	})
	// A game whose Spec claims no chance: the same moves from the same
	// position lead to the same position whatever Step's generator.
	deterministic := func(t *testing.T) {
		for i := 0; i < games; i++ {
			a, b := g.New(cfg), g.New(cfg)
			moves := make([]rules.Move, a.Spec().Seats)
			pick, ra, rb := rules.NewRNG(uint64(i)), rules.NewRNG(uint64(1000+i)), rules.NewRNG(uint64(2000+i))
			var buf []uint64
			for step := 0; !a.Done(); step++ {
				for s := range moves {
					moves[s] = rules.Move{}
					if a.Active(s) {
						moves[s] = a.RandomMove(s, pick)
					}
				}
				a.Step(moves, ra)
				b.Step(moves, rb)
				var ha, hb uint64
				ha, buf = rules.Hash(a, buf)
				hb, buf = rules.Hash(b, buf)
				if ha != hb || a.Done() != b.Done() {
					t.Fatalf("game %d, step %d: the same moves led to different positions under two generators", i, step)
				}
			}
		}
	}
	if g.New(cfg).Spec().Deterministic {
		t.Run("deterministic", deterministic)
	}
	t.Run("legal moves", func(t *testing.T) {
		st := g.New(cfg)
		rng := rules.NewRNG(7)
		var legal []rules.Move
		Playout(st, rng, 0, func(st rules.State) error {
			if st.Done() || rng.U(8) != 0 {
				return nil
			}
			for s := 0; s < st.Spec().Seats; s++ {
				if !st.Active(s) {
					continue
				}
				legal = st.LegalMoves(s, legal[:0])
				if len(legal) == 0 {
					t.Fatalf("seat %d active with no legal move (Pass must be listed when allowed)", s)
				}
				set := map[rules.Move]bool{}
				for _, m := range legal {
					if !st.Legal(s, m) {
						t.Fatalf("seat %d: LegalMoves lists %+v but Legal rejects it", s, m)
					}
					set[m] = true
				}
				partial := false
				if p, ok := st.(rules.Partial); ok {
					partial = p.LegalMovesPartial(s)
				}
				for k := 0; k < 20; k++ {
					m := st.RandomMove(s, rng)
					if !st.Legal(s, m) {
						t.Fatalf("seat %d: RandomMove %+v is not Legal", s, m)
					}
					if !partial && !set[m] {
						t.Fatalf("seat %d: RandomMove %+v not among LegalMoves", s, m)
					}
				}
			}
			return nil
		})
	})
	t.Run("words round trip", func(t *testing.T) {
		st := g.New(cfg)
		rng := rules.NewRNG(3)
		var w1, w2 []uint64
		Playout(st, rng, 16, func(st rules.State) error {
			if rng.U(4) != 0 {
				return nil
			}
			w1 = st.AppendWords(w1[:0])
			cp := g.New(cfg)
			if err := cp.SetWords(w1); err != nil {
				t.Fatalf("SetWords: %v", err)
			}
			w2 = cp.AppendWords(w2[:0])
			if fmt.Sprint(w1) != fmt.Sprint(w2) {
				t.Fatalf("words differ after round trip")
			}
			if err := check(cp); err != nil {
				t.Fatalf("restored state: %v", err)
			}
			var b1, b2 bytes.Buffer
			st.Render(&b1, false)
			cp.Render(&b2, false)
			if b1.String() != b2.String() {
				t.Fatalf("render differs after round trip:\n%s\n%s", b1.String(), b2.String())
			}
			return nil
		})
		st.Reset()
		if err := st.SetWords(nil); err == nil {
			t.Errorf("SetWords(nil) accepted")
		}
	})
	t.Run("clone independence", func(t *testing.T) {
		st := g.New(cfg)
		rng := rules.NewRNG(5)
		moves := make([]rules.Move, st.Spec().Seats)
		for i := 0; i < 10 && !st.Done(); i++ {
			for s := range moves {
				moves[s] = st.RandomMove(s, rng)
			}
			st.Step(moves, rng)
		}
		c := st.Clone()
		h0, _ := rules.Hash(st, nil)
		Playout(c, rng, 0, nil)
		if h1, _ := rules.Hash(st, nil); h0 != h1 {
			t.Fatalf("playing the clone changed the original")
		}
		d := g.New(cfg)
		d.CopyFrom(st)
		if h2, _ := rules.Hash(d, nil); h0 != h2 {
			t.Fatalf("CopyFrom gives a different state")
		}
		st.Reset()
		fresh := g.New(cfg)
		if a, _ := rules.Hash(st, nil); a != mustHash(fresh) {
			t.Fatalf("Reset differs from a new game")
		}
	})
	t.Run("inactive seats ignored", func(t *testing.T) {
		a, b := g.New(cfg), g.New(cfg)
		ra, rb, rm := rules.NewRNG(9), rules.NewRNG(9), rules.NewRNG(10)
		n := a.Spec().Seats
		ma, mb := make([]rules.Move, n), make([]rules.Move, n)
		for i := 0; i < 300 && !a.Done(); i++ {
			for s := 0; s < n; s++ {
				ma[s] = a.RandomMove(s, rm)
				mb[s] = ma[s]
				if !a.Active(s) {
					mb[s] = Garbage(rm)
				}
			}
			a.Step(ma, ra)
			b.Step(mb, rb)
			if mustHash(a) != mustHash(b) {
				t.Fatalf("step %d: a move of an inactive seat changed the game", i)
			}
		}
	})
	t.Run("codec never panics", func(t *testing.T) {
		st := g.New(cfg)
		rng := rules.NewRNG(11)
		inputs := [][]byte{nil, []byte(""), []byte("null"), []byte("[[1,2],[3,4]]"), []byte("0 0 1 1\n"), []byte("{"), []byte(`{"tuple":[1,2]}`), []byte("\xff\xfe"), []byte(`"NESW"`), []byte(`[[0,0],[0,1]]`)}
		var req []byte
		Playout(st, rng, 0, func(st rules.State) error {
			if rng.U(16) != 0 {
				return nil
			}
			for s := 0; s < st.Spec().Seats; s++ {
				req = g.Codec.AppendRequest(req[:0], st, s)
				if len(req) == 0 {
					t.Fatalf("empty request")
				}
				for _, in := range inputs {
					g.Codec.ParseAnswer(st, s, in)
				}
				junk := make([]byte, rng.U(40))
				for i := range junk {
					junk[i] = byte(rng.U(256))
				}
				g.Codec.ParseAnswer(st, s, junk)
			}
			return nil
		})
	})
	t.Run("step allocates nothing", func(t *testing.T) {
		st := g.New(cfg)
		rng := rules.NewRNG(1)
		n := st.Spec().Seats
		const pre = 64
		moves := make([][]rules.Move, pre)
		for i := range moves {
			moves[i] = make([]rules.Move, n)
			for s := range moves[i] {
				moves[i][s] = st.RandomMove(s, rng)
			}
		}
		i := 0
		allocs := testing.AllocsPerRun(200, func() {
			if st.Done() {
				st.Reset()
			}
			st.Step(moves[i%pre], rng)
			i++
		})
		if allocs != 0 {
			t.Errorf("Step allocates %.1f times per call", allocs)
		}
		allocs = testing.AllocsPerRun(200, func() {
			if st.Done() {
				st.Reset()
			}
			for s := 0; s < n; s++ {
				moves[0][s] = st.RandomMove(s, rng)
				st.Active(s)
			}
			st.Step(moves[0], rng)
		})
		if allocs != 0 {
			t.Errorf("RandomMove+Step allocates %.1f times per step", allocs)
		}
	})
}

func mustHash(st rules.State) uint64 { h, _ := rules.Hash(st, nil); return h }

func checkOutcome(t *testing.T, st rules.State) {
	t.Helper()
	n := st.Spec().Seats
	o := rules.NewOutcome(n)
	st.Outcome(o)
	var pts, win float64
	for s := 0; s < n; s++ {
		if math.IsNaN(o.Score[s]) || math.IsInf(o.Score[s], 0) {
			t.Fatalf("seat %d score %v", s, o.Score[s])
		}
		pts += o.Points[s]
		win += o.Win[s]
	}
	if want := float64(n*(n-1)) / 2; math.Abs(pts-want) > 1e-9 {
		t.Fatalf("points sum to %v, want %v (%v)", pts, want, o.Points)
	}
	if math.Abs(win-1) > 1e-9 {
		t.Fatalf("win shares sum to %v (%v)", win, o.Win)
	}
}

// Fuzz steps a whole game of cfg from fuzz input: each byte pair picks, per
// active seat, a random legal move or a garbage move built from the bytes, and
// the seed comes from the first bytes. It fails on a panic, on a game that
// outruns MaxSteps, or on a broken invariant (rules.Checker).
func Fuzz(f *testing.F, cfg rules.Config) {
	g := cfg.Game()
	f.Add([]byte{0, 1, 2, 3})
	f.Add([]byte("garbage moves everywhere, and more of them"))
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		seed := uint64(data[0])
		st := g.New(cfg)
		rng := rules.NewRNG(seed)
		n := st.Spec().Seats
		moves := make([]rules.Move, n)
		pos := 1
		next := func() byte {
			b := data[pos%len(data)]
			pos++
			return b
		}
		steps := 0
		for !st.Done() {
			if steps > st.Spec().MaxSteps {
				t.Fatalf("game did not end within MaxSteps")
			}
			for s := 0; s < n; s++ {
				b := next()
				if b&3 == 0 {
					m := rules.Move{Kind: rules.MoveKind(next() % 8), N: next() % 10}
					for i := range m.Arg {
						m.Arg[i] = int16(uint16(next())<<8 | uint16(next()))
					}
					moves[s] = m
				} else {
					moves[s] = st.RandomMove(s, rng)
				}
			}
			st.Step(moves, rng)
			steps++
			if err := check(st); err != nil {
				t.Fatalf("step %d: %v", steps, err)
			}
		}
		checkOutcome(t, st)
	})
}
