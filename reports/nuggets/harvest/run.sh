#!/bin/sh
# Nuggets: the harvester bot and the harvest preset that distils it (issue 54). From the
# repository root:
#   sh reports/nuggets/harvest/run.sh probe            # final boards by move (README's first table) and the rejected variants
#   sh reports/nuggets/harvest/run.sh sweep            # the sweeps of the last moves' weights (sweep.go.txt), no held-out bot
#   sh reports/nuggets/harvest/run.sh bot              # the harvester: validation table, then each held-out bot's table
#   sh reports/nuggets/harvest/run.sh train            # gridgym train --preset harvest --seed 1
#   sh reports/nuggets/harvest/run.sh heldout NET TAG  # NET against every held-out bot, with harvester and fortress, 408 games every order
#   sh reports/nuggets/harvest/run.sh curve            # every 10th checkpoint of the run against appraiser_april (192 games each)
#   sh reports/nuggets/harvest/run.sh tables NET TAG   # regression (fortress, harvester, the network shipped before, the clone) and the mirror
#   sh reports/nuggets/harvest/run.sh exploit NET TAG  # a 30-iteration exploiter (reports/exploit's budget)
# Raw outputs go to the git-ignored results/nuggets/harvest/.
set -eu
OUT=${OUT:-results/nuggets/harvest}
mkdir -p "$OUT"
GG=${GG:-$OUT/gridgym}
[ -x "$GG" ] || go build -o "$GG" ./cmd/gridgym
HELDOUT="appraiser_april actuary_ada hunter_hana quad_quinn"
table() { # LABEL=SPEC BOT BOT BOT MARGIN-OTHER TAG [GAMES]
	"$GG" tournament -q --game nuggets --bots "$1,$2,$3,$4" --games "${7:-408}" --all-orders --seed 1 \
		--margin "${1%%=*},$5" --report "$OUT/$6" 2>/dev/null | grep " − " | sed "s#^ *#$6: #"
}
case "${1:-}" in
probe)
	mkdir -p "$OUT/_probe"
	cp reports/nuggets/harvest/probe-main.go.txt "$OUT/_probe/main.go"
	cp reports/nuggets/harvest/probe-carve.go.txt "$OUT/_probe/carve.go"
	go build -o "$OUT/probe" "./$OUT/_probe"
	OLD=$OUT/fortress-net.safetensors
	[ -s "$OLD" ] || git show cee5271:models/nuggets/final.safetensors >"$OLD"
	"$OUT/probe" 40 "$OLD,appraiser_april,fortress,greedy_tuned"
	for c in carve:120:1:99:0:4 carve:60:1:99:0:4 carve:120:0:10:0.3:4 carve:120:1:10:0.3:4 carve:80:1:8:0.5:4 \
		late:100:0:0.15 late:140:0:0.15 late:80:0:0.15; do
		QUIET=1 "$OUT/probe" 200 "$c,fortress,greedy_tuned,greedy"
	done
	;;
sweep)
	mkdir -p "$OUT/_sweep" && cp reports/nuggets/harvest/sweep.go.txt "$OUT/_sweep/main.go"
	go build -o "$OUT/sweep" "./$OUT/_sweep"
	c=""
	for L in 100 130 160; do for C in 0 0.015 0.03 0.045; do for A in 0.05 0.1; do for S in 0.15 0.25; do
		c="$c x:$L:$S:$C:$A"
	done; done; done; done
	"$OUT/sweep" -n 400 -seed 2000 $c
	"$OUT/sweep" -n 1600 -seed 5000 x:100:0.25:0.045:0.1 x:100:0.25:0.03:0.1 x:100:0.25:0.015:0.1 x:100:0.15:0.045:0.1 x:80:0.25:0.03:0.1 x:115:0.25:0.03:0.1
	"$OUT/sweep" -n 1600 -seed 7000 x:60:0.25:0.045:0.1 x:70:0.25:0.045:0.1 x:80:0.25:0.045:0.1 x:90:0.25:0.045:0.1 \
		x:60:0.25:0.03:0.1 x:70:0.25:0.03:0.1 x:90:0.25:0.03:0.1 x:80:0.35:0.045:0.1
	;;
bot)
	table harvester fortress greedy_tuned greedy fortress bot-validation
	for h in $HELDOUT; do
		"$GG" tournament -q --game nuggets --bots "harvester,$h,fortress,greedy_tuned" --games 408 --all-orders --seed 1 \
			--margin "harvester,$h" --margin "fortress,$h" --report "$OUT/bot-$h" 2>/dev/null | grep " − "
	done
	;;
train) "$GG" train --game nuggets --preset harvest --seed 1 --out "$OUT/run" ;;
heldout)
	for h in $HELDOUT; do table "net=$2" "$h" harvester fortress "$h" "$3-$h"; done
	;;
curve)
	for W in "$OUT"/run/checkpoints/iter-0000[0-9]0/weights.safetensors "$OUT"/run/checkpoints/iter-000100/weights.safetensors; do
		it=${W%/weights.safetensors}; it=${it##*/}
		table "net=$W" appraiser_april harvester fortress appraiser_april "curve-$it" 192
	done
	;;
tables)
	table "net=$2" harvester fortress greedy_tuned harvester "$3-strongest"
	OLD=$OUT/fortress-net.safetensors # the network shipped before this one
	[ -s "$OLD" ] || git show cee5271:models/nuggets/final.safetensors >"$OLD"
	"$GG" tournament -q --game nuggets --bots "net=$2,shipped=$OLD,harvester,fortress" --games 408 \
		--all-orders --seed 1 --margin net,shipped --report "$OUT/$3-shipped" 2>/dev/null | grep " − " | sed "s#^ *#$3-shipped: #"
	table "net=$2" "clone=$OUT/run/checkpoints/iter-000000/weights.safetensors" greedy_tuned greedy clone "$3-clone"
	"$GG" tournament -q --game nuggets --bots "a=$2,b=$2,harvester,fortress" --games 408 --all-orders --seed 1 --report "$OUT/$3-mirror" >/dev/null 2>&1
	"$GG" tournament -q --game nuggets --bots "net=$2,harvester,fortress,random" --games 408 --all-orders --seed 1 --report "$OUT/$3-alone" >/dev/null 2>&1
	python3 reports/mirror_ratio.py "$OUT/$3-mirror/games.jsonl" "$OUT/$3-alone/games.jsonl" net a b
	;;
exploit)
	"$GG" exploit --target "$2" --iterations 30 --games 400 --seed 1 --out "$OUT/$3-exploit" -q
	;;
*)
	sed -n 2,12p "$0"
	exit 2
	;;
esac
