#!/usr/bin/env python3
"""Who reaches a score's cap, and who scores above a bot that does.

    python3 reports/cap.py GAMES.jsonl BOT [CAP]

For every bot of a tournament's games.jsonl (labels as the table names
them), over the finished games that seat BOT: its mean score, the share of
its seats that scored CAP (default 800: Rising Tide's R16, alive at the
end), and the share of its seats that scored strictly above BOT. A label
seated more than once in a game counts each seat (BOT held twice: against
its mean). Where BOT scores the cap in every game, no bot at the table can
be above it by its own score alone (reports/rising-tide/siege/README.md,
"a table at the cap"). Standard library only.
"""
from gamesfile import read
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    path, ref = sys.argv[1], sys.argv[2]
    try:
        cap = float(sys.argv[3]) if len(sys.argv) == 4 else 800.0
    except ValueError:
        sys.exit(f"CAP {sys.argv[3]!r}: want a number")
    rows = [r for r in read(path) if ref in r.get("lineup", []) and r.get("score")]
    if not rows:
        sys.exit(f"{path}: no finished game seats {ref}")
    seen = {}
    for r in rows:
        lineup, score = r["lineup"], r["score"]
        own = [s for b, s in zip(lineup, score) if b == ref]
        theirs = sum(own) / len(own)
        for b, s in zip(lineup, score):
            st = seen.setdefault(b, [0, 0.0, 0, 0])
            st[0] += 1
            st[1] += s
            st[2] += s >= cap
            st[3] += s > theirs
    for b in sorted(seen):
        n, total, at_cap, above = seen[b]
        print(f"{b:18s} seats {n:4d}  mean {total / n:7.1f}  at the cap {at_cap / n:6.1%}  above {ref} in {above / n:6.1%}")


if __name__ == "__main__":
    main()
