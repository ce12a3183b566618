#!/bin/sh
# Rectangle: PPO fine-tuning of the shipped rings network (issue 54) and its
# evaluation against the held-out bots (agents/rectangleheldout: blitz, raider,
# pairs; never trained against). From the repository root:
#   sh reports/rectangle/finetune/run.sh train             # ft.yaml from the shipped network into OUT/run
#   sh reports/rectangle/finetune/run.sh heldout SPEC NAME # {SPEC, held-out bot, encloser, boxer}, 408 games every
#                                                          # order, seed 1, per held-out bot, into OUT/NAME-BOT
#   sh reports/rectangle/finetune/run.sh regression SPEC NAME  # {SPEC, the shipped network, encloser, boxer} and
#                                                          # the mirror (two copies, planner, boxer) against the
#                                                          # network alone (planner, boxer, random)
# SPEC is a weights file as a user enters it (its stored play settings apply).
# Raw outputs go to the git-ignored results/rectangle/finetune/.
set -eu
OUT=${OUT:-results/rectangle/finetune}
mkdir -p "$OUT"
GG=${GG:-$OUT/gridgym}
[ -x "$GG" ] || go build -o "$GG" ./cmd/gridgym
SHIPPED=models/rectangle/final.safetensors
t() { "$GG" tournament -q --game rectangle --bots "$1" --games 408 --all-orders --seed 1 --report "$OUT/$2" | sed -n 2,7p; }
case "${1:-}" in
train)
	"$GG" train --config reports/rectangle/finetune/ft.yaml --init "$SHIPPED" --out "$OUT/run" -q
	;;
heldout)
	for h in blitz raider pairs; do
		t "net=$2,$h,encloser,boxer" "$3-$h"
		python3 reports/pair.py "$OUT/$3-$h/games.jsonl" net $h
	done
	;;
regression)
	t "net=$2,shipped=$SHIPPED,encloser,boxer" "$3-regression"
	python3 reports/pair.py "$OUT/$3-regression/games.jsonl" net shipped
	python3 reports/pair.py "$OUT/$3-regression/games.jsonl" net encloser
	t "a=$2,b=$2,planner,boxer" "$3-mirror"
	t "net=$2,planner,boxer,random" "$3-alone"
	python3 reports/mirror_ratio.py "$OUT/$3-mirror/games.jsonl" "$OUT/$3-alone/games.jsonl" net a b
	;;
*)
	sed -n 2,13p "$0"
	exit 2
	;;
esac
