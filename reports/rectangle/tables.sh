#!/bin/sh
# Issue 22's three Rectangle tables for a final network F and its clone C, into folder D:
#   D=results/rectangle/X F=final.safetensors C=clone.safetensors sh reports/rectangle/tables.sh
# table/ (final, clone, planner, boxer), mirror/ (two copies, planner, boxer) and alone/
# (final, planner, boxer, random): 408 games each, every seating order, seed 1. Both
# networks place with a sampled placement (temp=6:steps=1, greedy after it), as
# reports/rectangle/mirror.md recommends where copies or planner share a game.
set -e
GG=${GG:-gridgym}
T=:temp=6:steps=1
mkdir -p "$D"
$GG tournament -q --game rectangle --games 408 --all-orders --seed 1 --workers 2 --bots "final=$F$T,clone=$C$T,planner,boxer" --report $D/table > $D/table.txt
$GG tournament -q --game rectangle --games 408 --all-orders --seed 1 --workers 2 --bots "a=$F$T,b=$F$T,planner,boxer" --report $D/mirror > $D/mirror.txt
$GG tournament -q --game rectangle --games 408 --all-orders --seed 1 --workers 2 --bots "final=$F$T,planner,boxer,random" --report $D/alone > $D/alone.txt
python3 reports/pair.py $D/table/games.jsonl final clone
python3 reports/pair.py $D/table/games.jsonl final planner
python3 reports/mirror_ratio.py $D/mirror/games.jsonl $D/alone/games.jsonl final a b
