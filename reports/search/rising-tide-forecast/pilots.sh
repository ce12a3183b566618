#!/bin/sh
# name spec
# Raw outputs: results/search/rising-tide-forecast/NAME (git-ignored); run from the repository root.
run() { o=results/search/rising-tide-forecast/$1; mkdir -p results/search/rising-tide-forecast; set -- "$o" "$2"; /tmp/ggs tournament -q --game rising-tide --bots "s=$2,wall_warsaw,trench_tunis,nearby_new_orleans" --games 40 --seed 1 --workers 1 --report $1 > $1.txt 2>&1; echo "$1 $2 $(python3 reports/pair.py $1/games.jsonl s wall_warsaw)"; grep -E "^ +[0-9] " $1.txt; }
run alt 'search:wall_warsaw@64:trees=1:depth=8:opp=prior:leaf=forecast:alt=trench_tunis'
run dec 'search:wall_warsaw@64:trees=1:depth=8:leaf=forecast'
run deep 'search:wall_warsaw@128:trees=1:depth=16:opp=prior:leaf=forecast'
run base 'search:wall_warsaw@64:trees=1:depth=8:opp=prior'
