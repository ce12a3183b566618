"""Bots that check the Python types of their arguments (host_test.go): the
competitions pass Bovine Borders' board values as NumPy int16 scalars
(bovine-borders R19) and Rectangle's robot cells as (r, c) tuples
(rectangle R19); Rising Tide's terrain holds plain ints (rising-tide R20).
Each raises when a type is wrong, which the test sees as an error event.
"""


def bovine(board):
    v = board[0][0]
    if type(v).__name__ != "int16" or len(board) != 20 or not isinstance(board[19], list):
        raise TypeError("board[0][0] is a %s" % type(v).__name__)
    return None


def rectangle(board, robots, scores, move_num):
    if move_num == 0:
        return [(0, 0)] * len(robots[0] or [0, 0, 0, 0])
    r = robots[0][0]
    if not isinstance(r, tuple) or type(r[0]) is not int or type(board[0][0]) is not int:
        raise TypeError("robots[0][0] is a %s" % type(r).__name__)
    return "X" * len(robots[0])


def my_bot_fn(terrain, round_num):
    if type(terrain[0][0]) is not int or type(round_num) is not int:
        raise TypeError("terrain[0][0] is a %s" % type(terrain[0][0]).__name__)
    return None
