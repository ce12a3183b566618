// Package risingtide is the rules engine of Rising Tide (registry name
// "rising-tide"): four settlements on an 18×18 island of heights 0..8 push land
// around to build seawalls while the water rises 0.01 per round; a seat is out
// when its settlement floods. The normative rules are shared/rules/rising-tide.md;
// comments cite them as R<n> (rules), E<n> (worked examples), I<n> (invariants).
//
// # Moves
//
// Cells are written c = i*18 + j in real coordinates (i = row from the top,
// j = column from the left, R1).
//
//	Pass            the zero rules.Move (R9: a pass changes nothing)
//	Kind 1 (KindMove), N = 2
//	  Arg[0]        source cell i*18+j
//	  Arg[1]        destination cell i*18+j
//
// Entries Arg[2..7] are ignored. Any other Kind, any other N, or a cell outside
// 0..323 is malformed and counts as a pass (R9); so does a move that fails R10
// at submission. Step never panics on any Move value.
//
// Legal accepts every move R10 allows, so under the variant nonadjacent_moves
// (§6, R10b dropped) it also accepts far-apart moves and src = dst. LegalMoves
// and RandomMove cover the default action set: Pass plus the legal moves whose
// destination is one of the source's 8 neighbours (the only moves the sample
// bots play), under either setting of the variant.
//
// # Randomness
//
// The only random event is the execution order of each round (R8): Step calls
// rng.Shuffle on the seats alive at round start in increasing order, taking
// n−1 draws U(n), U(n−1), …, U(2) every round, moves or not.
//
// # Compact words (AppendWords / SetWords)
//
// 22 words. Words 0..20 hold one 4-bit nibble per cell, cell c at word c/16,
// bits 4·(c%16) .. 4·(c%16)+3: the height 0..8, or 15 for a flooded cell;
// nibbles past cell 323 are 0. Word 21 holds the counters: bits 0..15 the round
// number r of the next round (= rounds played, 0..800); bits 16+12·s .. 27+12·s
// the elimination round of seat s (1..799), or 0 while seat s is alive.
// Everything else (alive seats, flooded set, per-height sets, Done) is derived.
//
// # Learner interface (encode.go)
//
// Encoder, the game's registered rules.Encoder, shows every seat its position
// in its canonical frame, which is exactly the competition's view rot90(T,
// k = seat) (R20): the seat's own settlement at (5,5), seat+1's at (5,12),
// seat+2's at (12,12), seat+3's at (12,5), the other seats named relative to
// it. The observation has 17 planes of 18×18 bytes, view cell (i, j) at byte
// i*18+j of its plane, every byte 0 or 1:
//
//	0       flooded              flooded cell (−1 in the bot's terrain)
//	1..9    height_0..height_8   land of height 0..8 (one-hot)
//	10      below_water          land with 100·h < r, r = Round() the next round:
//	                             it floods in that round if it is wet then (R12)
//	11      wet_land             land on the border or 8-adjacent to a flooded cell
//	12      flooding             below_water ∧ wet_land: floods at the end of the
//	                             next round unless a move raises it
//	13      settlement_own       (5,5), while the seat is alive
//	14..16  settlement_next, _opposite, _prev
//	                             seat+1's (5,12), seat+2's (12,12), seat+3's (12,5),
//	                             while that seat is alive
//
// With the observation-only parameter flood_planes, four planes more, from
// the round each cell would flood if nobody moved again (FloodTimes; the
// sea's quickest way to a cell steps from it to every neighbour that
// floods first, while that floods earlier and is land: FloodTimes.Ways):
//
//	17      flood_path_own       the quickest ways into the own settlement
//	18      flood_path_target    the live rival settlements that flood first
//	                             (all of them on a tie), and their quickest ways
//	19      flood_dig_target     the highest land (≥ 1, not a settlement) on
//	                             those ways: digging it brings that flood forward
//	20      flood_safe_own       all ones while the own settlement floods only
//	                             after the last round (799)
//
// and 7 float32 scalars:
//
//	0       round                r/800
//	1       water_height         ⌈r/100⌉/8: heights below ⌈r/100⌉ are under water in round r
//	2..5    alive_own, alive_next, alive_opposite, alive_prev
//	                             1 while seat+k is alive (R5), else 0
//	6       rise_in              d/100, d = 1..100: round r+d is the first in which
//	                             one more height is under water
//
// The action space is one head of 2593 actions. Action a = d·324 + i·18 + j
// (direction-major, the layout of an 8-plane convolutional policy head) moves
// one unit of land from view cell (i, j) to its neighbour (i+di, j+dj) with
// (di, dj) the d-th of (−1,−1) (−1,0) (−1,1) (0,−1) (0,1) (1,−1) (1,0) (1,1)
// (the order of LegalMoves); a = 2592 is pass. Decode maps the view cells to
// real ones with ViewToReal, so a move is exactly the answer
// ((i, j), (i+di, j+dj)) a bot would give. The mask is exactly the seat's legal
// neighbour moves (R10) and pass; a seat that is not Active gets pass only.
// Actions whose destination is off the board, and values outside 0..2592,
// decode to pass; any other action decodes to its move, which Step treats as a
// pass if R10 fails (R9). Under nonadjacent_moves the far moves and src = dst
// are outside the action space (Encode reports false); the mask is the same.
//
// Symmetries (rules.Symmetric): the identity and the transpose of the view
// (g = 4), which keeps (5,5) and (12,12) and exchanges seat+1's (5,12) with
// seat+3's (12,5). For every seat it is the same real symmetry, the real
// board transposed with seats 1 and 3 exchanged, under which R10, R12 and
// the view (R20) are invariant (like I8's rotation); the rotations move the
// own settlement away from (5,5). TransformObs swaps the settlement planes
// and alive flags of seat+1 and seat+3.
//
// Potential (rules.Potential): Φ = the score (R16) the seat would get if
// every seat passed from now on, /800 — the flood replayed exactly, with the
// last seat standing scoring 800. At the end of a game Φ = Score/800.
// ScoreScale is 200, the mean absolute deviation of a score from its game's
// mean in random play (the survivor's 800 against the others' 200–400).
package risingtide
