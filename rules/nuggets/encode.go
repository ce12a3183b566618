package nuggets

import (
	"encoding/binary"
	"math/bits"

	"github.com/gridgym/gridgym/rules"
)

// Observation layout (package doc, "Learner interface"). The planes are
// [plane][y][x] bytes of the 20×20 board.
const (
	PlaneOwn            = iota // 1 where the square is the seat's own (view label 0)
	PlaneNext                  // 1 where it is seat+1's (label 1)
	PlaneOpposite              // 1 where it is seat+2's (label 2)
	PlanePrevious              // 1 where it is seat+3's (label 3)
	PlaneEmpty                 // 1 where the square is empty (label −1)
	PlaneSameNeighbours        // N(s) of R12, 0..4, for a coloured square; 0 if empty
	PlaneDecayBase             // base(m, N(s)) of R12, 0..100, for a coloured square
	PlaneOwnSize               // size of the own nugget holding the square (capped at SizeCap), 0 elsewhere
	PlaneRivalSize             // size of the rival nugget holding the square (capped), 0 elsewhere
	PlaneJoinSize              // not own: 1 + the sizes of the own nuggets it side-touches (capped), 0 on own squares
	PlaneJoinCount             // not own: how many distinct own nuggets it side-touches, 0..4
	PlaneGreedyBest            // 1 on the squares greedy_tuned rates best (Evaluate, TunedWeights)
	NumPlanes                  // planes per observation
)

// SizeCap caps the nugget sizes of the size planes, so that they fit a byte
// and stay on the scale of the other planes; a nugget of 60 squares is
// already far beyond what decay lets a seat keep.
const SizeCap = 60

// Scalar features, in this order.
const (
	ScalarMoveNum       = iota // t / total moves: 0 at the start, 1 when the game is over
	ScalarBuild                // 1 from the first build move on (t ≥ setup_moves), else 0
	ScalarSetupLeft            // setup moves left, (setup − t)/setup, 0 in the build phase
	ScalarBuildLeft            // moves left of the build phase, min(total − t, build)/build
	ScalarColored              // P/400, the coloured squares (R11)
	ScalarScoreOwn             // own log-score / LogScoreScale (R15)
	ScalarScoreNext            // seat+1's log-score / LogScoreScale
	ScalarScoreOpposite        // seat+2's log-score / LogScoreScale
	ScalarScorePrevious        // seat+3's log-score / LogScoreScale
	NumScalars                 // scalars per observation
)

// PassAction is the action index of Pass under invalid_query=pass (the 401st
// action); the default action space has no pass.
const PassAction = Cells

// LogScoreScale divides the log-scores in the scalars and the potential. It is
// an estimate of a strong final log-score: some 65 squares kept in nuggets of
// two or three score about 24. Uniformly random play ends at 4.3 on average
// (0.17; 500 games, 36 squares per seat), and no seat can exceed
// 400·ln 3/3 ≈ 146.5 (ln n/n ≤ ln 3/3 per square), that is 5.9.
const LogScoreScale = 25

// ScoreScale is Space.ScoreScale: under uniformly random play the final
// log-scores deviate from their game's mean by 1.5 (standard deviation, 500
// games); stronger play spreads more, hence 2.
const ScoreScale = 2

var planeNames = []string{"own", "next", "opposite", "previous", "empty", "same_neighbours", "decay_base",
	"own_size", "rival_size", "join_size", "join_count", "greedy_best"}

var scalarNames = []string{"move_num", "build_phase", "setup_left", "build_left", "colored",
	"log_score_own", "log_score_next", "log_score_opposite", "log_score_previous"}

// expand8[b] has byte i equal to bit i of b: a row word becomes 0/1 bytes
// eight squares at a time.
var expand8 = func() (t [256]uint64) {
	for b := range t {
		for i := 0; i < 8; i++ {
			t[b] |= uint64(b>>i&1) << (8 * i)
		}
	}
	return
}()

// spread returns the 0/1 bytes of the squares x = 0..7, 8..15 and 16..19 of
// a row word (the last chunk in its 4 low bytes).
func spread(w uint64) (a, b, c uint64) {
	return expand8[w&0xff], expand8[w>>8&0xff], expand8[w>>16&0xf]
}

// putRow writes a row of 20 bytes given as the chunks of spread.
func putRow(dst []uint8, a, b, c uint64) {
	_ = dst[Size-1]
	binary.LittleEndian.PutUint64(dst[0:8], a)
	binary.LittleEndian.PutUint64(dst[8:16], b)
	binary.LittleEndian.PutUint32(dst[16:20], uint32(c))
}

// Encoder is Nuggets' learner interface (rules.Encoder, rules.Potential,
// rules.Symmetric); the layout is in the package doc. It holds only the
// config's action space, so one Encoder serves any number of goroutines.
type Encoder struct {
	pass bool // invalid_query=pass: action 400 is Pass
}

// NewEncoder returns the encoder of a validated nuggets config (Game.Encoder).
func NewEncoder(cfg rules.Config) rules.Encoder {
	return &Encoder{pass: cfg.Get("invalid_query") == "pass"}
}

// Space implements rules.Encoder.
func (e *Encoder) Space() rules.Space {
	sp := rules.Space{
		Planes: NumPlanes, Height: Size, Width: Size,
		PlaneNames: planeNames, Scalars: NumScalars, ScalarNames: scalarNames,
		Heads: 1, Actions: Cells, ActionPlanes: 1,
		ActionDoc: "a = y·20 + x (0..399) queries the square (x, y), the competition's answer (x, y) (R20); " +
			"no rotation. Every square is legal for every seat while the game runs.",
		ScoreScale: ScoreScale,
	}
	if e.pass {
		sp.Actions = Cells + 1
		sp.ActionDoc += " Action 400 is Pass (no query, invalid_query=pass)."
	}
	return sp
}

// Observe implements rules.Encoder: the planes and scalars of the package
// doc for seat, built from the row words; st must be a *State.
func (e *Encoder) Observe(st rules.State, seat int, planes []uint8, scalars []float32) {
	s := st.(*State)
	_ = planes[NumPlanes*Cells-1]
	_ = scalars[NumScalars-1]
	var base [5]uint64 // base(m, N) for the decay step of move t, 0 without one
	if s.t >= s.cfg.setup && s.t < s.cfg.total {
		for n, b := range s.cfg.base[s.cfg.total-s.t] {
			base[n] = uint64(b)
		}
	}
	for y := 0; y < Size; y++ {
		var occ uint64
		for p := 0; p < Seats; p++ {
			w := s.own[(seat+p)&(Seats-1)][y]
			occ |= w
			a, b, c := spread(w)
			putRow(planes[p*Cells+y*Size:], a, b, c)
		}
		a, b, c := spread(^occ & grid.Full)
		putRow(planes[PlaneEmpty*Cells+y*Size:], a, b, c)
		n0, n1, n2 := s.neighbours(y)
		a0, b0, c0 := spread(n0)
		a1, b1, c1 := spread(n1)
		a2, b2, c2 := spread(n2)
		putRow(planes[PlaneSameNeighbours*Cells+y*Size:], a0|a1<<1|a2<<2, b0|b1<<1|b2<<2, c0|c1<<1|c2<<2)
		// The squares by N (n2 implies N = 4 and n0 = n1 = 0); bytes are
		// 0/1, so multiplying by base ≤ 100 fills each byte without carry.
		var da, db, dc uint64
		for n, m := range [5]uint64{occ &^ (n0 | n1 | n2), n0 &^ n1, n1 &^ n0, n0 & n1, n2} {
			if m == 0 || base[n] == 0 {
				continue
			}
			a, b, c := spread(m)
			da += a * base[n]
			db += b * base[n]
			dc += c * base[n]
		}
		putRow(planes[PlaneDecayBase*Cells+y*Size:], da, db, dc)
	}
	logScores := nuggetPlanes(s, seat, planes)
	greedyPlane(s, seat, planes[PlaneGreedyBest*Cells:(PlaneGreedyBest+1)*Cells])
	cf := s.cfg
	scalars[ScalarMoveNum] = float32(s.t) / float32(cf.total)
	scalars[ScalarBuild] = 0
	if s.t >= cf.setup {
		scalars[ScalarBuild] = 1
	}
	scalars[ScalarSetupLeft] = 0
	if s.t < cf.setup {
		scalars[ScalarSetupLeft] = float32(cf.setup-s.t) / float32(cf.setup)
	}
	scalars[ScalarBuildLeft] = 0
	if build := cf.total - cf.setup; build > 0 {
		scalars[ScalarBuildLeft] = float32(min(cf.total-s.t, build)) / float32(build)
	}
	scalars[ScalarColored] = float32(s.Colored()) / Cells
	for p, ls := range logScores {
		scalars[ScalarScoreOwn+p] = float32(ls / LogScoreScale)
	}
}

// greedyPlane writes the greedy_best plane of seat's observation.
func greedyPlane(s *State, seat int, dst []uint8) {
	var best Board
	if s.t < s.cfg.total {
		var scores [Cells]float64
		v := ViewOf(s, seat)
		Evaluate(&v, TunedWeights, &scores)
		BestSquares(&scores, &best)
	}
	for y := 0; y < Size; y++ {
		a, b, c := spread(best[y])
		putRow(dst[y*Size:], a, b, c)
	}
}

// nuggetPlanes writes the planes own_size, rival_size, join_size and
// join_count of seat's observation, and returns the log-scores of seat,
// seat+1, seat+2 and seat+3 (fastLogScore's, from the same union-find). The
// nuggets come from runSet's union-find over row runs, and each run's bytes
// are written a row word at a time; only the squares side-touching an own
// nugget are visited for the join planes.
func nuggetPlanes(s *State, seat int, planes []uint8) (logScores [Seats]float64) {
	clear(planes[PlaneOwnSize*Cells : (PlaneJoinCount+1)*Cells])
	var r runSet
	// compOf is the own nugget number (1, 2, …) of each own square, 0
	// elsewhere, on the board framed by a border of zeros: square (x, y) at
	// (y+1)·pad + x+1, so that its four neighbours need no bounds checks.
	const pad = Size + 2
	var compOf [pad * pad]uint8
	var compSize [maxRuns + 1]uint16 // own nugget sizes by number
	var number [maxRuns]uint8        // own nugget number of each root run
	k := uint8(0)
	for p := 0; p < Seats; p++ {
		plane := planes[PlaneRivalSize*Cells : (PlaneRivalSize+1)*Cells]
		if p == 0 {
			plane = planes[PlaneOwnSize*Cells : (PlaneOwnSize+1)*Cells]
		}
		r.build(&s.own[(seat+p)&(Seats-1)])
		logScores[p] = r.logScore()
		for i := 0; i < r.n; i++ {
			root := r.root(uint16(i))
			y := int(r.row[i]) * Size
			orRun(plane[y:], r.mask[i], uint64(min(r.size[root], SizeCap)))
			if p == 0 {
				if number[root] == 0 {
					k++
					number[root], compSize[k] = k, r.size[root]
				}
				orRun(compOf[(int(r.row[i])+1)*pad+1:], r.mask[i], uint64(number[root]))
			}
		}
	}
	mine := &s.own[seat]
	for y, w := range mine {
		a, b, c := spread(^w & grid.Full)
		putRow(planes[PlaneJoinSize*Cells+y*Size:], a, b, c)
	}
	var near Board
	grid.Side4(near[:], mine[:])
	for y, w := range near {
		for w &^= mine[y]; w != 0; w &= w - 1 {
			x := bits.TrailingZeros64(w)
			i := (y+1)*pad + x + 1
			k0, k1, k2, k3 := compOf[i-1], compOf[i+1], compOf[i-pad], compOf[i+pad]
			ns, sum := 0, 1
			if k0 != 0 {
				ns, sum = ns+1, sum+int(compSize[k0])
			}
			if k1 != 0 && k1 != k0 {
				ns, sum = ns+1, sum+int(compSize[k1])
			}
			if k2 != 0 && k2 != k0 && k2 != k1 {
				ns, sum = ns+1, sum+int(compSize[k2])
			}
			if k3 != 0 && k3 != k0 && k3 != k1 && k3 != k2 {
				ns, sum = ns+1, sum+int(compSize[k3])
			}
			c := y*Size + x
			planes[PlaneJoinSize*Cells+c] = uint8(min(sum, SizeCap))
			planes[PlaneJoinCount*Cells+c] = uint8(ns)
		}
	}
	return logScores
}

// orRun sets the bytes of row (20 bytes) at the squares of run to v ≤ 255,
// where they are 0: spread's 0/1 bytes times v, without carries.
func orRun(row []uint8, run, v uint64) {
	a, b, c := spread(run)
	_ = row[Size-1]
	binary.LittleEndian.PutUint64(row[0:8], binary.LittleEndian.Uint64(row[0:8])|a*v)
	binary.LittleEndian.PutUint64(row[8:16], binary.LittleEndian.Uint64(row[8:16])|b*v)
	binary.LittleEndian.PutUint32(row[16:20], binary.LittleEndian.Uint32(row[16:20])|uint32(c*v))
}

// Mask implements rules.Encoder: all 400 squares while the game runs (plus
// Pass under invalid_query=pass); after the end, only Pass under
// invalid_query=pass and nothing under the default.
func (e *Encoder) Mask(st rules.State, seat int, mask []uint64) {
	_ = mask[Cells/64]
	active := st.Active(seat)
	for i := 0; i < Cells/64; i++ {
		mask[i] = 0
		if active {
			mask[i] = ^uint64(0)
		}
	}
	var last uint64
	if active {
		last = 1<<(Cells%64) - 1
	}
	if e.pass {
		last |= 1 << (PassAction % 64)
	}
	mask[Cells/64] = last
}

// Decode implements rules.Encoder: a in 0..399 is the query of (a%20, a/20),
// 400 under invalid_query=pass is Pass; any other value (or no action) is an
// invalid answer and gets R6's treatment (State.Invalid). A state of another
// game gives Pass.
func (e *Encoder) Decode(st rules.State, seat int, actions []int32) rules.Move {
	s, ok := st.(*State)
	if !ok {
		return rules.Move{}
	}
	if len(actions) == 0 {
		return s.Invalid()
	}
	a := actions[0]
	switch {
	case a >= 0 && a < Cells:
		return Query(int(a)%Size, int(a)/Size)
	case a == PassAction && e.pass:
		return rules.Move{}
	}
	return s.Invalid()
}

// Encode implements rules.Encoder: a well-formed query becomes its square's
// action, Pass becomes 400 under invalid_query=pass; every other move
// (Pass under the default, where Step plays it as (0,0)) has no action.
func (e *Encoder) Encode(st rules.State, seat int, m rules.Move, actions []int32) bool {
	if c, ok := queryCell(m); ok {
		actions[0] = int32(c)
		return true
	}
	if e.pass && m == (rules.Move{}) {
		actions[0] = PassAction
		return true
	}
	return false
}

// Potential implements rules.Potential: the seat's log-score (R15) divided by
// LogScoreScale, 0 with no square and about 1 for a strong position (at most
// 5.9). st must be a *State.
func (e *Encoder) Potential(st rules.State, seat int) float64 {
	return fastLogScore(&st.(*State).own[seat]) / LogScoreScale
}

var allD4 = []rules.D4{0, 1, 2, 3, 4, 5, 6, 7}

// Symmetries implements rules.Symmetric: all eight elements of D4, since the
// rules are invariant under the symmetries of the square (I6) and the view is
// not rotated (seats have no positions, R3, R18).
func (e *Encoder) Symmetries() []rules.D4 { return allD4 }

// TransformObs implements rules.Symmetric: every plane moves with the board
// (no relabelling: the symmetries keep the seats), the scalars are copied.
func (e *Encoder) TransformObs(g rules.D4, dstPlanes []uint8, dstScalars []float32, planes []uint8, scalars []float32) {
	rules.TransformPlanes(g, Size, dstPlanes[:NumPlanes*Cells], planes[:NumPlanes*Cells], nil)
	copy(dstScalars[:NumScalars], scalars[:NumScalars])
}

// TransformAction implements rules.Symmetric: the square a = y·20+x moves
// as the cell (row y, column x) under g; Pass and values outside 0..399 are
// unchanged.
func (e *Encoder) TransformAction(g rules.D4, head int, a int32) int32 {
	if a < 0 || a >= Cells {
		return a
	}
	r, c := g.Point(Size, int(a)/Size, int(a)%Size)
	return int32(r*Size + c)
}
