package nuggetsheldout

// hunter_hana, the leader hunter. It farms small nuggets — a singleton is
// worth huntSingle, a nugget's growth past 4 squares counts 0.7 of its ln — and
// weighs every rival square by what a recolour would cost its owner: the
// owner's nugget value less the values of the pieces left (a triple's middle
// costs ln 3, a pair's square ln 2). The rival with the highest log-score on
// the board is the quarry, its losses counted at huntLeader(m): 0.35, and 0.9
// in the last huntLate moves, where a split can no longer be repaired; the
// others' at 0.1. An attack scores 0.4 of the total (R10's chance alone).

const (
	huntSingle  = 0.25
	huntCompact = 0.06
	huntOthers  = 0.1
	huntLate    = 8 // the last moves, where a split can no longer be repaired
)

func huntLeader(m int) float64 {
	if m > huntLate {
		return 0.35
	}
	return 0.9
}

func huntVal(n int, single float64) float64 {
	if n == 1 {
		return single
	}
	if n <= 4 {
		return lnOf[n]
	}
	return lnOf[4] + 0.7*(lnOf[n]-lnOf[4])
}

func (bt *Bot) hunterScores() {
	single := huntSingle
	if bt.m <= 1 {
		single = 0
	}
	leader, best := 1, -1.0
	if !bt.setup {
		for r := 1; r < 4; r++ {
			if bt.lab[r].logs > best {
				leader, best = r, bt.lab[r].logs
			}
		}
	}
	for c := 0; c < cells; c++ {
		if !bt.legal(c, false) {
			continue
		}
		size, joined := bt.merged(c, single, huntVal)
		mine := bt.sameN(c, 0)
		gain := huntVal(size, single) - joined + huntCompact*float64(mine)
		if bt.b[c] < 0 {
			bt.scores[c] = gain
			continue
		}
		o := bt.b[c]
		r := &bt.lab[o]
		dmg := val(int(r.size[r.of[c]]), 0) - bt.splitValue(c, o, 0)
		w := huntOthers
		if int(o) == leader {
			w = huntLeader(bt.m)
		}
		bt.scores[c] = 0.4 * (gain + w*dmg)
	}
}
