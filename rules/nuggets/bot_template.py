"""My Nuggets bot, in the competition's form (written by `gridgym new-bot`).

The game calls bot(board, move_num) for every seat on every move, 260 moves
in all (rules file shared/rules/nuggets.md, R5, R17).

Request:
    bot(board, move_num)
  board     a fresh list of 20 lists (rows) of 20 Python ints, indexed
            board[y][x] (R18): -1 = empty, otherwise the colour relabelled:
            0 = you, 1, 2, 3 = the next seats. No rotation.
  move_num  the 0-based move t, 0..259 (R19): moves 0..59 are the setup
            phase, 60..259 the build phase, with decay (R12).

Answer (R20): a tuple or list (x, y) of two integers, each 0..19 -- x (the
column) FIRST, although the board is indexed board[y][x]. It is a query of
that square: an empty square goes to one of the seats that asked for it (R9);
a coloured one is contested (R10). Anything else (None included), an
exception or a late answer is the query (0, 0) (R6). Your score is the
product of the sizes of your nuggets (R15).

Limits (R20): 0.1 s wall-clock per call; what you print goes to the log
(gridgym --bot-log DIR keeps it). Memory in globals is allowed.

Try it:
    gridgym tournament --game nuggets --bots py:THIS_FILE,random,greedy --games 8
"""
import random

N = 20


def bot(board, move_num):
    empty_next_to_own, empty = [], []
    for y in range(N):
        for x in range(N):
            if board[y][x] != -1:
                continue
            empty.append((x, y))
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                xx, yy = x + dx, y + dy
                if 0 <= xx < N and 0 <= yy < N and board[yy][xx] == 0:
                    empty_next_to_own.append((x, y))
                    break
    # A start: grow a nugget of your own, else take any empty square.
    pool = empty_next_to_own or empty
    if not pool:
        return (random.randrange(N), random.randrange(N))
    return random.choice(pool)
