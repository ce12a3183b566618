#!/bin/sh
# Regenerates the figures of reports/search-scaling/README.md into
# results/search-scaling/HHMM/ (git-ignored), from the repository root:
#
#   sh reports/search-scaling/run.sh bench      # speed: BenchmarkSearch at -cpu 1,2, BenchmarkTreeBalance
#   sh reports/search-scaling/run.sh strength   # strength at a fixed time a move, 1 core vs 2 (~10 min idle)
#
# Each step records the load average before and after it (cat /proc/loadavg):
# the speed figures mean something only on an idle machine.
set -eu
what=${1:-bench}
out=${OUT:-results/search-scaling/$(date -u +%H%M)}
mkdir -p "$out"
load() { echo "$(date -u +%H:%M:%S) load $(cat /proc/loadavg)" | tee -a "$out/load.txt"; }
git rev-parse --short HEAD >"$out/commit.txt"
case $what in
bench)
  load
  go test ./search -run '^$' -bench 'Search$/.*/trees=(1|2|auto)$' -cpu 1,2 -benchtime 60x | tee "$out/search.txt"
  load
  go test ./search -run '^$' -bench TreeBalance -benchtime 40x | tee "$out/balance.txt"
  load
  ;;
strength)
  go build -o "$out/gridgym" ./cmd/gridgym
  # One process, GOMAXPROCS 2, one game at a time (--workers 1) and the seats
  # answer one after another, so while "one" (one tree) searches the second
  # core is idle: one core against two, each 25 ms of wall time a move.
  s='search:greedy@1000000:opp=prior:ms=25'
  load
  GOMAXPROCS=2 "$out/gridgym" tournament --game slime --bots "one=$s:trees=1,two=$s:trees=2,greedy,greedy" \
    --all-orders --games 480 --workers 1 --seed 55 -q --report "$out/one-vs-two" | tee "$out/one-vs-two.txt"
  load
  # The same search as each core count makes it (ms= without trees=: one tree
  # per core), against three greedy, in two processes with the same seed.
  for p in 1 2; do
    GOMAXPROCS=$p "$out/gridgym" tournament --game slime --bots "auto=$s,greedy,greedy,greedy" \
      --games 400 --workers 1 --seed 55 -q --report "$out/auto-gomaxprocs$p" | tee "$out/auto-gomaxprocs$p.txt"
    load
  done
  ;;
*)
  echo "usage: run.sh bench|strength" >&2
  exit 2
  ;;
esac
echo "outputs in $out"
