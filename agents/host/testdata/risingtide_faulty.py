"""Rising Tide bots in the competition's form (rising-tide R18-R23) that
misbehave in round 1, each in its own way, and otherwise play the first
legal move of the view (R10, scanning sources and then destinations in
row-major order). host_test.go checks that each failure is a pass, logged,
and that the game and the bot go on.
"""
import os
import sys
import time

S = 18
CITIES = {(5, 5), (5, 12), (12, 12), (12, 5)}


def first_legal(terrain):
    for i in range(S):
        for j in range(S):
            if terrain[i][j] < 1 or (i, j) in CITIES:
                continue
            for a in (i - 1, i, i + 1):
                for b in (j - 1, j, j + 1):
                    if (a, b) == (i, j) or not (0 <= a < S and 0 <= b < S) or (a, b) in CITIES:
                        continue
                    if 0 <= terrain[a][b] < 8:
                        return ((i, j), (a, b))
    return None


def good(terrain, round_num):
    return first_legal(terrain)


def raises(terrain, round_num):
    if round_num == 1:
        return 1 // 0
    return first_legal(terrain)


def hangs(terrain, round_num):
    if round_num == 1:
        time.sleep(60)
    return first_legal(terrain)


def slow(terrain, round_num):
    # Twice the tests' 2 s limit, and under their hang limits: late on any
    # machine, however loaded, while the other rounds are in time on any.
    if round_num == 1:
        time.sleep(4)
    return first_legal(terrain)


def crashes(terrain, round_num):
    if round_num == 1:
        os._exit(3)
    return first_legal(terrain)


def prints(terrain, round_num):
    # Printed output goes to the log (R23), never into the answers.
    print("garbage {not json")
    sys.stdout.flush()
    os.write(1, b"more garbage\n")
    return first_legal(terrain)


def corrupts(terrain, round_num):
    # Writes on the host's own protocol stream, which no bot should reach.
    if round_num == 1:
        import __main__
        __main__.PROTOCOL.write("garbage {not json\n")
        __main__.PROTOCOL.flush()
    return first_legal(terrain)


def malformed(terrain, round_num):
    if round_num == 1:
        return ((1, 2),)
    return first_legal(terrain)


def illegal(terrain, round_num):
    if round_num == 1:
        return [(5, 5), (5, 6)]  # from the own settlement: R10e
    return first_legal(terrain)


class _Wrapped:
    """What util.make_bot returns: a tuple whose func is the bot."""

    def __init__(self, func):
        self.func = func


made = _Wrapped(good)
