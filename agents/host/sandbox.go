package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The default limits of a hosted bot's processes (Options.Memory, CPU and
// Procs). 2 GiB of address space runs a NumPy bot (with one BLAS thread,
// which the sandbox asks for) with room to spare; 300 s of CPU is far more
// than any game's moves may use at the competitions' limits, so it only
// stops a bot that burns CPU outside its moves (a background thread); 64
// processes is far more than a bot needs and stops a fork bomb.
const (
	DefaultMemory = 2 << 30
	DefaultCPU    = 300 * time.Second
	DefaultProcs  = 64
)

// DefaultFileSize bounds what a hosted bot may write: each file
// (RLIMIT_FSIZE) and, where the sandbox has a mount namespace, its whole
// temporary folder (a tmpfs of this size). A bot keeps a few files; a bot
// that fills the disk is stopped at 256 MiB.
const DefaultFileSize = 256 << 20

// sandboxMarker is the first argument with which a host process re-executes
// itself (/proc/self/exe) to become a bot's sandbox: the init of this
// package sees it, sets up the namespaces, starts the bot under its limits
// and Landlock as its child and waits for it. Nothing else passes it, so no
// other program is affected.
const sandboxMarker = "__gridgym_sandbox_v1__"

// sandboxConfig is what the sandbox process is told, as JSON in the argument
// after the marker.
type sandboxConfig struct {
	Memory   int64    `json:"as,omitempty"`    // RLIMIT_AS in bytes; 0 = none
	CPU      int64    `json:"cpu,omitempty"`   // RLIMIT_CPU in seconds; 0 = none
	Procs    int      `json:"nproc,omitempty"` // RLIMIT_NPROC; 0 = none
	FileSize int64    `json:"fsize,omitempty"` // RLIMIT_FSIZE, and the tmpfs's size; 0 = none
	Landlock int      `json:"landlock,omitempty"`
	Read     []string `json:"read,omitempty"`    // readable (and executable) trees, with Landlock
	Write    []string `json:"write,omitempty"`   // writable trees, with Landlock
	Proc     bool     `json:"proc,omitempty"`    // in new PID and mount namespaces: mount a fresh /proc
	Tmp      string   `json:"tmp,omitempty"`     // the temporary folder: with Proc, a tmpfs of FileSize is mounted on it
	Cgroups  []string `json:"cgroups,omitempty"` // cgroups to join (memory, pids: the whole bot's limits)
	Nobody   bool     `json:"nobody,omitempty"`  // run the bot as user and group nobody, with no other group
	Seccomp  bool     `json:"seccomp,omitempty"` // install the seccomp filter
	Meta     bool     `json:"meta,omitempty"`    // the filter refuses chmod and utime too (the bot runs as gridgym's user)
	Env      []string `json:"env,omitempty"`     // the bot's whole environment
	Ready    int      `json:"ready,omitempty"`   // a descriptor to close once the bot runs, so the sandbox's own start is not the bot's time
}

// sandboxOff runs bots as before the sandbox (own process group only), for
// the tests' control case: there, hostile bots must get away.
var sandboxOff bool

// sandbox is what start needs to contain one bot process: its options and
// the files it may read besides the system's.
type sandbox struct {
	opt   Options
	read  []string // the bot's own folders
	write []string // the folders it may also write in (a program bot's own)
}

// limits returns the effective limits of o: 0 = the default, < 0 = none (0).
func (o Options) limits() (memory int64, cpu time.Duration, procs int) {
	memory, cpu, procs = o.Memory, o.CPU, o.Procs
	if memory == 0 {
		memory = DefaultMemory
	}
	if cpu == 0 {
		cpu = DefaultCPU
	}
	if procs == 0 {
		procs = DefaultProcs
	}
	return max(memory, 0), max(cpu, 0), max(procs, 0)
}

// sandbox returns the containment of b's host processes: the bot file's
// folder is readable (a bot may import its own modules, read its weights).
func (b *pyBot) sandbox() sandbox {
	return sandbox{opt: b.opt, read: []string{filepath.Dir(b.file)}}
}

// sandbox returns the containment of b's processes: the program's folder
// (unless it is a system program) and every argument naming a file or a
// folder (a script, a weights file) are readable, and the bot's own
// folder is writable too (slime R14: a program bot may keep files in its
// own folder, its only memory between turns): the program's, or, where the
// program is a system one (an interpreter: cmd:python3 bot.py), the first
// file argument's.
func (b *cmdBot) sandbox() sandbox {
	var read, write []string
	if d := filepath.Dir(b.argv[0]); !systemPath(d) && strings.ContainsRune(b.argv[0], '/') {
		if abs, err := filepath.Abs(d); err == nil {
			read = append(read, abs)
			write = append(write, abs)
		}
	}
	own := len(write) > 0
	for _, a := range b.argv[1:] {
		if a == "" || strings.ContainsAny(a, "\n\x00") {
			continue
		}
		fi, err := os.Stat(a)
		if err != nil {
			continue
		}
		abs, err := filepath.Abs(a)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			abs = filepath.Dir(abs)
			if !own && !systemPath(abs) {
				write, own = append(write, abs), true
			}
		}
		read = append(read, abs)
	}
	return sandbox{opt: b.opt, read: read, write: write}
}

// systemPath reports whether dir lies in one of the system trees every bot
// may read anyway.
func systemPath(dir string) bool {
	for _, s := range systemRead {
		if dir == s || strings.HasPrefix(dir, s+"/") {
			return true
		}
	}
	return false
}

// systemRead are the trees every sandboxed bot may read and execute where
// Landlock restricts the filesystem: programs, libraries, the Python
// installation under /usr, /etc (the dynamic loader's cache, time zones,
// alternatives). The interpreter's own prefix is added when it lies
// elsewhere (a virtual environment, pyenv).
var systemRead = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys/devices/system/cpu"}

// limitHint explains, for the event log, an exception a bot raised because
// of a sandbox limit ("" if it names none).
func limitHint(exc string, opt Options) string {
	memory, _, procs := opt.limits()
	switch {
	case strings.Contains(exc, "MemoryError") && memory > 0:
		return fmt.Sprintf(" (over its memory limit: %d MiB of address space)", memory>>20)
	case strings.Contains(exc, "Resource temporarily unavailable") && procs > 0:
		return fmt.Sprintf(" (over its process limit: %d)", procs)
	case strings.Contains(exc, "PermissionError") || strings.Contains(exc, "Permission denied"):
		return " (the sandbox keeps it to its own folder, the system's files and its temporary folder)"
	}
	return ""
}

// botEnv is a bot's whole environment: what the interpreter needs and the
// competition gives, nothing of gridgym's own (no credentials: selfplay and
// train read theirs from the environment). PATH (a #! line through
// /usr/bin/env finds what the user's would), HOME and TMPDIR (its
// temporary folder), the locale and time zone, one BLAS thread (unless
// gridgym's environment sets the count), what locates a Python
// installation (a virtual environment, pyenv), then extra (the host's own
// variables for its process, which win).
func botEnv(tmp string, extra []string) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	env := []string{"PATH=" + path, "HOME=" + tmp, "TMPDIR=" + tmp}
	if _, ok := os.LookupEnv("LANG"); !ok {
		env = append(env, "LANG=C.UTF-8")
	}
	for _, v := range []string{"LANG", "LC_ALL", "LC_CTYPE", "TZ", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONPATH", "PYENV_ROOT", "PYENV_VERSION"} {
		if x, ok := os.LookupEnv(v); ok {
			env = append(env, v+"="+x)
		}
	}
	for _, v := range []string{"OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"} {
		x, ok := os.LookupEnv(v)
		if !ok {
			x = "1" // one BLAS thread: fits the memory limit, and the competitions' one core
		}
		env = append(env, v+"="+x)
	}
	return append(env, extra...)
}
