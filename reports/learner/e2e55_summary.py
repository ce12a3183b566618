"""Summarise reports/learner/e2e55.sh's runs (issue 55): end-to-end env
steps/s (env_steps over elapsed_s of metrics.csv's last row), the process's
CPU seconds (user + system, /usr/bin/time) also per 1000 env steps (what
the load does not change), and the 2-core / 1-core ratio.

usage: python3 e2e55_summary.py DIR
"""
import csv, os, sys

d = sys.argv[1]
print("| game | variant | cores | load before | env steps | elapsed s | env steps/s | act s | learn s | CPU s | CPU ms / 1000 env steps | 2c / 1c |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for g in ["rising-tide", "rectangle", "slime", "nuggets", "bovine-borders"]:
    for v in ["before", "actors", "overlap"]:
        rate = {}
        for p in [1, 2]:
            f = f"{d}/{v}-{g}-p{p}"
            if not os.path.exists(f + ".csv"):
                continue
            rows = list(csv.DictReader(open(f + ".csv")))
            env, el = float(rows[-1]["env_steps"]), float(rows[-1]["elapsed_s"])
            act = sum(float(r["act_s"]) for r in rows)
            learn = sum(float(r["learn_s"]) for r in rows)
            wall, user, sys_ = (float(x) for x in open(f + ".time").read().split()[-3:])
            load = open(f + ".load").read().split()[0] if os.path.exists(f + ".load") else "?"
            rate[p] = env / el
            ratio = f"{rate[2] / rate[1]:.2f}" if p == 2 and 1 in rate else ""
            print(f"| {g} | {v} | {p} | {load} | {env:.0f} | {el:.1f} | {rate[p]:.0f} | {act:.1f} | {learn:.1f} | {user + sys_:.1f} | {1e6 * (user + sys_) / env:.0f} | {ratio} |")
