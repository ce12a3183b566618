#!/bin/sh
# Rectangle's mason preset (issue 54; reports/rectangle/mason/README.md). From the
# repository root:
#   sh reports/rectangle/mason/run.sh train              # gridgym train --preset mason into OUT/run (about 25 minutes)
#   sh reports/rectangle/mason/run.sh heldout SPEC NAME  # {SPEC, held-out bot, encloser, boxer} per held-out bot
#   sh reports/rectangle/mason/run.sh regression SPEC NAME [OLD]
#        # {SPEC, OLD (default: the rings network shipped before, from git), encloser, boxer},
#        # {SPEC, its clone, planner, boxer} (issue 22's table), {SPEC, mason, encloser, boxer},
#        # and the mirror: two copies + planner + boxer against SPEC + planner + boxer + random
#   sh reports/rectangle/mason/run.sh curve RUN          # checkpoints 0, 60, 120, 180, 240 of RUN against each held-out bot
#        # (96 games every order each: the learning curve; the bots are evaluated, never trained against)
#   sh reports/rectangle/mason/run.sh strongest          # the project's scripted bots alone: which two are strongest
#   sh reports/rectangle/mason/run.sh heldout2 SPEC NAME # {SPEC, held-out bot, mason, encloser} (the two strongest),
#        # blitz with seeds 1-3 and their 1,224 games pooled
#   sh reports/rectangle/mason/run.sh bots SPEC NAME [OLD] # exploit --bots: each project bot against three copies of
#        # SPEC, then of OLD (default: the rings network)
# Every table: 408 games in every seating order, seed 1 (curve: 96). SPEC is a weights file as a user
# enters it: its stored play settings (temp 6 at the placement, the opening square of side 8) apply.
# Raw outputs go to the git-ignored results/rectangle/mason/.
set -eu
OUT=${OUT:-results/rectangle/mason}
mkdir -p "$OUT"
GG=${GG:-$OUT/gridgym}
[ -x "$GG" ] || go build -o "$GG" ./cmd/gridgym
t() { "$GG" tournament -q --game rectangle --bots "$1" --games "${3:-408}" --all-orders --seed "${SEED:-1}" --report "$OUT/$2" | sed -n 2,7p; }
case "${1:-}" in
train)
	"$GG" train --game rectangle --preset mason --out "$OUT/run"
	;;
heldout) # the tables of reports/rectangle/finetune, into this OUT
	OUT=$OUT GG=$GG exec sh reports/rectangle/finetune/run.sh heldout "$2" "$3"
	;;
regression)
	OLD=${4:-$OUT/rings.safetensors}
	[ -f "$OLD" ] || git show 3312061:models/rectangle/final.safetensors > "$OLD"
	t "net=$2,old=$OLD,encloser,boxer" "$3-old"
	python3 reports/pair.py "$OUT/$3-old/games.jsonl" net old
	python3 reports/pair.py "$OUT/$3-old/games.jsonl" net encloser
	C=$(dirname "$2")/../iter-000000/weights.safetensors
	if [ -f "$C" ]; then
		"$GG" weights play "$C" --opening 8 > /dev/null
		t "net=$2,clone=$C,planner,boxer" "$3-clone"
		python3 reports/pair.py "$OUT/$3-clone/games.jsonl" net clone
		python3 reports/pair.py "$OUT/$3-clone/games.jsonl" net planner
	fi
	t "net=$2,mason,encloser,boxer" "$3-mason"
	python3 reports/pair.py "$OUT/$3-mason/games.jsonl" net mason
	t "a=$2,b=$2,planner,boxer" "$3-mirror"
	t "net=$2,planner,boxer,random" "$3-alone"
	python3 reports/mirror_ratio.py "$OUT/$3-mirror/games.jsonl" "$OUT/$3-alone/games.jsonl" net a b
	;;
curve)
	for i in 000000 000060 000120 000180 000240; do
		W="$2/checkpoints/iter-$i/weights.safetensors"
		"$GG" weights play "$W" --opening 8 > /dev/null
		for h in blitz raider pairs; do
			t "net=$W,$h,encloser,boxer" "curve-$i-$h" 96 > /dev/null
			echo "iteration $i $h: $(python3 reports/pair.py "$OUT/curve-$i-$h/games.jsonl" net $h)"
		done
	done
	;;
strongest)
	t "mason,encloser,planner,boxer" strongest
	;;
heldout2)
	for h in blitz raider pairs; do
		t "net=$2,$h,mason,encloser" "$3-2-$h"
		python3 reports/pair.py "$OUT/$3-2-$h/games.jsonl" net $h
	done
	for s in 2 3; do
		SEED=$s t "net=$2,blitz,mason,encloser" "$3-2-blitz-s$s" > /dev/null
		python3 reports/pair.py "$OUT/$3-2-blitz-s$s/games.jsonl" net blitz
	done
	cat "$OUT/$3-2-blitz/games.jsonl" "$OUT/$3-2-blitz-s2/games.jsonl" "$OUT/$3-2-blitz-s3/games.jsonl" > "$OUT/$3-2-blitz-pooled.jsonl"
	python3 reports/pair.py "$OUT/$3-2-blitz-pooled.jsonl" net blitz
	;;
bots)
	OLD=${4:-$OUT/rings.safetensors}
	[ -f "$OLD" ] || git show 3312061:models/rectangle/final.safetensors > "$OLD"
	b() { "$GG" exploit -q --target "$1" --bots mason,encloser,ringer,planner,boxer --games 400 --seed 1 --out "$OUT/$2-bots" | tail -9; }
	b "$2" "$3"
	b "$OLD" "$3-old"
	;;
*)
	sed -n "2,/^set -eu/p" "$0" | grep "^#"
	exit 2
	;;
esac
