#!/bin/sh
# Rising Tide: a network cloned from siege_sofia with DAgger (issue 54). From the repository root:
#   sh reports/rising-tide/siege/run.sh teacher              # d0: siege_sofia's own games (100,000 env steps)
#   sh reports/rising-tide/siege/run.sh clone K NET          # clone on d0..dK into OUT/cK-NET (NET: small 16x3, big 32x6)
#   sh reports/rising-tide/siege/run.sh round K NET PLAYER   # dK: PLAYER plays siege_sofia's seat, siege_sofia labels
#                                                            # (dagger:siege_sofia:PLAYER), then clone K NET
#   sh reports/rising-tide/siege/run.sh diverse K PLAYER     # eK: PLAYER plays siege_sofia's seat in three pools of
#                                                            # project bots (the lineup above; siege_sofia and wall_warsaw
#                                                            # copies; sample bots), siege_sofia labels every position
#   sh reports/rising-tide/siege/run.sh dclone K             # 32x6 clone on d0 and e1..eK into OUT/eK-big
#   sh reports/rising-tide/siege/run.sh fclone K             # the same with the flood planes (clone-flood.yaml) into OUT/fK-big
#   sh reports/rising-tide/siege/run.sh ppo                  # PPO from the 16x3 clone of siege_sofia's games (ppo.yaml)
#   sh reports/rising-tide/siege/run.sh eval SPEC TAG [N]    # N games (480) every order against each held-out bot
#                                                            # with wall_warsaw and sapper_seoul; margins by reports/pair.py
#   sh reports/rising-tide/siege/run.sh tables SPEC TAG      # against the network it replaced, its teacher, the plain
#                                                            # clone (clone 0 small), and the mirror (480 games each)
# The session-65 network: teacher; clone 0 small; round 1 small OUT/c0-small/...; round 2 small OUT/c1-small/...;
# clone 2 big; round 3 big OUT/c2-big/...; round 4 big OUT/c3-big/... (README.md). Held-out bots are only evaluated.
# TEACHER=solo_stockholm (default siege_sofia) makes teacher, diverse, dclone and fclone use that bot: its games, labels,
# its copies in the pools, the clone of its decisions; with OUT=results/rising-tide/solo (README.md, "solo_stockholm").
set -eu
OUT=${OUT:-results/rising-tide/siege}
mkdir -p "$OUT"
GG=${GG:-$OUT/gridgym}
[ -x "$GG" ] || go build -o "$GG" ./cmd/gridgym
DIR=reports/rising-tide/siege
T=${TEACHER:-siege_sofia}
LINEUP="wall_warsaw,sapper_seoul,nearby_new_orleans,trench_tunis"
weights() { echo "$OUT/c$1-$2/checkpoints/iter-000000/weights.safetensors"; }
shards() { "$GG" selfplay -q --game rising-tide --agents "$1,$LINEUP" --envs 8 --steps 100000 --seed "$((11 + $2))" --out "$OUT/d$2"; }
clone() {
	k=$1 net=$2 pre=${3:-d} dst=${4:-c} yaml=${5:-clone.yaml}
	case $net in
	small) arch="{filters: 16, layers: 3, hidden: 32}" ;;
	big) arch="{filters: 32, layers: 6, hidden: 64}" ;;
	*) echo "network $net: want small or big" >&2; exit 2 ;;
	esac
	s=$OUT/s$dst$k
	rm -rf "$s" && mkdir -p "$s"
	i=0
	while [ $i -le "$k" ]; do
		d=$OUT/$pre$i
		[ $i -eq 0 ] && d=$OUT/d0 # the teacher's own games start every data set
		for f in "$d"/*.arrow; do cp "$f" "$s/$pre$i-${f##*/}"; done
		i=$((i + 1))
	done
	sed "s#SHARDS#$s#; s#NETWORK#$arch#; s#teacher: siege_sofia#teacher: $T#" "$DIR/$yaml" > "$OUT/$dst$k-$net.yaml"
	"$GG" train -q --config "$OUT/$dst$k-$net.yaml" --clone-only --out "$OUT/$dst$k-$net"
}
# diverse K PLAYER: round K of the diverse DAgger data, OUT/eK, 340,000 env steps in three pools
diverse() {
	k=$1 s="$T=dagger:$T:$2"
	rm -rf "$OUT/e$k"
	"$GG" selfplay -q --game rising-tide --agents "$s,$LINEUP" --envs 8 --steps 100000 --seed "$((101 + 10 * k))" --out "$OUT/e$k/a"
	"$GG" selfplay -q --game rising-tide --agents "$s,a=$T,b=$T,wall_warsaw,w=wall_warsaw,sapper_seoul" --envs 8 --steps 120000 --seed "$((102 + 10 * k))" --out "$OUT/e$k/b"
	"$GG" selfplay -q --game rising-tide --agents "$s,a=$T,sapper_seoul,border_barcelona,nearby_new_orleans,trench_tunis" --envs 8 --steps 120000 --seed "$((103 + 10 * k))" --out "$OUT/e$k/c"
	for p in a b c; do for f in "$OUT/e$k/$p"/*.arrow; do mv "$f" "$OUT/e$k/$p-${f##*/}"; done; rmdir "$OUT/e$k/$p"; done
}
case "${1:-}" in
teacher) shards "$T" 0 ;;
clone) clone "$2" "$3" ;;
round)
	shards "siege_sofia=dagger:siege_sofia:$4" "$2"
	clone "$2" "$3"
	;;
diverse) diverse "$2" "$3" ;;
dclone) clone "$2" big e e ;;
fclone) clone "$2" big e f clone-flood.yaml ;;
ppo) "$GG" train -q --config $DIR/ppo.yaml --out "$OUT/ppo-small" ;;
eval)
	for h in breach_berlin levee_lima sniper_santiago; do
		"$GG" tournament -q --game rising-tide --bots "net=$2,$h,wall_warsaw,sapper_seoul" --games "${4:-480}" --all-orders --seed 1 --report "$OUT/$3-$h" >/dev/null
		python3 reports/pair.py "$OUT/$3-$h/games.jsonl" net "$h" | tail -1
	done
	;;
tables)
	# the candidate's other tables: the replaced network, its teacher, the plain clone, the mirror
	t() { "$GG" tournament -q --game rising-tide --bots "$1" --games 480 --all-orders --seed 1 --report "$OUT/$3-$2" >/dev/null; }
	OLD=$OUT/strong.safetensors
	[ -s "$OLD" ] || git show b298b82:models/rising-tide/final.safetensors >"$OLD"
	t "net=$2,shipped=$OLD,wall_warsaw,trench_tunis" regression "$3"
	python3 reports/pair.py "$OUT/$3-regression/games.jsonl" net shipped | tail -1
	python3 reports/pair.py "$OUT/$3-regression/games.jsonl" net wall_warsaw | tail -1
	t "net=$2,siege_sofia,wall_warsaw,sapper_seoul" teacher "$3"
	python3 reports/pair.py "$OUT/$3-teacher/games.jsonl" net siege_sofia | tail -1
	t "net=$2,clone=$(weights 0 small),wall_warsaw,trench_tunis" clone "$3"
	python3 reports/pair.py "$OUT/$3-clone/games.jsonl" net clone | tail -1
	t "a=$2,b=$2,wall_warsaw,trench_tunis" mirror "$3"
	t "net=$2,trench_tunis,nearby_new_orleans,border_barcelona" alone "$3"
	python3 reports/mirror_ratio.py "$OUT/$3-mirror/games.jsonl" "$OUT/$3-alone/games.jsonl" net a b
	;;
*)
	sed -n 2,20p "$0"
	exit 2
	;;
esac
