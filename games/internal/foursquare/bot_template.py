# A Four Square bot (the test game, R6 of its rules, which are
# games/internal/foursquare's package doc): bot(board) gets 4 lists of 4
# ints (0 empty, 1 own, 2 other) and answers (r, c) or None (a pass).


def bot(board):
    for r in range(4):
        for c in range(4):
            if board[r][c] == 0:
                return (r, c)
    return None
