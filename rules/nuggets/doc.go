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
// # Learner interface (encode.go)
//
// Encoder (Game.Encoder) is the env's view of the game. The canonical frame is
// the competition's view (R18): no rotation, since seats have no positions
// (R3), and the seats relabelled relative to the observer, own = 0, then
// seat+1, seat+2, seat+3. Planes are [plane][y][x], row y, column x, the
// board[y][x] of R18, 11×20×20 bytes (constants Plane…):
//
//	0 own              1 where the square is the seat's (board[y][x] = 0)
//	1 next             1 where it is seat+1's (= 1)
//	2 opposite         1 where it is seat+2's (= 2)
//	3 previous         1 where it is seat+3's (= 3)
//	4 empty            1 where the square is empty (= −1)
//	5 same_neighbours  N(s) of R12, 0..4, for a coloured square; 0 if empty
//	6 decay_base       base(m, N(s)) of R12's table (0..100, the decay_table
//	                   entry for m = total − t moves left) for a coloured square,
//	                   were move t's decay to run on the board as it is; 0 for
//	                   an empty square, in the setup phase and after the end
//	7 own_size         size of the own nugget (R4) holding the square, capped
//	                   at SizeCap (60); 0 elsewhere
//	8 rival_size       size of the rival nugget holding the square (capped);
//	                   0 on own and empty squares
//	9 join_size        on a square not the seat's own: the size of the own
//	                   nugget it would be part of if the seat owned it, 1 + the
//	                   sizes of the distinct own nuggets it side-touches
//	                   (capped); 0 on own squares
//	10 join_count      on a square not the seat's own: how many distinct own
//	                   nuggets it side-touches, 0..4; 0 on own squares
//	11 greedy_best     1 on the squares `greedy_tuned` rates best (Evaluate with
//	                   TunedWeights, within Tie of the top score, greedy.go):
//	                   the one-ply lookahead a few convolutions cannot do, so
//	                   a network can start from greedy_tuned's choice (the
//	                   strongest scripted bot when the plane was added;
//	                   fortress, stronger, plays as greedy_tuned once 160
//	                   moves are left, and the harvester until 80 are);
//	                   all 0 once the game is over
//
// Planes 7–10 give the network the nugget sizes R15 scores, which a few 3×3
// convolutions cannot count: join_size and join_count say what a query of the
// square adds to the log-score, ln(join_size) minus the ln of the sizes it
// merges. (They were added after the first networks: a network trained on
// the 7-plane observation no longer fits, and loading it says so; the same
// holds for the 11-plane one since greedy_best.)
//
// Planes 5 and 6 are read from the board before the move's queries, so they
// are a forecast: the decay of move t uses the board after them (R12). A
// square's decay probability on this board is decay_base·(P+100)/110000, P
// being the colored scalar times 400.
//
// Nine float32 scalars (constants Scalar…), with total = setup_moves + build_moves (260) and t the
// move number (R19):
//
//	0 move_num            t/total (1 once the game is over)
//	1 build_phase         1 if t ≥ setup_moves (R5), else 0
//	2 setup_left          (setup_moves − t)/setup_moves in the setup phase, else 0
//	3 build_left          min(total − t, build_moves)/build_moves: 1 during the
//	                      setup phase, m/build_moves in the build phase (m = total
//	                      − t, the moves left of R12), 0 at the end
//	4 colored             P/400 (R11)
//	5 log_score_own       the seat's log-score (R15) / LogScoreScale (25)
//	6 log_score_next      seat+1's log-score / 25
//	7 log_score_opposite  seat+2's log-score / 25
//	8 log_score_previous  seat+3's log-score / 25
//
// Actions: one head of 400 actions, a = y·20 + x queries the square (x, y),
// the competition answer (x, y) (R20); the real move is Query(x, y), Arg[0] =
// a. Every square is legal while the game runs. The default has no pass
// (R6); under invalid_query=pass a 401st action, PassAction = 400, is Pass.
// After the end no seat is active: the mask is empty under the default and
// holds only Pass under invalid_query=pass. Out-of-range actions decode to
// R6's treatment (State.Invalid).
//
// Symmetries: all eight elements of D4 (I6: the rules are invariant under the
// symmetries of the square, and the view has no rotation). A symmetry moves
// every plane with the board and keeps the seats' labels and the scalars;
// action a moves as the cell (a/20, a%20), Pass stays.
//
// Potential (shaping): the seat's log-score / LogScoreScale, in [0, 5.9], about
// 1 for a strong position (LogScoreScale). Space.ScoreScale is 2: final
// log-scores under random play deviate from their game's mean by 1.5.
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
