#!/bin/sh
# Session 92: a network behind Bovine Borders' barn guard (rules/bovine guard.go,
# the play setting guard=1), measured as the model card measures a network:
#   sh reports/bovine-borders/guard/run.sh make        # RP 200 with {temp 1, guard} stored: OUT/RPG.safetensors
#   sh reports/bovine-borders/guard/run.sh tables NET  # every table of the README for NET (~60 minutes on 2 cores)
#   sh reports/bovine-borders/guard/run.sh curve       # RP's checkpoints behind the guard against the held-out bots (~20 minutes)
#   sh reports/bovine-borders/guard/run.sh train       # GP: RPG trained on behind the guard (ft-guard.yaml, ~10 minutes) into OUT/gp
# NET is played by its plain file name: the play settings its weights store
# (gridgym weights play NET), as a user gets it. Raw outputs go to the
# git-ignored results/bovine-borders/guard/.
set -eu
OUT=${OUT:-results/bovine-borders/guard}
GG=${GG:-gridgym}
mkdir -p "$OUT"
# t NAME BOTS [GAMES]: a table in every seating order, seed 1, and A's margin over B
t() {
	$GG tournament -q --game bovine-borders --bots "$2" --games "${3:-480}" --all-orders --seed 1 --report "$OUT/$1" > /dev/null
	printf '%-14s ' "$1"
	python3 reports/pair.py "$OUT/$1/games.jsonl" A "$4"
}
case "${1:-}" in
make)
	cp results/bovine-borders/sparring/r2ppo/checkpoints/iter-000200/weights.safetensors "$OUT/RPG.safetensors"
	$GG weights play "$OUT/RPG.safetensors" --temperature 1 --guard
	;;
tables)
	n=$2
	clone=results/bovine-borders/sparring/r/checkpoints/iter-000000/weights.safetensors
	t lena-ref "A=$n,lookahead_lena,centre_cleo,voronoi_vera" 480 lookahead_lena
	t lena-gd "A=$n,lookahead_lena,greedy,defensive_dan_heng" 480 lookahead_lena
	t cleo "A=$n,centre_cleo,greedy,defensive_dan_heng" 480 centre_cleo
	python3 reports/pair.py "$OUT/cleo/games.jsonl" A greedy
	t shipped "A=$n,shipped=models/bovine-borders/final.safetensors,greedy,defensive_dan_heng" 480 shipped
	# exploitability: 30 iterations from the target against three copies, as the shipped network was measured
	$GG exploit --target "$n" --iterations 30 --games 96 --seed 1 --out "$OUT/exploit" -q
	t lena-field "A=$n,lookahead_lena,defensive_dan_heng,adjacent_asta" 408 lookahead_lena
	for h in warden_wanda fence_fiona; do
		t "$h-ref" "A=$n,$h,centre_cleo,voronoi_vera" 480 "$h"
		t "$h-gd" "A=$n,$h,greedy,defensive_dan_heng" 480 "$h"
	done
	t clone "A=$n,clone=$clone,greedy,defensive_dan_heng" 240 clone
	t mirror "A=$n,B=$n,greedy,defensive_dan_heng" 240 greedy
	t alone "A=$n,greedy,defensive_dan_heng,random_raven" 240 greedy
	for h in warden_wanda fence_fiona; do
		t "$h-field" "A=$n,$h,defensive_dan_heng,adjacent_asta" 408 "$h"
	done
	;;
train)
	$GG train --config reports/bovine-borders/guard/ft-guard.yaml --init "$OUT/RPG.safetensors" --out "$OUT/gp" -q
	;;
curve)
	# RP's checkpoints with {temperature 1, guard}, each held-out bot beside the reference bots, 96 games, seed 2
	mkdir -p "$OUT/curve"
	for it in 000000 000050 000100 000150 000200; do
		w="$OUT/curve/rp$it.safetensors"
		cp "results/bovine-borders/sparring/r2ppo/checkpoints/iter-$it/weights.safetensors" "$w"
		$GG weights play "$w" --temperature 1 --guard > /dev/null
		for h in lookahead_lena warden_wanda fence_fiona; do
			$GG tournament -q --game bovine-borders --bots "X=$w,$h,centre_cleo,voronoi_vera" --games 96 --all-orders --seed 2 --report "$OUT/curve/$it-$h" > /dev/null
			printf '%s %-14s ' "$it" "$h"
			python3 reports/pair.py "$OUT/curve/$it-$h/games.jsonl" X "$h"
		done
	done
	;;
*)
	echo "usage: run.sh make|tables NET|curve|train" >&2
	exit 2
	;;
esac
