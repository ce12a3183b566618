package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// init turns a process started with sandboxMarker into a bot's sandbox. The
// check is one comparison of os.Args[1]; every other program goes on.
func init() {
	if len(os.Args) > 3 && os.Args[1] == sandboxMarker {
		sandboxMain(os.Args[2], os.Args[3:])
	}
}

// Switches for tests, which check the fallbacks on a machine that has it
// all: without PID namespaces, without Landlock.
var (
	sandboxNoNamespace bool
	sandboxNoLandlock  bool
	sandboxNoCgroup    bool
	sandboxNoUser      bool // keep the bot as gridgym's user (root)
	sandboxNoSeccomp   bool
)

// features is what this machine offers, probed once.
var features struct {
	once     sync.Once
	landlock int  // Landlock ABI version, 0 = none
	ns       bool // new PID and mount namespaces can be made (root)
	nsFailed atomic.Bool
	pids     string // the pids cgroup hierarchy to make per-bot cgroups in, "" = none
	memory   string // where to make per-bot memory cgroups, "" = none
	memoryV2 bool   // memory is a cgroup v2 directory
	pidsV2   bool   // and its pids controller is delegated too
	logged   atomic.Bool
}

// notedOnce holds the per-bot fallbacks already logged (a folder nobody
// cannot read), so each is logged once.
var notedOnce sync.Map

var cgroupSeq atomic.Int64

func probe() {
	features.once.Do(func() {
		v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
		if e == 0 {
			features.landlock = int(v)
		}
		features.ns = os.Geteuid() == 0
		if os.Geteuid() == 0 {
			// cgroup v1's pids hierarchy; under cgroup v2 a process may
			// only make cgroups below its own delegated one, which a plain
			// root process in a container often lacks: the fallback is
			// RLIMIT_NPROC (and the PID namespace's own count is not a limit).
			if fi, err := os.Stat("/sys/fs/cgroup/pids/cgroup.procs"); err == nil && fi.Mode().IsRegular() {
				if unix.Access("/sys/fs/cgroup/pids", unix.W_OK) == nil {
					features.pids = "/sys/fs/cgroup/pids"
				}
			}
			cgroupHierarchies()
		}
	})
}

// SandboxSummary says, in one line, how hosted bots are contained on this
// machine: namespaces, Landlock, the process limit's mechanism.
func SandboxSummary() string {
	probe()
	var parts []string
	if features.ns && !sandboxNoNamespace && !features.nsFailed.Load() {
		parts = append(parts, "own PID and mount namespaces with a fresh /proc (every descendant dies with the bot)")
	} else {
		parts = append(parts, "no PID namespace (needs root): descendants found through the sandbox process (a child subreaper) and the session, best effort")
	}
	if features.landlock > 0 && !sandboxNoLandlock {
		parts = append(parts, fmt.Sprintf("Landlock ABI %d (reads: system but /etc's secrets, Python, its own folder; writes: its temporary folder, a program bot's own folder)", features.landlock))
	} else {
		parts = append(parts, "no Landlock (kernel < 5.13 or disabled): files are not restricted")
	}
	if features.ns && !sandboxNoNamespace && !features.nsFailed.Load() {
		parts = append(parts, "own network and IPC namespaces (no network at all)")
	} else {
		parts = append(parts, "no network namespace (needs root): sockets refused by seccomp only")
	}
	if os.Geteuid() == 0 && !sandboxNoUser {
		parts = append(parts, "runs as user nobody (65534, no groups) where its files are readable by nobody, else as root without capabilities, chmod, chown, utime and setxattr refused")
	} else {
		parts = append(parts, fmt.Sprintf("runs as gridgym's user (uid %d, not root): chmod, chown, utime and setxattr refused by seccomp; files that user may read are not hidden", os.Geteuid()))
	}
	if seccompArch != 0 {
		parts = append(parts, "seccomp filter (no mknod, ptrace, mount, keyring, bpf, perf, modules, namespaces, io_uring, socket(); socketpair stays)")
	} else {
		parts = append(parts, "no seccomp filter for this architecture")
	}
	if features.memory != "" && !sandboxNoCgroup {
		v := "v1"
		if features.memoryV2 {
			v = "v2"
		}
		parts = append(parts, "memory limit for the whole bot by a cgroup "+v+" (and RLIMIT_AS per process)")
	} else {
		parts = append(parts, "memory limit per process only (RLIMIT_AS; no memory cgroup gridgym may make)")
	}
	if (features.pids != "" || features.pidsV2) && !sandboxNoCgroup {
		parts = append(parts, "process limit by a pids cgroup")
	} else if os.Geteuid() == 0 {
		parts = append(parts, "process limit by RLIMIT_NPROC, which does not bind root")
	} else {
		parts = append(parts, "process limit by RLIMIT_NPROC (counts all the user's processes)")
	}
	if features.ns && !sandboxNoNamespace && !features.nsFailed.Load() {
		parts = append(parts, fmt.Sprintf("temporary folder a %d MiB tmpfs, files up to %d MiB", DefaultFileSize>>20, DefaultFileSize>>20))
	} else {
		parts = append(parts, fmt.Sprintf("files up to %d MiB each (RLIMIT_FSIZE; the temporary folder's total is not bounded without a mount namespace)", DefaultFileSize>>20))
	}
	return strings.Join(parts, "; ")
}

// contained is one bot process's sandbox, on the parent's side.
type contained struct {
	tmp     string   // the per-bot temporary folder, removed at the end
	cgroups []string // the per-bot cgroups (memory, pids), removed at the end
	release []func() // write grants on the bot's own folders, taken back at the end
	readyR  *os.File // closed by the sandbox (EOF here) once the bot runs
	readyW  *os.File // the sandbox's end, closed here once it started
}

// started waits, at most d, for the sandbox to have started the bot (or
// failed): after cmd.Start.
func (c *contained) started(d time.Duration) {
	if c == nil || c.readyR == nil {
		return
	}
	c.readyW.Close()
	c.readyR.SetReadDeadline(time.Now().Add(d))
	var b [1]byte
	c.readyR.Read(b[:])
	c.readyR.Close()
	c.readyR, c.readyW = nil, nil
}

// contain makes cmd run argv in s's sandbox: it re-executes this program
// (/proc/self/exe) with the marker and the configuration, in a new session,
// and, with ns, in new PID, mount, network and IPC namespaces; the sandbox
// gets SIGKILL if gridgym dies (and with it, as the namespace's init,
// every process of the bot). extra is added to the bot's environment
// (botEnv). log receives a line the first time a part of the sandbox is
// missing.
func contain(cmd *exec.Cmd, argv, extra []string, s *sandbox, ns bool, log io.Writer) (*contained, error) {
	probe()
	cleanStale()
	memory, cpu, procs := s.opt.limits()
	c := &contained{}
	tmp, err := os.MkdirTemp("", fmt.Sprintf("gridgym-bot-%d-", os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("making the bot's temporary folder: %w", err)
	}
	c.tmp = tmp
	cfg := sandboxConfig{Memory: memory, CPU: int64((cpu + time.Second - 1) / time.Second), FileSize: DefaultFileSize,
		Write: []string{tmp}, Tmp: tmp, Seccomp: seccompArch != 0 && !sandboxNoSeccomp, Env: botEnv(tmp, extra)}
	if os.Geteuid() == 0 && !sandboxNoUser {
		if why := nobodyCannot(argv, s); why == "" {
			cfg.Nobody = true
		} else if log != nil {
			if _, seen := notedOnce.LoadOrStore(why, true); !seen {
				fmt.Fprintf(log, "host: sandbox: %s: the bot runs as root without capabilities (chmod, chown, utime and setxattr refused) instead of user nobody; make it readable by others (chmod o+rX) to run it as nobody\n", why)
			}
		}
	}
	cfg.Meta = !cfg.Nobody
	if cfg.Nobody {
		if err := os.Chown(tmp, nobodyUID, nobodyGID); err != nil {
			c.cleanup()
			return nil, fmt.Errorf("giving the bot its temporary folder: %w", err)
		}
	}
	if features.landlock > 0 && !sandboxNoLandlock {
		cfg.Landlock = features.landlock
		cfg.Read = append(etcRead(), systemRead...)
		cfg.Read = slices.DeleteFunc(cfg.Read, func(p string) bool { return p == "/etc" })
		cfg.Read = append(append(cfg.Read, s.read...), pythonPrefixes(argv[0])...)
		if ns {
			cfg.Read = append(cfg.Read, "/proc") // its own /proc: only the sandbox's processes
		}
		cfg.Write = append(cfg.Write, s.write...)
	}
	if cfg.Landlock > 0 && cfg.Nobody {
		for _, d := range s.write {
			release, err := grantWrite(d)
			if err != nil {
				if log != nil {
					if _, seen := notedOnce.LoadOrStore("grant "+d, true); !seen {
						fmt.Fprintf(log, "host: sandbox: %v: the bot may not write in its own folder\n", err)
					}
				}
				continue
			}
			c.release = append(c.release, release)
		}
	}
	if ns {
		cfg.Proc = true
	}
	dirs, _, pidsOK := botCgroups(memory, procs)
	c.cgroups, cfg.Cgroups = dirs, dirs
	if procs > 0 && !pidsOK {
		cfg.Procs = procs
	}
	// Descriptor 3 of the sandbox is closed once the bot runs: start waits
	// for it, so that the sandbox's own start (some milliseconds) does not
	// count as the bot's time.
	readyR, readyW, err := os.Pipe()
	if err != nil {
		c.cleanup()
		return nil, err
	}
	c.readyR, c.readyW = readyR, readyW
	cmd.ExtraFiles = append(cmd.ExtraFiles, readyW)
	cfg.Ready = 3 + len(cmd.ExtraFiles) - 1
	js, err := json.Marshal(cfg)
	if err != nil {
		c.cleanup()
		return nil, err
	}
	cmd.Path = "/proc/self/exe"
	cmd.Args = append([]string{"/proc/self/exe", sandboxMarker, string(js)}, argv...)
	cmd.Env = cfg.Env // the sandbox's own environment holds nothing of gridgym's either
	attr := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if ns {
		attr.Cloneflags = syscall.CLONE_NEWPID | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC
	}
	cmd.SysProcAttr = attr
	if log != nil && (!ns || cfg.Landlock == 0 || len(dirs) == 0 && (procs > 0 || memory > 0)) && !features.logged.Swap(true) {
		fmt.Fprintf(log, "host: sandbox: %s\n", SandboxSummary())
	}
	return c, nil
}

// nobodyCannot says which file of the bot user nobody cannot reach ("" if
// none): its program (argv[0]), the Python installation and its own
// folders.
func nobodyCannot(argv []string, s *sandbox) string {
	if strings.ContainsRune(argv[0], '/') && !nobodyCan(argv[0], unix.X_OK) {
		return argv[0] + " is not executable by user nobody"
	}
	for _, d := range append(append([]string(nil), s.read...), pythonPrefixes(argv[0])...) {
		if !nobodyCan(d, unix.R_OK|unix.X_OK) {
			return d + " is not readable by user nobody"
		}
	}
	return ""
}

// etcSecrets are the files of /etc a bot may not read even where /etc is
// readable: passwords, their backups, sudo's rules, SSH's keys, TLS keys.
var etcSecrets = []string{"shadow", "shadow-", "gshadow", "gshadow-", "sudoers", "sudoers.d", "ssh", "ssl", "security", "credstore", "credstore.encrypted"}

// etcRead lists what of /etc a bot may read under Landlock: every entry but
// etcSecrets (the loader's cache, time zones, alternatives, Python's
// configuration stay readable).
func etcRead() []string {
	ents, err := os.ReadDir("/etc")
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(ents))
	for _, e := range ents {
		if !slices.Contains(etcSecrets, e.Name()) {
			out = append(out, "/etc/"+e.Name())
		}
	}
	return out
}

// namespaces reports whether new processes should get their own PID and
// mount namespaces.
func namespaces() bool {
	probe()
	return features.ns && !sandboxNoNamespace && !features.nsFailed.Load()
}

// namespaceFailed records that making the namespaces failed (a container
// without the right), so later bots go without.
func namespaceFailed(err error) bool {
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.ENOSYS) {
		features.nsFailed.Store(true)
		return true
	}
	return false
}

// pythonPrefixes returns the installation trees of the interpreter path
// (both before and after resolving links: a virtual environment and its base)
// that are not already readable.
func pythonPrefixes(path string) []string {
	var out []string
	add := func(p string) {
		prefix := filepath.Dir(filepath.Dir(p))
		if prefix != "/" && prefix != "." && !systemPath(prefix) {
			out = append(out, prefix)
		}
	}
	add(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		add(r)
	}
	return out
}

// killDescendants ends, best effort, the processes of the sandbox's session
// that may have outlived it (where there is no PID namespace and the
// sandbox process itself was killed): every process whose session id is
// sid, and every descendant of process sid (the sandbox: its children and,
// since it is a child subreaper, the orphans it adopted). A process that
// made a session of its own is caught by the second rule while the sandbox
// still runs, whatever the machine's load: killed before the sandbox, it
// cannot be handed on to init (issue 55's loaded test machine: a setsid
// child outlived a sandbox that had not finished reaping within Close's
// grace). The cgroup, where there is one, catches the rest.
func killDescendants(sid int, c *contained) {
	if c != nil {
		for _, dir := range c.cgroups {
			killCgroup(dir)
		}
	}
	if sid <= 0 {
		return
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	// Read every process first and kill after: a parent killed during the
	// scan would hand its children to init before the scan reads them, and
	// they would drop out of the tree.
	self := os.Getpid()
	children := map[int][]int{}
	var session []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		ppid, sess, ok := procParent(pid)
		if !ok {
			continue
		}
		if sess == sid {
			session = append(session, pid)
		}
		children[ppid] = append(children[ppid], pid)
	}
	// The tree below sid, breadth first and before sid's session (sid
	// itself among it); the map has each process once, so the walk ends.
	for queue := children[sid]; len(queue) > 0; queue = queue[1:] {
		syscall.Kill(queue[0], syscall.SIGKILL)
		queue = append(queue, children[queue[0]]...)
	}
	for _, pid := range session {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// procParent reads process pid's parent and session from /proc/pid/stat
// (pid (comm) state ppid pgrp session …; comm may hold spaces and
// parentheses).
func procParent(pid int) (ppid, session int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 4 {
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	session, err2 := strconv.Atoi(f[3])
	return ppid, session, err1 == nil && err2 == nil
}

// killCgroup kills every process in the cgroup dir, a few rounds (a
// process forking while it is killed).
func killCgroup(dir string) {
	for range 10 {
		b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
		if err != nil || len(strings.TrimSpace(string(b))) == 0 {
			return
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// removeCgroup kills what is left in the cgroup dir and removes it. A
// killed process stays in its cgroup until the kernel has finished it, and
// the cgroup cannot be removed before (EBUSY): on a loaded machine that
// took longer than one try (a pids cgroup of a killed gridgym outlived
// removeStale's single try in a CI run), so it tries for up to 2 s while
// the cgroup is busy. Any other error will not clear by waiting, and a
// start (removeStale) should not wait on it.
func removeCgroup(dir string) {
	for range 100 {
		killCgroup(dir)
		if err := os.Remove(dir); err == nil || !errors.Is(err, syscall.EBUSY) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cleanup removes the bot's temporary folder and cgroup, after its process
// has exited.
func (c *contained) cleanup() {
	if c == nil {
		return
	}
	if c.readyR != nil {
		c.readyR.Close()
		c.readyW.Close()
	}
	for _, dir := range c.cgroups {
		removeCgroup(dir)
	}
	for _, release := range c.release {
		release()
	}
	if c.tmp != "" {
		os.RemoveAll(c.tmp)
	}
}

// sandboxMain is the sandbox process: it joins the cgroup, mounts its own
// /proc (as init of a new PID namespace) or becomes a child subreaper (where
// there is none), then starts the bot under its limits and Landlock
// (startBot) as its child and waits for it. When the bot exits, so does
// the sandbox, with the bot's status; in a PID namespace the kernel then
// kills every process left in it, elsewhere the sandbox kills the
// descendants it adopted. A limit that killed the bot is named on stderr,
// which the host quotes in its event log. The sandbox itself is under no
// limit and no Landlock, so it can always do this.
func sandboxMain(js string, argv []string) {
	fail := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "gridgym sandbox: "+format+"\n", args...)
		os.Exit(126)
	}
	var cfg sandboxConfig
	if err := json.Unmarshal([]byte(js), &cfg); err != nil {
		fail("bad configuration: %v", err)
	}
	for _, dir := range cfg.Cgroups {
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte("0"), 0); err != nil {
			fail("joining cgroup %s: %v", dir, err)
		}
	}
	init1 := os.Getpid() == 1
	if init1 && cfg.Proc {
		// A fresh /proc shows only the namespace's processes. Where it
		// cannot be mounted (a locked-down container), /proc, which would
		// show the host's, is taken out of the bot's reach instead.
		if unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, "") != nil ||
			unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "") != nil {
			cfg.Read = slices.DeleteFunc(cfg.Read, func(p string) bool { return p == "/proc" })
		}
		// The temporary folder becomes a tmpfs of the file-size limit: the
		// bot's writes there are bounded in total (and count as its
		// memory); it vanishes with the namespace. Where it cannot be
		// mounted, RLIMIT_FSIZE still bounds each file.
		if cfg.Tmp != "" && cfg.FileSize > 0 {
			uid := os.Getuid()
			if cfg.Nobody {
				uid = nobodyUID
			}
			unix.Mount("tmpfs", cfg.Tmp, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV,
				fmt.Sprintf("size=%d,mode=0700,uid=%d,gid=%d", cfg.FileSize, uid, uid))
		}
	} else if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fail("becoming a subreaper: %v", err)
	}
	if cfg.Ready > 2 {
		syscall.CloseOnExec(cfg.Ready) // the bot must not hold it open
	}
	pid, err := startBot(&cfg, argv)
	if err != nil {
		fail("%v", err)
	}
	if cfg.Ready > 2 {
		syscall.Close(cfg.Ready)
	}
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	for {
		wpid, err := syscall.Wait4(-1, &ws, 0, &ru)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			fail("waiting for the bot: %v", err)
		}
		if wpid == pid {
			break
		}
	}
	if !init1 {
		reapAdopted()
	}
	if ws.Signaled() {
		sig := ws.Signal()
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		why := ""
		switch {
		case sig == syscall.SIGXCPU || cfg.CPU > 0 && sig == syscall.SIGKILL && cpu >= time.Duration(cfg.CPU)*time.Second:
			why = fmt.Sprintf(": over its CPU limit of %d s", cfg.CPU)
		case cfg.Memory > 0 && (sig == syscall.SIGSEGV || sig == syscall.SIGABRT || sig == syscall.SIGBUS):
			why = fmt.Sprintf(" (perhaps over its memory limit of %d MiB)", cfg.Memory>>20)
		}
		fmt.Fprintf(os.Stderr, "gridgym sandbox: the bot was killed by %v after %.1f s of CPU%s\n", sig, cpu.Seconds(), why)
		os.Exit(128 + int(sig))
	}
	os.Exit(ws.ExitStatus())
}

// startBot starts the bot, argv, under cfg's Landlock rules and limits, and
// returns its pid. Landlock binds the thread that asks for it and the
// processes it starts: a goroutine locked to a thread of its own restricts
// it and starts the bot from it, and ends without unlocking, so the runtime
// ends that thread; the sandbox, on its other threads, stays free to read
// /proc. The limits must bind the bot and never this Go runtime (which may
// map memory at any time: under the bot's address-space limit it would
// die): the bot starts traced, stops at its execution, before it has run an
// instruction of its own, gets its limits (prlimit) and goes on. Where
// tracing is not allowed (Yama's ptrace_scope 3) the limits are set just
// after the execution instead.
func startBot(cfg *sandboxConfig, argv []string) (int, error) {
	type started struct {
		pid int
		err error
	}
	// RLIMIT_NPROC counts every task (process or thread) of the user,
	// gridgym's own included: the bot gets cfg.Procs more than the user runs
	// now (counted here, before Landlock hides /proc).
	nproc := uint64(0)
	uid := os.Getuid()
	if cfg.Nobody {
		uid = nobodyUID
	}
	if cfg.Procs > 0 {
		nproc = uint64(userTasks(uid) + cfg.Procs)
	}
	ch := make(chan started)
	go func() {
		runtime.LockOSThread()
		if cfg.Landlock > 0 {
			if err := landlock(cfg.Landlock, cfg.Read, cfg.Write); err != nil {
				ch <- started{err: fmt.Errorf("Landlock: %w", err)}
				return
			}
		}
		if !cfg.Nobody && os.Geteuid() == 0 {
			if err := threadDropCaps(); err != nil {
				ch <- started{err: err}
				return
			}
		}
		if cfg.Seccomp {
			if err := seccompInstall(cfg.Meta); err != nil {
				ch <- started{err: err}
				return
			}
		}
		if cfg.Nobody {
			if err := threadToNobody(); err != nil {
				ch <- started{err: err}
				return
			}
		}
		attr := &syscall.ProcAttr{Env: cfg.Env, Files: []uintptr{0, 1, 2}, Sys: &syscall.SysProcAttr{Ptrace: true}}
		pid, err := syscall.ForkExec(argv[0], argv, attr)
		traced := err == nil
		if errors.Is(err, syscall.EPERM) {
			attr.Sys.Ptrace = false
			pid, err = syscall.ForkExec(argv[0], argv, attr)
		}
		if err != nil {
			ch <- started{err: fmt.Errorf("starting %s: %w", argv[0], err)}
			return
		}
		if traced {
			var ws syscall.WaitStatus
			for {
				_, err := syscall.Wait4(pid, &ws, 0, nil)
				if err != syscall.EINTR {
					break
				}
			}
		}
		err = setLimits(pid, cfg, nproc)
		if traced {
			syscall.PtraceDetach(pid)
		}
		if err != nil {
			syscall.Kill(pid, syscall.SIGKILL)
			ch <- started{err: err}
			return
		}
		ch <- started{pid: pid}
	}()
	st := <-ch
	return st.pid, st.err
}

// threadToNobody makes the calling thread, and only it (the raw system
// calls, not the C library's or Go's, which change every thread), user and
// group nobody with no other group. The bot it starts inherits that; the
// thread, which the runtime ends, stays its tracer and may set its limits
// as its own user: root without CAP_SYS_RESOURCE (a container) may not
// prlimit another user's process. The rest of the sandbox stays root.
func threadToNobody() error {
	if _, _, e := unix.RawSyscall(unix.SYS_SETGROUPS, 0, 0, 0); e != 0 {
		return fmt.Errorf("dropping the groups: %w", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_SETRESGID, nobodyGID, nobodyGID, nobodyGID); e != 0 {
		return fmt.Errorf("becoming group nobody: %w", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, nobodyUID, nobodyUID, nobodyUID); e != 0 {
		return fmt.Errorf("becoming user nobody: %w", e)
	}
	return nil
}

// threadDropCaps empties the calling thread's capabilities, bounding set
// included, so that a bot that runs as root (its files are not readable by
// nobody) has none after its execution either: root's file rights stay
// (Landlock and seccomp bound them), its powers over the system go. Only
// this thread: the sandbox stays root.
func threadDropCaps() error {
	for c := 0; c < 64; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if errors.Is(err, unix.EINVAL) {
				break // past the kernel's last capability
			}
			return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
		}
	}
	var data [2]unix.CapUserData
	if err := unix.Capset(&unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}, &data[0]); err != nil {
		return fmt.Errorf("dropping the capabilities: %w", err)
	}
	return nil
}

// setLimits sets cfg's limits on process pid, and RLIMIT_NPROC to nproc.
func setLimits(pid int, cfg *sandboxConfig, nproc uint64) error {
	for _, l := range []struct {
		res  int
		v    uint64
		max  uint64
		name string
	}{
		{unix.RLIMIT_AS, uint64(cfg.Memory), uint64(cfg.Memory), "memory"},
		{unix.RLIMIT_CPU, uint64(cfg.CPU), uint64(cfg.CPU) + 1, "CPU"}, // SIGXCPU, then SIGKILL a second later
		{unix.RLIMIT_NPROC, nproc, nproc, "process"},
		{unix.RLIMIT_FSIZE, uint64(cfg.FileSize), uint64(cfg.FileSize), "file-size"},
	} {
		if l.v == 0 {
			continue
		}
		if err := unix.Prlimit(pid, l.res, &unix.Rlimit{Cur: l.v, Max: l.max}, nil); err != nil {
			return fmt.Errorf("setting the %s limit: %w", l.name, err)
		}
	}
	return nil
}

// userTasks counts the tasks (threads) of processes whose real user is
// uid, as the kernel does for RLIMIT_NPROC.
func userTasks(id int) int {
	uid := strconv.Itoa(id)
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		mine, threads := false, 1
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) > 1 {
				switch f[0] {
				case "Uid:":
					mine = f[1] == uid
				case "Threads:":
					threads, _ = strconv.Atoi(f[1])
				}
			}
		}
		if mine {
			n += threads
		}
	}
	return n
}

// reapAdopted kills and reaps the processes the sandbox adopted as a child
// subreaper (the bot's orphaned descendants, daemons included), until it has
// no child left.
func reapAdopted() {
	self := os.Getpid()
	for range 100 {
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if ppid, _, ok := procParent(pid); ok && ppid == self {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		var ws syscall.WaitStatus
		for {
			wpid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if err == syscall.ECHILD {
				return
			}
			if err != nil || wpid == 0 {
				break
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// landlock restricts this thread (and the processes it starts) to reading
// and executing read and to everything in write, with the rights of ABI
// version abi; with ABI 4 it also forbids TCP, with ABI 6 signals and
// abstract unix sockets outside the sandbox.
func landlock(abi int, read, write []string) error {
	handled := uint64(1<<13 - 1) // ABI 1: EXECUTE … MAKE_SYM
	if abi >= 2 {
		handled |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		handled |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		handled |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	attr := unix.LandlockRulesetAttr{Access_fs: handled}
	size := unsafe.Offsetof(attr.Access_net)
	if abi >= 4 {
		attr.Access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size = unsafe.Offsetof(attr.Scoped)
	}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
		size = unsafe.Sizeof(attr)
	}
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return fmt.Errorf("creating the ruleset: %w", e)
	}
	const fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	readRights := uint64(unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR)
	add := func(path string, rights uint64) error {
		f, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EACCES) {
				return nil // not on this machine (a dangling link in /etc): nothing to grant
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		defer unix.Close(f)
		var st unix.Stat_t
		if err := unix.Fstat(f, &st); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			rights &= fileRights
		}
		rule := unix.LandlockPathBeneathAttr{Allowed_access: rights & handled, Parent_fd: int32(f)}
		if _, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&rule)), 0, 0, 0); e != 0 {
			return fmt.Errorf("rule for %s: %w", path, e)
		}
		return nil
	}
	for _, p := range read {
		if err := add(p, readRights); err != nil {
			return err
		}
	}
	for _, p := range []string{"/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"} {
		if err := add(p, unix.LANDLOCK_ACCESS_FS_READ_FILE|unix.LANDLOCK_ACCESS_FS_WRITE_FILE); err != nil {
			return err
		}
	}
	for _, p := range write {
		if err := add(p, handled); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); e != 0 {
		return fmt.Errorf("restricting: %w", e)
	}
	unix.Close(int(fd))
	return nil
}
