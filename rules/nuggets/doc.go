// Package nuggets is the rules engine of Nuggets (Jigga-Jigga: Nuggets, rules
// file shared/rules/nuggets.md): four seats colour squares of a 20×20 grid by
// simultaneous queries for 260 moves, while decay empties squares; a seat
// scores the product of the sizes of its nuggets (side-connected components).
//
// # Coordinates
//
// As in the seed (R1), a square is (x, y) = (column, row), (0,0) top-left.
// Storage is row-major: one uint64 per row and seat, bit x of row word y is the
// square (x, y). Cells in a Move are y*20+x.
//
// # Move encoding
//
// Kind 1 (KindQuery) is a query: N = 1, Arg[0] = y*20+x with 0 ≤ x, y ≤ 19.
// Arg[1..7] are not in use and are ignored. Pass is the zero Move. Every seat
// is active every move (R6, no pass): a Pass, a missing entry, or any move
// that is not a well-formed query (another Kind, N ≠ 1, Arg[0] outside
// 0..399) is replaced by the query (0,0); with invalid_query=pass it queries
// nothing. Legal accepts the well-formed queries, and under invalid_query=pass
// also the zero Move; LegalMoves lists the 400 queries in cell order (plus
// Pass last under invalid_query=pass), and RandomMove draws U(400) (U(401),
// 400 = Pass, under invalid_query=pass).
//
// # Randomness
//
// Step draws exactly as R8 lists: the distinct queried squares in row-major
// order, each with its recolour draw U(5) (build phase, coloured square,
// k ≤ 2) and then its winner draw U(k) (k ≥ 2, if a winner is needed); then,
// in the build phase, one U(110000) per coloured square with base > 0, in
// row-major order, decaying it iff the draw is < base·(P+100).
//
// # Compact words (AppendWords)
//
// 81 words: word 0 is the move number t (moves played, 0..setup+build); word
// 1+20·s+y is seat s's row y (bits 0..19, bit x = square (x, y)), for seats
// 0..3 and rows 0..19. The seats' rows are pairwise disjoint.
//
// # Protocol (codec.go)
//
// ViewOf(st, seat) is a competition bot's view (R18, R19): Board[y][x] = −1
// empty or (owner − seat) mod 4, no rotation, and the move number.
// Codec.AppendRequest writes it as the JSON array [board, move_num];
// Codec.ParseAnswer reads R20's answer (a tuple or list of two Python or NumPy
// ints, x first, each 0..19) and gives every other answer R6's treatment.
// State.Answer(x, y) maps a Go bot's answer the same way.
//
// # Scores
//
// LogScore is R15's Σ ln(size), the Outcome's Score; Product is the exact
// score. Outcome ranks by exact products (equal products tie even where the
// float log-sums differ in the last bit).
//
// # Parameters
//
// setup_moves (0..1000, default 60) and build_moves (0..1000, default 200),
// at least one move in all; decay_table (R12's table, see ParseDecayTable for
// the written form); invalid_query (origin|pass, R6).
package nuggets
