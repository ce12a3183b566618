#!/usr/bin/env python3
"""Bot X's mean points a game and its margin over centre_cleo in each of the
given tournaments' games.jsonl files (standard library only):

    python3 reports/bovine-borders/continue/mean.py A/games.jsonl B/games.jsonl
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from gamesfile import read  # noqa: E402
from pair import margin  # noqa: E402


def figures(path):
    games = read(path)
    own = [dict(zip(g["lineup"], g["score"]))["X"] for g in games if "X" in g["lineup"]]
    if len(own) < 2:
        sys.exit(f"mean.py: {len(own)} games seat X in {path}")
    m, h, _ = margin(games, "X", "centre_cleo", path)
    return f"X {statistics.mean(own):.3f} points, − centre_cleo {m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"


print("; ".join(figures(p) for p in sys.argv[1:]))
