#!/bin/sh
# A Slime program bot (slime R14-R15) that keeps a file in its own folder,
# as the competition allows (its only memory between turns): one line per
# move in memory.txt beside it. It also tries to write the file named in
# "outside" beside it (a folder that is not its own), and says on stderr
# what happened. hostile_test.go reads both.
d=$(dirname "$0")
if echo move >>"$d/memory.txt"; then echo "own folder: ok" >&2; else echo "own folder: denied" >&2; fi
if echo x >"$(cat "$d/outside")"; then echo "outside: ok" >&2; else echo "outside: denied" >&2; fi
echo "0 0 1 1"
