package nuggetsheldout

// quad_quinn, the tiler. The board is cut into a lattice of 2×2 blocks one
// square apart: square (x, y) is a block square iff (x+ox) mod 3 ≠ 2 and
// (y+oy) mod 3 ≠ 2, the lattice offset (ox, oy) drawn at its first move. It
// queries block squares only, so its nuggets never outgrow a block and never
// join: a full block is a nugget of 4 whose squares all have N = 2, the
// lowest decay any 4-square shape has (R12), and a block that loses a square
// is still a tromino worth ln 3 until repaired. It values a nugget of n
// squares at quadValue[n] (completing a block counts most), takes back block
// squares a rival holds when nothing empty is worth more (0.4 of the gain,
// R10), and counts the real ln n on the last move.

// quadValue[n] is the tiler's value of a nugget of n squares, n ≤ 4.
var quadValue = [5]float64{0, 0.2, 0.75, 1.25, 1.85}

func (bt *Bot) quadVal(n int) float64 {
	if bt.m <= 1 {
		if n == 1 {
			return 0
		}
		return lnOf[n]
	}
	if n <= 4 {
		return quadValue[n]
	}
	return quadValue[4] + lnOf[n] - lnOf[4]
}

func (bt *Bot) onLattice(c int) bool {
	x, y := c%side, c/side
	return (x+bt.ox)%3 != 2 && (y+bt.oy)%3 != 2
}

func (bt *Bot) quadScores() {
	if bt.ox < 0 {
		bt.ox, bt.oy = bt.rng.U(3), bt.rng.U(3)
	}
	l := &bt.lab[0]
	for c := 0; c < cells; c++ {
		if !bt.onLattice(c) || !bt.legal(c, false) {
			continue
		}
		// the block's free squares: room still to fill
		x, y := c%side, c/side
		bx, by := x-(x+bt.ox)%3, y-(y+bt.oy)%3
		free, rivals := 0, 0
		for dy := 0; dy < 2; dy++ {
			for dx := 0; dx < 2; dx++ {
				qx, qy := bx+dx, by+dy
				if qx < 0 || qy < 0 || qx >= side || qy >= side {
					continue
				}
				switch v := bt.b[qy*side+qx]; {
				case v < 0:
					free++
				case v > 0:
					rivals++
				}
			}
		}
		// gain: the nuggets c joins (all in its block)
		seenN, size, joined := 0, 1, 0.0
		var ids [4]int16
		for k := int8(0); k < nbrN[c]; k++ {
			id := l.of[nbr[c][k]]
			if id < 0 {
				continue
			}
			dup := false
			for _, s := range ids[:seenN] {
				dup = dup || s == id
			}
			if dup {
				continue
			}
			ids[seenN] = id
			seenN++
			n := int(l.size[id])
			size += n
			joined += bt.quadVal(n)
		}
		gain := bt.quadVal(size) - joined
		if bt.b[c] < 0 {
			bt.scores[c] = gain + 0.02*float64(free) - 0.03*float64(rivals)
		} else {
			// a rival's square in a block: R10's 2/5 alone
			dmg := 0.0
			if r := &bt.lab[bt.b[c]]; r.of[c] >= 0 {
				dmg = 0.15 * (val(int(r.size[r.of[c]]), 0.15) - bt.splitValue(c, bt.b[c], 0.15))
			}
			bt.scores[c] = 0.4*(gain+dmg) - 0.01
		}
	}
}
