// Package host lets a user's own bot, in the form its competition runs it,
// play in gridgym: a Python bot file, called through the competition's
// entry point by a small Python process (host.py), or, for a program
// competition such as Slime, any command line run once per move.
//
// Bots are named by specs, wherever a bot name goes (the package registers
// an agents.Resolver):
//
//	py:bots/mine.py             Rising Tide's my_bot_fn, the others' bot
//	py:bots/mine.py:my_policy   another function of the file
//	cmd:./slime_bot --fast      Slime: run as ./slime_bot --fast P,row0,...
//
// Requests and answers go through the game's rules.Codec, so the bot sees
// exactly the competition's arguments (in the competition's Python types:
// host.py turns Bovine Borders' board into NumPy int16 scalars and
// Rectangle's robot cells into tuples) and its answer is read as the
// competition reads it. The competition's time limit is enforced (Competition
// holds every game's entry point and limit, from §5 of its rules file); an
// exception, a late answer, a crash or a hang is the game's treatment of no
// answer, is counted (Events) and logged, and the game goes on.
//
// Hosted agents own processes: they implement io.Closer, and whoever makes
// them (a tournament, play) must Close each one when its game is over.
// KillAll ends every process still running, for signal handlers.
//
// The Python interpreter is /usr/bin/python3 unless $GRIDGYM_PYTHON (or
// Options.Python) names another; NumPy is needed only by bots that use it
// and by Bovine Borders' int16 board.
package host
