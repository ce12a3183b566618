#!/bin/sh
# The shipped networks against the held-out bots beside each game's field, the company the
# official runs of issue 54 seated (reports/heldout-forms/README.md):
#   sh reports/heldout-forms/run.sh [OUT]      # about 25 minutes on a 2-core machine
# Each table: {network, held-out bot, the game's field}, every seating order, seed 1.
# (gridgym heldout without --with plays the reference company too.)
set -e
OUT=${OUT:-${1:-results/heldout-forms}}
GG=${GG:-gridgym}
for g in rising-tide bovine-borders slime rectangle nuggets; do
  $GG heldout --game $g --bot net=models/$g/final.safetensors --with field --report $OUT/$g
done
