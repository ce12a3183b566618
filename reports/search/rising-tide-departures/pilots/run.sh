#!/bin/sh
# Raw outputs: results/search/rising-tide-departures/pilots/NAME (git-ignored); run from the repository root.
run() { o=results/search/rising-tide-departures/pilots/$1; mkdir -p results/search/rising-tide-departures/pilots; set -- "$o" "$2"; /tmp/gg tournament -q --game rising-tide --bots "s=$2,wall_warsaw,trench_tunis,nearby_new_orleans" --games 48 --all-orders --seed 1 --workers 2 --report $1 > $1.txt 2>&1; echo "$1 $2 $(python3 reports/pair.py $1/games.jsonl s wall_warsaw) $(grep -h 'search s' $1.txt | head -1)"; }
run fc-alt 'search:wall_warsaw@64:trees=1:depth=8:opp=prior:leaf=forecast:alt=trench_tunis+border_barcelona+nearby_new_orleans:extra=1'
run fc-alt-p1 'search:wall_warsaw@64:trees=1:depth=8:opp=prior:leaf=forecast:alt=trench_tunis+border_barcelona+nearby_new_orleans:extra=1:prior=0.1'
run fc-p0 'search:wall_warsaw@64:trees=1:depth=16:opp=prior:leaf=forecast:prior=0:extra=4'
run fc-alt-m 'search:wall_warsaw@128:trees=1:depth=8:opp=prior:leaf=forecast:alt=trench_tunis+border_barcelona+nearby_new_orleans:extra=1:prior=0:margin=0.02'
