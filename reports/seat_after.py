#!/usr/bin/env python3
"""Each bot's score by its seat's place after one named bot's seat, from a
`gridgym tournament --report DIR` games.jsonl (standard library only).

    python3 reports/seat_after.py DIR/games.jsonl BOT [FULL]

For every game that seats BOT once, every other bot's seat is k = 1, 2, …
places after BOT's (seat order, wrapping). Prints, per bot and k, the games,
the mean score and the share of games in which it scored below FULL (in
Rising Tide, FULL = 800: drowned). In Rising Tide an attacker's choice of
victim often depends on seat order alone (sapper_seoul digs at the seat
after its own on the start board's tie), and this table shows it.
Tournament reports (`--report`, `gridgym rate --report`) give the means
alone, for every pair of bots, in their "Score by seating" table; this
script adds the count below FULL.
"""
import collections
from gamesfile import read
import sys


def main(path, bot, full):
    games = collections.Counter()
    below = collections.Counter()
    total = collections.defaultdict(float)
    for g in read(path):
        seats = g["lineup"]
        if seats.count(bot) != 1:
            continue
        a = seats.index(bot)
        for i, (name, s) in enumerate(zip(seats, g["score"])):
            if i == a:
                continue
            key = (name, (i - a) % len(seats))
            games[key] += 1
            total[key] += s
            below[key] += s < full
    if not games:
        sys.exit(f"seat_after.py: no game seats {bot} exactly once in {path}")
    print(f"| bot | places after {bot} | games | mean score | below {full:g} |")
    print("|---|---|---|---|---|")
    for key in sorted(games):
        n = games[key]
        print(f"| {key[0]} | {key[1]} | {n} | {total[key] / n:.1f} | {below[key]} ({100 * below[key] / n:.0f}%) |")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) == 4 else 800)
