package bovine

import (
	"encoding/binary"
	"math/bits"

	"github.com/gridgym/gridgym/rules"
)

// Learner interface: the layout is documented in the package doc, section
// "Learner interface".

// Observation and action space sizes.
const (
	NumPlanes  = 10             // observation planes of Size×Size bytes (12 with frontier_planes)
	NumScalars = 8              // float32 features beside the planes
	NumActions = 4*Cells + 1    // 4 source directions × 400 destinations, then pass
	PassAction = NumActions - 1 // the action index of Pass
)

// First plane of each group of the observation; group planes are in relative
// seat order k = 0 (own), 1, 2, 3 (seat+k mod 4).
const (
	PlaneCows      = 0 // planes 0–3: seat+k's cows
	PlaneConnected = 4 // planes 4–7: seat+k's connected cows (R4)
	PlaneEmpty     = 8 // plane 8: empty cells
	PlaneBarns     = 9 // plane 9: the barns of live seats
	// With the parameter frontier_planes (observation only):
	PlaneFirst      = 10 // plane 10: the empty cells the seat reaches first (Frontier)
	PlaneRivalFirst = 11 // plane 11: the empty cells some rival reaches first
)

// Source directions of an action: the side-neighbour of the destination the
// cow comes from, in view coordinates (the destination's row-major neighbour
// order, as R8 lists candidates).
const (
	FromAbove = 0 // source (i−1, j)
	FromLeft  = 1 // source (i, j−1)
	FromRight = 2 // source (i, j+1)
	FromBelow = 3 // source (i+1, j)
)

// dirDI and dirDJ are the source minus the destination, in view coordinates,
// for each direction.
var (
	dirDI = [4]int{-1, 0, 0, 1}
	dirDJ = [4]int{0, -1, 1, 0}
)

const maskWords = (NumActions + 63) / 64

var planeNames = []string{
	"cows+0 (own)", "cows+1", "cows+2", "cows+3",
	"connected+0 (own)", "connected+1", "connected+2", "connected+3",
	"empty", "barns",
	"reached first (own)", "reached first by a rival",
}

var scalarNames = []string{
	"alive+0 (own)", "alive+1", "alive+2", "alive+3",
	"territory+0/400 (own)", "territory+1/400", "territory+2/400", "territory+3/400",
}

// transposePlanes and transposeScalars are the plane and scalar permutations
// of a reflection: relative seats +1 and +3 trade places (dst[i] = src[perm[i]]).
var (
	transposePlanes  = []int{0, 3, 2, 1, 4, 7, 6, 5, 8, 9, 10, 11}
	transposeScalars = [NumScalars]int{0, 3, 2, 1, 4, 7, 6, 5}
)

const actionDoc = `1601 actions. a < 1600: d = a / 400 is the source direction and a % 400 = i·20 + j the destination (i, j) in the seat's view (R19); the cow comes from the destination's side-neighbour d: 0 above (i−1, j), 1 left (i, j−1), 2 right (i, j+1), 3 below (i+1, j). The move is the competition answer ((si, sj), (i, j)), mapped to the real board by R19 (a full move, R20). a = 1600 is Pass (None). Destination-only answers and the non-adjacent moves of the nonadjacent_moves variant have no action.`

// Encoder is Bovine Borders' learner interface (rules.Encoder, with
// rules.Potential and rules.Symmetric). Every seat sees the competition's view
// of its board (R19); see the package doc, "Learner interface". It has no
// state, so one value serves every goroutine.
type Encoder struct {
	// frontier adds planes PlaneFirst and PlaneRivalFirst (the parameter
	// frontier_planes): which empty cells each side would win a race to,
	// a fact of the whole board that a few 3×3 convolutions cannot see.
	frontier bool
}

// NewEncoder returns the encoder for a validated config (the same for both
// values of nonadjacent_moves: the action space holds the default rules' moves;
// two more planes with frontier_planes).
func NewEncoder(cfg rules.Config) rules.Encoder {
	return Encoder{frontier: cfg.Bool(ParamFrontierPlanes)}
}

// planes is the number of observation planes.
func (e Encoder) planes() int {
	if e.frontier {
		return NumPlanes + 2
	}
	return NumPlanes
}

// Space implements rules.Encoder.
func (e Encoder) Space() rules.Space {
	return rules.Space{
		Planes: e.planes(), Height: Size, Width: Size, PlaneNames: planeNames[:e.planes()],
		Scalars: NumScalars, ScalarNames: scalarNames,
		Heads: 1, Actions: NumActions, ActionPlanes: 4, ActionDoc: actionDoc,
		// Score is the placement points: 3, 2, 1, 0 without ties, mean 1.5,
		// so (score − mean)/1.5 lies in [−1, 1] and equals the rank reward.
		ScoreScale: 1.5,
	}
}

// byteExpand[b] holds bit k of b in byte k (0 or 1): it turns 8 bits of a row
// word into 8 plane bytes with one store.
var byteExpand [256]uint64

func init() {
	for b := range byteExpand {
		for k := 0; k < 8; k++ {
			byteExpand[b] |= uint64(b>>uint(k)&1) << uint(8*k)
		}
	}
}

// putPlane writes board b (bit j of word i = cell (i, j)) as 400 bytes, two
// rows (40 bits, 40 bytes) at a time.
func putPlane(dst []uint8, b *board) {
	p := (*[Cells]uint8)(dst[:Cells])
	for i := 0; i < Size; i += 2 {
		w := b[i] | b[i+1]<<Size
		q := (*[2 * Size]uint8)(p[i*Size : (i+2)*Size])
		binary.LittleEndian.PutUint64(q[0:], byteExpand[w&0xff])
		binary.LittleEndian.PutUint64(q[8:], byteExpand[w>>8&0xff])
		binary.LittleEndian.PutUint64(q[16:], byteExpand[w>>16&0xff])
		binary.LittleEndian.PutUint64(q[24:], byteExpand[w>>24&0xff])
		binary.LittleEndian.PutUint64(q[32:], byteExpand[w>>32&0xff])
	}
}

// rev10[x] is x's 10 low bits in reverse order.
var rev10 [1 << 10]uint16

func init() {
	for x := range rev10 {
		rev10[x] = uint16(bits.Reverse16(uint16(x)) >> 6)
	}
}

// rev20 reverses the 20 column bits of a row word.
func rev20(w uint64) uint64 {
	return uint64(rev10[w&(1<<10-1)])<<10 | uint64(rev10[w>>10&(1<<10-1)])
}

// turnPair turns two boards at once by a quarter, in place, to a seat's view
// (R19): for k = 1, view row i is row 19−i of the transpose (bit j of word i
// becomes bit i of word j); for k = 3 it is row i of the transpose of the
// board with its rows reversed. Each board sits in one 32-bit half of a
// 32×32 bit matrix, transposed by swapping ever smaller off-diagonal blocks
// (16, 8, 4, 2, 1 rows). Rows 20–31 start empty, and the last three stages
// skip the rows that only feed rows 20–31 of the result.
func turnPair(k int, a, b *board) {
	var m [32]uint64
	if k == 3 {
		for i := range Size {
			m[i] = a[Size-1-i] | b[Size-1-i]<<32
		}
	} else {
		for i := range Size {
			m[i] = a[i] | b[i]<<32
		}
	}
	for k := 0; k < 4; k++ {
		swapBits(&m[k], &m[k+16], 16, 0x0000ffff0000ffff)
	}
	for k := 4; k < 16; k++ { // m[k+16] is empty
		t := m[k] >> 16 & 0x0000ffff0000ffff
		m[k] ^= t << 16
		m[k+16] = t
	}
	for k := 0; k < 8; k++ {
		swapBits(&m[k], &m[k+8], 8, 0x00ff00ff00ff00ff)
		swapBits(&m[k+16], &m[k+24], 8, 0x00ff00ff00ff00ff)
	}
	for k := 0; k < 24; k += 8 {
		for l := 0; l < 4; l++ {
			swapBits(&m[(k+l)&31], &m[(k+l+4)&31], 4, 0x0f0f0f0f0f0f0f0f)
		}
	}
	for k := 0; k < Size; k += 4 {
		swapBits(&m[k&31], &m[(k+2)&31], 2, 0x3333333333333333)
		swapBits(&m[(k+1)&31], &m[(k+3)&31], 2, 0x3333333333333333)
	}
	for k := 0; k < Size; k += 2 {
		swapBits(&m[k&31], &m[(k+1)&31], 1, 0x5555555555555555)
	}
	if k == 1 {
		for i := range Size {
			a[Size-1-i], b[Size-1-i] = m[i]&0xffffffff, m[i]>>32
		}
	} else {
		for i := range Size {
			a[i], b[i] = m[i]&0xffffffff, m[i]>>32
		}
	}
}

// swapBits exchanges the bits of x selected by mask<<j with the bits of y
// selected by mask: one block swap of transposePair.
func swapBits(x, y *uint64, j uint, mask uint64) {
	t := (*x>>j ^ *y) & mask
	*x ^= t << j
	*y ^= t
}

// toView maps boards of the real board to seat's view in place: rot90(B,
// k = seat) as R19 rotates the board the competition passes.
func toView(seat int, bs []board) {
	switch k := seat & 3; k {
	case 1, 3: // view (i, j) = real (j, 19−i) or (19−j, i)
		var zero board
		for n := 0; n < len(bs); n += 2 {
			if n+1 < len(bs) {
				turnPair(k, &bs[n], &bs[n+1])
			} else {
				turnPair(k, &bs[n], &zero)
			}
		}
	case 2: // view (i, j) = real (19−i, 19−j)
		for n := range bs {
			b := &bs[n]
			for i := 0; i < Size/2; i++ {
				b[i], b[Size-1-i] = rev20(b[Size-1-i]), rev20(b[i])
			}
		}
	}
}

// Observe implements rules.Encoder: seat's planes and scalars in its view
// (package doc, "Learner interface"). st must be a *State.
func (e Encoder) Observe(st rules.State, seat int, planes []uint8, scalars []float32) {
	s := st.(*State)
	planes = planes[:e.planes()*Cells]
	scalars = scalars[:NumScalars]
	var b [2 * Seats]board // cows, then connected cows, of seat+k
	for k := 0; k < Seats; k++ {
		o := (seat + k) & 3
		b[k] = s.own[o]
		if s.Alive(o) {
			b[Seats+k] = s.Connected(o)
		}
	}
	toView(seat, b[:])
	var empty board
	for i := range empty {
		empty[i] = ^(b[0][i] | b[1][i] | b[2][i] | b[3][i]) & rowMask
	}
	for p := range b {
		putPlane(planes[p*Cells:], &b[p])
	}
	putPlane(planes[PlaneEmpty*Cells:], &empty)
	if e.frontier {
		var theirs board
		for i := range theirs {
			theirs[i] = b[Seats+1][i] | b[Seats+2][i] | b[Seats+3][i]
		}
		first, rival := reach(b[Seats], theirs, &empty)
		putPlane(planes[PlaneFirst*Cells:], &first)
		putPlane(planes[PlaneRivalFirst*Cells:], &rival)
	}
	barns := planes[PlaneBarns*Cells : (PlaneBarns+1)*Cells]
	clear(barns)
	for k := 0; k < Seats; k++ {
		o := (seat + k) & 3
		alive := float32(0)
		if s.Alive(o) {
			alive = 1
			barns[viewCorner[k]] = 1
		}
		scalars[k] = alive
		scalars[Seats+k] = float32(s.Territory(o)) / Cells
	}
}

// viewCorner[k] is the view cell i·20+j of seat+k's barn (R19).
var viewCorner = [Seats]int{0, Size - 1, Cells - 1, Cells - Size}

// Mask implements rules.Encoder: Pass, and for an Active seat every full move
// valid under the default rules (R7), built row by row from the view's cow
// words: the destinations of direction d are the non-own cells whose
// neighbour d is an own cow.
func (Encoder) Mask(st rules.State, seat int, mask []uint64) {
	s := st.(*State)
	m := mask[:maskWords]
	clear(m)
	m[PassAction>>6] |= 1 << (PassAction & 63)
	if !s.Active(seat) {
		return
	}
	var v [1]board
	v[0] = s.own[seat]
	toView(seat, v[:])
	own := &v[0]
	for i := range Size {
		free := ^own[i] & rowMask
		o := i * Size
		if i > 0 {
			putBits(m, FromAbove*Cells+o, own[i-1]&free)
		}
		putBits(m, FromLeft*Cells+o, own[i]<<1&free)
		putBits(m, FromRight*Cells+o, own[i]>>1&free)
		if i < Size-1 {
			putBits(m, FromBelow*Cells+o, own[i+1]&free)
		}
	}
}

// putBits ORs the 20-bit row word w into bitset m at bit offset off.
func putBits(m []uint64, off int, w uint64) {
	sh := uint(off & 63)
	m[off>>6] |= w << sh
	if sh > 64-Size {
		m[off>>6+1] |= w >> (64 - sh)
	}
}

// Decode implements rules.Encoder: action a of seat's view to the real move
// (R19, R20). Pass, negative and too large actions, and directions whose
// source lies off the board (out of bounds, R10) give Pass; other actions
// outside the mask give the full move, which Step treats by R7/R10.
func (Encoder) Decode(_ rules.State, seat int, actions []int32) rules.Move {
	if len(actions) == 0 {
		return rules.Move{}
	}
	a := actions[0]
	if a < 0 || a >= PassAction {
		return rules.Move{}
	}
	d, cell := int(a)/Cells, int(a)%Cells
	i, j := cell/Size, cell%Size
	si, sj := i+dirDI[d], j+dirDJ[d]
	if uint(si) >= Size || uint(sj) >= Size {
		return rules.Move{}
	}
	sr, sc := ViewToReal(seat, si, sj)
	dr, dc := ViewToReal(seat, i, j)
	return FullMove(sr*Size+sc, dr*Size+dc)
}

// Encode implements rules.Encoder: a pass (any move of Kind Pass) is
// PassAction, a full move between side-adjacent cells of the board is its
// action in seat's view; destination-only moves, non-adjacent full moves (of
// the nonadjacent_moves variant) and malformed moves have none.
func (Encoder) Encode(_ rules.State, seat int, m rules.Move, actions []int32) bool {
	if m.Kind == rules.Pass {
		actions[0] = PassAction
		return true
	}
	if m.Kind != Full || m.N != 2 {
		return false
	}
	src, dst := int(m.Arg[0]), int(m.Arg[1])
	if uint(src) >= Cells || uint(dst) >= Cells {
		return false
	}
	si, sj := RealToView(seat, src/Size, src%Size)
	i, j := RealToView(seat, dst/Size, dst%Size)
	for d := range dirDI {
		if si-i == dirDI[d] && sj-j == dirDJ[d] {
			actions[0] = int32(d*Cells + i*Size + j)
			return true
		}
	}
	return false
}

// Potential implements rules.Potential: seat's territory (R2) over the 400
// cells, in [0, 1]; 0 once eliminated.
func (Encoder) Potential(st rules.State, seat int) float64 {
	return float64(st.(*State).Territory(seat)) / Cells
}

// Symmetries implements rules.Symmetric: the identity and the transpose, the
// only elements of D4 that keep the own barn at view (0,0).
func (Encoder) Symmetries() []rules.D4 { return []rules.D4{0, 4} }

// TransformObs implements rules.Symmetric. The planes are mapped by g, and
// when g is a reflection (g&4 ≠ 0) relative seats +1 and +3 trade their
// planes and scalars, since a reflection reverses the clockwise order of the
// barns: for the transpose, +1's corner (0,19) becomes +3's (19,0). Only the
// elements of Symmetries give a canonical observation.
func (e Encoder) TransformObs(g rules.D4, dstPlanes []uint8, dstScalars []float32, planes []uint8, scalars []float32) {
	n := e.planes()
	var perm []int
	if g&4 != 0 {
		perm = transposePlanes[:n]
	}
	rules.TransformPlanes(g, Size, dstPlanes[:n*Cells], planes[:n*Cells], perm)
	for i := range NumScalars {
		if g&4 != 0 {
			dstScalars[i] = scalars[transposeScalars[i]]
		} else {
			dstScalars[i] = scalars[i]
		}
	}
}

// TransformAction implements rules.Symmetric: the destination cell is mapped
// by g and the source direction as a vector, so the transformed action moves
// the image of the source to the image of the destination. Pass and actions
// outside [0, NumActions) are unchanged.
func (Encoder) TransformAction(g rules.D4, _ int, a int32) int32 {
	if a < 0 || a >= PassAction {
		return a
	}
	d, cell := int(a)/Cells, int(a)%Cells
	i, j := g.Point(Size, cell/Size, cell%Size)
	di, dj := dirDI[d], dirDJ[d]
	if g&4 != 0 {
		di, dj = dj, di
	}
	for k := 0; k < int(g&3); k++ {
		di, dj = -dj, di // rot90 maps (r, c) to (n−1−c, r)
	}
	for nd := range dirDI {
		if dirDI[nd] == di && dirDJ[nd] == dj {
			d = nd
		}
	}
	return int32(d*Cells + i*Size + j)
}
