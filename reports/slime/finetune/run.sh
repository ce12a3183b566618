#!/bin/sh
# Slime: PPO fine-tuning of the shipped exit network against its exploiters and
# itself (issue 54), and its evaluation against the held-out bots (never trained
# against). From the repository root:
#   sh reports/slime/finetune/run.sh train          # ~20 min on 2 loaded cores: an exploiter of the
#                                                   # shipped network (20 it.), then ft.yaml (60 it.)
#   sh reports/slime/finetune/run.sh train2         # stage 2 (~30 min): an exploiter of stage 1, then ft2.yaml
#   sh reports/slime/finetune/run.sh train3         # stage 3 (~30 min): an exploiter of stage 2, then ft3.yaml
#   sh reports/slime/finetune/run.sh train4         # stage 4 (~30 min): an exploiter of stage 3, then ft4.yaml
#   sh reports/slime/finetune/run.sh trainkl        # from the shipped network against every stage and exploiter,
#                                                   # with a KL penalty towards it (ftkl.yaml; after train4)
#   sh reports/slime/finetune/run.sh trainkl2       # the same with a quarter of the KL weight (ftkl2.yaml)
#   sh reports/slime/finetune/run.sh trainkl3       # from stage 3 with a KL penalty towards stage 3 (ftkl3.yaml; after train4)
#   sh reports/slime/finetune/run.sh train2s        # stage 2 for play at temperature 0.3 (ft2s.yaml): from stage 1, against
#                                                   # stage 1's three exploiters at 0.3 (run.sh seeds <stage 1>:temp=0.3 t03 first)
#   sh reports/slime/finetune/run.sh train3s        # stage 3 for it (ft3s.yaml): from stage 2s, with its three exploiters
#                                                   # (run.sh seeds <stage 2s> t03-2s first)
#   sh reports/slime/finetune/run.sh avg23          # the mean of stages 2s and 3s (gridgym weights average) into OUT/avg23.safetensors
#   sh reports/slime/finetune/run.sh train4s        # stage 4 for it (ft4s.yaml): from avg23, with stage 3s, its exploiters and
#                                                   # avg23's (run.sh seeds <stage 3s> t03-3s, run.sh seeds <avg23> avg23 first)
#   sh reports/slime/finetune/run.sh avg123         # the mean of stages 1, 2s and 3s at temperature 0.3 into OUT/avg123.safetensors
#   sh reports/slime/finetune/run.sh avg234         # the mean of stages 2s, 3s and 4s into OUT/avg234.safetensors
#   sh reports/slime/finetune/run.sh trainm         # stage m for the mirror (ftm.yaml): from avg123 (run.sh seeds for avg123,
#                                                   # avg234 and stage 3s first)
#   sh reports/slime/finetune/run.sh trainexit      # 12 more Expert Iteration iterations of the shipped network
#                                                   # against the stages and exploiters too (ftexit.yaml; after train4)
#   sh reports/slime/finetune/run.sh eval [WEIGHTS [NAME]]  # 480-game tables (every order) against the held-out
#                                                   # bots, no regression, mirror, into OUT/NAME-* (default eval);
#                                                   # default WEIGHTS: stage 2's last checkpoint
#   sh reports/slime/finetune/run.sh exploit SPEC NAME  # a 20-iteration exploiter of SPEC into OUT/exploit-NAME
#   sh reports/slime/finetune/run.sh clone          # the exit preset's clone (iteration 0), for the regression table
#   sh reports/slime/finetune/run.sh pooled SPEC NAME   # the acceptance tables at seeds 1, 2 and 3 (480 games each, every
#                                                   # order), pooled: held-out bots, shipped, greedy, clone, mirror (after clone)
#   sh reports/slime/finetune/run.sh seeds SPEC NAME    # three 20-iteration exploiters of SPEC (seeds 1-3) into OUT/xs-NAME
# SPEC is a weights file, with play settings if wanted (FILE:temp=0.3, as `gridgym weights play` would store them).
# A stage reuses an exploiter already in OUT (its exploit.json). simplebot plays at
# random, so every game of a table differs even with greedy
# networks. Raw outputs go to the git-ignored results/slime/finetune/.
set -eu
OUT=${OUT:-results/slime/finetune}
mkdir -p "$OUT"
GG=${GG:-$OUT/gridgym}
[ -x "$GG" ] || go build -o "$GG" ./cmd/gridgym
# The exit preset's network, shipped as models/slime/final.safetensors until
# this fine-tuning; the configs name this copy.
SHIPPED=$OUT/shipped.safetensors
[ -s "$SHIPPED" ] || git show b298b82:models/slime/final.safetensors >"$SHIPPED"
fixed() { [ "$OUT" = results/slime/finetune ] || { echo "$1: its config names paths under the default OUT" >&2; exit 2; }; }
# exploiter TARGET NAME: a 20-iteration exploiter of TARGET into OUT/exploit-NAME, unless there.
exploiter() { [ -s "$OUT/exploit-$2/exploit.json" ] || "$GG" exploit --target "$1" --iterations 20 --games 96 --seed 1 --out "$OUT/exploit-$2" -q; }
# stage CONFIG INIT RUN: reports/slime/finetune/CONFIG.yaml from INIT into OUT/RUN.
stage() { "$GG" train --config "reports/slime/finetune/$1.yaml" --init "$2" --out "$OUT/$3" -q; }
last() { echo "$OUT/$1/checkpoints/iter-000060/weights.safetensors"; }
case "${1:-}" in
train|train2|train3|train4|train2s|train3s|train4s|trainm|trainkl|trainkl2|trainkl3|trainexit) fixed "$1" ;;
esac
case "${1:-}" in
train)
	exploiter "$SHIPPED" shipped
	stage ft "$SHIPPED" run
	;;
train2)
	exploiter "$(last run)" ft60
	stage ft2 "$(last run)" run2
	;;
train3)
	exploiter "$(last run2)" ft2-60
	stage ft3 "$(last run2)" run3
	;;
train4)
	exploiter "$(last run3)" ft3-60
	stage ft4 "$(last run3)" run4
	;;
train2s) stage ft2s "$(last run)" run2s ;;
train3s) stage ft3s "$(last run2s)" run3s ;;
avg23) "$GG" weights average "$(last run2s)" "$(last run3s)" --out "$OUT/avg23.safetensors" ;;
train4s) stage ft4s "$OUT/avg23.safetensors" run4s ;;
avg123)
	"$GG" weights average "$(last run)" "$(last run2s)" "$(last run3s)" --out "$OUT/avg123.safetensors"
	"$GG" weights play "$OUT/avg123.safetensors" --temperature 0.3
	;;
avg234) "$GG" weights average "$(last run2s)" "$(last run3s)" "$(last run4s)" --out "$OUT/avg234.safetensors" ;;
trainm) stage ftm "$OUT/avg123.safetensors" runm ;;
trainkl) stage ftkl "$SHIPPED" runkl ;;
trainkl2) stage ftkl2 "$SHIPPED" runkl2 ;;
trainkl3) stage ftkl3 "$(last run3)" runkl3 ;;
trainexit) stage ftexit "$SHIPPED" runexit ;;
exploit)
	"$GG" exploit --target "$2" --iterations 20 --games 96 --seed 1 --out "$OUT/exploit-$3" -q
	;;
clone)
	"$GG" train --game slime --preset exit --clone-only --out "$OUT/clone" -q
	;;
eval)
	X=${2:-$OUT/run2/checkpoints/$(cat "$OUT/run2/latest")/weights.safetensors}
	N=${3:-eval}
	t() {
		"$GG" tournament -q --game slime --bots "$1" --games 480 --all-orders --seed 1 --report "$OUT/$2" | sed -n 2,7p
		python3 reports/pair.py "$OUT/$2/games.jsonl" "$3" "$4"
	}
	for h in surveyor hunter prophet bastion; do
		t "net=$X,$h,greedy,simplebot" "$N-$h" net $h
	done
	t "net=$X,shipped=$SHIPPED,greedy,simplebot" "$N-regression" net shipped
	t "net=$X,clone=$OUT/clone/checkpoints/iter-000000/weights.safetensors,greedy,simplebot" "$N-clone" net greedy
	python3 reports/pair.py "$OUT/$N-clone/games.jsonl" net clone
	t "a=$X,b=$X,greedy,simplebot" "$N-mirror" a b
	t "net=$X,s1=simplebot,s2=simplebot,s3=simplebot" "$N-alone" net s1
	python3 reports/mirror_ratio.py "$OUT/$N-mirror/games.jsonl" "$OUT/$N-alone/games.jsonl" net a b
	;;
pooled)
	X=$2; N=$3; C=$OUT/clone/checkpoints/iter-000000/weights.safetensors
	p() { # p BOTS TABLE: the table at seeds 1-3 into OUT/N-TABLE-sS, pooled into OUT/N-TABLE.jsonl
		for s in 1 2 3; do
			"$GG" tournament -q --game slime --bots "$1" --games 480 --all-orders --seed $s --report "$OUT/$N-$2-s$s" >/dev/null
		done
		cat "$OUT/$N-$2-s1/games.jsonl" "$OUT/$N-$2-s2/games.jsonl" "$OUT/$N-$2-s3/games.jsonl" >"$OUT/$N-$2.jsonl"
	}
	for h in surveyor hunter prophet bastion; do
		p "net=$X,$h,greedy,simplebot" $h
		python3 reports/pair.py "$OUT/$N-$h.jsonl" net $h
	done
	p "net=$X,shipped=$SHIPPED,greedy,simplebot" regression
	python3 reports/pair.py "$OUT/$N-regression.jsonl" net shipped
	python3 reports/pair.py "$OUT/$N-regression.jsonl" net greedy
	p "net=$X,clone=$C,greedy,simplebot" clone
	python3 reports/pair.py "$OUT/$N-clone.jsonl" net clone
	p "a=$X,b=$X,greedy,simplebot" mirror
	p "net=$X,s1=simplebot,s2=simplebot,s3=simplebot" alone
	python3 reports/mirror_ratio.py "$OUT/$N-mirror.jsonl" "$OUT/$N-alone.jsonl" net a b
	;;
seeds)
	"$GG" exploit --target "$2" --iterations 20 --games 96 --seeds 3 --seed 1 --out "$OUT/xs-$3" -q | sed -n '/^# Exploitability/,$p'
	;;
*)
	sed -n 2,38p "$0"
	exit 2
	;;
esac
