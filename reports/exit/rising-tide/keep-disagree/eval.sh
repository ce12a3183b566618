#!/bin/sh
# eval.sh CKPT CLONE OUTDIR: issue-22/23 style tables for one Rising Tide checkpoint
set -e
C=$1; CL=$2; O=$3; G=${GG:-${GG:-gridgym}}
mkdir -p $O
cd "$(git rev-parse --show-toplevel)"
$G tournament -q --game rising-tide --bots x=$C,clone=$CL,wall_warsaw,trench_tunis --games 408 --all-orders --seed 2 --report $O/t408 > $O/t408.txt 2>&1
python3 reports/pair.py $O/t408/games.jsonl x clone > $O/pair.txt
python3 reports/pair.py $O/t408/games.jsonl x wall_warsaw >> $O/pair.txt
$G tournament -q --game rising-tide --bots a=$C,b=$C,wall_warsaw,trench_tunis --games 408 --all-orders --seed 1 --report $O/mirror > $O/mirror.txt 2>&1
$G tournament -q --game rising-tide --bots final=$C,trench_tunis,nearby_new_orleans,border_barcelona --games 408 --all-orders --seed 1 --report $O/alone > $O/alone.txt 2>&1
python3 reports/mirror_ratio.py $O/mirror/games.jsonl $O/alone/games.jsonl final a b > $O/ratio.txt
${RTSINK:-/tmp/rtsink} 400 $C $CL wall_warsaw trench_tunis > $O/sink.txt
grep -A7 "## Ratings" $O/t408/report.md | tail -4
cat $O/pair.txt $O/ratio.txt; tail -n 1 $O/sink.txt
