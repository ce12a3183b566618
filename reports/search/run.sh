#!/bin/sh
# One strength run: the search bot SPEC against three copies of BOT in GAME,
# GAMES games, seats rotated, WORKERS (default 2) games at a time (the same games for any number), written to results/search/GAME/ (git-ignored; or $DIR).
#   reports/search/run.sh GAME SPEC BOT GAMES [SEED]
# Run from the repository root after: go build -o /tmp/ggs ./cmd/gridgym (or set GGS to the binary)
set -e
game=$1 spec=$2 bot=$3 games=$4 seed=${5:-1}
dir=${DIR:-results/search/$game}
mkdir -p "$dir"
echo "${GGS:-/tmp/ggs} tournament --game $game --bots 's=$spec,a=$bot,b=$bot,c=$bot' --games $games --seed $seed --workers ${WORKERS:-2} --report $dir" > "$dir/command.txt"
/usr/bin/time -v ${GGS:-/tmp/ggs} tournament -q --game "$game" --bots "s=$spec,a=$bot,b=$bot,c=$bot" \
	--games "$games" --seed "$seed" --workers "${WORKERS:-2}" --report "$dir" > "$dir/tournament.txt" 2> "$dir/time.txt"
python3 reports/search/margin.py "$dir/games.jsonl" s > "$dir/margin.txt"
cat "$dir/margin.txt"
