package bovine

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bitboard"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// TestConformance runs the shared suite on the written rules and on the
// nonadjacent_moves variant (§6).
func TestConformance(t *testing.T) {
	for _, nonadj := range []bool{false, true} {
		cfg := Config(nonadj)
		t.Run(cfg.String(), func(t *testing.T) { rulestest.Conformance(t, cfg, 6) })
	}
}

// FuzzGame plays whole games from fuzz input, with garbage moves mixed in,
// checking the invariants after every round.
func FuzzGame(f *testing.F) { rulestest.Fuzz(f, Config(false)) }

// FuzzGameNonadjacent is FuzzGame under the nonadjacent_moves variant.
func FuzzGameNonadjacent(f *testing.F) { rulestest.Fuzz(f, Config(true)) }

// FuzzRounds plays a short stretch of rounds from a random mid-game position
// (both variants), with moves built from the fuzz bytes: full moves and
// destinations to arbitrary cells, garbage and random legal moves. It checks
// the invariants (Check, including the connectivity cache) after every round
// and that Step never panics. Shorter than FuzzGame, so it runs far more
// inputs in the same time.
func FuzzRounds(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 3, 4})
	f.Add([]byte{7, 0x81, 0xff, 0x10, 0x22, 0x33, 0x44, 0x55, 0x66})
	f.Add([]byte("a longer game with many moves of every kind, round after round"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		st := randomState(data[1]&1 == 1, uint64(data[0]), int(data[1]>>1)*20)
		rng := rules.NewRNG(uint64(data[0]) + 1)
		var m [Seats]rules.Move
		for p := 2; p+Seats <= len(data) && !st.Done(); p += Seats {
			for seat := range m {
				b := int(data[p+seat])
				switch b & 3 {
				case 0: // an own cow to any cell the byte names
					if n := st.Territory(seat); n > 0 {
						own := st.Bits(seat)
						r, c := bitboard.Nth(own[:], rng.U(n))
						m[seat] = FullMove(r*Size+c, b*37%Cells)
					}
				case 1:
					m[seat] = DstMove(b * 13 % Cells)
				case 2:
					m[seat] = rulestest.Garbage(rng)
				default:
					m[seat] = st.RandomMove(seat, rng)
				}
			}
			st.Step(m[:], rng)
			if err := st.Check(); err != nil {
				t.Fatalf("round %d: %v", st.Round(), err)
			}
		}
	})
}
