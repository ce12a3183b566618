// Package slime is the rules engine of Slime: The Territory War
// (shared/rules/slime.md). Four slimes start in the corners of an N×N board and
// take turns to spread, jump or merge, converting the slime around the target;
// when the board is full, or after max_turns turns, each player scores its cells.
//
// # Seats and turns
//
// Seat s (0..3) is player s+1 (R2); the players start at the top-left,
// top-right, bottom-left and bottom-right corners (R3, not clockwise). The game
// is sequential (R4): one Step is one turn, and only the seat to move
// (ToMove) is Active. A seat without slime still gets its turns and can only
// pass. With max_turns = 0 (no cap, the seed text's rule) Spec.MaxSteps is
// 1<<30, a bound that only an endless game (everyone passing) reaches.
//
// # Move encoding
//
// A move is rules.Move{Kind: KindMove, N: 2, Arg: [source, target, …]} with
// cells written r*N + c of the real board (N = board_size): Arg[0] is the
// source (r1, c1), Arg[1] the target (r2, c2), the other Arg entries are
// unused. Pass is the zero Move. Step treats every other move as the rules
// treat an invalid one (R7: nothing changes, the turn is used up): any other
// Kind, N ≠ 2, a cell outside 0..N²−1, and every move that breaks R8. Legal
// accepts the zero Move and the R8-valid moves of the seat to move; the
// player's `0 0 0 0` (a KindMove with distance 0) is a pass in effect but is
// not Legal. LegalMoves lists Pass first, then every R8-valid move by source
// cell, then target cell, ascending; RandomMove draws one U(k) over those k
// moves (no draw when k = 1). Slime itself has no randomness (R6): Step never
// touches its RNG.
//
// # Bitboards and compact words
//
// Each player's cells are one uint64 with an 8-bit row stride whatever N is:
// bit r*8 + c is cell (r, c), and only the N×N low corner is ever set. Empty
// is the complement within that corner. AppendWords writes 5 words:
//
//	w[0..3]  the cells of players 1..4 (seats 0..3), bit r*8+c
//	w[4]     the number of turns played (seat w[4] mod 4 moves next)
//
// SetWords accepts exactly that layout: 5 words, the four sets disjoint and
// inside the N×N board, and a turn count within max_turns (or below 1<<30).
//
// # Competition protocol
//
// The codec (codec.go) reproduces R14–R15: the bot's command-line argument
// `P,row0,…` (no rotation, no relabelling) and the controller's parse of its
// first output line. The canonical rotation of R18, which only gridgym's env
// uses, is ToCanonical/FromCanonical (sym.go).
package slime
