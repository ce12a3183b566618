"""My Rising Tide bot, in the competition's form (written by `gridgym new-bot`).

The tournament imports this file and calls my_bot_fn through the Bot that
util.make_bot returns (rules file shared/rules/rising-tide.md, R18). util.py,
the competition's helper module, is beside this file (gridgym also provides it
to every hosted Rising Tide bot).

Request, once per round while you are alive (R19):
    my_bot_fn(terrain, round_num)
  terrain    a fresh list of 18 lists of 18 Python ints (R20): -1 = flooded,
             else the land's height 0..8. It is turned so that YOUR settlement
             is at (5, 5); the next seats' are at (5, 12), (12, 12), (12, 5)
             (clockwise). terrain[i][j]: i is the row, j the column (R1).
  round_num  the 0-based round r (R21): land of height h is below the water
             when 100*h < r; below-water land next to flooded land (or on the
             edge) floods at the end of the round (R12). You are out when your
             settlement floods (R14); you score the round you went out in (R16).

Answer (R22): None to pass, or ((i1, j1), (i2, j2)) -- tuples or lists of four
Python ints (not NumPy integers, not floats), in your view: one unit of height
moves from (i1, j1) to (i2, j2). Legal (R10): the two cells are 8-neighbours,
the source is land of height >= 1, the destination land of height <= 7,
neither is a settlement. Anything else is a pass (R9).

Limits (R23): 0.1 s wall-clock per call, or the answer is discarded (a pass);
an exception is a pass; what you print goes to the log (gridgym --bot-log DIR
keeps it). Globals persist between calls of one game.

Try it:
    gridgym tournament --game rising-tide --bots py:THIS_FILE,random_rizhao,nearby_new_orleans,trench_tunis --games 8
"""
import random

import util


def my_bot_fn(terrain, round_num):
    moves = list(util.allowed_moves(terrain))  # every legal move (R10)
    if not moves:
        return None
    # A start: build up the land around your settlement, like nearby_new_orleans.
    best = min(util.dist(dst, util.CITIES[0]) for _, dst in moves)
    return random.choice([m for m in moves if util.dist(m[1], util.CITIES[0]) == best])


bot = util.make_bot("My Bot", "MB", my_bot_fn)
