#!/usr/bin/env python3
"""Who reaches a score's cap, and who scores above a bot that does.

    python3 reports/cap.py GAMES.jsonl BOT [CAP]

For every bot of a tournament's games.jsonl (labels as the table names
them): its mean score, the share of its games in which it scored CAP
(default 800: Rising Tide's R16, alive at the end), and the share of its
games in which it scored strictly above BOT. Where BOT scores the cap in
every game, no bot at the table can be above it by its own score alone
(reports/rising-tide/siege/README.md, "a table at the cap").
"""
import json
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    path, ref = sys.argv[1], sys.argv[2]
    cap = float(sys.argv[3]) if len(sys.argv) == 4 else 800.0
    rows = [json.loads(line) for line in open(path) if line.strip()]
    rows = [r for r in rows if ref in r["lineup"]]
    if not rows:
        sys.exit(f"{path}: no game seats {ref}")
    names = sorted({b for r in rows for b in r["lineup"]})
    for b in names:
        games = [r for r in rows if b in r["lineup"]]
        sc = [r["score"][r["lineup"].index(b)] for r in games]
        at_cap = sum(s >= cap for s in sc)
        above = sum(r["score"][r["lineup"].index(b)] > r["score"][r["lineup"].index(ref)] for r in games)
        n = len(games)
        print(f"{b:18s} games {n:4d}  mean {sum(sc) / n:7.1f}  at the cap {at_cap / n:6.1%}  above {ref} in {above / n:6.1%}")


if __name__ == "__main__":
    main()
