#!/bin/sh
# Session 89: Bovine Borders fine-tuned on games cut every 600 rounds and played on
# (train.Config.ContinueCut; README.md):
#   sh reports/bovine-borders/continue/run.sh train [CONFIG RUN]  # H: ft-cont.yaml from the shipped network (~8 minutes on 2 cores)
#   sh reports/bovine-borders/continue/run.sh screen RUN IT...    # checkpoints by the project's bots alone
#   sh reports/bovine-borders/continue/run.sh rosa RUN IT...      # checkpoints against reach_rosa in two companies
#   sh reports/bovine-borders/continue/run.sh tables NET          # the held-out tables (../table/run.sh tables)
# GG is the gridgym binary (default: gridgym); raw outputs go to the git-ignored
# results/bovine-borders/continue/.
set -eu
OUT=${OUT:-results/bovine-borders/continue}
GG=${GG:-gridgym}
D=reports/bovine-borders/continue
mkdir -p "$OUT"
# t NAME BOTS GAMES SEED: a table in every seating order
t() { $GG tournament -q --game bovine-borders --bots "$2" --games "$3" --all-orders --seed "$4" --report "$OUT/$1" > /dev/null; }
case "${1:-}" in
train)
	c=${2:-ft-cont.yaml}
	case $c in */*) ;; *) c=$D/$c ;; esac # a config named with a slash is a path from the repository root
	$GG train --config "$c" --init models/bovine-borders/final.safetensors --out "$OUT/${3:-h}" -q
	;;
screen | rosa)
	# screen: each checkpoint's own mean points in two companies of project bots (96
	# games each, seed 2) and its margin over centre_cleo; ROSA=1 adds {X, reach_rosa,
	# greedy, defensive_dan_heng} and X's margin over reach_rosa.
	# rosa: each checkpoint against the project's one-step simulator reach_rosa beside the
	# sample bots (greedy, defensive_dan_heng) and beside centre_cleo, voronoi_vera: the
	# two companies in which the held-out lookahead_lena is measured, with a project bot
	# in her seat (96 games each, seed 2). `shipped` names the shipped network.
	mode=$1 run=$2
	shift 2
	for it in "$@"; do
		w=$OUT/$run/checkpoints/iter-$it/weights.safetensors
		[ "$it" = shipped ] && w=models/bovine-borders/final.safetensors
		n=scr-$run-$it
		if [ "$mode" = screen ]; then
			t "$n-gd" "X=$w,centre_cleo,greedy,defensive_dan_heng" 96 2
			t "$n-vv" "X=$w,centre_cleo,voronoi_vera,greedy" 96 2
			echo "$it: $(python3 $D/mean.py "$OUT/$n-gd/games.jsonl" "$OUT/$n-vv/games.jsonl")"
		fi
		if [ "$mode" = rosa ] || [ -n "${ROSA:-}" ]; then
			t "$n-rr" "X=$w,reach_rosa,greedy,defensive_dan_heng" 96 2
			rc=
			if [ "$mode" = rosa ]; then
				t "$n-rc" "X=$w,reach_rosa,centre_cleo,voronoi_vera" 96 2
				rc=$OUT/$n-rc/games.jsonl
			fi
			echo "$it: $(python3 $D/mean.py --over reach_rosa "$OUT/$n-rr/games.jsonl" $rc)"
		fi
	done
	;;
tables)
	OUT=$OUT GG=$GG sh reports/bovine-borders/table/run.sh tables "$2"
	;;
*)
	echo "usage: run.sh train [CONFIG RUN]|screen RUN IT...|rosa RUN IT...|tables NET" >&2
	exit 2
	;;
esac
