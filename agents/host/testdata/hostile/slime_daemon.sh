#!/bin/sh
# A Slime program bot (slime R14-R15) that leaves a daemon behind at every
# move: a process in a session of its own, carrying the marker that the test
# wrote in the file "marker" beside this script, which sandbox_test.go looks
# for in /proc while the move runs and once it is
# over. It answers player 1's opening spread 1 s later (0.3 s was too short on
# a loaded 2-core machine: the move was over before the test saw the daemon).
marker=$(cat "$(dirname "$0")/marker")
setsid python3 -c 'import time; time.sleep(1000)' "$marker" </dev/null >/dev/null 2>&1 &
sleep 1
echo "0 0 1 1"
