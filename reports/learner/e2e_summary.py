"""Summarise equal-length `gridgym train` runs (issue 21): env steps/s over the
acting time and learner samples/s over the learning time, from metrics.csv.

usage: python3 e2e_summary.py DIR VERSION...   (reads DIR/VERSION-GAME.csv)
"""
import csv, os, sys

d, versions = sys.argv[1], sys.argv[2:]
print("| game | version | iterations | env steps | act s | env steps/s | samples | learn s | learner samples/s | act / learn |")
print("|---|---|---|---|---|---|---|---|---|---|")
for g in ["rising-tide", "rectangle", "slime", "nuggets", "bovine-borders"]:
    for v in versions:
        p = f"{d}/{v}-{g}.csv"
        if not os.path.exists(p):
            continue
        rows = list(csv.DictReader(open(p)))
        env = float(rows[-1]["env_steps"])
        act = sum(float(r["act_s"]) for r in rows)
        learn = sum(float(r["learn_s"]) for r in rows)
        smp = sum(float(r["samples"]) for r in rows)
        print(f"| {g} | {v} | {len(rows)} | {env:.0f} | {act:.1f} | {env/act:.0f} | {smp:.0f} | {learn:.1f} | {smp/learn:.0f} | {act/(act+learn):.0%} / {learn/(act+learn):.0%} |")
