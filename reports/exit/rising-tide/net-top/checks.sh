#!/bin/sh
# rtck.sh RUN ITER...: 96-game checks in every order: x, clone, wall_warsaw, trench_tunis, seed 2
R=$1; shift; C=$R/checkpoints/iter-000000/weights.safetensors
for i in "$@"; do
  d=$R/checkpoints/iter-$(printf %06d $i)
  /tmp/ggs tournament -q --game rising-tide --bots x=$d/weights.safetensors,clone=$C,wall_warsaw,trench_tunis --games 96 --all-orders --seed 2 --workers 1 --report /tmp/rtck-$i 2>&1 | awk -v i=$i '/^ +[0-9] /{p[$2]=$5} END{printf "%3d x %.1f clone %.1f wall_warsaw %.1f trench_tunis %.1f  ", i, p["x"], p["clone"], p["wall_warsaw"], p["trench_tunis"]}'
  sed -n '/^| 1 |/,/^| 4 |/p' /tmp/rtck-$i/report.md | awk -F'|' '{printf "%s %s  ", $3, $4}'; echo
done
