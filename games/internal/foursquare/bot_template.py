# A Four Square bot (test game; rules in games/internal/foursquare's package
# doc, R6): bot(board) gets 4 lists of 4 ints (0 empty, 1 own, 2 other) and
# answers (r, c) or None (a pass).


def bot(board):
    for r in range(4):
        for c in range(4):
            if board[r][c] == 0:
                return (r, c)
    return None
