#!/bin/sh
# Issue 22's tables for the Rectangle rings preset (reports/rectangle/rings/README.md).
#   sh reports/rectangle/rings/run.sh            # the committed final.safetensors and clone.safetensors
# or, after gridgym train --game rectangle --preset rings --out runs/rect-rings:
#   F=runs/rect-rings/checkpoints/iter-000060/weights.safetensors \
#   C=runs/rect-rings/checkpoints/iter-000000/weights.safetensors sh reports/rectangle/rings/run.sh
# The networks were trained with ring_memory=true, which the game state carries: the
# tournaments adopt it (a note says so). Both networks place with a sampled placement
# (temp=6:steps=1, greedy after it), as reports/rectangle/mirror.md recommends.
set -e
GG=${GG:-gridgym}
D=reports/rectangle/rings
F=${F:-$D/final.safetensors}
C=${C:-$D/clone.safetensors}
T=:temp=6:steps=1
$GG tournament -q --game rectangle --games 408 --all-orders --seed 1 --workers 2 --bots "final=$F$T,clone=$C$T,planner,boxer" --report $D/table > $D/table.txt
$GG tournament -q --game rectangle --games 408 --all-orders --seed 1 --workers 2 --bots "a=$F$T,b=$F$T,planner,boxer" --report $D/mirror > $D/mirror.txt
$GG tournament -q --game rectangle --games 408 --all-orders --seed 1 --workers 2 --bots "final=$F$T,planner,boxer,random" --report $D/alone > $D/alone.txt
python3 reports/pair.py $D/table/games.jsonl final clone
python3 reports/pair.py $D/table/games.jsonl final planner
python3 reports/mirror_ratio.py $D/mirror/games.jsonl $D/alone/games.jsonl final a b
