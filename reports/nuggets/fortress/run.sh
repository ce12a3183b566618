#!/bin/sh
# The clone (C) is not shipped: make it first with
#   gridgym train --game nuggets --preset fortress --clone-only --out runs/nuggets-clone
# Issue 22's tables for the Nuggets fortress preset (reports/nuggets/fortress/README.md):
#   sh reports/nuggets/fortress/run.sh            # the committed final.safetensors and clone.safetensors
# or, after gridgym train --game nuggets --preset fortress --out runs/nug-fortress:
#   F=runs/nug-fortress/checkpoints/iter-000100/weights.safetensors \
#   C=runs/nug-fortress/checkpoints/iter-000000/weights.safetensors sh reports/nuggets/fortress/run.sh
# Raw outputs go to results/nuggets/fortress/ (git-ignored; or D). 408 games each, every seating order, seed 1 (or SEED); the networks play greedily.
#   table/     final, clone, greedy_tuned, greedy           (PL over the clone; margin over greedy_tuned)
#   mirror/    two copies of final, fortress, greedy_tuned  (its teacher and the strongest bot)
#   alone/     final, fortress, greedy_tuned, random        (the mirror's denominator)
#   strongest/ final, fortress, greedy_tuned, greedy        (against the bot it learnt from)
set -e
GG=${GG:-gridgym}
D=${D:-results/nuggets/fortress}
SEED=${SEED:-1}
mkdir -p "$D"
# the fortress preset's network, shipped until 2026-11-30 (models/nuggets now holds the harvest preset's)
[ -n "${F:-}" ] || { F=$D/fortress-net.safetensors; [ -s "$F" ] || git show cee5271:models/nuggets/final.safetensors >"$F"; }
C=${C:-runs/nuggets-clone/checkpoints/iter-000000/weights.safetensors}
mkdir -p "$D"
run() { # folder, bots
	$GG tournament -q --game nuggets --games 408 --all-orders --seed $SEED --workers 2 --bots "$2" --report "$D/$1" > "$D/$1.txt"
}
run table "final=$F,clone=$C,greedy_tuned,greedy"
run mirror "a=$F,b=$F,fortress,greedy_tuned"
run alone "final=$F,fortress,greedy_tuned,random"
run strongest "final=$F,fortress,greedy_tuned,greedy"
python3 reports/pair.py $D/table/games.jsonl final clone
python3 reports/pair.py $D/table/games.jsonl final greedy_tuned
python3 reports/mirror_ratio.py $D/mirror/games.jsonl $D/alone/games.jsonl final a b
python3 reports/pair.py $D/strongest/games.jsonl final fortress
