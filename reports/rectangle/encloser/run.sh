#!/bin/sh
# The encloser's tables (reports/rectangle/encloser/README.md). Run from the
# repository root after: go build -o /tmp/gge ./cmd/gridgym (or set GG).
# Each table: gridgym tournament --report DIR (results/rectangle/encloser/TABLE, git-ignored):
# games.jsonl, report.md, plots, command.txt, tournament.txt.
set -e
gg=${GG:-/tmp/gge}
d=${D:-results/rectangle/encloser}
N=reports/rectangle/policy.safetensors
t() { # t DIR GAMES BOTS [extra flags]
	dir=$d/$1 games=$2 bots=$3
	shift 3
	mkdir -p "$dir"
	echo "gridgym tournament -q --game rectangle --bots $bots --games $games --seed 1 --workers ${WORKERS:-1} $* --report $dir" > "$dir/command.txt"
	$gg tournament -q --game rectangle --bots "$bots" --games "$games" --seed 1 --workers "${WORKERS:-1}" "$@" --report "$dir" > "$dir/tournament.txt"
	tail -6 "$dir/tournament.txt"
}
t table 408 encloser,planner,boxer,random --all-orders
t vs-boxers 400 encloser,b1=boxer,b2=boxer,b3=boxer
t planner-vs-boxers 400 planner,b1=boxer,b2=boxer,b3=boxer
t vs-planners 400 encloser,p1=planner,p2=planner,p3=planner
t vs-boxer-random-pass 400 encloser,boxer,random,pass
t mirror 408 a=encloser,b=encloser,planner,boxer --all-orders
t alone 408 encloser,boxer,random,pass --all-orders
t vs-network 408 encloser,net=$N:temp=6:steps=1,planner,boxer --all-orders
