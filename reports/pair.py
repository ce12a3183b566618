#!/usr/bin/env python3
"""Per-game margin of bot A over bot B, from a `gridgym tournament --report DIR`
games.jsonl (standard library only).

    python3 reports/pair.py DIR/games.jsonl A B

For every game that seats both, A's score minus B's (each the mean over the
seats it holds); prints the mean over those games with its 95% interval
(normal approximation) and the number of games.
"""
from gamesfile import read
import math
import statistics
import sys


def margin(games, a, b, path=""):
    """The mean of A's score less B's over the games seating both, the
    half-width of its 95% interval, and the number of those games."""
    d = []
    for g in games:
        sa = [s for n, s in zip(g["lineup"], g["score"]) if n == a]
        sb = [s for n, s in zip(g["lineup"], g["score"]) if n == b]
        if sa and sb:
            d.append(sum(sa) / len(sa) - sum(sb) / len(sb))
    if len(d) < 2:
        sys.exit(f"pair.py: {len(d)} games seat both {a} and {b} in {path}")
    return statistics.mean(d), 1.96 * statistics.stdev(d) / math.sqrt(len(d)), len(d)


def main(path, a, b):
    m, h, n = margin(read(path), a, b, path)
    print(f"{a} - {b}: {m:+.2f} [{m - h:+.2f}, {m + h:+.2f}] over {n} games")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
