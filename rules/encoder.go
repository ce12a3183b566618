package rules

import (
	"errors"
	"fmt"
	"strings"
)

// Space is what a learner sees of a configured game: the shape of one seat's
// observation and the fixed discrete action space, the same in every position.
type Space struct {
	// Observation planes, C×H×W bytes, in the seat's canonical frame (its
	// start corner or settlement where it has one, itself as "own").
	Planes, Height, Width int
	// PlaneNames says what each plane holds, for docs and notebooks.
	PlaneNames []string
	// Scalars are float32 features beside the planes (round, phase, …).
	Scalars     int
	ScalarNames []string
	// Heads independent action heads of Actions choices each: 1 head for most
	// games, one per robot for Rectangle's multi-discrete space. Action a of
	// head h is bit h·Actions+a of the mask.
	Heads, Actions int
	// ActionPlanes says how the actions of a head are laid out: the first
	// ActionPlanes·Height·Width are board-shaped (action plane k, canonical
	// cell r·Width+c is action k·Height·Width + r·Width + c); the rest are
	// non-spatial (pass, directions). Convolutional policy heads rely on it.
	ActionPlanes int
	// UnitPlane, when > 0, says that head h steers a unit (Rectangle's robot
	// h) marked in plane UnitPlane+h; networks read their features at the
	// unit's cell for the head's non-spatial actions (its directions). 0 =
	// no units (plane 0 is never a unit plane).
	UnitPlane int
	// ActionDoc explains the action indices and how they map to moves.
	ActionDoc string
	// ScoreScale is a typical spread of Outcome.Score, used to normalise
	// score-based rewards.
	ScoreScale float64
}

// ObsSize is the number of plane bytes of one observation.
func (s Space) ObsSize() int { return s.Planes * s.Height * s.Width }

// MaskBits is the number of mask bits of one seat (Heads·Actions).
func (s Space) MaskBits() int { return s.Heads * s.Actions }

// MaskWords is the number of uint64 words of one seat's mask.
func (s Space) MaskWords() int { return (s.MaskBits() + 63) / 64 }

// Encoder is a game's learner interface: it draws a seat's canonical
// observation, its legal-action mask, and maps actions to moves and back. It
// lives in the game's package and is registered with the game (Game.Encoder),
// so the generic env needs no per-game code. Observe, Mask and Decode
// allocate nothing.
type Encoder interface {
	// Space describes the observation and action spaces.
	Space() Space
	// Observe writes seat's observation: planes has ObsSize bytes, scalars
	// Scalars entries. Every byte and entry is written.
	Observe(st State, seat int, planes []uint8, scalars []float32)
	// Mask writes seat's legal actions for the next step as a bitset of
	// MaskWords words (every word written). A seat that is not Active gets
	// only the game's pass action, or an empty mask where the game has none
	// (its action is then ignored).
	Mask(st State, seat int, mask []uint64)
	// Decode maps seat's actions (one per head, canonical frame) to the real
	// move. Actions outside the mask decode to some move that Step treats as
	// the rules say; they never panic.
	Decode(st State, seat int, actions []int32) Move
	// Encode is Decode's inverse: it writes the actions (one per head) that
	// decode to m, or reports false if m has none (a move outside the action
	// space, such as a non-adjacent variant move). Behaviour cloning uses it.
	Encode(st State, seat int, m Move, actions []int32) bool
}

// Potential is implemented by encoders that offer reward shaping: a number
// (say, the seat's share of the board) whose change per step can be added to
// the reward. The env uses it only when shaping is switched on.
type Potential interface {
	Potential(st State, seat int) float64
}

// Potentials is implemented by encoders that offer more than one shaping
// potential, by name; the first name is the encoder's own Potential.
type Potentials interface {
	PotentialNames() []string
	NamedPotential(name string) Potential // nil for a name not in PotentialNames
}

// PotentialOf returns enc's shaping potential called name: "" is the
// encoder's own (rules.Potential). The error names the potentials there are.
func PotentialOf(enc Encoder, name string) (Potential, error) {
	if name == "" {
		if p, ok := enc.(Potential); ok {
			return p, nil
		}
		return nil, errors.New("the game offers no shaping potential")
	}
	ps, ok := enc.(Potentials)
	if !ok {
		if _, ok := enc.(Potential); ok {
			return nil, fmt.Errorf("no shaping potential %q: the game has only its default one", name)
		}
		return nil, fmt.Errorf("no shaping potential %q: the game offers none", name)
	}
	if p := ps.NamedPotential(name); p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("no shaping potential %q: want one of %s", name, strings.Join(ps.PotentialNames(), ", "))
}

// Symmetric is implemented by encoders whose canonical view is symmetric under
// some elements of D4, for data augmentation: the observation transformed by
// g, with the actions transformed by g, describes an equivalent position and
// the equivalent moves.
type Symmetric interface {
	// Symmetries lists the elements of D4 (identity included) the game's
	// canonical view is symmetric under.
	Symmetries() []D4
	// TransformObs writes g applied to an observation into dst (no aliasing).
	TransformObs(g D4, dstPlanes []uint8, dstScalars []float32, planes []uint8, scalars []float32)
	// TransformAction maps head's action a under g.
	TransformAction(g D4, head int, a int32) int32
}

// D4 is one of the 8 symmetries of the square: g&3 counter-clockwise quarter
// turns (NumPy's rot90 with k = g&3), preceded by a transpose if g&4 != 0.
type D4 uint8

// Point maps cell (r, c) of an n×n board under g.
func (g D4) Point(n, r, c int) (int, int) {
	if g&4 != 0 {
		r, c = c, r
	}
	switch g & 3 { // rot90: the element at (r, c) moves to (n−1−c, r)
	case 1:
		return n - 1 - c, r
	case 2:
		return n - 1 - r, n - 1 - c
	case 3:
		return c, n - 1 - r
	}
	return r, c
}

// Cell maps cell index r·n+c of an n×n board under g.
func (g D4) Cell(n, cell int) int {
	r, c := g.Point(n, cell/n, cell%n)
	return r*n + c
}

// Inverse returns g⁻¹: the reflections (g&4 set) are their own inverses, a
// turn by k quarters is undone by 4−k.
func (g D4) Inverse() D4 {
	if g&4 != 0 {
		return g & 7
	}
	return (4 - g) & 3
}

// compose returns the symmetry "h, then g" (found by its action on two
// points, which determines an element of D4).
func (g D4) compose(h D4) D4 {
	const n = 3
	r1, c1 := h.Point(n, 0, 1)
	r1, c1 = g.Point(n, r1, c1)
	r2, c2 := h.Point(n, 1, 0)
	r2, c2 = g.Point(n, r2, c2)
	for k := D4(0); k < 8; k++ {
		a, b := k.Point(n, 0, 1)
		d, e := k.Point(n, 1, 0)
		if a == r1 && b == c1 && d == r2 && e == c2 {
			return k
		}
	}
	return 0
}

// Then returns the symmetry "g, then h".
func (g D4) Then(h D4) D4 { return h.compose(g) }

// TransformPlanes writes g applied to each n×n plane of src into dst; plane i
// of dst is plane perm[i] of src (perm nil = the same plane). Games use it for
// the spatial part of TransformObs.
func TransformPlanes(g D4, n int, dst, src []uint8, perm []int) {
	planes := len(src) / (n * n)
	for p := 0; p < planes; p++ {
		from := p
		if perm != nil {
			from = perm[p]
		}
		s := src[from*n*n : (from+1)*n*n]
		d := dst[p*n*n : (p+1)*n*n]
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				tr, tc := g.Point(n, r, c)
				d[tr*n+tc] = s[r*n+c]
			}
		}
	}
}
