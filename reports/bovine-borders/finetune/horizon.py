"""How much of a Bovine Borders game the first K rounds decide.

    gridgym tournament --game bovine-borders --bots 'net=FILE,lookahead_lena,greedy,defensive_dan_heng' \
        --games 48 --all-orders --seed 11 --replays 48 --report DIR
    python3 reports/bovine-borders/finetune/horizon.py DIR [K ...]

For each step K (default 300 600 1000 3000) it reads every replay's territories
at step K (`gridgym replay --step K`), ranks the seats by them (placement points
3/2/1/0, ties share) and prints how many seats already hold their final
points and in how many games every seat does (the whole ranking is final), and
per bot its mean points at step K and the change to the end.
GRIDGYM names the binary (default: gridgym on the PATH).
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from gamesfile import read  # noqa: E402 (the shared reader, reports/gamesfile.py)

run = sys.argv[1]
steps = [int(k) for k in sys.argv[2:]] or [300, 600, 1000, 3000]
binary = os.environ.get("GRIDGYM", "gridgym")
games = read(os.path.join(run, "games.jsonl"))


def territories(index, step):
    out = subprocess.run([binary, "replay", os.path.join(run, "replays", "replay-%04d.jsonl" % index),
                          "--step", str(step), "--no-color"], capture_output=True, text=True, check=True).stdout
    line = [l for l in out.splitlines() if l.startswith("round ")][0]
    # "round 600/10000  0:81  1:97  2:out(R312)  3:101": an eliminated seat holds nothing
    return [int(v) if v.isdigit() else -1 for _, v in re.findall(r"(\d):(\S+)", line.split("  ", 1)[1])]


def points(t):
    return [3 - sum(o > x for o in t) - (sum(o == x for o in t) - 1) / 2 for x in t]


for step in steps:
    same, seats, whole = 0, 0, 0
    at, change = defaultdict(list), defaultdict(list)
    for g in games:
        p = points(territories(g["index"], step))
        whole += p == g["points"]
        for s, bot in enumerate(g["lineup"]):
            same += p[s] == g["points"][s]
            seats += 1
            at[bot].append(p[s])
            change[bot].append(g["points"][s] - p[s])
    print("step %d: %d of %d seats already hold their final points; the whole ranking in %d of %d games" %
          (step, same, seats, whole, len(games)))
    for bot in at:
        print("  %-20s points at step %d %.2f, final minus that %+.2f" %
              (bot, step, sum(at[bot]) / len(at[bot]), sum(change[bot]) / len(change[bot])))
