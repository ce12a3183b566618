package host

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// Options tunes hosted bots. Zero fields take the defaults documented on
// each; Defaults holds the ones the bot specs (py:, cmd:) use.
type Options struct {
	// Limit is the wall-clock limit of one move; 0 = the competition's
	// (Competition.Limit, 0.1 s in every game). A Python bot's call is
	// timed inside its host process, as the competitions time it, and its
	// move by gridgym's own clock from the request written to the answer
	// read, which the bot cannot fake (that one gets transportAllowance on
	// top, for the pipes); a program's turn from its start to the first
	// line of its output.
	Limit time.Duration
	// HangAfter is how long a Python bot may go without answering before
	// its process is killed (and restarted for its next move); a late
	// answer before then is discarded but the process, with its memory,
	// lives on, as in the competitions, where the call is not interrupted.
	// For a program, how long it may run on after its answer. 0 = 10 × Limit,
	// at least 1 s.
	HangAfter time.Duration
	// StartTimeout bounds the start of a Python bot: the interpreter, the
	// import of its file (and of NumPy). 0 = 30 s.
	StartTimeout time.Duration
	// Python is the interpreter; "" = $GRIDGYM_PYTHON, else /usr/bin/python3,
	// else python3 on the PATH.
	Python string
	// Log receives one line per event (see Events); nil = os.Stderr.
	Log io.Writer
	// Output receives what the bot prints (its standard error, and for a
	// Python bot its standard output too, as the competitions send it to
	// their log), and a Python bot's exceptions with their tracebacks;
	// nil = BotLog's file, or discarded (the last line is quoted in event
	// logs).
	Output io.Writer
	// BotLog, if set (and Output is nil), is a folder where each bot spec's
	// own output is kept, in BOT-GAME.log (the spec with every character
	// but letters, digits, '.', '-' and '_' made '_'), shared by all its
	// agents, started afresh by each gridgym run (gridgym's --bot-log).
	// Each line starts with the game and seat it came from, "[game 3,
	// seat 1] " (games and seats from 0; "[seat 1] " where no SetGame
	// named the game), and a Python bot's exceptions are written there
	// with their tracebacks.
	BotLog string
	// Memory limits the address space of each of the bot's processes
	// (RLIMIT_AS), in bytes, and, where gridgym may make a memory cgroup
	// (root), the memory of all its processes together; 0 = DefaultMemory,
	// < 0 = no limit. A Python bot over it gets MemoryError, which is logged
	// and played as no answer (over the cgroup's, the kernel kills one of
	// its processes).
	Memory int64
	// CPU limits the CPU time of each of the bot's processes (RLIMIT_CPU,
	// whole seconds, rounded up); 0 = DefaultCPU, < 0 = no limit. A
	// process over it is killed, logged as a crash.
	CPU time.Duration
	// Procs limits how many processes a bot may run at once; 0 =
	// DefaultProcs, < 0 = no limit. Enforced by a pids cgroup where gridgym
	// may make one (root, cgroup v1 pids controller), else by RLIMIT_NPROC,
	// which counts all processes of the user and does not bind root (see
	// the package documentation).
	Procs int
}

// Defaults are the options of the bots made from specs (py:, cmd:). A
// command-line tool may set them, before it resolves any bot, from its
// flags (a time-limit override, a log file).
var Defaults Options

// withDefaults fills in the zero fields of o for competition c.
func (o Options) withDefaults(c Competition) Options {
	if o.Limit <= 0 {
		o.Limit = c.Limit
	}
	if o.HangAfter <= 0 {
		o.HangAfter = max(10*o.Limit, time.Second)
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 30 * time.Second
	}
	if o.Log == nil {
		o.Log = os.Stderr
	}
	return o
}

// Interpreter returns the Python interpreter hosted bots run with: python
// if not empty, else $GRIDGYM_PYTHON, else /usr/bin/python3, else python3 on
// the PATH. The error says which were tried.
func Interpreter(python string) (string, error) {
	from := "Options.Python"
	if python == "" {
		python, from = os.Getenv("GRIDGYM_PYTHON"), "$GRIDGYM_PYTHON"
	}
	if python != "" {
		path, err := exec.LookPath(python)
		if err != nil {
			return "", fmt.Errorf("python interpreter %q (from %s): %w", python, from, err)
		}
		return path, nil
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3", nil
	}
	path, err := exec.LookPath("python3")
	if err != nil {
		return "", fmt.Errorf("no python interpreter: /usr/bin/python3 does not exist and python3 is not on the PATH (set GRIDGYM_PYTHON)")
	}
	return path, nil
}
