#!/bin/sh
# Regenerates the figures of reports/search-scaling/README.md into
# results/search-scaling/HHMM/ (git-ignored), from the repository root:
#
#   sh reports/search-scaling/run.sh bench      # speed: BenchmarkSearch at -cpu 1,2, BenchmarkTreeBalance
#   sh reports/search-scaling/run.sh strength   # strength at a fixed time a move (MS, default 25 ms), 1 core vs 2 (~10 min idle)
#   sh reports/search-scaling/run.sh paired     # speed: -cpu 1 and -cpu 2 alternated, REPS pairs (default 7), median ratio
#                                               # of each VARIANTS benchmark (default: trees=2 trees=auto lanes=4)
#   sh reports/search-scaling/run.sh ceiling    # what the machine gives two cores: one trees=1 search alone on one
#                                               # core, then two of them at once (one a core), REPS times (default 5);
#                                               # the median of (sum of the two)/(alone) is the most any 2-core search gets
#   sh reports/search-scaling/run.sh lanes      # strength at a fixed time a move (MS, default 5 ms): one tree on 1 core
#                                               # vs one tree with lanes=LANES (default 8) on 2 cores (~2 min idle)
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
  s="search:greedy@1000000:opp=prior:ms=${MS:-25}"
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
paired)
  # The machine's speed drifts by 20-40% over minutes (see the README), so a
  # ratio of two figures taken a minute apart carries that drift. Here each
  # -cpu 1 run is followed at once by a -cpu 2 run of the same benchmark,
  # REPS times, and the ratio of each pair is kept: its median is the figure.
  go test -c -o "$out/search.test" ./search
  load
  for g in ${GAMES:-rising-tide rectangle slime bovine-borders nuggets}; do
    for t in ${VARIANTS:-trees=2 trees=auto lanes=4}; do
      for i in $(seq "${REPS:-7}"); do
        for c in 1 2; do
          "$out/search.test" -test.run '^$' -test.bench "Search\$/$g/$t\$" -test.cpu $c -test.benchtime ${BENCHTIME:-60x} |
            awk -v g=$g -v t=$t -v c=$c -v i=$i '/sims\/s/ { for (k = 1; k < NF; k++) if ($(k+1) == "sims/s") print g, t, i, c, $k }'
        done
      done
    done
  done | tee "$out/paired.txt"
  load
  python3 - "$out/paired.txt" <<'PY' | tee "$out/paired-summary.txt"
import statistics, sys
v, keys = {}, []
for line in open(sys.argv[1]):
    g, t, i, c, x = line.split()
    k = (g, t)
    if k not in keys:
        keys.append(k)
    v.setdefault(k, {}).setdefault(i, {})[c] = float(x)
for k in keys:
    pairs = [p["2"] / p["1"] for p in v[k].values() if "1" in p and "2" in p]
    one = statistics.median(p["1"] for p in v[k].values() if "1" in p)
    print("%s %s: %d pairs, median -cpu 1 %.0f sims/s, median ratio 2/1 %.2f (min %.2f, max %.2f)"
          % (k[0], k[1], len(pairs), one, statistics.median(pairs), min(pairs), max(pairs)))
PY
  ;;
ceiling)
  # Two independent single-core searches share nothing but the machine
  # (caches, memory bandwidth, the host's clocks): their summed rate over one
  # alone is the ceiling of any 2-core speed-up of the same search.
  go test -c -o "$out/search.test" ./search
  bench() {
    "$out/search.test" -test.run '^$' -test.bench "Search\$/$1/trees=1\$" -test.cpu 1 -test.benchtime ${BENCHTIME:-60x} |
      awk '/sims\/s/ { for (k = 1; k < NF; k++) if ($(k+1) == "sims/s") print $k }'
  }
  load
  for g in ${GAMES:-rising-tide rectangle slime bovine-borders nuggets}; do
    for i in $(seq "${REPS:-5}"); do
      alone=$(bench $g)
      bench $g >"$out/a.txt" &
      bench $g >"$out/b.txt"
      wait
      echo "$g $i $alone $(cat "$out/a.txt") $(cat "$out/b.txt")"
    done
  done | tee "$out/ceiling.txt"
  load
  python3 - "$out/ceiling.txt" <<'PY' | tee "$out/ceiling-summary.txt"
import statistics, sys
v = {}
for line in open(sys.argv[1]):
    g, i, alone, a, b = line.split()
    v.setdefault(g, []).append((float(a) + float(b)) / float(alone))
for g, r in v.items():
    print("%s: %d trials, ceiling (two single-core searches at once / one alone) median %.2f (min %.2f, max %.2f)"
          % (g, len(r), statistics.median(r), min(r), max(r)))
PY
  ;;
lanes)
  go build -o "$out/gridgym" ./cmd/gridgym
  # As strength's first table, but the second core serves one tree: lanes=L
  # runs each tree's simulations L at a time (virtual loss) on both cores,
  # so the tree grows deeper in the same time instead of adding a second
  # shallow tree.
  s="search:greedy@1000000:opp=prior:ms=${MS:-5}:trees=1"
  load
  GOMAXPROCS=2 "$out/gridgym" tournament --game slime --bots "one=$s,lanes=$s:lanes=${LANES:-8},greedy,greedy" \
    --all-orders --games 480 --workers 1 --seed ${SEED:-55} -q --report "$out/one-vs-lanes" | tee "$out/one-vs-lanes.txt"
  python3 reports/pair.py "$out/one-vs-lanes/games.jsonl" lanes one | tee -a "$out/one-vs-lanes.txt"
  load
  ;;
*)
  echo "usage: run.sh bench|strength|paired|ceiling|lanes" >&2
  exit 2
  ;;
esac
echo "outputs in $out"
