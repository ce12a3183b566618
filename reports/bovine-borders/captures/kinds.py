"""What each Bovine Borders bot spends its opening moves on.

    gridgym tournament --game bovine-borders --bots 'net=FILE,lookahead_lena,greedy,defensive_dan_heng' \
        --games 48 --all-orders --seed 11 --replays 48 --report DIR
    python3 reports/bovine-borders/captures/kinds.py DIR [K]

For every replay of DIR it plays the first K rounds again (`gridgym replay`,
default K = 200) and sorts each seat's answer by the board at the start of its
round (R6): a capture (the destination holds a rival's cow), a place (the
destination is empty: a new cow, or a disconnected cow moved, R11) or a pass
(no move, or one that fails R7). Per bot it prints the share of each, its
territory at round K, and its mean placement points in the whole game; per pair
of bots, the captures each makes of the other's cows. GRIDGYM names the binary
(default: gridgym on the PATH).
"""
import json
import os
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from gamesfile import read  # noqa: E402 (the shared reader, reports/gamesfile.py)

run = sys.argv[1]
K = int(sys.argv[2]) if len(sys.argv) > 2 else 200
binary = os.environ.get("GRIDGYM", "gridgym")
games = read(os.path.join(run, "games.jsonl"))
OWNER = {".": -1, "A": 0, "B": 1, "C": 2, "D": 3, "0": 0, "1": 1, "2": 2, "3": 3}


def frames(path):
    """The boards after steps 0..K, each a list of 400 owners (−1 empty)."""
    out = subprocess.run([binary, "replay", path, "--no-color", "--delay", "0"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    boards = []
    for i, line in enumerate(out):
        if line.startswith("step "):
            boards.append([OWNER[v] for row in out[i + 1:i + 21] for v in row.split()])
            if len(boards) > K:
                break
    return boards


kinds = defaultdict(lambda: defaultdict(int))
against = defaultdict(int)
territory, points = defaultdict(list), defaultdict(list)
for g in games:
    path = os.path.join(run, "replays", "replay-%04d.jsonl" % g["index"])
    if not os.path.exists(path):
        continue
    boards = frames(path)
    steps = [json.loads(line) for line in open(path)][1:len(boards)]
    lineup = g["lineup"]
    for n, rec in enumerate(steps):
        board = boards[n]
        for s, m in enumerate(rec["moves"]):
            if board.count(s) == 0:
                continue  # eliminated
            bot = lineup[s]
            if m[0] != 1 or len(m) < 4 or board[m[2]] != s or board[m[3]] == s:
                kinds[bot]["pass"] += 1
            elif board[m[3]] == -1:
                kinds[bot]["place"] += 1
            else:
                kinds[bot]["capture"] += 1
                against[(bot, lineup[board[m[3]]])] += 1
    last = boards[min(K, len(boards) - 1)]
    for s, bot in enumerate(lineup):
        territory[bot].append(last.count(s))
        points[bot].append(g["points"][s])

print("rounds 1-%d, %d games" % (K, len(territory[next(iter(territory))])))
print("%-40s %8s %8s %8s %12s %8s" % ("bot", "place", "capture", "pass", "cells at K", "points"))
for bot in sorted(kinds, key=lambda b: -sum(points[b]) / len(points[b])):
    k = kinds[bot]
    n = sum(k.values())
    print("%-40s %8.3f %8.3f %8.3f %12.1f %8.2f" % (bot, k["place"] / n, k["capture"] / n, k["pass"] / n,
          sum(territory[bot]) / len(territory[bot]), sum(points[bot]) / len(points[bot])))
print("captures a game, maker → victim:")
ngames = len(territory[next(iter(territory))])
for (a, b), c in sorted(against.items(), key=lambda x: -x[1]):
    print("  %-28s → %-28s %6.1f" % (a, b, c / ngames))
