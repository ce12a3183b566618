#!/bin/sh
# Raw outputs: results/search/rising-tide-all-orders/NAME (git-ignored); run from the repository root.
run() { o=results/search/rising-tide-all-orders/$1; mkdir -p results/search/rising-tide-all-orders; set -- "$o" "$2"; /tmp/ggs tournament -q --game rising-tide --bots "s=$2,wall_warsaw,trench_tunis,nearby_new_orleans" --games 216 --all-orders --seed 1 --workers 1 --report $1 > $1.txt 2>&1; echo "$1 $2 $(python3 reports/pair.py $1/games.jsonl s wall_warsaw)"; grep -E "^ +[0-9] " $1.txt; }
run ao-base 'search:wall_warsaw@16:trees=1:depth=4:opp=prior'
run ao-fc 'search:wall_warsaw@64:trees=1:depth=8:opp=prior:leaf=forecast'
run ao-ww 'wall_warsaw'
