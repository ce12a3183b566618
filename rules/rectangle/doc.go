// Package rectangle is the rules engine of Rectangle (shared/rules/rectangle.md):
// on an n×n grid, p players steer b robots each that paint the cells they arrive
// on; a rectangle whose boundary is all one player's colour is claimed, scoring
// its paintable interior cells and making them unpaintable.
//
// All players act at once in every step. Step 0 is the placement (R7), steps
// t ≥ 1 are moves (R8). The game is deterministic: Step never draws from its RNG.
//
// # Move encoding
//
// Cells are r*n+c of the real board (there is no rotation, R19).
//
//	Kind 1 (KindPlace), N = b:  Arg[i] = cell of robot i          (step 0 only)
//	Kind 2 (KindMove),  N = b:  Arg[i] = direction of robot i     (steps ≥ 1)
//	                            0 North, 1 East, 2 South, 3 West, 4 Stay (X)
//
// Arg entries at index ≥ N are ignored. Pass, a move of the wrong kind for the
// phase, a wrong N, or any Arg[i] out of range gets R9's default: at the
// placement all the player's robots go to (0,0); in a move they all stay. Pass
// is not itself a legal answer (the rules have no pass; "all X" is the stay).
//
// LegalMoves at a move step lists all 5^b direction combinations (robot 0's
// direction varies slowest), including directions into the edge, which are
// valid answers that leave the robot in place (R8). At the placement the n^(2b)
// placements cannot be listed: LegalMoves lists the n² placements with every
// robot on one cell, in cell order, and LegalMovesPartial says so; RandomMove
// still draws each robot's cell uniformly and independently.
//
// # Engine
//
// Paint is one bitboard per player (one uint64 per row, bit c = column c), the
// unpaintable cells one more. Claims (R11–R13) look only at rectangles with a
// boundary cell newly painted in this step (I5): for rows r1 < r2 the columns
// painted on every row r1..r2 are the AND of the row words, and horizontal
// edges are bit runs of P[r1] & P[r2]. Candidates are packed into sortable
// uint64 keys (gain, player, r1, c1, r2, c2), sorted once and re-validated
// one at a time (R12). The buffer is bounded; if more candidates exist, Step
// processes them in key order in batches from a snapshot of the pre-claim
// position, with the same result.
//
// Step assumes I4 on entry (no candidate is left from earlier steps), which
// holds in every position reached by play; Check verifies it. Custom states
// that break I4 are stepped without error, but their old candidates are not
// claimed.
//
// # Compact words (AppendWords)
//
//	word 0:                 steps (bits 0..31) | idle counter << 32
//	words 1..p:             score of player i
//	next ceil(p·b/4) words: robot cells, 16 bits each (r<<8 | c), player-major
//	                        (player i robot k is entry i·b+k), 4 per word, low first
//	next n words:           unpaintable cells, one word per row
//	next p·n words:         paint of player 0 (n rows), then player 1, …
//
// Done is not stored: it follows from steps and the idle counter (R15).
package rectangle
