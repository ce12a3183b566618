#!/usr/bin/env python3
"""Tables of bench.sh runs (issue 21): for each run folder given, every game's
gridgym and PyTorch figures side by side with their ratios, and gridgym's
2-core / 1-core scaling. Reads the gg-GAME.txt files that
`gridgym bench --learner --torch T` wrote.

    python3 reports/learner/bench_summary.py results/learner/1636 ...
"""
import os
import re
import sys

GAMES = ["rising-tide", "rectangle", "slime", "nuggets", "bovine-borders"]


def parse(path):
    """Rows of a bench --learner table: {'1': [train, f64, f1], 'torch 1': ...}."""
    rows = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"\s+(torch \d+|\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$", line)
            if m:
                rows[m.group(1)] = [int(m.group(i)) for i in (2, 3, 4)]
    return rows


def main(dirs):
    if not dirs:
        sys.exit(__doc__)
    print("| run | game | train 1c / torch 1t | train 2c / torch 2t | forward b64 1c / torch 1t"
          " | forward b64 2c / torch 2t | 2c/1c train | 2c/1c forward b64 |")
    print("|---|---|---|---|---|---|---|---|")
    for d in dirs:
        for g in GAMES:
            p = os.path.join(d, "gg-%s.txt" % g)
            if not os.path.exists(p):
                continue
            r = parse(p)
            if not all(k in r for k in ("1", "2", "torch 1", "torch 2")):
                print("| %s | %s | (incomplete: %s) |" % (os.path.basename(d), g, p))
                continue

            def pair(c, i):
                a, b = r[c][i], r["torch " + c][i]
                return "%d / %d (%.2f×)" % (a, b, a / b)

            print("| %s | %s | %s | %s | %s | %s | %.2f | %.2f |" % (
                os.path.basename(d), g, pair("1", 0), pair("2", 0), pair("1", 1), pair("2", 1),
                r["2"][0] / r["1"][0], r["2"][1] / r["1"][1]))


if __name__ == "__main__":
    main(sys.argv[1:])
