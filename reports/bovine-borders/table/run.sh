#!/bin/sh
# Session 85: Bovine Borders fine-tuned in one fixed company (README.md):
#   sh reports/bovine-borders/table/run.sh train      # A: ft.yaml from the shipped network (~15 minutes on 2 cores)
#   sh reports/bovine-borders/table/run.sh train-mix  # B: ft-mix.yaml (~8 minutes)
#   sh reports/bovine-borders/table/run.sh train-share # C: ft-share.yaml, the table for half of the episodes (~25 minutes)
#   sh reports/bovine-borders/table/run.sh train-kl   # D: ft-kl.yaml, A held to the shipped network by a KL penalty (~15 minutes)
#   sh reports/bovine-borders/table/run.sh train-kl05 # E: ft-kl05.yaml, D with a quarter of its penalty
#   sh reports/bovine-borders/table/run.sh screen [RUN] # RUN's checkpoints against centre_cleo alone (default run400)
#   sh reports/bovine-borders/table/run.sh select RUN IT... # those checkpoints beside both racers
#   sh reports/bovine-borders/table/run.sh tables NET # the README's tables for NET (about an hour)
# Raw outputs go to the git-ignored results/bovine-borders/table/.
set -eu
OUT=${OUT:-results/bovine-borders/table}
GG=${GG:-gridgym}
D=reports/bovine-borders/table
mkdir -p "$OUT"
# t NAME BOTS [GAMES]: a table in every seating order, seed 1
t() { $GG tournament -q --game bovine-borders --bots "$2" --games "${3:-480}" --all-orders --seed "${SEED:-1}" --report "$OUT/$1" > /dev/null; }
# ft CONFIG RUN: CONFIG of this folder from the shipped network into OUT/RUN
ft() { $GG train --config "$D/$1" --init models/bovine-borders/final.safetensors --out "$OUT/$2" -q; }
case "${1:-}" in
train) ft ft.yaml run400 ;;
train-mix) ft ft-mix.yaml mix ;;
train-share) ft ft-share.yaml share ;;
train-kl) ft ft-kl.yaml kl ;;
train-kl05) ft ft-kl05.yaml kl05 ;;
screen)
	# RUN's checkpoints (default A's run400) in {X, centre_cleo, greedy, defensive_dan_heng}, 96 games, seed 2
	run=${2:-run400}
	for it in 000050 000100 000150 000200 000250 000300 000350 000400; do
		SEED=2 t "screen-$run-$it" "X=$OUT/$run/checkpoints/iter-$it/weights.safetensors,centre_cleo,greedy,defensive_dan_heng" 96
		printf '%s ' "$it"
		python3 reports/pair.py "$OUT/screen-$run-$it/games.jsonl" X centre_cleo
	done
	;;
select)
	# two checkpoints of RUN beside both racers: 192 games, seed 3 (A: 000150 000400)
	run=$2
	shift 2
	for it in "$@"; do
		SEED=3 t "sel-$run-$it" "X=$OUT/$run/checkpoints/iter-$it/weights.safetensors,centre_cleo,voronoi_vera,greedy" 192
		printf '%s ' "$it"
		python3 reports/pair.py "$OUT/sel-$run-$it/games.jsonl" X centre_cleo
		python3 reports/pair.py "$OUT/sel-$run-$it/games.jsonl" X voronoi_vera
	done
	;;
tables)
	net=$2
	t lena-ref "A=$net,lookahead_lena,centre_cleo,voronoi_vera"
	python3 reports/pair.py "$OUT/lena-ref/games.jsonl" A lookahead_lena
	t lena-gd "A=$net,lookahead_lena,greedy,defensive_dan_heng"
	python3 reports/pair.py "$OUT/lena-gd/games.jsonl" A lookahead_lena
	t lena-field "A=$net,lookahead_lena,defensive_dan_heng,adjacent_asta" 408
	python3 reports/pair.py "$OUT/lena-field/games.jsonl" A lookahead_lena
	# no regression: the strongest scripted bot, and the network it would replace
	t cleo "A=$net,centre_cleo,greedy,defensive_dan_heng"
	python3 reports/pair.py "$OUT/cleo/games.jsonl" A centre_cleo
	python3 reports/pair.py "$OUT/cleo/games.jsonl" A greedy
	t shipped "A=$net,shipped=models/bovine-borders/final.safetensors,greedy,defensive_dan_heng"
	python3 reports/pair.py "$OUT/shipped/games.jsonl" A shipped
	# exploitability: 30 iterations from the target against three copies, as the shipped network was measured
	$GG exploit --target "$net" --iterations 30 --games 96 --seed 1 --out "$OUT/exploit" -q
	;;
*)
	echo "usage: run.sh train|train-mix|train-share|train-kl|train-kl05|screen [RUN]|select RUN IT...|tables NET" >&2
	exit 2
	;;
esac
