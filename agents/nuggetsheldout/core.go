// Package nuggetsheldout holds held-out Nuggets bots (issue 54): a test set
// of hand-written opponents, registered with agents.RegisterHeldOut, that no
// training may ever see. Each reads only its seat's competition view
// (nuggets.ViewOf: −1 empty, 0 own, 1..3 the rivals), answers a legal query
// in view coordinates through State.Answer, draws its ties from the seeded
// generator it was Reset with, and allocates nothing after its first move.
package nuggetsheldout

import (
	"math"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/nuggets"
)

func init() {
	agents.RegisterHeldOut(nuggets.Name, "quad_quinn",
		"held out: a tiler; lays a lattice of 2×2 blocks one moat apart (offset drawn at reset), fills and repairs whole blocks, never joins two, takes back block squares a rival holds",
		func() agents.Agent { return &Bot{style: quad} })
	agents.RegisterHeldOut(nuggets.Name, "actuary_ada",
		"held out: a risk pricer; values a query by its log-score gain less the decay it adds or removes until the game's end (R12's table summed over the moves left), also splits its own long nuggets late",
		func() agents.Agent { return &Bot{style: actuary} })
	agents.RegisterHeldOut(nuggets.Name, "hunter_hana",
		"held out: a leader hunter; farms pairs and triples, and attacks the rival with the highest log-score where a recolour splits or shrinks its nuggets most, harder as the end nears",
		func() agents.Agent { return &Bot{style: hunter} })
	agents.RegisterHeldOut(nuggets.Name, "appraiser_april",
		"held out: an appraiser; holds ground compactly in the opening, then values each small nugget at its log-score less, square by square, the chance the square decays before long times what its loss splits off, so it builds shapes cheap to lose a square of (2×2 blocks) and shields the middles of lines",
		func() agents.Agent { return &Bot{style: appraiser, ap: apprDefault} })
}

const (
	side  = nuggets.Size
	cells = nuggets.Cells
)

// nbr[c] lists the side-neighbours of square c (index y·side + x), nbrN[c]
// how many there are (R4).
var (
	nbr  [cells][4]int16
	nbrN [cells]int8
	lnOf [cells + 1]float64 // ln n
)

func init() {
	for c := 0; c < cells; c++ {
		x, y := c%side, c/side
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := x+d[0], y+d[1]
			if nx >= 0 && nx < side && ny >= 0 && ny < side {
				nbr[c][nbrN[c]] = int16(ny*side + nx)
				nbrN[c]++
			}
		}
	}
	for n := 1; n <= cells; n++ {
		lnOf[n] = math.Log(float64(n))
	}
}

// baseOf is R12's default decay table: base(m, N) by moves left m.
func baseOf(m, n int) float64 {
	switch {
	case m > 120:
		return [5]float64{5, 4, 2, 1, 0}[n]
	case m > 5:
		return [5]float64{8, 6, 4, 3, 1}[n]
	default:
		return [5]float64{10, 8, 12, 8, 3}[n]
	}
}

// labels are the nuggets of one view label: the nugget of every square (−1
// for none), each nugget's size, and the sum of ln size over the nuggets.
type labels struct {
	of    [cells]int16
	size  [cells]int16
	count int
	logs  float64
	stack [cells]int16
}

func (l *labels) build(b *[cells]int8, colour int8) {
	l.count, l.logs = 0, 0
	for i := range l.of {
		l.of[i] = -1
	}
	for c := 0; c < cells; c++ {
		if b[c] != colour || l.of[c] >= 0 {
			continue
		}
		id := int16(l.count)
		l.count++
		l.of[c] = id
		sp, n := 0, 0
		l.stack[sp] = int16(c)
		sp++
		for sp > 0 {
			sp--
			q := l.stack[sp]
			n++
			for k := int8(0); k < nbrN[q]; k++ {
				r := nbr[q][k]
				if b[r] == colour && l.of[r] < 0 {
					l.of[r] = id
					l.stack[sp] = r
					sp++
				}
			}
		}
		l.size[id] = int16(n)
		l.logs += lnOf[n]
	}
}

// Bot is one of the four held-out bots; style picks which.
type Bot struct {
	style int
	seat  int
	rng   *rules.RNG

	b      [cells]int8 // the view, flat: b[y·side+x]
	lab    [nuggets.Seats]labels
	scores [cells]float64
	t      int // move number
	m      int // moves left, the current one included
	setup  bool
	p      int // coloured squares

	ox, oy int        // quad: the lattice offset
	ap     apprParams // appraiser's weights

	seen [4]int16 // scratch of merge
	// appraiser's scratch: the own squares nugget by nugget (members), each
	// nugget's appraised value and summed risk, the squares of a merge
	mem   [cells]int16
	memAt [cells + 1]int16
	nv    [cells]float64
	rs    [cells]float64
	sqbuf []int16
	stack [cells]int16
	mark  [cells]uint16
	stamp uint16
}

const (
	quad = iota
	actuary
	hunter
	appraiser
)

// Reset implements agents.Agent.
func (bt *Bot) Reset(_ rules.State, seat int, rng *rules.RNG) {
	bt.seat, bt.rng = seat, rng
	bt.ox, bt.oy = -1, -1
	if bt.sqbuf == nil {
		bt.sqbuf = make([]int16, 0, cells)
	}
}

// Act implements agents.Agent.
func (bt *Bot) Act(st rules.State) rules.Move {
	s, ok := st.(*nuggets.State)
	if !ok {
		return rules.Move{}
	}
	v := nuggets.ViewOf(s, bt.seat)
	bt.load(&v)
	for c := range bt.scores {
		bt.scores[c] = math.Inf(-1)
	}
	switch bt.style {
	case quad:
		bt.quadScores()
	case actuary:
		bt.actuaryScores()
	case appraiser:
		bt.appraiserScores()
	default:
		bt.hunterScores()
	}
	c := bt.pick()
	return s.Answer(c%side, c/side)
}

func (bt *Bot) load(v *nuggets.View) {
	bt.p = 0
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			bt.b[y*side+x] = v.Board[y][x]
			if v.Board[y][x] >= 0 {
				bt.p++
			}
		}
	}
	bt.t, bt.m = v.MoveNum, v.TotalMoves-v.MoveNum
	bt.setup = v.MoveNum < v.SetupMoves
	for l := range bt.lab {
		if l > 0 && bt.setup && bt.style != quad {
			continue
		}
		bt.lab[l].build(&bt.b, int8(l))
	}
}

// legal reports whether a query of c can change anything: an empty square,
// or (build phase) a rival's; own squares only where allowOwn.
func (bt *Bot) legal(c int, allowOwn bool) bool {
	switch {
	case bt.b[c] < 0:
		return true
	case bt.setup:
		return false
	case bt.b[c] == 0:
		return allowOwn
	}
	return true
}

// merged returns the size of the own nugget a new own square at c would
// make and the sum of value over the own nuggets it joins (val: ln n for
// n ≥ 2, single for n = 1; hunter_hana's huntVal damps large nuggets).
func (bt *Bot) merged(c int, single float64, value func(n int, single float64) float64) (size int, joined float64) {
	l := &bt.lab[0]
	ns := 0
	size = 1
	for k := int8(0); k < nbrN[c]; k++ {
		id := l.of[nbr[c][k]]
		if id < 0 {
			continue
		}
		dup := false
		for _, s := range bt.seen[:ns] {
			dup = dup || s == id
		}
		if dup {
			continue
		}
		bt.seen[ns] = id
		ns++
		n := int(l.size[id])
		size += n
		joined += value(n, single)
	}
	return size, joined
}

func val(n int, single float64) float64 {
	if n == 1 {
		return single
	}
	return lnOf[n]
}

// sameN returns how many side-neighbours of c hold label colour.
func (bt *Bot) sameN(c int, colour int8) int {
	k := 0
	for i := int8(0); i < nbrN[c]; i++ {
		if bt.b[nbr[c][i]] == colour {
			k++
		}
	}
	return k
}

// splitValue returns Σ val(p) over the pieces the nugget of label colour
// holding c falls into without c.
func (bt *Bot) splitValue(c int, colour int8, single float64) float64 {
	bt.stamp++
	if bt.stamp == 0 {
		bt.mark = [cells]uint16{}
		bt.stamp = 1
	}
	st := bt.stamp
	bt.mark[c] = st
	total := 0.0
	for k := int8(0); k < nbrN[c]; k++ {
		s0 := int(nbr[c][k])
		if bt.b[s0] != colour || bt.mark[s0] == st {
			continue
		}
		bt.mark[s0] = st
		sp, n := 0, 0
		bt.stack[sp] = int16(s0)
		sp++
		for sp > 0 {
			sp--
			q := bt.stack[sp]
			n++
			for j := int8(0); j < nbrN[q]; j++ {
				r := nbr[q][j]
				if bt.b[r] == colour && bt.mark[r] != st {
					bt.mark[r] = st
					bt.stack[sp] = r
					sp++
				}
			}
		}
		total += val(n, single)
	}
	return total
}

// tie is how close two scores must be to count as equal.
const tie = 1e-9

// pick returns the square of highest score, uniformly among ties (drawn
// from the bot's generator), and 0, the square (0,0), if none has a score.
func (bt *Bot) pick() int {
	best, ties, at := math.Inf(-1), 0, 0
	for c, s := range bt.scores {
		if math.IsInf(s, -1) {
			continue
		}
		switch {
		case s > best+tie:
			best, ties, at = s, 1, c
		case s >= best-tie:
			ties++
			if bt.rng.U(ties) == 0 {
				at = c
			}
		}
	}
	return at
}
