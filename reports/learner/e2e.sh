#!/bin/sh
# Equal-length `gridgym train` runs (3 PPO iterations, no warm start, no
# evaluation; the configs in 2026-11-26/e2e/) with a given gridgym binary,
# metrics.csv copied to OUTDIR/VERSION-GAME.csv (issue 21):
#   sh reports/learner/e2e.sh GRIDGYM VERSION OUTDIR   (e.g. results/learner/e2e; git-ignored)
# then python3 reports/learner/e2e_summary.py OUTDIR VERSION...
# "before" was built from b9f98a5, the commit before the first learner work.
set -e
bin=${1:?usage: e2e.sh GRIDGYM VERSION OUTDIR}; v=${2:?}; out=${3:?}
cfg=$(cd "$(dirname "$0")" && pwd)/2026-11-26/e2e
mkdir -p "$out"
tmp=$(mktemp -d)
for g in rising-tide rectangle slime nuggets bovine-borders; do
  "$bin" train --game "$g" --config "$cfg/e2e-$g.yaml" --out "$tmp/$v-$g" > /dev/null 2>&1
  cp "$tmp/$v-$g/metrics.csv" "$out/$v-$g.csv"
done
rm -rf "$tmp"
