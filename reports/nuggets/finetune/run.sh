#!/bin/sh
# Nuggets: PPO fine-tuning of the shipped network (issue 54), and its learning
# curve against the held-out appraiser_april (evaluated, never trained against).
# From the repository root:
#   sh reports/nuggets/finetune/run.sh train CONFIG     # CONFIG: ft, ft2 or ft-augment (the .yaml here)
#   sh reports/nuggets/finetune/run.sh curve CONFIG     # every 10th checkpoint in the acceptance line-up, 200 games
#   sh reports/nuggets/finetune/run.sh exploit          # the shipped network's exploiter, 30 iterations
#   sh reports/nuggets/finetune/run.sh league           # the league of session 70 (league.yaml), 9 rounds
#   sh reports/nuggets/finetune/run.sh league-tables    # its snapshots in the acceptance line-up, 400 games each
# Raw outputs go to the git-ignored results/nuggets/finetune/.
set -eu
OUT=${OUT:-results/nuggets/finetune}
mkdir -p "$OUT"
GG=${GG:-$OUT/gridgym}
[ -x "$GG" ] || go build -o "$GG" ./cmd/gridgym
# every run here starts from the fortress preset's network, shipped until 2026-11-30
NET=$OUT/fortress-net.safetensors
[ -s "$NET" ] || git show cee5271:models/nuggets/final.safetensors >"$NET"
what=${1:-}
cfg=${2:-ft}
case "$what" in
train)
	"$GG" train --game nuggets --config "reports/nuggets/finetune/$cfg.yaml" --init "$NET" --out "$OUT/$cfg" -q
	;;
curve)
	for it in 000000 000010 000020 000030 000040 000050 000060 000070 000080 000090 000100; do
		W="$OUT/$cfg/checkpoints/iter-$it/weights.safetensors"
		[ -f "$W" ] || continue
		"$GG" tournament -q --game nuggets --bots "net=$W,appraiser_april,fortress,greedy_tuned" \
			--games 200 --seed 1 --report "$OUT/$cfg-curve-$it" >/dev/null
		printf '%s %s ' "$cfg" "$it"
		python3 reports/pair.py "$OUT/$cfg-curve-$it/games.jsonl" net appraiser_april
	done
	;;
league)
	"$GG" league --game nuggets --dir "$OUT/league" --init "$NET" --config reports/nuggets/finetune/league.yaml \
		--eval appraiser_april --eval-games 48 --payoff-games 16 --iterations 10 --anchor 0.1 --rounds 9 --seed 1 --restart-optimizer
	;;
league-tables)
	for W in "$NET" "$OUT"/league/pool/*.safetensors "$OUT"/league/main/final.safetensors; do
		"$GG" tournament -q --game nuggets --bots "net=$W,appraiser_april,fortress,greedy_tuned" \
			--games 400 --seed 1 --margin net,appraiser_april 2>/dev/null | grep "net −" | sed "s#^#$W #"
	done
	;;
exploit)
	"$GG" exploit --target "$NET" --iterations 30 --games 400 --seed 1 --out "$OUT/exploit" -q
	;;
*)
	echo "usage: sh reports/nuggets/finetune/run.sh train|curve [ft|ft2|ft-augment] | exploit | league | league-tables" >&2
	exit 2
	;;
esac
