#!/bin/sh
# The learner against the PyTorch anchor, every game's shipped network, in the
# same minutes (issues 21, 55). Run on an idle machine from the repository root:
#   sh reports/learner/bench.sh OUTDIR     (e.g. results/learner/bench; results/ is git-ignored)
# Needs Debian's python3-torch (/usr/bin/python3) and ../shared/anchors/torch_learner.py.
set -e
out=${1:?usage: bench.sh OUTDIR}
mkdir -p "$out"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/gridgym" ./cmd/gridgym
for g in rising-tide rectangle slime nuggets bovine-borders; do
  w=models/$g/final.safetensors   # the shipped network
  /usr/bin/python3 ../shared/anchors/torch_learner.py "$w" > "$out/torch-$g.txt" 2>&1
  "$bin/gridgym" bench --learner --weights "$w" --torch "$out/torch-$g.txt" --time 3s -q > "$out/gg-$g.txt" 2>&1
  cat "$out/gg-$g.txt"
done
python3 "$(dirname "$0")/bench_summary.py" "$out"
