#!/bin/sh
# Session 83's Slime probes beside the field (reports/heldout-forms/README.md), not kept:
#   sh reports/heldout-forms/slime/run.sh    # about 55 minutes on a 2-core machine
set -e
OUT=results/heldout-forms/slime
GG=${GG:-gridgym}
D=reports/heldout-forms/slime
$GG train --config $D/ft5.yaml --init models/slime/final.safetensors --out $OUT/run5 --seed 1   # stage 5: the field in the pool
$GG train --config $D/xf.yaml --init models/slime/final.safetensors --out $OUT/xf --seed 1       # an exploiter beside the network and simplebots
$GG train --config $D/ft6.yaml --init models/slime/final.safetensors --out $OUT/run6 --seed 1   # stage 6: that exploiter in the pool
# a fresh exploiter of each, beside the field (every seating order)
$GG exploit --target models/slime/final.safetensors --with field --iterations 60 --games 480 --seed 1 --out $OUT/xfair-shipped
$GG exploit --target $OUT/run6/checkpoints/iter-000060/weights.safetensors --with field --iterations 60 --games 480 --seed 1 --out $OUT/xfair-run6
$GG heldout --game slime --bot x=$OUT/run6/checkpoints/iter-000060/weights.safetensors --report $OUT/heldout6
$GG train --config $D/ft7.yaml --init models/slime/final.safetensors --out $OUT/run7 --seed 1   # stage 7: the three field exploiters, PFSP
$GG heldout --game slime --bot x=$OUT/run7/checkpoints/iter-000060/weights.safetensors --report $OUT/heldout7
$GG exploit --target $OUT/run7/checkpoints/iter-000060/weights.safetensors --with field --iterations 60 --games 480 --seed 1 --out $OUT/xfair-run7
$GG train --config $D/ft8.yaml --init $OUT/run7/checkpoints/iter-000060/weights.safetensors --out $OUT/run8 --seed 1   # stage 8: stage 7 continued
$GG heldout --game slime --bot x=$OUT/run8/checkpoints/iter-000060/weights.safetensors --report $OUT/heldout8
