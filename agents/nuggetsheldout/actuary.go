package nuggetsheldout

import "math"

// actuary_ada, the risk pricer. A square's worth is its log-score share less
// the chance it decays before the game ends: with m moves left and P
// coloured squares, a square with N own side-neighbours decays at least once
// within the next actHorizon moves (or by the end, if sooner) with
// probability risk(N) = 1 − exp(−Σ base(m', N)·(P+100)/110000) over those
// moves (R12's table). A query's score is its log-score gain plus actKappa
// times the risk it removes from its neighbours (each gains an own
// side-neighbour) less actOwn·actKappa times the risk of the new square
// itself. So early on it grows compact shapes, which decay little
// while the game is long, and late it grows many small nuggets, whose risk
// no longer matters. A rival's square scores 0.4 of its gain plus a fifth of
// the rival's loss (R10); an own square in the build phase scores 0.4 of the
// gain of splitting its nugget there, when splitting pays (a line of 7 into
// two triples).

const (
	actKappa   = 0.8  // value lost per decay
	actSingle  = 0.15 // a singleton's value before the last move
	actAttack  = 0.2  // share of a rival's loss counted
	actHorizon = 40
	actOwn     = 0.5 // share of the new square's own risk counted   // moves ahead the decay risk is counted
)

// cumBase[m][N] = Σ_{m'=1..m} base(m', N).
var cumBase [cells + 1][5]float64

func init() {
	for m := 1; m <= cells; m++ {
		for n := 0; n < 5; n++ {
			cumBase[m][n] = cumBase[m-1][n] + baseOf(m, n)
		}
	}
}

func (bt *Bot) actuaryScores() {
	single := actSingle
	if bt.m <= 1 {
		single = 0
	}
	// decay still to come: the build moves left, at least P = 240 squares
	// (four seats' setup) before the build begins
	mb := bt.m
	p := bt.p
	if bt.setup {
		mb = bt.m - (60 - bt.t) // approximate: the setup moves left do not decay
		if bt.t < 60 {
			mb = min(bt.m, 200)
		}
		p = max(p, 240)
	}
	mb = max(0, min(mb, cells))
	h := min(mb, actHorizon)
	var risk [6]float64
	for n := 0; n < 5; n++ {
		risk[n] = 1 - math.Exp(-(cumBase[mb][n]-cumBase[mb-h][n])*float64(p+100)/110000)
	}
	risk[5] = risk[4]
	l := &bt.lab[0]
	for c := 0; c < cells; c++ {
		if !bt.legal(c, bt.m <= 40) {
			continue
		}
		if bt.b[c] == 0 {
			// split an own nugget: the pieces against the whole
			whole := val(int(l.size[l.of[c]]), single)
			g := bt.splitValue(c, 0, single) - whole
			if g > 0.05 {
				bt.scores[c] = 0.4 * g
			}
			continue
		}
		size, joined := bt.merged(c, single, val)
		gain := val(size, single) - joined
		mine := 0
		for k := int8(0); k < nbrN[c]; k++ {
			q := nbr[c][k]
			if bt.b[q] == 0 {
				mine++
				nq := bt.sameN(int(q), 0)
				gain += actKappa * (risk[nq] - risk[nq+1])
			}
		}
		gain -= actOwn * actKappa * risk[mine] * val(min(size, 3), 0.3) / lnOf[3]
		if bt.b[c] < 0 {
			bt.scores[c] = gain + 0.001*float64(nbrN[c]-int8(mine))
			continue
		}
		r := &bt.lab[bt.b[c]]
		dmg := val(int(r.size[r.of[c]]), actSingle) - bt.splitValue(c, bt.b[c], actSingle)
		bt.scores[c] = 0.4 * (gain + actAttack*dmg)
	}
}
