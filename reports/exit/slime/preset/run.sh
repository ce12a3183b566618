#!/bin/sh
# The clone (C) is not shipped: make it first with
#   gridgym train --game slime --preset exit --clone-only --out runs/slime-clone
# Issue 22's four Slime points for the shipped exit preset (reports/exit/slime/preset/README.md):
#   sh reports/exit/slime/preset/run.sh          # the exit network (shipped as models/slime/final.safetensors until 2026-11-30,
#                                                # taken from git: b298b82); raw outputs to results/exit/slime/preset/ (git-ignored)
# or, after `gridgym train --game slime --preset exit --out runs/slime-exit` (the same weights:
# the training is deterministic),
#   R=runs/slime-exit sh reports/exit/slime/preset/run.sh
# Tables in every seating order (Slime is sequential: a bot's neighbours in the turn
# order matter), 408 games each; the mirror and alone tables for seeds 1-3.
set -e
GG=${GG:-gridgym}
D=${D:-results/exit/slime/preset}
mkdir -p "$D"
if [ -n "$R" ]; then
  F=${F:-$R/checkpoints/iter-000024/weights.safetensors}
  C=${C:-$R/checkpoints/iter-000000/weights.safetensors}
fi
if [ -z "${F:-}" ]; then
  F=$D/exit.safetensors # models/slime/final.safetensors is since 2026-11-30 the mean of three fine-tuned stages of it
  [ -s "$F" ] || git show b298b82:models/slime/final.safetensors >"$F"
fi
C=${C:-runs/slime-clone/checkpoints/iter-000000/weights.safetensors}
$GG tournament -q --game slime --games 408 --all-orders --seed 1 --bots "final=$F,clone=$C,greedy,simplebot" --report $D/table > $D/table.txt
python3 reports/pair.py $D/table/games.jsonl final clone
python3 reports/pair.py $D/table/games.jsonl final greedy
for s in 1 2 3; do
  $GG tournament -q --game slime --games 408 --all-orders --seed $s --bots "a=$F,b=$F,greedy,simplebot" --report $D/mirror-s$s > $D/mirror-s$s.txt
  $GG tournament -q --game slime --games 408 --all-orders --seed $s --bots "final=$F,s1=simplebot,s2=simplebot,s3=simplebot" --report $D/alone-s$s > $D/alone-s$s.txt
done
cat $D/mirror-s1/games.jsonl $D/mirror-s2/games.jsonl $D/mirror-s3/games.jsonl > /tmp/mirror-seeds-1-3.jsonl
cat $D/alone-s1/games.jsonl $D/alone-s2/games.jsonl $D/alone-s3/games.jsonl > /tmp/alone-seeds-1-3.jsonl
python3 reports/mirror_ratio.py /tmp/mirror-seeds-1-3.jsonl /tmp/alone-seeds-1-3.jsonl final a b
# The exported executable against three greedy, one game at a time, and the same
# 100 games with the network in process.
X=${X:-/tmp/slime-exit-export}
$GG export --checkpoint $F --out $X > /dev/null
$GG tournament -q --game slime --games 100 --seed 1 --workers 1 --bots "x=cmd:$X/slime-bot,greedy,greedy,greedy" --report $D/hosted > $D/hosted.txt
$GG tournament -q --game slime --games 100 --seed 1 --workers 1 --bots "x=$F,greedy,greedy,greedy" --report $D/inproc > $D/inproc.txt
md5sum $D/hosted/games.jsonl $D/inproc/games.jsonl
