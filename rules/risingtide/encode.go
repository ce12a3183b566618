package risingtide

import (
	"encoding/binary"

	"github.com/gridgym/gridgym/rules"
)

// Layout of the learner interface; the package doc's "Learner interface"
// section says what each plane, scalar and action means.
const (
	// NumPlanes is the number of 18×18 observation planes.
	NumPlanes = 17
	// NumScalars is the number of scalar features.
	NumScalars = 7
	// NumActions is the size of the action space: 8 directions × 324 source
	// cells, then the pass action.
	NumActions = 8*Cells + 1
	// PassAction is the index of the pass action (the last one).
	PassAction = 8 * Cells
)

// Plane indices.
const (
	planeFlooded   = 0
	planeHeight0   = 1 // planes 1..9: land of height 0..8
	planeBelow     = 10
	planeWet       = 11
	planeFlooding  = 12
	planeSettleOwn = 13 // planes 13..16: settlement of seat+k, k = 0..3, while alive
	numBoardPlanes = 13 // planes 0..12 come from the board
	// With the parameter flood_planes (observation only; floodPlanes):
	planeFloodOwn    = 17 // the water's quickest way into the own settlement
	planeFloodTarget = 18 // the live rival settlement that floods first and the quickest way into it
	planeFloodDig    = 19 // the highest cell of that way (the one to dig to hasten that flood)
	planeFloodSafe   = 20 // all ones while the own settlement floods after the last round if nobody moves
	numFloodPlanes   = 4
)

// Scalar indices.
const (
	scalarRound    = 0
	scalarWater    = 1
	scalarAliveOwn = 2 // scalars 2..5: seat+k alive, k = 0..3
	scalarRise     = 6
)

var planeNames = []string{
	"flooded",
	"height_0", "height_1", "height_2", "height_3", "height_4", "height_5", "height_6", "height_7", "height_8",
	"below_water", "wet_land", "flooding",
	"settlement_own", "settlement_next", "settlement_opposite", "settlement_prev",
	"flood_path_own", "flood_path_target", "flood_dig_target", "flood_safe_own",
}

var scalarNames = []string{
	"round", "water_height", "alive_own", "alive_next", "alive_opposite", "alive_prev", "rise_in",
}

const actionDoc = "a = d·324 + i·18 + j moves one unit of land from view cell (i, j) to its neighbour " +
	"(i+di, j+dj), (di, dj) = dirs[d] = (−1,−1) (−1,0) (−1,1) (0,−1) (0,1) (1,−1) (1,0) (1,1) for d = 0..7, " +
	"in the seat's view rot90(T, k = seat) (R20); a = 2592 is pass. Moves whose destination is off the board " +
	"are never in the mask and decode to pass."

const (
	lsbBytes   = 0x0101010101010101 // bit 0 of every byte
	gatherBits = 0x0102040810204080 // (x & lsbBytes) * gatherBits >> 56 packs byte k's bit 0 into bit k
	viewLen    = 6 * 64             // the bits of a flat set: 324 view cells, then padding
	maskWords  = (NumActions + 63) / 64
)

// flat is a set of view cells in the layout of a plane and of the action
// space: cell c = i*18+j is bit c%64 of word c/64; bits past 323 are zero.
// Its byte k, the cells 8k..8k+7, expands to 8 plane bytes (expand), and the
// moves of direction d are the mask bits d·324 + c.
type flat [6]uint64

const lastWord = 1<<(Cells%64) - 1 // the cells of word 5

// shl returns the set moved towards higher cells: out[c] = f[c−n], 0 < n < 64.
func (f *flat) shl(n uint) flat {
	var o flat
	o[0] = f[0] << n
	for i := 1; i < len(f); i++ {
		o[i] = f[i]<<n | f[i-1]>>(64-n)
	}
	o[5] &= lastWord
	return o
}

// shr returns the set moved towards lower cells: out[c] = f[c+n], 0 < n < 64.
func (f *flat) shr(n uint) flat {
	var o flat
	for i := 0; i < len(f)-1; i++ {
		o[i] = f[i]>>n | f[i+1]<<(64-n)
	}
	o[5] = f[5] >> n
	return o
}

// flatOf converts a row-per-word bitboard to a flat set.
func flatOf(b *[Size]uint64) flat {
	var f flat
	for i, w := range b {
		p := uint(i * Size)
		f[p/64] |= w << (p % 64)
		if p%64 > 64-Size {
			f[p/64+1] |= w >> (64 - p%64)
		}
	}
	return f
}

// Read-only tables of the encoder, built at init.
var (
	viewSrc   [Seats][viewLen]uint16 // viewSrc[k][i*18+j]: the real cell of seat k's view cell (i, j) (R20); 0 past 323
	expand    [256]uint64            // byte k of expand[x] is bit k of x: a cell group as 0/1 plane bytes
	notCol0   flat                   // view cells with j > 0
	notCol17  flat                   // view cells with j < 17
	border    flat                   // the border ring (R3), the same in every view
	settleSet flat                   // the four settlements (R4), the same in every view
	dirIndex  [3][3]int8             // dirIndex[di+1][dj+1] = d with dirs[d] = (di, dj), −1 for (0, 0)
	d4Dir     [8][8]uint8            // d4Dir[g][d]: direction d mapped by g
	d4Rel     [8][Seats]int          // d4Rel[g][k]: where g takes relative seat k's settlement (view slot)
	d4PlaneOf [8][]int               // TransformPlanes permutation of g
)

// settleView lists where seat+k's settlement is in seat's view: (5,5),
// (5,12), (12,12), (12,5) for k = 0..3 (R20); it equals settlements.
var settleView = settlements

func init() {
	for k := range Seats {
		for i := 0; i < Size; i++ {
			for j := 0; j < Size; j++ {
				a, b := ViewToReal(k, i, j)
				viewSrc[k][i*Size+j] = uint16(a*Size + b)
			}
		}
	}
	for x := range expand {
		for k := 0; k < 8; k++ {
			expand[x] |= uint64(x>>k&1) << (8 * k)
		}
	}
	// Built here from R3 and R4 rather than from state.go's tables, which
	// that file's init fills after this one runs.
	var col0, col17, ring, settle [Size]uint64
	for i := range col0 {
		col0[i], col17[i] = 1, 1<<(Size-1)
		ring[i] = 1 | 1<<(Size-1)
	}
	ring[0], ring[Size-1] = grid.Full, grid.Full
	for _, p := range settlements {
		settle[p[0]] |= 1 << p[1]
	}
	var full [Size]uint64
	for i := range full {
		full[i] = grid.Full
	}
	all := flatOf(&full)
	c0, c17 := flatOf(&col0), flatOf(&col17)
	for w := range all {
		notCol0[w], notCol17[w] = all[w]&^c0[w], all[w]&^c17[w]
	}
	border, settleSet = flatOf(&ring), flatOf(&settle)
	dirIndex[1][1] = -1
	for d, dd := range dirs {
		dirIndex[dd[0]+1][dd[1]+1] = int8(d)
	}
	for g := rules.D4(0); g < 8; g++ {
		const c = Size / 2 // any cell whose 8 neighbours are on the board
		r0, c0 := g.Point(Size, c, c)
		for d, dd := range dirs {
			r1, c1 := g.Point(Size, c+dd[0], c+dd[1])
			d4Dir[g][d] = uint8(dirIndex[r1-r0+1][c1-c0+1])
		}
		perm := make([]int, NumPlanes+numFloodPlanes) // flood planes: only moved
		for p := range perm {
			perm[p] = p
		}
		for k, p := range settleView {
			r, c := g.Point(Size, p[0], p[1])
			for k2, q := range settleView {
				if q == [2]int{r, c} {
					d4Rel[g][k] = k2
					perm[planeSettleOwn+k2] = planeSettleOwn + k
				}
			}
		}
		d4PlaneOf[g] = perm
	}
}

// Encoder is Rising Tide's learner interface (rules.Encoder, rules.Potential,
// rules.Symmetric). It holds no state, so one value serves every goroutine.
type Encoder struct {
	// flood adds the flood planes 17..20 (the parameter flood_planes):
	// which settlement the sea reaches first and by which way, facts of
	// the whole board (FloodTimes) that a few 3×3 layers cannot see.
	flood bool
}

// NewEncoder returns the encoder for a validated config (registered as the
// game's Encoder). The encoding is the same under both settings of
// nonadjacent_moves: far moves are outside the action space; four more
// planes with flood_planes.
func NewEncoder(cfg rules.Config) rules.Encoder { return Encoder{flood: cfg.Bool(ParamFloodPlanes)} }

// planes is the number of observation planes.
func (e Encoder) planes() int {
	if e.flood {
		return NumPlanes + numFloodPlanes
	}
	return NumPlanes
}

// Space implements rules.Encoder.
func (e Encoder) Space() rules.Space {
	return rules.Space{
		Planes: e.planes(), Height: Size, Width: Size, PlaneNames: planeNames[:e.planes()],
		Scalars: NumScalars, ScalarNames: scalarNames,
		Heads: 1, Actions: NumActions, ActionPlanes: 8, ActionDoc: actionDoc,
		ScoreScale: 200, // package doc: the mean |score − game mean| in random play
	}
}

// bitOf packs bit k of each of the 8 bytes of x into a byte.
func bitOf(x uint64, k uint) uint64 { return (x >> k & lsbBytes) * gatherBits >> 56 }

// slicesOf returns, for the 64 cells of word w of seat's view (R20), the
// flooded cells and the bits 0..3 of the heights of the land cells
// (bit-sliced; b3 marks height 8, the only height ≥ 8). The gather through
// viewSrc is the rotation; everything after it works on words.
func slicesOf(s *State, seat, w int) (fl, b0, b1, b2, b3 uint64) {
	src := &viewSrc[seat&3]
	h := &s.h
	n := 8
	if w == 5 {
		n = 1 // cells 320..327; only 320..323 are on the board
	}
	for g := 0; g < n; g++ {
		o := w*64 + g*8
		c := src[o : o+8 : o+8]
		// The 8 cells' heights as bytes, 0..8 or 0xFF for a flooded cell.
		x := uint64(uint8(h[c[0]])) | uint64(uint8(h[c[1]]))<<8 | uint64(uint8(h[c[2]]))<<16 |
			uint64(uint8(h[c[3]]))<<24 | uint64(uint8(h[c[4]]))<<32 | uint64(uint8(h[c[5]]))<<40 |
			uint64(uint8(h[c[6]]))<<48 | uint64(uint8(h[c[7]]))<<56
		sh := uint(g * 8)
		b0 |= bitOf(x, 0) << sh
		b1 |= bitOf(x, 1) << sh
		b2 |= bitOf(x, 2) << sh
		b3 |= bitOf(x, 3) << sh
	}
	// 0xFF (flooded) has every bit set; height 8 has b3 alone.
	fl = b3 & b2
	land := ^fl
	if w == 5 { // cells past 323 (gathered from cell 0) are dropped
		fl &= lastWord
		land &= lastWord
	}
	return fl, b0 & land, b1 & land, b2 & land, b3 & land
}

// putFlat writes the cells of f as 0/1 bytes into one plane, 8 at a time.
func putFlat(plane *[Cells]uint8, f *flat) {
	for w := 0; w < 5; w++ {
		x := f[w]
		for b := 0; b < 8; b++ {
			o := w*64 + b*8
			binary.LittleEndian.PutUint64(plane[o:o+8], expand[x&0xff])
			x >>= 8
		}
	}
	binary.LittleEndian.PutUint32(plane[320:324], uint32(expand[f[5]&0xf]))
}

// waterHeight is the number of heights under water in round r: land of height
// h floods in round r (if wet) iff h < waterHeight(r), i.e. 100·h < r (R6, R12).
func waterHeight(r int) int { return (r + 99) / 100 }

// Observe implements rules.Encoder: seat's planes and scalars in its view (see
// the package doc). It allocates nothing.
func (e Encoder) Observe(st rules.State, seat int, planes []uint8, scalars []float32) {
	s := st.(*State)
	if e.flood {
		floodPlanes(s, seat, (*[numFloodPlanes * Cells]uint8)(planes[NumPlanes*Cells:(NumPlanes+numFloodPlanes)*Cells]))
	}
	out := (*[NumPlanes * Cells]uint8)(planes[:NumPlanes*Cells])
	_ = scalars[NumScalars-1]
	lvl := waterHeight(s.round)
	var pl [numBoardPlanes]flat
	for w := 0; w < len(pl[0]); w++ {
		fl, b0, b1, b2, b3 := slicesOf(s, seat, w)
		l0, l1, l2, l3 := ^(b0 | b1), b0&^b1, b1&^b0, b0&b1
		h0, h1 := ^fl&^b2&^b3, b2&^b3
		if w == 5 {
			h0 &= lastWord
		}
		eq := [MaxHeight + 1]uint64{l0 & h0, l1 & h0, l2 & h0, l3 & h0, l0 & h1, l1 & h1, l2 & h1, l3 & h1, b3}
		bl := uint64(0)
		for h := 0; h < lvl; h++ {
			bl |= eq[h]
		}
		pl[planeFlooded][w] = fl
		for h, e := range eq {
			pl[planeHeight0+h][w] = e
		}
		pl[planeBelow][w] = bl
	}
	flooded := &pl[planeFlooded]
	// R12: wet = border ∪ the 8-neighbours of flooded cells: the flooded cells
	// spread to their row neighbours (not across row ends), then up and down.
	toRight, toLeft := *flooded, *flooded
	for w := range toRight {
		toRight[w] &= notCol17[w]
		toLeft[w] &= notCol0[w]
	}
	row := *flooded
	right, left := toRight.shl(1), toLeft.shr(1)
	for w := range row {
		row[w] |= right[w] | left[w]
	}
	up, down := row.shr(Size), row.shl(Size)
	for w := range row {
		wet := row[w] | up[w] | down[w] | border[w]
		pl[planeWet][w] = wet &^ flooded[w]
		pl[planeFlooding][w] = wet & pl[planeBelow][w]
	}
	for p := range pl {
		putFlat((*[Cells]uint8)(out[p*Cells:(p+1)*Cells]), &pl[p])
	}
	clear(out[planeSettleOwn*Cells:])
	for k, p := range settleView {
		alive := s.alive >> ((seat + k) & 3) & 1
		out[(planeSettleOwn+k)*Cells+p[0]*Size+p[1]] = alive
		scalars[scalarAliveOwn+k] = float32(alive)
	}
	rd := s.round
	scalars[scalarRound] = float32(rd) / MaxRounds
	scalars[scalarWater] = float32(lvl) / MaxHeight
	scalars[scalarRise] = float32(100-(rd+99)%100) / 100
}

// Mask implements rules.Encoder: bit d·324 + i·18 + j is set iff the move from
// view cell (i, j) in direction d passes R10 now, and bit 2592 (pass) is
// always set. A seat that is not Active gets the pass bit only. It allocates
// nothing.
func (Encoder) Mask(st rules.State, seat int, mask []uint64) {
	s := st.(*State)
	var m [maskWords + 1]uint64 // one spare word for the spill of the last direction
	m[PassAction>>6] = 1 << (PassAction & 63)
	if s.Active(seat) {
		var src, dst flat
		for w := range src {
			fl, b0, b1, b2, b3 := slicesOf(s, seat, w)
			src[w] = (b0 | b1 | b2 | b3) &^ settleSet[w] // R10c, e: land of height ≥ 1
			dst[w] = ^fl &^ b3 &^ settleSet[w]           // R10d, e: land of height ≤ 7
		}
		dst[5] &= lastWord
		for d, dd := range dirs {
			from := src
			switch dd[1] { // R10b: no wrapping from one row to the next
			case -1:
				for w := range from {
					from[w] &= notCol0[w]
				}
			case 1:
				for w := range from {
					from[w] &= notCol17[w]
				}
			}
			var to flat
			if off := dd[0]*Size + dd[1]; off > 0 {
				to = dst.shr(uint(off))
			} else {
				to = dst.shl(uint(-off))
			}
			base := d * Cells
			w0, sh := base>>6, uint(base&63)
			for w := range from {
				x := from[w] & to[w]
				m[w0+w] |= x << sh
				if sh > 0 {
					m[w0+w+1] |= x >> (64 - sh)
				}
			}
		}
	}
	copy(mask[:maskWords], m[:maskWords])
}

// Decode implements rules.Encoder: actions[0] in the seat's view to the real
// move (R20's view→real map). Pass, an out-of-range action or a destination
// off the board decode to Pass; any other action decodes to its move, which
// Step treats as a pass if it fails R10 (R9). It allocates nothing.
func (Encoder) Decode(st rules.State, seat int, actions []int32) rules.Move {
	if len(actions) == 0 {
		return rules.Move{}
	}
	a := actions[0]
	if a < 0 || a >= PassAction {
		return rules.Move{}
	}
	d, c := int(a)/Cells, int(a)%Cells
	i, j := c/Size, c%Size
	return MoveFromView(seat, i, j, i+dirs[d][0], j+dirs[d][1])
}

// Encode implements rules.Encoder: Pass (any move of kind Pass) is the pass
// action; a well-formed move whose cells are 8-neighbours is its view action.
// Far moves of nonadjacent_moves, src = dst and malformed moves have none.
func (Encoder) Encode(st rules.State, seat int, m rules.Move, actions []int32) bool {
	if len(actions) == 0 {
		return false
	}
	if m.Kind == rules.Pass {
		actions[0] = PassAction
		return true
	}
	i1, j1, i2, j2, ok := MoveToView(seat, m)
	if !ok {
		return false
	}
	di, dj := i2-i1+1, j2-j1+1
	if uint(di) > 2 || uint(dj) > 2 || dirIndex[di][dj] < 0 {
		return false
	}
	actions[0] = int32(int(dirIndex[di][dj])*Cells + i1*Size + j1)
	return true
}

// Potential implements rules.Potential: the score seat would get (R16) if
// every seat passed from now on, divided by 800 (State.PassScores). An
// eliminated seat gets its score, elimination round/800, so at the end of a
// game Φ = Score/800.
func (Encoder) Potential(st rules.State, seat int) float64 {
	if seat < 0 || seat >= Seats {
		return 0
	}
	return float64(st.(*State).PassScores()[seat]) / MaxRounds
}

// Symmetries implements rules.Symmetric: the identity and the transpose
// (g = 4). The transpose keeps the own settlement at (5,5) and swaps seat+1's
// (5,12) with seat+3's (12,5); it is the view of the real board transposed
// with seats 1 and 3 exchanged, a symmetry of the rules (I8 with R10 and R12
// symmetric under reflections). The rotations move the own settlement away
// from (5,5), so they are not symmetries of the canonical view.
func (Encoder) Symmetries() []rules.D4 { return []rules.D4{0, 4} }

// TransformObs implements rules.Symmetric. Every plane is mapped by g and the
// settlement planes and alive scalars follow their settlements (under the
// transpose, seat+1 ↔ seat+3). It is defined for all of D4, but only the
// elements of Symmetries give a canonical observation.
func (e Encoder) TransformObs(g rules.D4, dstPlanes []uint8, dstScalars []float32, planes []uint8, scalars []float32) {
	g &= 7
	n := e.planes()
	rules.TransformPlanes(g, Size, dstPlanes[:n*Cells], planes[:n*Cells], d4PlaneOf[g][:n])
	copy(dstScalars[:NumScalars], scalars[:NumScalars])
	for k := range Seats {
		dstScalars[scalarAliveOwn+d4Rel[g][k]] = scalars[scalarAliveOwn+k]
	}
}

// TransformAction implements rules.Symmetric: the source cell and the
// direction of a move action are mapped by g; pass and out-of-range values
// are kept.
func (Encoder) TransformAction(g rules.D4, head int, a int32) int32 {
	if a < 0 || a >= PassAction {
		return a
	}
	g &= 7
	d, c := int(a)/Cells, int(a)%Cells
	i, j := g.Point(Size, c/Size, c%Size)
	return int32(int(d4Dir[g][d])*Cells + i*Size + j)
}

// floodPlanes writes the flood planes of seat's view (Encoder.flood) into
// out, planes 17..20 in order: the cells of the water's quickest ways into
// the own settlement (Ways); the live rival settlements whose flood round
// is the earliest, with their quickest ways; the highest land of height
// ≥ 1 on those ways, off the settlements (the cells whose digging brings
// that flood forward most); and all ones while the own settlement floods
// after the last round (MaxRounds − 1). The flood rounds are those with
// nobody moving again (FloodTimes). Ties are kept, not broken, so the
// planes commute with the view's symmetries. It allocates nothing.
func floodPlanes(s *State, seat int, out *[numFloodPlanes * Cells]uint8) {
	clear(out[:])
	v := View(s, seat)
	var f FloodTimes
	f.Compute(&v)
	plane := func(p int) *[Cells]uint8 { return (*[Cells]uint8)(out[(p-NumPlanes)*Cells : (p-NumPlanes+1)*Cells]) }
	if v.Terrain[5][5] >= 0 {
		f.Ways(&v, 5, 5, plane(planeFloodOwn))
		if f.T[5][5] > MaxRounds-1 {
			safe := plane(planeFloodSafe)
			for i := range safe {
				safe[i] = 1
			}
		}
	}
	best := FloodHorizon + 1
	for _, p := range settleView[1:] {
		if v.Terrain[p[0]][p[1]] >= 0 {
			best = min(best, f.T[p[0]][p[1]])
		}
	}
	target := plane(planeFloodTarget)
	for _, p := range settleView[1:] {
		if v.Terrain[p[0]][p[1]] >= 0 && f.T[p[0]][p[1]] == best {
			target[p[0]*Size+p[1]] = 1
			f.Ways(&v, p[0], p[1], target)
		}
	}
	top := int8(0)
	for c, on := range target {
		if h := v.Terrain[c/Size][c%Size]; on == 1 && !isSettle[c] && h > top {
			top = h
		}
	}
	if top == 0 {
		return
	}
	dig := plane(planeFloodDig)
	for c, on := range target {
		if on == 1 && !isSettle[c] && v.Terrain[c/Size][c%Size] == top {
			dig[c] = 1
		}
	}
}
