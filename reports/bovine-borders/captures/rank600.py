"""How often the ranking at round R (what training scores a cut episode by) is the
game's final ranking (round 10 000, R14–R16).

    python3 reports/bovine-borders/captures/rank600.py DIR [R]

DIR is a `gridgym tournament --replays N --report DIR` folder (kinds.py's); R defaults
to 600, the max_episode_steps of the Bovine Borders presets. For every replayed game it
ranks the seats by their territory after round R (placement points as R16 gives them:
seats ranked below + ½ · ties) and compares with the game's points. GRIDGYM names the
binary (default: gridgym on the PATH).
"""
import json
import os
import subprocess
import sys
from collections import defaultdict

run = sys.argv[1]
R = int(sys.argv[2]) if len(sys.argv) > 2 else 600
binary = os.environ.get("GRIDGYM", "gridgym")
OWNER = {".": -1, "A": 0, "B": 1, "C": 2, "D": 3, "0": 0, "1": 1, "2": 2, "3": 3}


def territory(path, step):
    """Each seat's cells after step (the last frame `gridgym replay --step` prints)."""
    out = subprocess.run([binary, "replay", path, "--step", str(step), "--no-color"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    i = [k for k, line in enumerate(out) if line.startswith("step ")][-1]
    cells = [OWNER[v] for row in out[i + 1:i + 21] for v in row.split()]
    return [cells.count(s) for s in range(4)]


def points(cells):
    return [sum(o < c for o in cells) + 0.5 * (sum(o == c for o in cells) - 1) for c in cells]


same_games, n = 0, 0
per = defaultdict(list)
for line in open(os.path.join(run, "games.jsonl")):
    g = json.loads(line)
    path = os.path.join(run, "replays", "replay-%04d.jsonl" % g["index"])
    if not os.path.exists(path):
        continue
    at = points(territory(path, R))
    for s, bot in enumerate(g["lineup"]):
        per[bot].append((at[s], g["points"][s]))
    n += 1
    same_games += at == g["points"]
print("%d games: the ranking after round %d is the final one in %d" % (n, R, same_games))
print("%-28s %14s %12s %10s" % ("bot", "points at R", "final", "same"))
for bot, v in per.items():
    print("%-28s %14.2f %12.2f %6d/%d" % (bot, sum(a for a, _ in v) / len(v), sum(f for _, f in v) / len(v),
                                          sum(a == f for a, f in v), len(v)))
