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
// # Learner interface (Encoder, encode.go)
//
// Canonical frame: exactly the competition's view (R19). Seat s sees the
// board rotated by rot90(B, k = s), with every seat relabelled relative to it:
// relative seat k = (owner − s) mod 4, so k = 0 is its own (barn at view
// (0,0)), 1 = seat+1 (barn at (0,19)), 2 = seat+2 (19,19), 3 = seat+3 (19,0).
// View cell (i, j) is real cell ViewToReal(s, i, j).
//
// Observation: 10 planes (12 with the parameter frontier_planes) of 20×20 bytes, 0 or 1, in that frame (i·20 + j within
// a plane), then 8 float32 scalars:
//
//	planes 0–3   cows+k       cells owned by relative seat k (R2)
//	planes 4–7   connected+k  relative seat k's connected cows (R4): the
//	                          cows whose move places or captures (R11);
//	                          all 0 for an eliminated seat
//	plane 8      empty        cells nobody owns
//	plane 9      barns        the barn cell of every live seat (its view
//	                          corner above), 0 at an eliminated seat's corner
//	plane 10     first        with frontier_planes only: the empty cells the
//	                          seat's connected cows reach in fewer side steps
//	                          through empty cells than every live rival's
//	                          (State.Frontier's race)
//	plane 11     rival first  with frontier_planes only: those some live
//	                          rival reaches in fewer steps (ties: neither)
//	scalars 0–3  alive+k      1 while relative seat k is alive, else 0
//	scalars 4–7  territory+k  relative seat k's territory / 400 (R2)
//
// Everything is a function of the bot's request (R18: the board alone), so
// an exported bot sees exactly what the learner saw; the round number is
// not in the request, hence not in the observation.
//
// Actions: 1601, one head. Action a < 1600 is the full move into destination
// (i, j) = ((a % 400) / 20, a % 20) of the view from its side-neighbour
// d = a / 400: 0 above (i−1, j), 1 left (i, j−1), 2 right (i, j+1), 3 below
// (i+1, j); that is the competition answer ((si, sj), (i, j)), mapped to the
// real board as R20 does. Direction-major order lets a convolutional policy
// head emit 4×20×20 logits. Action 1600 is Pass (None). The mask holds Pass
// and, for a seat that is Active, every full move valid under the default
// rules (R7): LegalMoves' list in the view. A seat that is not Active gets
// Pass alone. Decode gives Pass for Pass, out-of-range actions and directions
// whose source is off the board (R10); other actions outside the mask decode
// to their full move, which Step turns into a pass (R7, R10). Encode maps a
// pass and every side-adjacent full move back; destination-only moves (for
// bots) and the non-adjacent moves of the nonadjacent_moves variant have no
// action (under that variant the action space stays the default one).
//
// Symmetries: the identity and the transpose (D4 element 4), the elements that
// keep the own barn at (0,0). The transpose trades the corners (0,19) and
// (19,0), so relative seats +1 and +3 trade planes, scalars and directions
// (above ↔ left, right ↔ below). It is the view of the real board mirrored
// along the diagonal through the seat's barn, with the two seats off that
// diagonal renamed into each other. The rules are invariant under that
// mirror with the renaming, as under I6's quarter turn: executed in the
// renamed order, the moves give the mirrored board, and R9's order is
// uniform, so the renamed order is as likely (R8 is never involved: no action
// is a destination-only answer). The other elements of D4 move the own barn
// off (0,0), so they give no canonical view.
//
// Potential: own territory / 400, in [0, 1]. ScoreScale is 1.5: scores are
// placement points 0…3 with mean 1.5, so the score reward equals the rank one.
//
// # Codec and bots
//
// View gives a seat's board as the competition passes it (R19); ViewFullMove
// and ViewDstMove map view-coordinate answers back to real moves; ParseValue
// reads a bot's Python answer as the controller does (R20).
package bovine
