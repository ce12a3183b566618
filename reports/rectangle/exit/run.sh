#!/bin/sh
# Issue 22's tables for the Rectangle exit preset (reports/rectangle/exit/README.md).
#   RUN=runs/rect-exit sh reports/rectangle/exit/run.sh
# after: gridgym train --game rectangle --preset exit --out $RUN
RUN=${RUN:-runs/rect-exit}
export D=${D:-results/rectangle/exit}
export F=$RUN/checkpoints/iter-000060/weights.safetensors
export C=$RUN/checkpoints/iter-000000/weights.safetensors
exec sh reports/rectangle/tables.sh
