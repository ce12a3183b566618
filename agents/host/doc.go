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
// holds every game's entry point and limit, from §5 of its rules file),
// by gridgym's own clock: a bot cannot hide its time by patching the one it
// shares with its host process (see Python); an exception, a late answer, a
// crash or a hang is the game's treatment of no answer, is counted (Events)
// and logged, and the game goes on.
//
// Hosted agents own processes: they implement io.Closer, and whoever makes
// them (a tournament, play) must Close each one when its game is over.
// KillAll ends every process still running, for signal handlers.
//
// # Sandbox
//
// On Linux every hosted bot process runs in a sandbox made of what the
// kernel offers, with no service to install. The host starts its own
// executable (/proc/self/exe) with a marker argument; this package's init
// sees the marker (one comparison: no other program is affected, test
// binaries and every program importing the package work alike), sets up
// the namespaces, starts the bot as its child under Landlock (from a thread
// of its own) and sets the bot's limits while it is stopped at its
// execution (it starts traced, then is let go), so that the limits bind the
// bot and never the sandbox's Go runtime; then it waits for the bot.
// Its parts, and what replaces each where it is missing:
//
//   - Descendants. The sandbox has a session and a process group of its
//     own. As root it is the init of new PID and mount namespaces with a
//     fresh /proc: when the bot exits or is killed, so is the sandbox, and
//     the kernel kills every process left in the namespace, setsid children
//     and double-forked daemons included. Without the right to make
//     namespaces (not root, a restricted container) the sandbox is a child
//     subreaper: orphaned descendants are re-parented to it and it kills
//     them once the bot has exited; if the sandbox itself is killed (a hung
//     bot), its session and, where there is one, its pids cgroup are
//     killed. Best effort there: a process that made a session of its own
//     escapes the session scan, and is caught only by the cgroup.
//   - Limits (Options.Memory, CPU, Procs; DefaultMemory, DefaultCPU,
//     DefaultProcs; gridgym's --bot-memory, --bot-cpu, --bot-procs).
//     RLIMIT_AS and RLIMIT_CPU per process. The process count is enforced by
//     a pids cgroup (cgroup v1's pids hierarchy, made per bot as root; it
//     counts threads, the sandbox process's handful included); else by RLIMIT_NPROC, which counts every task
//     (process or thread) of the user, gridgym's included, so the bot gets
//     the limit more than the user runs when it starts (approximate: other
//     programs of the user move it); the kernel does not apply RLIMIT_NPROC
//     to root: as root without a pids cgroup, the count is not limited (the
//     PID namespace's own count is no limit). A
//     Python bot over its memory gets MemoryError (logged with the limit,
//     played as no answer); one over its CPU time is killed, logged as a
//     crash naming the limit (the sandbox writes the cause on stderr); one
//     refused a process gets an OSError. NumPy's BLAS gets one thread
//     (OPENBLAS_NUM_THREADS=1 and kin, unless set): a NumPy bot runs well
//     within the default 2 GiB.
//   - Files, where the kernel has Landlock (Linux 5.13+): the bot may read
//     and execute the system's trees (/usr, /bin, /lib*, /etc, the CPU
//     description in /sys), the Python installation (the interpreter's
//     prefix, a virtual environment and its base), its own folder (the bot
//     file's; a cmd: bot's program folder and every argument naming a file
//     or folder) and, inside its PID namespace, its own /proc; it may write
//     only its temporary folder ($TMPDIR, made per process and removed
//     after). Opponents' files (unless they share the bot's folder), report
//     folders, the working directory (unless it is the bot's folder) and gridgym's /proc entries are out of
//     reach; a denied access is an OSError in the bot. With Landlock ABI 4+
//     TCP is refused too, with ABI 6+ signals and abstract unix sockets
//     outside the sandbox. Without Landlock files are not restricted: the
//     bot can read and write what the user can (the PID namespace still
//     hides gridgym's /proc entries).
//
// What a machine lacks is logged once (SandboxSummary says it all).
// Outside Linux there is no sandbox: bots run in their own process group
// with time limits only. Starting the sandbox costs some milliseconds,
// which are not counted in the bot's time (start waits for the sandbox to
// have started the bot).
//
// The Python interpreter is /usr/bin/python3 unless $GRIDGYM_PYTHON (or
// Options.Python) names another; NumPy is needed only by bots that use it
// and by Bovine Borders' int16 board.
package host
