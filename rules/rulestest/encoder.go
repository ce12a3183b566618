package rulestest

import (
	"fmt"
	"math"
	"math/bits"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// EncoderCase is one encoder and the positions EncoderConformance checks it
// on, with the game-specific pieces the generic properties need.
type EncoderCase struct {
	// Name labels the case in failures (a configuration, a board size).
	Name string
	// Encoder encodes every state of States.
	Encoder rules.Encoder
	// States are the positions: starts, mid-games, ends (every seat
	// inactive), and whatever corners the game has.
	States []rules.State
	// PartialEncode says that LegalMoves may list moves outside the action
	// space (Encode reports false for them); otherwise every listed move
	// must have an action.
	PartialEncode bool
	// PlaneMax, if not 0, is the largest value a plane byte may hold (1 for
	// games whose planes are all 0/1).
	PlaneMax uint8
	// Codec and Answer, if Answer is set, check decode ↔ competition
	// answer: Answer writes what a bot of the competition answers for
	// action a of a single-head space (in the seat's view, from the action's
	// documented layout); Codec.ParseAnswer must read it as Decode(a). A
	// non-nil error is a layout mismatch the hook found.
	Codec  rules.Codec
	Answer func(st rules.State, seat int, a int32) ([]byte, error)
	// View, if set, writes the reference observation of seat, built from
	// the codec's view of the position with plain loops; Observe must write
	// the same planes, and scalars within ScalarTolerance.
	View            func(st rules.State, seat int, planes []uint8, scalars []float32)
	ScalarTolerance float64
	// Images, if set, returns the real positions whose views are st's
	// views transformed by g (any element of D4; none where g has no real
	// image in the game, several where it has several). The encoder must
	// be equivariant on them: see EncoderConformance.
	Images func(g rules.D4, st rules.State) []Image
}

// Image is a real position showing seats their views of another position
// transformed by an element g of D4 (EncoderCase.Images).
type Image struct {
	// State is the real position.
	State rules.State
	// Seat[s] is the seat of State whose view is seat s's view of the
	// original transformed by g; -1 for a seat the image is not for.
	Seat []int
	// Move, if set, maps seat s's real move in the original to the
	// corresponding move of Seat[s] in State.
	Move func(seat int, m rules.Move) rules.Move
	// Planes, if not 0, is how many leading plane bytes must match, for
	// planes after them that are equivariant only up to the game's
	// tie-breaks (Rectangle's plans).
	Planes int
}

// EncoderConformance runs the generic encoder properties on every case:
//
//   - allocations: Observe, Mask, Decode, Encode and Potential allocate
//     nothing (checked first, on positions no other property has touched);
//   - mask: every mask word is written and no bit past the actions is set;
//     an inactive seat's mask is the pass action alone, or empty where Pass
//     has no action; for an active seat with a single head, action a is set
//     exactly when its decoded move is Legal and a is that move's action
//     (Encode), every legal move (that has an action) has its bit set, and
//     the set bits are as many as the distinct legal moves;
//   - decode round trip: a move other than Pass that an action decodes to
//     is encoded back to that action (single head);
//   - answer: every set bit, written as the competition answer, is read by
//     the codec as the decoded move (Answer);
//   - view: Observe is the reference observation (View);
//   - every byte: Observe and Mask write every byte, scalar and word
//     whatever the buffers held;
//   - symmetry group (a rules.Symmetric encoder): for each of the 8
//     elements g of D4, listed or not, TransformAction is a bijection of
//     each head's actions that g⁻¹ inverts, the pass action (single head)
//     stays, and TransformObs by g then g⁻¹ gives back every observation;
//   - equivariance (Images): on each real image of each position under
//     each element g, seat Seat[s] observes TransformObs(g) of what seat s
//     observes, its mask is seat s's mask moved by TransformAction, and
//     (Move set, single head) the transformed action of every action
//     decodes to the image of the move it decodes to. That Step commutes
//     with the image is each game's own test (its random events must be
//     scripted to correspond).
func EncoderConformance(t *testing.T, cases ...EncoderCase) {
	t.Helper()
	for _, c := range cases {
		if c.Encoder == nil || len(c.States) == 0 {
			t.Fatalf("%s: no encoder or no states", c.Name)
		}
	}
	props := []struct {
		name string
		f    func(*testing.T, EncoderCase)
	}{
		// Allocations first, on positions no other property has touched
		// (an Observe may fill a state's caches).
		{"allocations", encAllocs}, {"mask", encMask}, {"decode round trip", encRoundTrip},
		{"answer", encAnswer}, {"view", encView}, {"every byte", encEveryByte},
		{"symmetry group", encSymmetryGroup}, {"equivariance", encEquivariance},
	}
	for _, p := range props {
		t.Run(p.name, func(t *testing.T) {
			for _, c := range cases {
				p.f(t, c)
			}
		})
	}
}

func maskBit(mask []uint64, b int) bool { return mask[b>>6]>>uint(b&63)&1 != 0 }

func countBits(mask []uint64) int {
	n := 0
	for _, w := range mask {
		n += bits.OnesCount64(w)
	}
	return n
}

// where names a position and seat in failures.
func where(c EncoderCase, i int, st rules.State, seat int) string {
	return fmt.Sprintf("%s state %d (step %d, done %v) seat %d (active %v)", c.Name, i, st.Steps(), st.Done(), seat, st.Active(seat))
}

func encMask(t *testing.T, c EncoderCase) {
	e := c.Encoder
	sp := e.Space()
	mask := make([]uint64, sp.MaskWords())
	act := make([]int32, sp.Heads)
	var legal []rules.Move
	for i, st := range c.States {
		for seat := 0; seat < st.Spec().Seats; seat++ {
			at := where(c, i, st, seat)
			for w := range mask {
				mask[w] = 0xa5a5a5a5a5a5a5a5
			}
			e.Mask(st, seat, mask)
			for b := sp.MaskBits(); b < 64*len(mask); b++ {
				if maskBit(mask, b) {
					t.Fatalf("%s: bit %d past the %d mask bits is set (every word must be written)", at, b, sp.MaskBits())
				}
			}
			if !st.Active(seat) {
				want := 0
				if sp.Heads == 1 && e.Encode(st, seat, rules.Move{}, act) {
					want = 1
					if !maskBit(mask, int(act[0])) {
						t.Fatalf("%s: the pass action %d is not set", at, act[0])
					}
				}
				if got := countBits(mask); sp.Heads == 1 && got != want {
					t.Fatalf("%s: %d mask bits, want the pass action alone (%d)", at, got, want)
				}
				continue
			}
			if sp.Heads != 1 {
				continue // a multi-head space's legal set is per head: the game's own test
			}
			for a := 0; a < sp.Actions; a++ {
				act[0] = int32(a)
				m := e.Decode(st, seat, act)
				want := st.Legal(seat, m) && e.Encode(st, seat, m, act) && act[0] == int32(a)
				if got := maskBit(mask, a); got != want {
					t.Fatalf("%s: action %d decodes to %+v (Legal %v, its action %d): mask bit %v", at, a, m, st.Legal(seat, m), act[0], got)
				}
			}
			legal = st.LegalMoves(seat, legal[:0])
			distinct := map[rules.Move]bool{}
			for _, m := range legal {
				if !e.Encode(st, seat, m, act) {
					if !c.PartialEncode {
						t.Fatalf("%s: legal move %+v has no action", at, m)
					}
					continue
				}
				if !maskBit(mask, int(act[0])) {
					t.Fatalf("%s: legal move %+v (action %d) is not in the mask", at, m, act[0])
				}
				distinct[m] = true
			}
			if got := countBits(mask); got != len(distinct) {
				t.Fatalf("%s: %d mask bits, %d distinct legal moves with an action", at, got, len(distinct))
			}
		}
	}
}

func encRoundTrip(t *testing.T, c EncoderCase) {
	e := c.Encoder
	sp := e.Space()
	if sp.Heads != 1 {
		return
	}
	act, back := make([]int32, 1), make([]int32, 1)
	for i, st := range c.States {
		for seat := 0; seat < st.Spec().Seats; seat++ {
			for a := 0; a < sp.Actions; a++ {
				act[0] = int32(a)
				m := e.Decode(st, seat, act)
				if m == (rules.Move{}) {
					continue
				}
				if !e.Encode(st, seat, m, back) || back[0] != int32(a) {
					t.Fatalf("%s: action %d decodes to %+v, which encodes to %d", where(c, i, st, seat), a, m, back[0])
				}
			}
		}
	}
}

func encAnswer(t *testing.T, c EncoderCase) {
	if c.Answer == nil {
		return
	}
	e := c.Encoder
	sp := e.Space()
	if sp.Heads != 1 || c.Codec == nil {
		t.Fatalf("%s: Answer needs a single-head space and the Codec", c.Name)
	}
	mask := make([]uint64, sp.MaskWords())
	act := make([]int32, 1)
	answered := 0
	for i, st := range c.States {
		for seat := 0; seat < st.Spec().Seats; seat++ {
			e.Mask(st, seat, mask)
			for a := 0; a < sp.Actions; a++ {
				if !maskBit(mask, a) {
					continue
				}
				act[0] = int32(a)
				m := e.Decode(st, seat, act)
				ans, err := c.Answer(st, seat, int32(a))
				if err != nil {
					t.Fatalf("%s: action %d (decoded %+v): %v", where(c, i, st, seat), a, m, err)
				}
				if got := c.Codec.ParseAnswer(st, seat, ans); got != m {
					t.Fatalf("%s: action %d decodes to %+v, but its answer %q parses to %+v", where(c, i, st, seat), a, m, ans, got)
				}
				answered++
			}
		}
	}
	if answered == 0 {
		t.Fatalf("%s: no set mask bit to answer", c.Name)
	}
}

func encView(t *testing.T, c EncoderCase) {
	if c.View == nil {
		return
	}
	e := c.Encoder
	sp := e.Space()
	planes, want := make([]uint8, sp.ObsSize()), make([]uint8, sp.ObsSize())
	scalars, wantSc := make([]float32, sp.Scalars), make([]float32, sp.Scalars)
	cells := sp.Height * sp.Width
	for i, st := range c.States {
		for seat := 0; seat < st.Spec().Seats; seat++ {
			clear(want)
			clear(wantSc)
			c.View(st, seat, want, wantSc)
			e.Observe(st, seat, planes, scalars)
			for k := range planes {
				if planes[k] != want[k] {
					q, cell := k/cells, k%cells
					t.Fatalf("%s: plane %d %s (%d,%d) = %d, the view says %d", where(c, i, st, seat), q, name(sp.PlaneNames, q), cell/sp.Width, cell%sp.Width, planes[k], want[k])
				}
			}
			for k := range scalars {
				if math.Abs(float64(scalars[k]-wantSc[k])) > c.ScalarTolerance || math.IsNaN(float64(scalars[k])) {
					t.Fatalf("%s: scalar %d %s = %v, the view says %v", where(c, i, st, seat), k, name(sp.ScalarNames, k), scalars[k], wantSc[k])
				}
			}
		}
	}
}

func name(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return "?"
}

func encEveryByte(t *testing.T, c EncoderCase) {
	e := c.Encoder
	sp := e.Space()
	var planes [2][]uint8
	var scalars [2][]float32
	var masks [2][]uint64
	for k := range planes {
		planes[k] = make([]uint8, sp.ObsSize())
		scalars[k] = make([]float32, sp.Scalars)
		masks[k] = make([]uint64, sp.MaskWords())
	}
	fills := [2]struct {
		plane  uint8
		scalar float32
		mask   uint64
	}{{0xaa, float32(math.NaN()), 0}, {0x55, -7, ^uint64(0)}}
	for i, st := range c.States {
		for seat := 0; seat < st.Spec().Seats; seat++ {
			for k, f := range fills {
				for j := range planes[k] {
					planes[k][j] = f.plane
				}
				for j := range scalars[k] {
					scalars[k][j] = f.scalar
				}
				for j := range masks[k] {
					masks[k][j] = f.mask
				}
				e.Observe(st, seat, planes[k], scalars[k])
				e.Mask(st, seat, masks[k])
			}
			at := where(c, i, st, seat)
			for j := range planes[0] {
				if planes[0][j] != planes[1][j] {
					t.Fatalf("%s: plane byte %d left unwritten (%#x / %#x)", at, j, planes[0][j], planes[1][j])
				}
				if c.PlaneMax != 0 && planes[0][j] > c.PlaneMax {
					t.Fatalf("%s: plane byte %d = %d, over %d", at, j, planes[0][j], c.PlaneMax)
				}
			}
			for j := range scalars[0] {
				if math.Float32bits(scalars[0][j]) != math.Float32bits(scalars[1][j]) {
					t.Fatalf("%s: scalar %d left unwritten (%v / %v)", at, j, scalars[0][j], scalars[1][j])
				}
			}
			for j := range masks[0] {
				if masks[0][j] != masks[1][j] {
					t.Fatalf("%s: mask word %d left unwritten (%#x / %#x)", at, j, masks[0][j], masks[1][j])
				}
			}
		}
	}
}

func encAllocs(t *testing.T, c EncoderCase) {
	e := c.Encoder
	sp := e.Space()
	planes, scalars := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars)
	mask := make([]uint64, sp.MaskWords())
	act := make([]int32, sp.Heads)
	pot, _ := e.(rules.Potential)
	var sink float64
	for i, st := range c.States {
		seats := st.Spec().Seats
		allocs := testing.AllocsPerRun(2, func() {
			for seat := 0; seat < seats; seat++ {
				e.Observe(st, seat, planes, scalars)
				e.Mask(st, seat, mask)
				for h := range act {
					act[h] = int32((seat*397 + h*31) % sp.Actions)
				}
				m := e.Decode(st, seat, act)
				e.Encode(st, seat, m, act)
				if pot != nil {
					sink += pot.Potential(st, seat)
				}
			}
		})
		if allocs != 0 {
			t.Fatalf("%s state %d (step %d): %.1f allocations per Observe, Mask, Decode, Encode, Potential of every seat", c.Name, i, st.Steps(), allocs)
		}
	}
	_ = sink
}

func encSymmetryGroup(t *testing.T, c EncoderCase) {
	e := c.Encoder
	sym, ok := e.(rules.Symmetric)
	if !ok {
		return
	}
	sp := e.Space()
	pass := make([]int32, sp.Heads)
	hasPass := sp.Heads == 1 && c.States != nil && e.Encode(c.States[0], 0, rules.Move{}, pass)
	seen := make([]bool, sp.Actions)
	for g := rules.D4(0); g < 8; g++ {
		for h := 0; h < sp.Heads; h++ {
			clear(seen)
			for a := int32(0); a < int32(sp.Actions); a++ {
				b := sym.TransformAction(g, h, a)
				if b < 0 || b >= int32(sp.Actions) || seen[b] {
					t.Fatalf("%s g=%d head %d: action %d → %d is not a bijection", c.Name, g, h, a, b)
				}
				seen[b] = true
				if back := sym.TransformAction(g.Inverse(), h, b); back != a {
					t.Fatalf("%s g=%d head %d: g⁻¹ maps %d → %d back to %d", c.Name, g, h, a, b, back)
				}
			}
		}
		if hasPass {
			if b := sym.TransformAction(g, 0, pass[0]); b != pass[0] {
				t.Fatalf("%s g=%d: the pass action %d → %d", c.Name, g, pass[0], b)
			}
		}
	}
	p, tp, bp := make([]uint8, sp.ObsSize()), make([]uint8, sp.ObsSize()), make([]uint8, sp.ObsSize())
	s, ts, bs := make([]float32, sp.Scalars), make([]float32, sp.Scalars), make([]float32, sp.Scalars)
	for i, st := range c.States {
		for seat := 0; seat < st.Spec().Seats; seat++ {
			e.Observe(st, seat, p, s)
			for g := rules.D4(0); g < 8; g++ {
				sym.TransformObs(g, tp, ts, p, s)
				sym.TransformObs(g.Inverse(), bp, bs, tp, ts)
				for k := range p {
					if bp[k] != p[k] {
						t.Fatalf("%s g=%d: TransformObs by g then g⁻¹ changes plane byte %d (%d → %d)", where(c, i, st, seat), g, k, p[k], bp[k])
					}
				}
				for k := range s {
					if math.Float32bits(bs[k]) != math.Float32bits(s[k]) {
						t.Fatalf("%s g=%d: TransformObs by g then g⁻¹ changes scalar %d (%v → %v)", where(c, i, st, seat), g, k, s[k], bs[k])
					}
				}
			}
		}
	}
}

func encEquivariance(t *testing.T, c EncoderCase) {
	if c.Images == nil {
		return
	}
	e := c.Encoder
	sym, ok := e.(rules.Symmetric)
	if !ok {
		t.Fatalf("%s: Images without a rules.Symmetric encoder", c.Name)
	}
	sp := e.Space()
	n, ns, mw := sp.ObsSize(), sp.Scalars, sp.MaskWords()
	p, tp, gp := make([]uint8, n), make([]uint8, n), make([]uint8, n)
	s, ts, gs := make([]float32, ns), make([]float32, ns), make([]float32, ns)
	mask, gmask := make([]uint64, mw), make([]uint64, mw)
	act, gact := make([]int32, 1), make([]int32, 1)
	images := 0
	for i, st := range c.States {
		for g := rules.D4(0); g < 8; g++ {
			for k, im := range c.Images(g, st) {
				images++
				for seat, gseat := range im.Seat {
					if gseat < 0 {
						continue
					}
					at := fmt.Sprintf("%s g=%d image %d (seat %d there)", where(c, i, st, seat), g, k, gseat)
					e.Observe(st, seat, p, s)
					sym.TransformObs(g, tp, ts, p, s)
					e.Observe(im.State, gseat, gp, gs)
					cut := len(tp)
					if im.Planes > 0 {
						cut = im.Planes
					}
					for j := range tp[:cut] {
						if tp[j] != gp[j] {
							t.Fatalf("%s: the image's plane byte %d is %d, the transformed observation's %d", at, j, gp[j], tp[j])
						}
					}
					for j := range ts {
						if math.Float32bits(ts[j]) != math.Float32bits(gs[j]) {
							t.Fatalf("%s: the image's scalar %d is %v, the transformed observation's %v", at, j, gs[j], ts[j])
						}
					}
					e.Mask(st, seat, mask)
					e.Mask(im.State, gseat, gmask)
					for h := 0; h < sp.Heads; h++ {
						for a := int32(0); a < int32(sp.Actions); a++ {
							b := sym.TransformAction(g, h, a)
							if maskBit(mask, h*sp.Actions+int(a)) != maskBit(gmask, h*sp.Actions+int(b)) {
								t.Fatalf("%s: head %d mask bit %d is not the image's bit %d", at, h, a, b)
							}
						}
					}
					if im.Move == nil || sp.Heads != 1 {
						continue
					}
					for a := int32(0); a < int32(sp.Actions); a++ {
						act[0], gact[0] = a, sym.TransformAction(g, 0, a)
						m := e.Decode(st, seat, act)
						if gm, want := e.Decode(im.State, gseat, gact), im.Move(seat, m); gm != want {
							t.Fatalf("%s: action %d decodes to %+v, its transform %d to %+v, want %+v", at, a, m, gact[0], gm, want)
						}
					}
				}
			}
		}
	}
	if images == 0 {
		t.Fatalf("%s: no real image of any position", c.Name)
	}
}
