// Package bovine is the rules engine of Bovine Borders (registry name
// "bovine-borders"): four farmers grow, move and fight with cows on a 20×20
// grid from barns in the corners; losing the barn eliminates a farmer.
//
// The rules file /work/shared/rules/bovine-borders.md is normative; comments
// cite its rules as R1…R22, its worked examples as E1…E12 and its invariants as
// I1…I7. Rounds are simultaneous (one Step = one round, R6), at most 10 000.
//
// # Move encoding
//
// Cells are r*20+c of the real board (R1: r = row from the top, c = column).
//
//	Pass            the zero Move: no move (R10).
//	Kind 1 (Full)   N = 2, Arg[0] = source cell, Arg[1] = destination cell.
//	Kind 2 (Dst)    N = 1, Arg[0] = destination cell; the source is drawn in
//	                Step from the round-start board (R8).
//
// Anything else (another Kind, another N, a cell outside 0..399) is malformed
// and counts as a pass (R10). LegalMoves and RandomMove use the action set
// "Pass plus every full move valid under the default rules" (side-adjacent,
// R7), even under the nonadjacent_moves variant, whose extra moves Legal and
// Step accept but which are never listed; destination-only moves are for bots
// (the codec), not for the action set. The list is ordered: Pass first, then
// by source cell, then by destination cell (both row-major).
//
// # Compact words (AppendWords)
//
// 82 words:
//
//	words 20·s … 20·s+19   seat s's cows, one word per row r, bit c = cell (r, c)
//	word 80                bits 0–15 round t (0 before the first round),
//	                       bits 16–19 alive mask (bit s = seat s alive),
//	                       bits 20+3·s … 22+3·s seat s's elimination sequence
//	                       number (1 = first seat eliminated, 0 = alive)
//	word 81                bits 16·s … 16·s+15 seat s's elimination round (0 = alive)
//
// Done is derived: at most one seat alive, or t = 10 000 (R14). The connected
// sets (R4) are a cache, not part of the words.
//
// # Connectivity
//
// R11 needs the connectivity of every executed move's source. Each seat's
// connected set is cached and kept exact by word-level local updates: a new
// cow next to the set joins it (with the component it links, found by a small
// fill); a removed cow leaves it when its 3×3 neighbourhood proves the rest
// still connected (removalSafe), or when growing pieces from its neighbours
// for a few dilations finds the cut-off parts (splitOff). Otherwise the set
// is refilled from the barn (bitboard.Grid.Fill4) the next time it is needed.
// Check verifies the cache against a fresh fill.
//
// # Codec and bots
//
// View gives a seat's board as the competition passes it (R19); ViewFullMove
// and ViewDstMove map view-coordinate answers back to real moves; ParseValue
// reads a bot's Python answer as the controller does (R20).
package bovine
