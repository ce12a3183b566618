package nuggetsheldout

import "math"

// appraiser_april, the appraiser. Its opening holds ground: while more than
// apprParams.switchLeft moves are left it grows what it has as compactly as
// it can (own side-neighbours weighed apprParams.compact), since a square
// with three or four own neighbours hardly decays while more than 120 moves
// are left (R12). After that it appraises every small nugget (at most
// apprMax squares) at its log-score less, for each of its squares s, the
// chance that s decays within the next horizon moves (risk(N), R12's table
// summed over those moves at the board's P) times what losing s costs:
//
//	A(nugget) = ln n − kappa · Σ_s risk(N_s) · (ln n − Σ_pieces V(p))
//
// where the pieces are what the nugget falls into without s (V(1) the
// singleton value). So the middle of a line costs more than an end, and a
// 2×2 block, which any single loss leaves a tromino, is worth more than
// ln 4 suggests against a line of 4 — which matters most in the last five
// moves, whose table makes a square with two own neighbours decay fastest.
// A nugget of more than apprMax squares is valued ln n less its summed
// risk times ln n − ln(n−1). A query of an empty square scores the change
// of the appraised holding; a rival's square 0.4 of that plus a share of
// the rival's loss (R10).

// apprMax is the largest nugget appraised square by square.
const apprMax = 10

// apprParams are the appraiser's weights.
type apprParams struct {
	single     float64 // a singleton's value before the last move
	compact    float64 // opening: weight of a square's own side-neighbours
	switchLeft int     // the opening lasts while more moves are left
	midCompact float64 // the same weight after the opening, until apprLeft
	apprLeft   int     // appraise with at most this many moves left
	kappa      float64 // share of the risk-weighted loss counted
	horizon    int     // moves ahead the decay risk is summed over
	attack     float64 // share of a rival's loss counted
}

var apprDefault = apprParams{
	single: 0.15, compact: 0.2, switchLeft: 160, midCompact: 0.07, apprLeft: 120,
	kappa: 0.35, horizon: 80, attack: 0.1,
}

// openingScores is the one-ply evaluation before the appraisal: a query's
// log-score gain plus compact per own side-neighbour of the square (and
// 0.001 per empty one, a tie-break towards room to grow).
func (bt *Bot) openingScores() {
	p := &bt.ap
	compact := p.midCompact
	if bt.m > p.switchLeft {
		compact = p.compact
	}
	single := p.single
	if bt.m <= 1 {
		single = 0
	}
	for c := 0; c < cells; c++ {
		if !bt.legal(c, false) {
			continue
		}
		size, joined := bt.merged(c, single, val)
		mine := bt.sameN(c, 0)
		gain := val(size, single) - joined + compact*float64(mine)
		if bt.b[c] < 0 {
			bt.scores[c] = gain + 0.001*float64(bt.sameN(c, -1))
			continue
		}
		o := bt.b[c]
		r := &bt.lab[o]
		dmg := val(int(r.size[r.of[c]]), single) - bt.splitValue(c, o, single)
		bt.scores[c] = 0.4 * (gain + p.attack*dmg)
	}
}

// appraise returns A of the connected own squares sq (at most apprMax).
func (bt *Bot) appraise(sq []int16, single float64, risk *[5]float64, kappa float64) float64 {
	n := len(sq)
	if n == 1 {
		return single * (1 - kappa*risk[0])
	}
	whole := lnOf[n]
	v := whole
	for i, s := range sq {
		ns := 0
		for j := range sq {
			if adjacent(s, sq[j]) {
				ns++
			}
		}
		v -= kappa * risk[ns] * (whole - piecesValue(sq, i, single))
	}
	return v
}

// adjacent reports whether squares a and b share a side (R4).
func adjacent(a, b int16) bool {
	d := int(a) - int(b)
	return d == side || d == -side || (d == 1 || d == -1) && int(a)/side == int(b)/side
}

// piecesValue returns Σ val over the pieces the connected squares sq fall
// into without sq[skip].
func piecesValue(sq []int16, skip int, single float64) float64 {
	var done [apprMax + 1]bool
	var stack [apprMax + 1]int
	done[skip] = true
	total := 0.0
	for i := range sq {
		if done[i] {
			continue
		}
		done[i] = true
		sp, n := 1, 0
		stack[0] = i
		for sp > 0 {
			sp--
			a := sq[stack[sp]]
			n++
			for j := range sq {
				if !done[j] && adjacent(a, sq[j]) {
					done[j] = true
					stack[sp] = j
					sp++
				}
			}
		}
		total += val(n, single)
	}
	return total
}

// riskTable writes risk(N) for N = 0..4: the chance a square with N own
// side-neighbours decays within the next horizon moves (or by the end).
func (bt *Bot) riskTable(risk *[5]float64) {
	h := min(bt.m, bt.ap.horizon)
	for n := 0; n < 5; n++ {
		risk[n] = 1 - math.Exp(-(cumBase[bt.m][n]-cumBase[bt.m-h][n])*float64(bt.p+100)/110000)
	}
}

// members lists the own squares nugget by nugget: the squares of nugget id
// are bt.mem[bt.memAt[id]:bt.memAt[id+1]].
func (bt *Bot) members() {
	l := &bt.lab[0]
	for id := 0; id <= l.count; id++ {
		bt.memAt[id] = 0
	}
	for c := 0; c < cells; c++ {
		if id := l.of[c]; id >= 0 {
			bt.memAt[id+1]++
		}
	}
	for id := 0; id < l.count; id++ {
		bt.memAt[id+1] += bt.memAt[id]
	}
	var fill [cells]int16
	for c := 0; c < cells; c++ {
		if id := l.of[c]; id >= 0 {
			bt.mem[bt.memAt[id]+fill[id]] = int16(c)
			fill[id]++
		}
	}
}

func (bt *Bot) appraiserScores() {
	p := &bt.ap
	if bt.m > p.apprLeft {
		bt.openingScores()
		return
	}
	single := p.single
	if bt.m <= 1 {
		single = 0
	}
	var risk [5]float64
	bt.riskTable(&risk)
	l := &bt.lab[0]
	bt.members()
	for id := 0; id < l.count; id++ {
		bt.rs[id] = 0
	}
	for c := 0; c < cells; c++ {
		if bt.b[c] == 0 {
			bt.rs[l.of[c]] += risk[bt.sameN(c, 0)]
		}
	}
	for id := 0; id < l.count; id++ {
		n := int(l.size[id])
		if n > apprMax {
			bt.nv[id] = lnOf[n] - p.kappa*bt.rs[id]*(lnOf[n]-lnOf[n-1])
		} else {
			bt.nv[id] = bt.appraise(bt.mem[bt.memAt[id]:bt.memAt[id+1]], single, &risk, p.kappa)
		}
	}
	for c := 0; c < cells; c++ {
		if !bt.legal(c, false) {
			continue
		}
		ns, size, joined, mine := 0, 1, 0.0, 0
		for k := int8(0); k < nbrN[c]; k++ {
			id := l.of[nbr[c][k]]
			if id < 0 {
				continue
			}
			mine++
			dup := false
			for _, s := range bt.seen[:ns] {
				dup = dup || s == id
			}
			if dup {
				continue
			}
			bt.seen[ns] = id
			ns++
			size += int(l.size[id])
			joined += bt.nv[id]
		}
		var after float64
		if size > apprMax {
			rsum := risk[mine]
			for _, id := range bt.seen[:ns] {
				rsum += bt.rs[id]
			}
			for k := int8(0); k < nbrN[c]; k++ {
				if q := int(nbr[c][k]); bt.b[q] == 0 {
					nq := bt.sameN(q, 0)
					rsum += risk[min(nq+1, 4)] - risk[nq]
				}
			}
			after = lnOf[size] - p.kappa*rsum*(lnOf[size]-lnOf[size-1])
		} else {
			sq := bt.sqbuf[:0]
			for _, id := range bt.seen[:ns] {
				sq = append(sq, bt.mem[bt.memAt[id]:bt.memAt[id+1]]...)
			}
			sq = append(sq, int16(c))
			after = bt.appraise(sq, single, &risk, p.kappa)
		}
		gain := after - joined
		if bt.b[c] < 0 {
			bt.scores[c] = gain
			continue
		}
		o := bt.b[c]
		r := &bt.lab[o]
		dmg := val(int(r.size[r.of[c]]), single) - bt.splitValue(c, o, single)
		bt.scores[c] = 0.4 * (gain + p.attack*dmg)
	}
}
