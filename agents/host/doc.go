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
// the namespaces, starts the bot as its child under Landlock, seccomp and
// its user (from a thread of its own, which alone takes them on) and sets
// the bot's limits while it is stopped at its execution (it starts traced,
// then is let go), so that the limits bind the bot and never the sandbox's
// Go runtime; then it waits for the bot. The sandbox gets SIGKILL when
// gridgym dies (its parent-death signal), even by SIGKILL. Its parts, and
// what replaces each where it is missing (SandboxSummary says which apply
// here; what a machine lacks is logged once):
//
//   - User. When gridgym is root the bot runs as user and group nobody
//     (65534) with no other group and no capability: it owns no file
//     outside its own, so chmod, chown, utime and setxattr of gridgym's
//     binary or any other file fail, and /etc/shadow is unreadable. Its
//     program, the Python installation and its folders must be readable by
//     nobody; where one is not (a bot under /root, mode 0700) the bot runs
//     as root with no capability (its bounding set emptied: Landlock,
//     which hides /etc/shadow, and seccomp bound what root's file rights
//     leave), which the log says once, naming the file. Where the bot runs
//     as gridgym's own user (that root fallback, or gridgym not root: the
//     user may own gridgym's binary), the seccomp filter refuses chmod and
//     utime too.
//   - Environment. The bot gets only PATH, HOME and TMPDIR (its temporary
//     folder), the locale and TZ, one BLAS thread (OPENBLAS_NUM_THREADS=1
//     and kin, unless gridgym's environment sets them), what locates a
//     Python installation (VIRTUAL_ENV, PYTHONHOME, PYTHONPATH, PYENV_*),
//     and the host's own variables: no credential (AWS_*) nor GRIDGYM_*.
//   - Descendants. The sandbox has a session and a process group of its
//     own. As root it is the init of new PID and mount namespaces with a
//     fresh /proc: when the bot exits or is killed, or gridgym dies, so
//     does the sandbox, and the kernel kills every process left in the
//     namespace, setsid children and double-forked daemons included.
//     Without the right to make namespaces (not root, a restricted
//     container) the sandbox is a child subreaper: orphaned descendants are
//     re-parented to it and it kills them once the bot has exited; if the
//     sandbox itself is killed (a hung bot), its session and, where there
//     is one, its cgroups are killed. Best effort there: a process that made
//     a session of its own escapes the session scan, and is caught only by
//     a cgroup; after a SIGKILL of gridgym such a process lives on until
//     the next gridgym's cleanup.
//   - Network and IPC. As root the sandbox has new network and IPC
//     namespaces: no interface but a loopback that is down, no abstract
//     unix socket or System V IPC object of the host. Everywhere the
//     seccomp filter refuses socket() of every family (socketpair stays),
//     so a named unix socket of the host, which whoever may walk to it
//     reaches, is out of reach too.
//   - Seccomp (amd64, arm64; none elsewhere): refused with EPERM are mknod,
//     ptrace (but PTRACE_TRACEME), mount and the new mount calls,
//     pivot_root, the keyring, bpf, perf_event_open, userfaultfd, kexec and
//     modules, setns, unshare and clone with a namespace flag (clone3 says
//     ENOSYS, so the C library falls back to clone), io_uring, file
//     handles, process_vm_*, syslog, chown and the xattr setters; no_new_privs
//     is set.
//   - Limits (Options.Memory, CPU, Procs; DefaultMemory, DefaultCPU,
//     DefaultProcs; gridgym's --bot-memory, --bot-cpu, --bot-procs; and
//     DefaultFileSize). Each process has RLIMIT_AS (Memory), RLIMIT_CPU and
//     RLIMIT_FSIZE (DefaultFileSize). The whole bot, all its processes
//     together, has Memory in a memory cgroup made per bot (cgroup v2's
//     memory.max where gridgym's cgroup delegates the controller, else
//     cgroup v1's memory.limit_in_bytes below gridgym's own memory cgroup,
//     as root; the kernel's OOM killer then ends one of its processes),
//     and its process count in a pids cgroup (cgroup v1's pids hierarchy,
//     made per bot as root; it counts threads, the sandbox process's
//     handful included). Without a memory cgroup the memory limit is per
//     process only. Without a pids cgroup the count is RLIMIT_NPROC, which
//     counts every task (process or thread) of the bot's user, so the bot
//     gets the limit more than the user runs when it starts (approximate:
//     other programs of the user move it); the kernel does not apply
//     RLIMIT_NPROC to root: as root without a pids cgroup, the count is not
//     limited. As root the temporary folder is a tmpfs of DefaultFileSize
//     (bounded in total, counted as the bot's memory); elsewhere only each
//     file is bounded. A Python bot over its memory gets MemoryError
//     (logged with the limit, played as no answer); one over its CPU time
//     is killed, logged as a crash naming the limit (the sandbox writes the
//     cause on stderr); one refused a process, or a write past the file
//     size, gets an OSError. A bot log (Options.BotLog) stops at 16 MiB,
//     with a line that says the rest was dropped.
//   - Files, where the kernel has Landlock (Linux 5.13+): the bot may read
//     and execute the system's trees (/usr, /bin, /lib*, /etc but its
//     secrets — shadow, gshadow, sudoers, ssh, ssl —, the CPU description
//     in /sys), the Python installation (the interpreter's prefix, a
//     virtual environment and its base), its own folder (the bot file's; a
//     cmd: bot's program folder and every argument naming a file or folder)
//     and, inside its PID namespace, its own /proc; it may write its
//     temporary folder ($TMPDIR, made per process and removed after) and,
//     a program bot (Slime, whose rules let a bot keep files in its own
//     folder), its own folder: the program's, or the first file argument's
//     where the program is an interpreter. As nobody it gets that folder
//     by an ACL entry user:nobody:rwx for as long as a process of the bot
//     runs (the folder's ACL and mode are restored after; its new files
//     stay nobody's). Opponents' files (unless they share the bot's
//     folder), report folders, the working directory (unless it is the
//     bot's folder) and gridgym's /proc entries are out of reach; a denied
//     access is an OSError in the bot. With Landlock ABI 4+ TCP is refused
//     too, with ABI 6+ signals and abstract unix sockets outside the
//     sandbox. Without Landlock files are restricted only by the bot's
//     user: as nobody it reads what all may read (other bots' files
//     included); as gridgym's user, what that user can.
//   - Leftovers. A bot's temporary folder (gridgym-bot-PID-…) and cgroups
//     (gridgym-PID-N) are removed when its process ends; those of a
//     gridgym that was killed (its PID no longer running) are removed, with
//     any process still in them, when the next gridgym starts a bot.
//
// Outside Linux there is no sandbox: bots run in their own process group
// with time limits only. Starting the sandbox costs some milliseconds,
// which are not counted in the bot's time (start waits for the sandbox to
// have started the bot).
//
// The Python interpreter is /usr/bin/python3 unless $GRIDGYM_PYTHON (or
// Options.Python) names another; NumPy is needed only by bots that use it
// and by Bovine Borders' int16 board.
package host
