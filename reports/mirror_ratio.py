#!/usr/bin/env python3
"""Issue 22's mirror robustness from two `gridgym tournament --report DIR`
games.jsonl files (standard library only).

    python3 reports/mirror_ratio.py MIRROR/games.jsonl ALONE/games.jsonl ALONE_LABEL COPY...

For each COPY label of the mirror tournament (two copies of a policy, its
teacher and the strongest sample bot): the copy's mean score there divided by
ALONE_LABEL's mean score in the alone tournament (the policy against the
sample bots), with a 95% bootstrap interval (2,000 resamples of the games of
both files, seed 1).
"""
from gamesfile import read
import random
import sys


def mean(games, label):
    s = [x for g in games for n, x in zip(g["lineup"], g["score"]) if n == label]
    if not s:
        sys.exit(f"mirror_ratio.py: no seat named {label}")
    return sum(s) / len(s)


def main(mirror, alone, alone_label, copies):
    m, a = read(mirror), read(alone)
    rng = random.Random(1)
    for c in copies:
        r = mean(m, c) / mean(a, alone_label)
        bs = sorted(mean([rng.choice(m) for _ in m], c) / mean([rng.choice(a) for _ in a], alone_label) for _ in range(2000))
        print(f"{c}: {100 * r:.1f}% [{100 * bs[50]:.1f}, {100 * bs[1949]:.1f}] of {alone_label}'s {mean(a, alone_label):.2f} alone")


if __name__ == "__main__":
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
