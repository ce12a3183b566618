#!/bin/sh
# Issue 22's tables for the Rectangle exit preset (reports/rectangle/exit/README.md).
#   RUN=runs/rect-exit sh reports/rectangle/exit/run.sh
# after: gridgym train --game rectangle --preset exit --out $RUN
# Both networks place with a sampled placement (temp=6:steps=1, greedy after it), as
# reports/rectangle/mirror.md recommends where copies or planner share a game.
set -e
GG=${GG:-gridgym}
RUN=${RUN:-runs/rect-exit}
D=reports/rectangle/exit
F=$RUN/checkpoints/iter-000060/weights.safetensors
C=$RUN/checkpoints/iter-000000/weights.safetensors
T=:temp=6:steps=1
$GG tournament -q --game rectangle --games 408 --all-orders --seed 1 --workers 2 --bots "final=$F$T,clone=$C$T,planner,boxer" --report $D/table > $D/table.txt
$GG tournament -q --game rectangle --games 408 --all-orders --seed 1 --workers 2 --bots "a=$F$T,b=$F$T,planner,boxer" --report $D/mirror > $D/mirror.txt
$GG tournament -q --game rectangle --games 408 --all-orders --seed 1 --workers 2 --bots "final=$F$T,planner,boxer,random" --report $D/alone > $D/alone.txt
python3 reports/pair.py $D/table/games.jsonl final clone
python3 reports/pair.py $D/table/games.jsonl final planner
python3 reports/mirror_ratio.py $D/mirror/games.jsonl $D/alone/games.jsonl final a b
