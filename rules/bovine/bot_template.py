"""My Bovine Borders bot, in the competition's form (written by `gridgym new-bot`).

The tournament imports this file and calls bot(board) once per round while
you are alive (rules file shared/rules/bovine-borders.md, R18).

Request:
    bot(board)
  board  a list of 20 lists (rows) of 20 integers (R19; the controller passes
         NumPy int16 scalars: use int(x)). -1 = empty; otherwise the owner
         relabelled: 0 = you, 1, 2, 3 = the next seats. It is turned so that
         YOUR barn is at (0, 0); the others' at (0, 19), (19, 19), (19, 0).
         board[r][c]: r is the row, c the column (R1). No round number.

Answer (R20): None to pass; ((r1, c1), (r2, c2)) to move a cow from your cell
(r1, c1) to (r2, c2); or just (r2, c2), and a cow of yours beside it is chosen
at random (R8). Valid (R7): the source is yours, the destination is not (empty
or a rival's), and they share a side. Anything else is a pass (R10). Taking a
rival's cell can cut its cows off from its barn (R11); losing your barn cell
eliminates you (R12).

Limits (R21): 0.1 s wall-clock per call, or a pass; an exception is a pass;
what you print goes to the log (gridgym --bot-log DIR keeps it). Memory in
globals is allowed.

Try it:
    gridgym tournament --game bovine-borders --bots py:THIS_FILE,random_raven,defensive_dan_heng,adjacent_asta --games 8
"""
import random

N = 20
SIDES = ((-1, 0), (0, -1), (0, 1), (1, 0))


def bot(board):
    b = [[int(v) for v in row] for row in board]  # NumPy int16 -> int
    moves = []
    for r in range(N):
        for c in range(N):
            if b[r][c] != 0:
                continue
            for dr, dc in SIDES:
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < N and 0 <= c2 < N and b[r2][c2] != 0:
                    moves.append(((r, c), (r2, c2)))  # valid under R7
    if not moves:
        return None
    # A start: prefer taking empty land, nearest your barn first.
    empty = [m for m in moves if b[m[1][0]][m[1][1]] == -1]
    pool = empty or moves
    best = min(m[1][0] + m[1][1] for m in pool)
    return random.choice([m for m in pool if m[1][0] + m[1][1] == best])
