#!/bin/sh
# eval.sh CKPT CLONE OUTDIR: the Bovine Borders ExIt tables for one checkpoint
set -e
C=$1; CL=$2; O=$3; G=${GG:-gridgym}
mkdir -p $O
cd "$(git rev-parse --show-toplevel)"
for s in 1 2; do
  $G tournament -q --game bovine-borders --bots x=$C,clone=$CL,greedy,defensive_dan_heng --games 408 --all-orders --seed $s --report $O/table-seed$s > $O/table-seed$s.txt 2>&1
  python3 reports/pair.py $O/table-seed$s/games.jsonl x clone > $O/pair-seed$s.txt
  python3 reports/pair.py $O/table-seed$s/games.jsonl x greedy >> $O/pair-seed$s.txt
done
$G rate --game bovine-borders --report $O/pooled $O/table-seed1/games.jsonl $O/table-seed2/games.jsonl > $O/rate.txt 2>&1
