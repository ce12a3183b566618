#!/bin/sh
# The learner's 2-core / 1-core scaling (issue 55), repeated: REPS runs
# (default 5) of `gridgym bench --learner` for every game's shipped network,
# games interleaved, and the median over the runs of each run's own ratio.
# Each run measures one core and then two within seconds, so a ratio is not
# moved by the machine's drift over minutes (reports/search-scaling); the
# median drops the runs another process disturbed. Run on an idle machine,
# from the repository root:
#   sh reports/learner/scaling.sh OUTDIR     (e.g. results/learner/scaling; results/ is git-ignored)
set -e
out=${1:?usage: scaling.sh OUTDIR}
mkdir -p "$out"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/gridgym" ./cmd/gridgym
echo "$(date -u +%H:%M:%S) load $(cat /proc/loadavg)" >>"$out/load.txt"
for i in $(seq "${REPS:-5}"); do
  for g in ${GAMES:-rising-tide rectangle slime nuggets bovine-borders}; do
    "$bin/gridgym" bench --learner --weights "models/$g/final.safetensors" --time "${TIME:-2s}" -q >"$out/gg-$g-$i.txt" 2>&1
  done
  echo "$(date -u +%H:%M:%S) load $(cat /proc/loadavg)" >>"$out/load.txt"
done
python3 "$(dirname "$0")/scaling_summary.py" "$out"
