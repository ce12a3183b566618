#!/bin/sh
# Bovine Borders: PPO fine-tuning of the strong preset's network without augmentation
# (issue 54), and its evaluation against the held-out bots (never trained
# against). From the repository root:
#   sh reports/bovine-borders/finetune/run.sh train            # ~20 min on 2 loaded cores
#   sh reports/bovine-borders/finetune/run.sh eval [WEIGHTS]   # default: the run's last checkpoint
#   sh reports/bovine-borders/finetune/run.sh train2           # stage 2 (~25 min): exploiters of the preset's
#                                                             # network and of stage 1, then ft2.yaml against them
#   sh reports/bovine-borders/finetune/run.sh train3           # stage 3 (~30 min): an exploiter of stage 2, then ft3.yaml
#   sh reports/bovine-borders/finetune/run.sh clone            # the preset's clone (iteration 0), for the no-regression table
#   sh reports/bovine-borders/finetune/run.sh sampled [SPEC]   # 480-game tables with sampled play (default:
#                                                             # stage 2's last checkpoint at temp=1)
#   sh reports/bovine-borders/finetune/run.sh exploit SPEC NAME  # a 30-iteration exploiter of SPEC into OUT/exploit-NAME
#   sh reports/bovine-borders/finetune/run.sh league           # session 70's league from the shipped network (league.yaml;
#                                                             # needs stage 1 from train), 11 rounds, ~40 min
#   sh reports/bovine-borders/finetune/run.sh cleo-open        # session 80's probe: centre_cleo's opening distilled
#                                                             # into the shipped network, PPO from it, eleven tables (~75 min)
# Greedy networks and these scripted bots play Bovine Borders without chance:
# the 24 seating orders (--all-orders --games 24) are every distinct game of a
# line-up. Raw outputs go to the git-ignored results/bovine-borders/finetune/.
set -eu
OUT=${OUT:-results/bovine-borders/finetune}
mkdir -p "$OUT"
GG=${GG:-$OUT/gridgym}
[ -x "$GG" ] || go build -o "$GG" ./cmd/gridgym
# The strong preset's network, which shipped as models/bovine-borders/final.safetensors
# until commit 8351148 and which every stage starts from or plays against (the
# configs name this path); now models/bovine-borders holds stage 2's network.
SHIPPED=$OUT/preset.safetensors
[ -s "$SHIPPED" ] || git show 8351148:models/bovine-borders/final.safetensors >"$SHIPPED"
case "${1:-}" in
train)
	[ "$OUT" = results/bovine-borders/finetune ] || { echo "train: ft.yaml names paths under the default OUT" >&2; exit 2; }
	"$GG" train --config reports/bovine-borders/finetune/ft.yaml --init "$SHIPPED" --out "$OUT/run" -q
	;;
train2)
	# ft2.yaml names these paths under the default OUT.
	[ "$OUT" = results/bovine-borders/finetune ] || { echo "train2: ft2.yaml names paths under the default OUT" >&2; exit 2; }
	"$GG" exploit --target "$SHIPPED" --iterations 30 --games 8 --seed 1 --out "$OUT/exploit-shipped" -q
	"$GG" exploit --target "$OUT/run/checkpoints/iter-000100/weights.safetensors" --iterations 30 --games 8 --seed 1 --out "$OUT/exploit-ft100" -q
	"$GG" train --config reports/bovine-borders/finetune/ft2.yaml --init "$OUT/run/checkpoints/iter-000100/weights.safetensors" --out "$OUT/run2" -q
	;;
train3)
	# Stage 3: an exploiter of stage 2 (as it plays, temp=1), then ft3.yaml
	# from stage 2 against every network and exploiter so far.
	[ "$OUT" = results/bovine-borders/finetune ] || { echo "train3: ft3.yaml names paths under the default OUT" >&2; exit 2; }
	"$GG" exploit --target "$OUT/run2/checkpoints/iter-000100/weights.safetensors:temp=1" --iterations 30 --games 96 --seed 1 --out "$OUT/exploit-ft2" -q
	"$GG" train --config reports/bovine-borders/finetune/ft3.yaml --init "$OUT/run2/checkpoints/iter-000100/weights.safetensors" --out "$OUT/run3" -q
	;;
exploit)
	"$GG" exploit --target "$2" --iterations 30 --games 96 --seed 1 --out "$OUT/exploit-$3" -q
	;;
league)
	[ "$OUT" = results/bovine-borders/finetune ] || { echo "league: league.yaml names paths under the default OUT" >&2; exit 2; }
	"$GG" league --game bovine-borders --dir "$OUT/league" --init models/bovine-borders/final.safetensors \
		--config reports/bovine-borders/finetune/league.yaml --eval lookahead_lena --eval-with greedy,defensive_dan_heng \
		--eval-games 48 --payoff-games 8 --iterations 10 --league-exploiters 0 --anchor 0.05 --rounds 11 --seed 1 --restart-optimizer
	;;
sampled)
	# Sampled play (temp=1, the policy PPO trained) makes every game distinct,
	# so 480 games (20 of each of the 24 seating orders) narrow the intervals
	# that 24 deterministic games cannot.
	X=${2:-$OUT/run2/checkpoints/$(cat "$OUT/run2/latest")/weights.safetensors:temp=1}
	t() {
		"$GG" tournament -q --game bovine-borders --bots "$1" --games 480 --all-orders --seed 1 --report "$OUT/$2" | sed -n 2,7p
		python3 reports/pair.py "$OUT/$2/games.jsonl" "$3" "$4"
	}
	for h in warden_wanda fence_fiona lookahead_lena; do
		t "net=$X,$h,greedy,defensive_dan_heng" "sampled-$h" net $h
	done
	t "net=$X,shipped=$SHIPPED,greedy,defensive_dan_heng" sampled-regression net shipped
	t "net=$X,clone=$OUT/clone/checkpoints/iter-000000/weights.safetensors,greedy,defensive_dan_heng" sampled-clone net greedy
	t "a=$X,b=$X,greedy,defensive_dan_heng" sampled-mirror a b
	t "net=$X,greedy,defensive_dan_heng,random_raven" sampled-alone net greedy
	python3 reports/mirror_ratio.py "$OUT/sampled-mirror/games.jsonl" "$OUT/sampled-alone/games.jsonl" net a b
	;;
clone)
	"$GG" train --game bovine-borders --preset strong --clone-only --out "$OUT/clone" -q
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
cleo-open)
	# Session 79/80 probe: centre_cleo's first 600 rounds distilled into the
	# shipped network (Expert Iteration, the expert's played move as label),
	# then the project's tables and the held-out lookahead_lena's (480 games
	# every order each; pair margins by reports/pair.py).
	R=$OUT/cleo-open
	[ "$OUT" = results/bovine-borders/finetune ] || { echo "cleo-open: cleo-rl.yaml names paths under the default OUT" >&2; exit 2; }
	"$GG" train --game bovine-borders --init models/bovine-borders/final.safetensors --config reports/bovine-borders/finetune/s80/cleo-open.yaml --seed 1 --out "$R/run" -q
	C=$R/run/checkpoints/iter-000030/weights.safetensors
	t() { "$GG" tournament -q --game bovine-borders --bots "$1" --games "$3" --all-orders --seed 1 --report "$R/$2" | sed -n 2,7p; }
	t "cand=$C,centre_cleo,greedy,defensive_dan_heng" a 480
	t "cand=$C,centre_cleo,voronoi_vera,greedy" b 240
	t "cand=$C,lookahead_lena,greedy,defensive_dan_heng" lena-gd 480
	t "cand=$C,lookahead_lena,centre_cleo,voronoi_vera" lena-cv 480
	t "net=models/bovine-borders/final.safetensors,centre_cleo,greedy,defensive_dan_heng" ship-a 480
	"$GG" weights average models/bovine-borders/final.safetensors "$C" --out "$R/soup.safetensors"
	t "soup=$R/soup.safetensors,centre_cleo,greedy,defensive_dan_heng" soup-a 480
	t "soup=$R/soup.safetensors,centre_cleo,voronoi_vera,greedy" soup-b 240
	# Then PPO from the candidate against racers, fillers and networks (cleo-rl.yaml).
	"$GG" train --game bovine-borders --init "$C" --config reports/bovine-borders/finetune/s80/cleo-rl.yaml --seed 1 --out "$R/rl" -q
	L=$R/rl/checkpoints/iter-000060/weights.safetensors
	t "rl=$L,centre_cleo,greedy,defensive_dan_heng" rl-a 480
	t "rl=$L,centre_cleo,voronoi_vera,greedy" rl-b 240
	t "rl=$L,lookahead_lena,greedy,defensive_dan_heng" rl-lena-gd 480
	t "rl=$L,lookahead_lena,centre_cleo,voronoi_vera" rl-lena-cv 480
	for x in a/cand:centre_cleo a/cand:greedy b/cand:centre_cleo lena-gd/cand:lookahead_lena lena-cv/cand:lookahead_lena lena-cv/cand:voronoi_vera ship-a/net:centre_cleo soup-a/soup:centre_cleo soup-b/soup:centre_cleo rl-a/rl:centre_cleo rl-b/rl:centre_cleo rl-lena-gd/rl:lookahead_lena rl-lena-cv/rl:lookahead_lena; do
		d=${x%%/*} p=${x#*/}
		python3 reports/pair.py "$R/$d/games.jsonl" "${p%%:*}" "${p#*:}"
	done
	;;
*)
	echo "usage: sh reports/bovine-borders/finetune/run.sh train | eval [WEIGHTS] | train2 | train3 | clone | sampled [SPEC] | exploit SPEC NAME | league | cleo-open" >&2
	exit 2
	;;
esac
