#!/usr/bin/env python3
"""Bot X's mean points a game and its margin over centre_cleo in each of the
given tournaments' games.jsonl files (standard library only):

    python3 reports/bovine-borders/continue/mean.py A/games.jsonl B/games.jsonl
"""
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from gamesfile import read  # noqa: E402


def figures(path):
    own, margin = [], []
    for g in read(path):
        seats = dict(zip(g["lineup"], g["score"]))
        if "X" in seats:
            own.append(seats["X"])
            if "centre_cleo" in seats:
                margin.append(seats["X"] - seats["centre_cleo"])
    if len(own) < 2:
        sys.exit(f"mean.py: {len(own)} games seat X in {path}")
    m = statistics.mean(margin) if len(margin) > 1 else float("nan")
    h = 1.96 * statistics.stdev(margin) / math.sqrt(len(margin)) if len(margin) > 1 else float("nan")
    return f"X {statistics.mean(own):.3f} points, − centre_cleo {m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"


print("; ".join(figures(p) for p in sys.argv[1:]))
