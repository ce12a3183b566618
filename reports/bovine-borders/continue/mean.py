#!/usr/bin/env python3
"""Bot X's mean points a game and its margin over centre_cleo (or the bot
--over names) in each of the given tournaments' games.jsonl files (standard
library only):

    python3 reports/bovine-borders/continue/mean.py A/games.jsonl B/games.jsonl
    python3 reports/bovine-borders/continue/mean.py --over reach_rosa C/games.jsonl
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from gamesfile import read  # noqa: E402
from pair import margin  # noqa: E402


def figures(path, over):
    games = read(path)
    own = [dict(zip(g["lineup"], g["score"]))["X"] for g in games if "X" in g["lineup"]]
    if len(own) < 2:
        sys.exit(f"mean.py: {len(own)} games seat X in {path}")
    m, h, _ = margin(games, "X", over, path)
    return f"X {statistics.mean(own):.3f} points, − {over} {m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"


args, over = sys.argv[1:], "centre_cleo"
if args[:1] == ["--over"]:
    if len(args) < 2:
        sys.exit("mean.py: --over needs a bot name")
    over, args = args[1], args[2:]
if not args:
    sys.exit("usage: mean.py [--over BOT] GAMES.jsonl...")
print("; ".join(figures(p, over) for p in args))
