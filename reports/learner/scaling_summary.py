#!/usr/bin/env python3
"""The table of a scaling.sh folder (issue 55): per game, the median over the
runs of gridgym's own 2-core / 1-core ratio for the train step and the batch-64
forward, with the runs' range, and the median figures themselves.

    python3 reports/learner/scaling_summary.py results/learner/scaling
"""
import glob
import os
import re
import statistics
import sys

from bench_summary import GAMES, parse


def main(d):
    print("| game | runs | train 1c → 2c (median samples/s) | 2c/1c train: median [min, max] "
          "| forward b64 1c → 2c (median obs/s) | 2c/1c forward: median [min, max] |")
    print("|---|---|---|---|---|---|")
    for g in GAMES:
        runs = [parse(p) for p in sorted(glob.glob(os.path.join(d, "gg-%s-*.txt" % g)))]
        runs = [r for r in runs if "1" in r and "2" in r]
        if not runs:
            continue
        cells = []
        for i in (0, 1):
            ratios = [r["2"][i] / r["1"][i] for r in runs]
            one = statistics.median(r["1"][i] for r in runs)
            two = statistics.median(r["2"][i] for r in runs)
            cells.append("%d → %d" % (one, two))
            cells.append("**%.2f** [%.2f, %.2f]" % (statistics.median(ratios), min(ratios), max(ratios)))
        print("| %s | %d | %s |" % (g, len(runs), " | ".join(cells)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main(sys.argv[1])
