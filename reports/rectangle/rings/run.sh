#!/bin/sh
# The clone (C) is not shipped: make it first with
#   gridgym train --game rectangle --preset rings --clone-only --out runs/rectangle-clone
# Issue 22's tables for the Rectangle rings preset (reports/rectangle/rings/README.md):
#   sh reports/rectangle/rings/run.sh            # the shipped models/rectangle/final.safetensors and the clone made above; raw outputs to results/rectangle/rings/ (git-ignored)
#   (the run before ring_guard: before-guard/README.md has its command)
# or, after gridgym train --game rectangle --preset rings --out runs/rect-rings:
#   F=runs/rect-rings/checkpoints/iter-000060/weights.safetensors \
#   C=runs/rect-rings/checkpoints/iter-000000/weights.safetensors sh reports/rectangle/rings/run.sh
# The networks were trained with ring_memory=true and ring_guard=true, which the game state carries: the
# tournaments adopt it (a note on stderr says so).
export D=${D:-results/rectangle/rings}
export F=${F:-models/rectangle/final.safetensors}
export C=${C:-runs/rectangle-clone/checkpoints/iter-000000/weights.safetensors}
exec sh reports/rectangle/tables.sh
