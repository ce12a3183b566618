#!/bin/sh
# Session 84: two Slime leagues from the shipped network, the same settings but for
# where the main exploiter trains (reports/league/slime-field/README.md):
#   sh reports/league/slime-field/run.sh           # both leagues, then every table (~90 minutes, 2 cores)
#   sh reports/league/slime-field/run.sh tables    # the tables only, on leagues already played
# A: the main exploiter against three copies of the main agent (the league's default);
# B: --exploit-with field, beside the main agent and two simplebots.
# Raw outputs go to the git-ignored results/league/slime-field/.
set -eu
OUT=${OUT:-results/league/slime-field}
GG=${GG:-gridgym}
D=reports/league/slime-field
mkdir -p "$OUT"
if [ "${1:-}" != tables ]; then
	for arm in A B; do
		with=""
		[ $arm = B ] && with="--exploit-with field"
		# shellcheck disable=SC2086
		$GG league --game slime --dir "$OUT/$arm" --init models/slime/final.safetensors --config $D/base.yaml \
			--iterations 10 --league-exploiters 0 --rounds 12 --payoff-games 24 --seed 1 $with \
			--eval hunter --eval-with field --eval-games 48
	done
fi
for arm in A B; do
	net=$OUT/$arm/main/final.safetensors
	# the held-out bots beside the reference bots and beside the field, 408 games every order
	$GG heldout --game slime --bot "$arm=$net" --report "$OUT/heldout-$arm"
	# no regression: against the shipped network and greedy
	$GG tournament -q --game slime --bots "$arm=$net,shipped=models/slime/final.safetensors,greedy,simplebot" \
		--games 480 --all-orders --seed 1 --report "$OUT/project-$arm"
	python3 reports/pair.py "$OUT/project-$arm/games.jsonl" "$arm" shipped
	python3 reports/pair.py "$OUT/project-$arm/games.jsonl" "$arm" greedy
	# exploitability beside the field: a 60-iteration exploiter, every order
	$GG exploit --target "$net" --with field --iterations 60 --games 480 --seed 1 --out "$OUT/xfield-$arm"
done
