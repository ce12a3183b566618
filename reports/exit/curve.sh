#!/bin/sh
# curve.sh GAME RUN STEP GAMES STRONG OTHER [all]: each STEP-th checkpoint of the run folder RUN
# against its clone (checkpoint 0), STRONG and OTHER, GAMES games (seed 2; "all": every seating
# order); prints iteration, both PL ratings, their gap and both mean scores as CSV.
# GG names the gridgym binary (default: gridgym on PATH).
Gm=$1; R=$2; S=$3; N=$4; B1=$5; B2=$6; AO=${7:+--all-orders}
G=${GG:-gridgym}
C=$R/checkpoints/iter-000000/weights.safetensors
T=$(mktemp -d)
echo "iteration,pl_x,pl_clone,pl_gap,score_x,score_clone"
for d in $(ls -d $R/checkpoints/iter-*); do
  i=$(basename $d | sed 's/iter-0*//'); [ -z "$i" ] && i=0
  [ $((i % S)) -ne 0 ] && continue
  rm -rf $T/r
  $G tournament -q --game $Gm --bots x=$d/weights.safetensors,clone=$C,$B1,$B2 --games $N $AO --seed 2 --report $T/r > $T/out.txt 2>&1
  python3 - $T $i <<'PY'
import re, sys
T, i = sys.argv[1], sys.argv[2]
md = open(T + '/r/report.md').read()
pl = {}
for line in md[md.index('## Ratings'):].splitlines():
    m = re.match(r'\| \d+ \| (\S+) \| ([+-]?\d+) \|', line)
    if m:
        pl[m.group(1)] = int(m.group(2))
sc = {}
for line in open(T + '/out.txt'):
    f = line.split()
    if len(f) > 5 and f[0].isdigit():
        sc[f[1]] = f[4]
print(f"{i},{pl['x']},{pl['clone']},{pl['x'] - pl['clone']},{sc['x']},{sc['clone']}")
PY
done
rm -rf $T
