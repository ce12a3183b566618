#!/bin/sh
# Each bot's mean log-score as a Nuggets game goes, over the replays of a tournament
# report (README "Where the shipped network loses"). From the repository root:
#   gridgym tournament --game nuggets --bots "net=models/nuggets/final.safetensors,appraiser_april,fortress,greedy_tuned" \
#       --games 48 --all-orders --seed 7 --replays 48 --report results/nuggets/finetune/diag
#   sh reports/nuggets/finetune/traj.sh results/nuggets/finetune/diag
set -eu
GG=${GG:-gridgym}
command -v "$GG" >/dev/null || { go build -o /tmp/gridgym-traj ./cmd/gridgym && GG=/tmp/gridgym-traj; }
for f in "$1"/replays/replay-*.jsonl; do
	bots=$(head -1 "$f" | python3 -c 'import json,sys; print(",".join(json.load(sys.stdin)["bots"]))')
	for s in 60 100 140 180 200 220 240 250 255 260; do
		"$GG" replay "$f" --step $s --no-color | grep "^move" | sed "s/^/$bots /"
	done
done | python3 -c '
import re, sys, collections
acc = collections.defaultdict(list)
for line in sys.stdin:
    bots, rest = line.split(" ", 1)
    bots = bots.split(",")
    step = int(re.search(r"move (\d+)/", rest).group(1))
    for seat, v in re.findall(r"(\d):([\d.]+)", rest.split("log-score")[1]):
        acc[(bots[int(seat)], step)].append(float(v))
steps = sorted({k[1] for k in acc})
names = sorted({k[0] for k in acc})
print("move " + " ".join(f"{n:>16}" for n in names))
for s in steps:
    print(f"{s:4d} " + " ".join(f"{sum(acc[n, s]) / len(acc[n, s]):16.2f}" for n in names))
'
