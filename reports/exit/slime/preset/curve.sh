#!/bin/sh
# The learning curve against the clone and the baselines: run.sh's table (checkpoint,
# clone, greedy, simplebot; 408 games, every order, seed 1) at every fourth checkpoint of a
# training run (the checkpoints are not committed; train first):
#   gridgym train --game slime --preset exit --out runs/slime-exit
#   R=runs/slime-exit sh reports/exit/slime/preset/curve.sh > results/exit/slime/preset/curve.txt   (mkdir -p results/exit/slime/preset first)
set -e
GG=${GG:-gridgym}
R=${R:?set R to the run folder}
C=$R/checkpoints/iter-000000/weights.safetensors
T=${T:-/tmp/slime-exit-curve}
for i in 04 08 12 16 20 24; do
  $GG tournament -q --game slime --games 408 --all-orders --seed 1 --bots "ck=$R/checkpoints/iter-0000$i/weights.safetensors,clone=$C,greedy,simplebot" --report $T/iter$i > /dev/null 2>&1
  echo "iteration $i: Plackett-Luce gaps, ck minus each column (95% intervals)"
  sed -n '/^## Rating gaps/,/^The row/p' $T/iter$i/report.md | grep -E '^\| (bot|ck) '
  python3 reports/pair.py $T/iter$i/games.jsonl ck clone
  python3 reports/pair.py $T/iter$i/games.jsonl ck greedy
done
