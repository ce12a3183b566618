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
package risingtide
