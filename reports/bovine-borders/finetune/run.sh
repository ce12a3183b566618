#!/bin/sh
# Bovine Borders: PPO fine-tuning of the shipped network without augmentation
# (issue 54), and its evaluation against the held-out bots (never trained
# against). From the repository root:
#   sh reports/bovine-borders/finetune/run.sh train            # ~20 min on 2 loaded cores
#   sh reports/bovine-borders/finetune/run.sh eval [WEIGHTS]   # default: the run's last checkpoint
# Greedy networks and these scripted bots play Bovine Borders without chance:
# the 24 seating orders (--all-orders --games 24) are every distinct game of a
# line-up. Raw outputs go to the git-ignored results/bovine-borders/finetune/.
set -eu
OUT=${OUT:-results/bovine-borders/finetune}
mkdir -p "$OUT"
GG=${GG:-$OUT/gridgym}
[ -x "$GG" ] || go build -o "$GG" ./cmd/gridgym
SHIPPED=models/bovine-borders/final.safetensors
case "${1:-}" in
train)
	"$GG" train --config reports/bovine-borders/finetune/ft.yaml --init "$SHIPPED" --out "$OUT/run" -q
	;;
eval)
	X=${2:-$OUT/run/checkpoints/$(cat "$OUT/run/latest")/weights.safetensors}
	t() { "$GG" tournament -q --game bovine-borders --bots "$1" --games 24 --all-orders --seed 1 --report "$OUT/$2" | sed -n 2,7p; }
	for h in warden_wanda fence_fiona lookahead_lena; do
		t "net=$X,$h,greedy,defensive_dan_heng" "net-$h"
		t "net=$SHIPPED,$h,greedy,defensive_dan_heng" "shipped-$h"
	done
	t "net=$X,shipped=$SHIPPED,greedy,defensive_dan_heng" regression
	t "a=$X,b=$X,greedy,defensive_dan_heng" mirror
	t "net=$X,greedy,defensive_dan_heng,random_raven" alone
	python3 reports/mirror_ratio.py "$OUT/mirror/games.jsonl" "$OUT/alone/games.jsonl" net a b
	;;
*)
	echo "usage: sh reports/bovine-borders/finetune/run.sh train | eval [WEIGHTS]" >&2
	exit 2
	;;
esac
