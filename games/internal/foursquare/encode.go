package foursquare

import "github.com/gridgym/gridgym/rules"

// PassAction is the pass's action; action a < Cells places on cell a.
const PassAction = Cells

// Encoder is the learner interface: planes own, other, empty of the seat's
// view (R6), one head of 17 actions.
type Encoder struct{}

// NewEncoder returns the encoder.
func NewEncoder(rules.Config) rules.Encoder { return Encoder{} }

// Space describes the spaces.
func (Encoder) Space() rules.Space {
	return rules.Space{Planes: 3, Height: Size, Width: Size, PlaneNames: []string{"own", "other", "empty"},
		Heads: 1, Actions: Cells + 1, ActionPlanes: 1, ScoreScale: 4,
		ActionDoc: "a < 16: place on cell a = r*4+c; 16: pass"}
}

// Observe writes seat's planes.
func (Encoder) Observe(st rules.State, seat int, planes []uint8, _ []float32) {
	s := st.(*State)
	for cell := range Cells {
		v := view(s, seat, cell)
		planes[cell] = b2u(v == 1)
		planes[Cells+cell] = b2u(v == 2)
		planes[2*Cells+cell] = b2u(v == 0)
	}
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// Mask sets the empty cells and the pass for the active seat, the pass
// alone otherwise.
func (Encoder) Mask(st rules.State, seat int, mask []uint64) {
	s := st.(*State)
	mask[0] = 1 << PassAction
	if s.Active(seat) {
		mask[0] |= uint64(s.empty())
	}
}

// Decode maps an action to its move; out of range is a pass.
func (Encoder) Decode(_ rules.State, _ int, actions []int32) rules.Move {
	if a := actions[0]; a >= 0 && a < Cells {
		return Place(int(a))
	}
	return rules.Move{}
}

// Encode is Decode's inverse.
func (Encoder) Encode(_ rules.State, _ int, m rules.Move, actions []int32) bool {
	switch {
	case m == (rules.Move{}):
		actions[0] = PassAction
	case m.Kind == KindPlace && m.N == 1 && m.Arg[0] >= 0 && m.Arg[0] < Cells:
		actions[0] = int32(m.Arg[0])
	default:
		return false
	}
	return true
}
