#!/bin/sh
# A Slime bot in the competition's form (slime R14-R15), for host_test.go:
# run as `sh slime.sh MODE P,row0,...`. MODE fixed prints each player's
# opening spread from its corner (legal on an 8x8 board's first round);
# hang sleeps; garbage prints no move; illegal a move of distance 5; pass the game's pass
# answer (rules.Program.Pass); fail exits 1 after a message on stderr.
case "$1" in
fixed)
	case "$2" in
	1,*) echo "0 0 1 1" ;;
	2,*) echo "0 7 1 6" ;;
	3,*) echo "7 0 6 1" ;;
	*) echo "7 7 6 6" ;;
	esac ;;
hang) sleep 30; echo "0 0 1 1" ;;
garbage) echo "hello world" ;;
illegal) echo "0 0 5 5" ;;
pass) echo "-1 -1 -1 -1" ;;
fail) echo "slime.sh: cannot think" >&2; exit 1 ;;
esac
