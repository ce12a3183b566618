"""My Rectangle bot, in the competition's form (written by `gridgym new-bot`).

The game calls bot(board, robots, scores, move_num) for every player at every
step (rules file shared/rules/rectangle.md, R18).

Request (R19; everything relabelled so that you are player 0 and the player
k seats after you is k; no rotation):
  board     a fresh list of n lists (rows) of n Python ints, board[r][c]:
            -2 = unpaintable, -1 = paintable and unpainted, k = painted by k.
  robots    a list of p lists: robots[k] lists the (r, c) tuples of player
            k's b robots, in robot order. Empty lists at the placement.
  scores    a list of p ints, relabelled the same way.
  move_num  0 for the placement, t >= 1 for the moves.

Answer (R20):
  at move_num 0, the placement: a list or tuple of exactly b (r, c) pairs of
    Python ints in 0..n-1, robot i going to entry i (repeats allowed, R7);
  later: a string of b letters, or a list of b one-letter strings, from
    N E S W X (up, right, down, left, stay), robot i taking letter i (R8).
Anything else, an exception or a late answer makes every robot stay (R9).
Robots paint the cells they arrive on (R10); a rectangle whose corners are
painted by one player is claimed for points (R11-R13).

Limits (R20): 0.1 s wall-clock per call; what you print goes to the log
(gridgym --bot-log DIR keeps it). Memory in globals is allowed.

Try it:
    gridgym tournament --game rectangle --bots py:THIS_FILE,random,boxer --games 8
"""
import random

ROBOTS = 4  # b: the placement cannot see it (robots[0] is empty then); 4 by default (R1)


def bot(board, robots, scores, move_num):
    n = len(board)
    if move_num == 0:
        # A start: spread the robots over the board.
        return [(random.randrange(n), random.randrange(n)) for _ in range(ROBOTS)]
    return "".join(random.choice("NESWX") for _ in robots[0])
