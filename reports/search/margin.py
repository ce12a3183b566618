#!/usr/bin/env python3
"""Per-game margin of one bot over the mean of the other seats, from a
`gridgym tournament --report DIR` games.jsonl (standard library only).

    python3 reports/search/margin.py DIR/games.jsonl LABEL

Prints the games, the bot's mean score, the others' mean score, the mean
per-game margin (bot's score minus the mean of the other seats' scores) with
its 95% interval (normal approximation, t for fewer than 30 games), the
first-place share (rank 1, ties included), the win share (ties split) and
the mean placement points.
"""
import json
import math
import statistics
import sys


def main(path, label):
    mine, others, margins, first, win, points, steps = [], [], [], 0, 0.0, [], []
    with open(path) as f:
        for line in f:
            g = json.loads(line)
            s = g["lineup"].index(label)
            rest = [x for i, x in enumerate(g["score"]) if i != s]
            mine.append(g["score"][s])
            others.append(sum(rest) / len(rest))
            margins.append(mine[-1] - others[-1])
            first += g["rank"][s] == 1
            win += g["win"][s]
            points.append(g["points"][s])
            steps.append(g["steps"])
    n = len(margins)
    m = statistics.fmean(margins)
    sd = statistics.stdev(margins) if n > 1 else 0.0
    z = 1.96 if n >= 30 else 2.09
    half = z * sd / math.sqrt(n) if n > 1 else float("inf")
    print(f"games {n}  mean steps {statistics.fmean(steps):.0f}")
    print(f"score: {label} {statistics.fmean(mine):.3f}, others {statistics.fmean(others):.3f}")
    print(f"margin {m:+.3f}  95% interval [{m - half:+.3f}, {m + half:+.3f}]")
    print(f"first place {first / n:.1%}  win share {win / n:.3f}  mean points {statistics.fmean(points):.3f}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
