#!/bin/sh
# Issue 55: equal-length `gridgym train` runs (6 PPO iterations, no warm
# start, no evaluation; the configs in 2026-11-29/e2e/) at GOMAXPROCS 1 and 2,
# each game's runs back to back, the load average noted before each:
#   [GAMES="rising-tide slime"] sh reports/learner/e2e55.sh OLD NEW OUTDIR   (OUTDIR e.g. results/learner/e2e55; git-ignored)
# OLD plays e2e-GAME.yaml ("before": envs games in one batch, act then learn);
# NEW plays it with envs_per_worker ("actors") and with
# ppo.overlap on top ("overlap"). metrics.csv → OUTDIR/VARIANT-GAME-pP.csv,
# /usr/bin/time's wall, user and system seconds → OUTDIR/VARIANT-GAME-pP.time.
# Then: python3 reports/learner/e2e55_summary.py OUTDIR
set -e
old=${1:?usage: e2e55.sh OLD NEW OUTDIR}; new=${2:?}; out=${3:?}
cfg=$(cd "$(dirname "$0")" && pwd)/2026-11-29/e2e
mkdir -p "$out"
tmp=$(mktemp -d)
for g in ${GAMES:-rising-tide slime}; do
  for p in 1 2; do
    for v in before overlap actors; do
      bin=$new; c=$cfg/e2e-$g-$v.yaml
      [ $v = before ] && bin=$old && c=$cfg/e2e-$g.yaml
      cut -d' ' -f1-3 /proc/loadavg > "$out/$v-$g-p$p.load"
      GOMAXPROCS=$p /usr/bin/time -f '%e %U %S' -o "$out/$v-$g-p$p.time" "$bin" train --game "$g" --config "$c" --out "$tmp/$v-$g-$p" > /dev/null 2>&1
      cp "$tmp/$v-$g-$p/metrics.csv" "$out/$v-$g-p$p.csv"
    done
  done
done
rm -rf "$tmp"
