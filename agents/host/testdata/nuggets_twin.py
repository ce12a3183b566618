"""A deterministic Nuggets bot in the competition's form (nuggets R17-R20):
the twin of nuggetsTwin in host_test.go, which plays the same moves in Go.

It queries the empty square with the most own side-neighbours, scanning rows
from row move_num mod 20 and breaking ties by scan order. It passes on
purpose now and then (None, and a malformed answer every 23rd call, which
both become the query (0,0), R6), answers lists and tuples in turn, and
counts its calls in a global, as competition bots may.
"""

N = 20
_calls = 0


def bot(board, move_num):
    global _calls
    _calls += 1
    if move_num % 17 == 5:
        return None
    if _calls % 23 == 0:
        return "not a square"
    best, bx, by = -1, 0, 0
    for k in range(N):
        y = (k + move_num) % N
        for x in range(N):
            if board[y][x] != -1:
                continue
            n = 0
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                xx, yy = x + dx, y + dy
                if 0 <= xx < N and 0 <= yy < N and board[yy][xx] == 0:
                    n += 1
            if n > best:
                best, bx, by = n, x, y
    if move_num % 2:
        return [bx, by]
    return (bx, by)
