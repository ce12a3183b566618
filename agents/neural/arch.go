// Package neural holds gridgym's policy/value network as data and its
// inference in plain Go: the architecture (shaped by a game's encoder), the
// named float32 parameters, a batched forward pass with preallocated buffers,
// safetensors files, and an agents.Agent that plays with it. Training (package
// train) builds the same network as a gorgonia graph from the same Arch and
// parameter names; a test holds the two forward passes together.
//
// # The network
//
// Input: the seat's observation planes as float32 with every scalar feature
// broadcast as one more constant plane, Cin = Planes + Scalars channels of
// H×W (NCHW), plus two coordinate channels where Arch.Coords is set. Trunk: Layers 3×3 convolutions (zero padding 1, bias, ReLU) of
// Filters channels. Policy: a 1×1 convolution to Heads·ActionPlanes channels
// gives the board-shaped logits of every head (channel-major, cell r·W+c —
// the layout every encoder uses for its spatial actions); a small global
// branch (1×1 convolution to 2 channels, flatten, dense to Hidden, ReLU) gives
// the remaining Extras logits per head (pass, Rectangle's directions) and the
// value, tanh(dense(Hidden→1)). Where heads steer units (Arch.Units), each
// head's Extras logits also get the trunk's features at its unit's cell
// through a shared dense layer (unit.w). Illegal actions get logit −∞ (masked softmax).
package neural

import (
	"fmt"

	"github.com/gridgym/gridgym/rules"
)

// EncodingVersion is the version of the observation encoding and action
// layout a network is trained against; checkpoints and exports record it and
// refuse to load under another. Version 2: every observation is a function
// of the competition request alone (Slime dropped its turn scalar, Rectangle
// its idle counter, Bovine Borders its round), so exported bots see what the learner saw.
const EncodingVersion = 2

// Arch is the shape of a network: everything needed to allocate and run it.
type Arch struct {
	Game     string `json:"game"`
	Planes   int    `json:"planes"`  // observation planes
	Scalars  int    `json:"scalars"` // scalar features, broadcast as planes
	Height   int    `json:"height"`
	Width    int    `json:"width"`
	Filters  int    `json:"filters"`  // trunk channels
	Layers   int    `json:"layers"`   // trunk 3×3 convolutions
	Hidden   int    `json:"hidden"`   // global branch width
	Heads    int    `json:"heads"`    // independent action heads
	Actions  int    `json:"actions"`  // actions per head
	APlanes  int    `json:"aplanes"`  // board-shaped action planes per head
	Extras   int    `json:"extras"`   // non-spatial actions per head
	Encoding int    `json:"encoding"` // EncodingVersion at training time
	// Coords adds two input channels after the scalars, the row r/(H−1) and
	// the column c/(W−1) of every cell, so that the trunk knows where a
	// cell is (how far from the own corner or an edge), which a few 3×3
	// convolutions cannot see on their own.
	Coords bool `json:"coords,omitempty"`
	// Units, when > 0, is the observation plane that marks head 0's unit
	// (rules.Space.UnitPlane; plane Units+h marks head h's): the trunk's
	// features summed over head h's marked cells feed its non-spatial
	// logits through unit.w, so a robot's directions are read where the
	// robot stands rather than through the global branch.
	Units int `json:"units,omitempty"`
}

// NewArch shapes a network for a game's action and observation space.
func NewArch(game string, sp rules.Space, filters, layers, hidden int) (Arch, error) {
	a := Arch{Game: game, Planes: sp.Planes, Scalars: sp.Scalars, Height: sp.Height, Width: sp.Width,
		Filters: filters, Layers: layers, Hidden: hidden, Heads: sp.Heads, Actions: sp.Actions,
		APlanes: sp.ActionPlanes, Encoding: EncodingVersion}
	a.Extras = sp.Actions - sp.ActionPlanes*sp.Height*sp.Width
	if a.Extras > 0 && sp.UnitPlane > 0 {
		a.Units = sp.UnitPlane
	}
	return a, a.Validate()
}

// Validate checks that the shape is usable.
func (a Arch) Validate() error {
	switch {
	case a.Filters < 1 || a.Filters > 512:
		return fmt.Errorf("filters = %d, want 1..512", a.Filters)
	case a.Layers < 1 || a.Layers > 20:
		return fmt.Errorf("layers = %d, want 1..20", a.Layers)
	case a.Hidden < 1 || a.Hidden > 4096:
		return fmt.Errorf("hidden = %d, want 1..4096", a.Hidden)
	case a.Height < 1 || a.Width < 1 || a.Planes < 1 || a.Heads < 1 || a.Actions < 1:
		return fmt.Errorf("network shape %dx%dx%d with %d heads of %d actions is empty", a.Planes, a.Height, a.Width, a.Heads, a.Actions)
	case a.APlanes < 0 || a.Extras < 0:
		return fmt.Errorf("%d actions per head do not hold %d action planes of %dx%d", a.Actions, a.APlanes, a.Height, a.Width)
	case a.Units < 0 || a.Units > 0 && (a.Extras == 0 || a.Units+a.Heads > a.Planes):
		return fmt.Errorf("unit planes %d..%d do not fit %d planes with %d non-spatial actions", a.Units, a.Units+a.Heads-1, a.Planes, a.Extras)
	}
	return nil
}

// Cin is the number of input channels (planes + broadcast scalars + 2
// coordinate channels with Coords).
func (a Arch) Cin() int {
	if a.Coords {
		return a.Planes + a.Scalars + 2
	}
	return a.Planes + a.Scalars
}

// Cells is H·W.
func (a Arch) Cells() int { return a.Height * a.Width }

// InputSize is the number of float32 inputs of one observation.
func (a Arch) InputSize() int { return a.Cin() * a.Cells() }

// Logits is the number of policy logits of one observation (Heads·Actions).
func (a Arch) Logits() int { return a.Heads * a.Actions }

// Param names one parameter tensor and its shape (gorgonia's layouts:
// convolution filters out×in×kh×kw, dense weights in×out).
type Param struct {
	Name  string
	Shape []int
	// FanIn is the number of inputs of one output unit (for initialisation).
	FanIn int
}

// Size is the number of float32 values of the parameter.
func (p Param) Size() int {
	n := 1
	for _, d := range p.Shape {
		n *= d
	}
	return n
}

// Params lists the network's parameters in a fixed order.
func (a Arch) Params() []Param {
	var ps []Param
	in := a.Cin()
	for l := 0; l < a.Layers; l++ {
		ps = append(ps,
			Param{fmt.Sprintf("trunk%d.w", l), []int{a.Filters, in, 3, 3}, in * 9},
			Param{fmt.Sprintf("trunk%d.b", l), []int{a.Filters}, in * 9})
		in = a.Filters
	}
	if a.APlanes > 0 {
		ps = append(ps,
			Param{"policy.w", []int{a.Heads * a.APlanes, a.Filters, 1, 1}, a.Filters},
			Param{"policy.b", []int{a.Heads * a.APlanes}, a.Filters})
	}
	ps = append(ps,
		Param{"global.w", []int{2, a.Filters, 1, 1}, a.Filters},
		Param{"global.b", []int{2}, a.Filters},
		Param{"hidden.w", []int{2 * a.Cells(), a.Hidden}, 2 * a.Cells()},
		Param{"hidden.b", []int{a.Hidden}, 2 * a.Cells()},
		Param{"value.w", []int{a.Hidden, 1}, a.Hidden},
		Param{"value.b", []int{1}, a.Hidden})
	if a.Extras > 0 {
		ps = append(ps,
			Param{"extra.w", []int{a.Hidden, a.Heads * a.Extras}, a.Hidden},
			Param{"extra.b", []int{a.Heads * a.Extras}, a.Hidden})
	}
	if a.Units > 0 {
		ps = append(ps, Param{"unit.w", []int{a.Filters, a.Extras}, a.Filters})
	}
	return ps
}
