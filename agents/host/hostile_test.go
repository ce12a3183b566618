//go:build linux

package host

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"golang.org/x/sys/unix"
)

// The hostile-bot suite (issue 56): one test per attack a competitor's bot
// made on its host, each with testdata/hostile/attacks.py's entry of that
// name in seat 0 of a Rising Tide game. Each checks the host's side (the
// file unchanged, nothing received, the log's size) and the bot's own
// report (every attempt "denied"), so that a bot that did not run fails
// the test instead of passing it. Where this machine lacks the piece that
// stops an attack, the test skips and says which.

// attack plays one round with attacks.py's entry (in a hostileCopy with
// settings) in seat 0 and returns the bot's attempts, WHAT → "ok …" or
// "denied …", and everything it and its event log wrote.
func attack(t *testing.T, entry string, settings map[string]any, opt Options) (map[string]string, string) {
	t.Helper()
	out := &syncBuffer{}
	if opt.Output == nil && opt.BotLog == "" {
		opt.Output = out
	}
	opt.Log = out
	if opt.Limit == 0 {
		opt.Limit = 30 * time.Second // liveness only: a loaded machine starts Python slowly
	}
	a, err := NewPython("rising-tide", filepath.Join(hostileCopy(t, settings), "attacks.py"), entry, opt)
	if err != nil {
		t.Fatal(err)
	}
	play(t, "rising-tide", 1, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 1)
	a.Close()
	got := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "attack: "); i >= 0 {
			what, verdict, _ := strings.Cut(line[i+len("attack: "):], ": ")
			got[what] = verdict
		}
	}
	return got, out.String()
}

// wantDenied fails the test for each attempt in whats that the bot did not
// report, or reported as having worked.
func wantDenied(t *testing.T, got map[string]string, log string, whats ...string) {
	t.Helper()
	for _, w := range whats {
		v, ok := got[w]
		switch {
		case !ok:
			t.Errorf("%s: the bot did not report it (the test tests nothing); its output:\n%s", w, log)
		case !strings.HasPrefix(v, "denied"):
			t.Errorf("%s: %s, want denied", w, v)
		default:
			t.Logf("%s: %s", w, v)
		}
	}
}

// outsideDir makes a folder outside every bot's, readable by all (as the
// folders of gridgym's binary and of other files on a machine are).
func outsideDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gridgym-outside-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fileState is what the metadata attack tries to change.
type fileState struct {
	mode     os.FileMode
	uid, gid uint32
	mtime    time.Time
	content  string
	xattrs   string
}

func stateOf(t *testing.T, path string) fileState {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]byte, 1024)
	n, _ := unix.Listxattr(path, x)
	st := fi.Sys().(*syscall.Stat_t)
	return fileState{fi.Mode(), st.Uid, st.Gid, fi.ModTime(), string(b), string(x[:max(n, 0)])}
}

// TestHostileMetadata: chmod, chown, utime, setxattr and an append on a
// file outside the bot's folder (a stand-in for gridgym's binary, mode
// 0755 as a binary's) and on /proc/1/exe (in the PID namespace, the
// sandbox: this test binary) fail, and both files are unchanged — as user
// nobody (gridgym is root) and as gridgym's own user (seccomp refuses
// them). Before: the bot ran as root and chmod 000 of gridgym's binary
// made every later bot start fail.
func TestHostileMetadata(t *testing.T) {
	needPython(t)
	users := []string{"own user"}
	if os.Geteuid() == 0 {
		users = []string{"nobody", "own user"}
	} else {
		t.Log("not root: the bot runs as the test's own user; only that case is tested")
	}
	if seccompArch == 0 {
		users = users[:len(users)-1]
		t.Log("no seccomp filter for this architecture: the own-user case is not tested")
	}
	if len(users) == 0 {
		t.Skip("SKIPPED: not root and no seccomp filter here: nothing stops a bot from changing its user's files' metadata")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, user := range users {
		t.Run(user, func(t *testing.T) {
			if user != "nobody" {
				sandboxNoUser = true
				t.Cleanup(func() { sandboxNoUser = false })
			}
			target := filepath.Join(outsideDir(t), "gridgym")
			if err := os.WriteFile(target, []byte("a stand-in for gridgym's binary"), 0o755); err != nil {
				t.Fatal(err)
			}
			old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
			if err := os.Chtimes(target, old, old); err != nil {
				t.Fatal(err)
			}
			before, selfBefore := stateOf(t, target), stateOf(t, self)
			got, log := attack(t, "meta", map[string]any{"targets": []string{target, "/proc/1/exe"}}, Options{})
			if after := stateOf(t, self); after != selfBefore {
				os.Chmod(self, selfBefore.mode)
				t.Errorf("the test binary (the sandbox's) changed: %+v, was %+v", after, selfBefore)
			}
			if after := stateOf(t, target); after != before {
				t.Errorf("the file outside changed: %+v, was %+v", after, before)
			}
			wantDenied(t, got, log, "chmod "+target, "chown "+target, "utime "+target, "setxattr "+target, "append "+target)
			for _, op := range []string{"chmod", "chown", "utime", "setxattr"} {
				if v := got[op+" /proc/1/exe"]; strings.HasPrefix(v, "ok") {
					t.Errorf("%s /proc/1/exe: %s", op, v)
				}
			}
		})
	}
}

// TestHostileEnvironment: the bot's environment holds no variable of
// gridgym's own: a planted AWS_SECRET_ACCESS_KEY (selfplay and train read
// their S3 credentials from it) and GRIDGYM_ variables are absent; PATH,
// HOME and TMPDIR are there. Before: the whole environment was inherited.
func TestHostileEnvironment(t *testing.T) {
	needPython(t)
	t.Setenv("AWS_SECRET_ACCESS_KEY", "planted-secret")
	t.Setenv("GRIDGYM_TEST_PLANTED", "planted")
	got, log := attack(t, "env", nil, Options{})
	var names []string
	if err := json.Unmarshal([]byte(got["env"]), &names); err != nil {
		t.Fatalf("the bot's environment: %v; its output:\n%s", err, log)
	}
	t.Logf("the bot's environment: %v", names)
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
		if strings.HasPrefix(n, "AWS_") || strings.HasPrefix(n, "GRIDGYM_") {
			t.Errorf("the bot sees %s", n)
		}
	}
	for _, n := range []string{"PATH", "HOME", "TMPDIR", "OPENBLAS_NUM_THREADS"} {
		if !have[n] {
			t.Errorf("the bot lacks %s", n)
		}
	}
}

// TestHostileCapabilities: a bot has no capability, as nobody and where
// it runs as root (its files not readable by nobody), whose bounding set
// is empty too. Before: the bot was root with all of gridgym's.
func TestHostileCapabilities(t *testing.T) {
	needPython(t)
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED: not root: the bot runs as the test's own user, which has no capability to drop")
	}
	for _, user := range []string{"nobody", "root"} {
		t.Run(user, func(t *testing.T) {
			if user == "root" {
				sandboxNoUser = true
				t.Cleanup(func() { sandboxNoUser = false })
			}
			got, log := attack(t, "caps", nil, Options{})
			var uid int
			var eff, bnd string
			if _, err := fmt.Sscanf(got["caps"], "uid %d eff %s bnd %s", &uid, &eff, &bnd); err != nil {
				t.Fatalf("caps %q: %v; the bot's output:\n%s", got["caps"], err, log)
			}
			t.Logf("uid %d, effective %s, bounding %s", uid, eff, bnd)
			if want := map[string]int{"nobody": nobodyUID, "root": 0}[user]; uid != want {
				t.Errorf("the bot runs as uid %d, want %d", uid, want)
			}
			if strings.Trim(eff, "0") != "" || user == "root" && strings.Trim(bnd, "0") != "" {
				t.Errorf("the bot has capabilities: effective %s, bounding %s", eff, bnd)
			}
		})
	}
}

// TestHostileFiles: /etc/shadow and another bot's file are unreadable.
// Before: both were read (the bot ran as root; Landlock hid the other bot
// but not /etc/shadow).
func TestHostileFiles(t *testing.T) {
	needPython(t)
	probe()
	if features.landlock == 0 && os.Geteuid() == 0 {
		t.Skip("SKIPPED: no Landlock in this kernel: as root without it a bot running as nobody still reads every world-readable file, another bot's included")
	}
	other, err := filepath.Abs("testdata/opponent/secret.py")
	if err != nil {
		t.Fatal(err)
	}
	got, log := attack(t, "files", map[string]any{"other": other}, Options{})
	if features.landlock == 0 {
		wantDenied(t, got, log, "shadow")
		t.Skip("SKIPPED (after /etc/shadow): no Landlock in this kernel: another bot's files are not hidden")
	}
	wantDenied(t, got, log, "shadow", "other")
}

// TestHostileDevices: a device node cannot be made (seccomp refuses
// mknod) and no device is readable but the harmless ones (Landlock). Before:
// a node made in the temporary folder read the host's kernel log.
func TestHostileDevices(t *testing.T) {
	needPython(t)
	probe()
	if seccompArch == 0 || features.landlock == 0 {
		t.Skip("SKIPPED: this sandbox needs the seccomp filter (amd64, arm64) and Landlock to refuse device nodes")
	}
	got, log := attack(t, "devices", nil, Options{})
	wantDenied(t, got, log, "mknod", "read node", "/dev/kmsg", "/dev/mem")
}

// TestHostileNetwork: UDP and TCP to 127.0.0.1, a unix socket of the host
// by its path (mode 0777, in a folder all may walk), an abstract unix
// socket, raw ICMP, packet and netlink sockets all fail, and nothing
// reaches the test's listeners. Before: UDP, the unix socket and raw ICMP
// worked (TCP was refused by Landlock).
func TestHostileNetwork(t *testing.T) {
	needPython(t)
	if seccompArch == 0 {
		t.Skip("SKIPPED: no seccomp filter for this architecture: sockets are not refused")
	}
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	sock := filepath.Join(outsideDir(t), "host.sock")
	ux, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ux.Close()
	os.Chmod(sock, 0o777)
	abstract := fmt.Sprintf("gridgym-test-%d", os.Getpid())
	ab, err := net.Listen("unix", "@"+abstract)
	if err != nil {
		t.Fatal(err)
	}
	defer ab.Close()
	got, log := attack(t, "net", map[string]any{"udp": udp.LocalAddr().(*net.UDPAddr).Port,
		"tcp": tcp.Addr().(*net.TCPAddr).Port, "unix": sock, "abstract": abstract}, Options{})
	wantDenied(t, got, log, "udp", "tcp", "unix", "abstract", "icmp", "packet", "netlink")
	// A datagram or a connection the bot made would already be queued
	// here (local delivery happens within its send and connect calls).
	udp.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, from, err := udp.ReadFrom(make([]byte, 64)); err == nil {
		t.Errorf("a UDP datagram of %d bytes from %v reached the host", n, from)
	}
	for name, l := range map[string]net.Listener{"tcp": tcp, "unix": ux, "abstract": ab} {
		switch l := l.(type) {
		case *net.TCPListener:
			l.SetDeadline(time.Now().Add(100 * time.Millisecond))
		case *net.UnixListener:
			l.SetDeadline(time.Now().Add(100 * time.Millisecond))
		}
		if c, err := l.Accept(); err == nil {
			c.Close()
			t.Errorf("%s: a connection reached the host's listener", name)
		}
	}
}

// TestHostileMemory: 4 processes of one bot that each hold 200 MB, under a
// limit of 512 MiB, do not all hold it: the limit binds the whole bot (a
// memory cgroup), not each process. Before: 3.4 GB across 4 processes
// against --bot-memory 2G.
func TestHostileMemory(t *testing.T) {
	needPython(t)
	probe()
	if features.memory == "" {
		t.Skip("SKIPPED: no memory cgroup gridgym may make here (not root, or no v1 memory hierarchy nor delegated v2 memory controller): memory is limited per process only")
	}
	got, log := attack(t, "mem", map[string]any{"each": 200 << 20}, Options{Memory: 512 << 20, Limit: time.Minute})
	v, ok := got["mem"]
	if !ok {
		if !strings.Contains(log, "killed") && !strings.Contains(log, "crash") {
			t.Fatalf("the bot neither reported nor was killed; its output:\n%s", log)
		}
		t.Logf("the bot itself was killed: %s", log)
		return
	}
	var held int
	if _, err := fmt.Sscanf(v, "%d of 4 held", &held); err != nil {
		t.Fatalf("mem: %q: %v", v, err)
	}
	t.Logf("mem: %s", v)
	if held == 4 {
		t.Errorf("4 processes held 200 MB each (800 MB) under a 512 MiB limit for the bot")
	}
}

// TestHostileDisk: a bot that writes 2 GiB in its temporary folder is cut
// off at DefaultFileSize (RLIMIT_FSIZE, and the tmpfs's size). Before: 2 GiB
// went in.
func TestHostileDisk(t *testing.T) {
	needPython(t)
	got, log := attack(t, "disk", nil, Options{})
	v, ok := got["disk"]
	if !ok {
		t.Fatalf("the bot did not report; its output:\n%s", log)
	}
	t.Logf("disk: %s", v)
	var n int64
	var errName string
	if _, err := fmt.Sscanf(v, "%d written, error %s", &n, &errName); err != nil {
		t.Fatalf("disk: %q: %v", v, err)
	}
	if n > DefaultFileSize || errName == "none" {
		t.Errorf("the bot wrote %d bytes (error %s), want at most %d", n, errName, DefaultFileSize)
	}
}

// TestHostileFlood: a bot that writes 8 MiB on stderr leaves a bot log of
// at most the cap (1 MiB here), ending with the line that says the rest was
// dropped. Before: a 524 MB log.
func TestHostileFlood(t *testing.T) {
	needPython(t)
	old := botLogCap
	botLogCap = 1 << 20
	defer func() { botLogCap = old }()
	dir := t.TempDir()
	attack(t, "flood", map[string]any{"flood": 8 << 20}, Options{BotLog: dir})
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 1 {
		t.Fatalf("bot log folder: %v, %v: want one file", ents, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ents[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("bot log: %d bytes", len(b))
	if int64(len(b)) > botLogCap+200 || len(b) < 1<<19 {
		t.Errorf("bot log of %d bytes, want about its cap of %d", len(b), botLogCap)
	}
	if !bytes.Contains(b, []byte("the rest of the bot's output is dropped")) {
		t.Errorf("the bot log does not say that output was dropped")
	}
}

// leftovers lists what of pid's bots is still there: temporary folders and
// per-bot cgroups named with pid.
func leftovers(pid int) []string {
	var out []string
	ms, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("gridgym-bot-%d-*", pid)))
	out = append(out, ms...)
	for _, root := range []string{features.pids, features.memory} {
		if root != "" {
			ms, _ := filepath.Glob(filepath.Join(root, fmt.Sprintf("gridgym-%d-*", pid)))
			out = append(out, ms...)
		}
	}
	return out
}

// TestHostileLeavesNothing: once a bot that left a daemon is closed, no
// process of it, no temporary folder and no cgroup of it remain.
func TestHostileLeavesNothing(t *testing.T) {
	needPython(t)
	probe()
	marker := fmt.Sprintf("gridgym-hostile-%d-leftovers", os.Getpid())
	playHostile(t, "daemon", map[string]any{"marker": marker}, Options{Limit: 30 * time.Second, Log: &syncBuffer{}}, 3)
	if pids := waitGone(marker, 30*time.Second); len(pids) > 0 {
		for _, p := range pids {
			syscallKill(p)
		}
		t.Errorf("processes %v outlived the bot", pids)
	}
	deadline := time.Now().Add(30 * time.Second) // liveness: cleanup runs as each process is reaped
	for len(leftovers(os.Getpid())) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if l := leftovers(os.Getpid()); len(l) > 0 {
		t.Errorf("left after the bot was closed: %v", l)
	}
}

// killedHostEnv makes TestHostileKilledHost's child (this test binary) a
// gridgym that starts a bot and then waits to be killed.
const killedHostEnv = "GRIDGYM_TEST_KILLED_HOST"

// TestHostileKilledHost: gridgym killed by SIGKILL mid-game takes its bots
// with it (the sandbox's parent-death signal kills the sandbox, the init
// of the bot's PID namespace, and with it every process of the bot, a
// daemon included), and what it left (temporary folders, cgroups) is
// removed at the next start. Before: a bot with a non-daemon thread
// outlived gridgym, and temporary folders and pids cgroups stayed.
func TestHostileKilledHost(t *testing.T) {
	if dir := os.Getenv(killedHostEnv); dir != "" {
		// The child: a bot that leaves a daemon, then wait to be killed.
		a, err := NewPython("rising-tide", filepath.Join(dir, "hostile.py"), "daemon", Options{Limit: 30 * time.Second, Log: os.Stderr})
		if err != nil {
			t.Fatal(err)
		}
		play(t, "rising-tide", 1, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 2)
		fmt.Println("ready")
		time.Sleep(time.Hour)
		return
	}
	needPython(t)
	if !namespaces() {
		t.Skip("SKIPPED: no PID namespace here (not root, or not allowed): a killed gridgym's bot is not ended by the parent-death signal, only its stale cgroups at the next start")
	}
	marker := fmt.Sprintf("gridgym-hostile-%d-killed", os.Getpid())
	dir := hostileCopy(t, map[string]any{"marker": marker})
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileKilledHost$", "-test.count=1")
	cmd.Env = append(os.Environ(), killedHostEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "ready" {
				ready <- true
			}
		}
		ready <- false
	}()
	if !<-ready || !waitStarted(marker, time.Minute) {
		t.Fatalf("the child gridgym did not start its bot's daemon; its stderr:\n%s", stderr)
	}
	child := cmd.Process.Pid
	t.Logf("child gridgym %d, its bot's processes %v, its leftovers %v", child, markedProcs(marker), leftovers(child))
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if pids := waitGone(marker, 30*time.Second); len(pids) > 0 {
		for _, p := range pids {
			syscallKill(p)
		}
		t.Errorf("processes %v outlived the killed gridgym", pids)
	}
	left := leftovers(child)
	t.Logf("left by the killed gridgym: %v", left)
	removeStale()
	if l := leftovers(child); len(l) > 0 {
		t.Errorf("still there after the next start's cleanup: %v", l)
	}
}

// TestProgramBotWritesOwnFolder: a program bot (Slime) keeps a file in its
// own folder from one move to the next (slime R14 allows it), and cannot
// write outside it. Gridgym's grant to user nobody is taken back after the
// move: the folder's mode and ACL are as they were. Before: the write was
// refused (issue 56, item 9).
func TestProgramBotWritesOwnFolder(t *testing.T) {
	probe()
	if features.landlock == 0 {
		t.Skip("SKIPPED: no Landlock in this kernel: files are not restricted, so the outside write is not refused")
	}
	dir := hostileCopy(t, nil)
	outside := filepath.Join(outsideDir(t), "not-mine.txt")
	if err := os.WriteFile(filepath.Join(dir, "outside"), []byte(outside), 0o644); err != nil {
		t.Fatal(err)
	}
	before := stateOf(t, filepath.Join(dir, "outside"))
	fi, _ := os.Stat(dir)
	log := &syncBuffer{}
	a, err := NewCommand("slime", []string{filepath.Join(dir, "own_folder.sh")}, Options{Limit: 30 * time.Second, Log: log, Output: log})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.Lookup("slime")
	st := g.New(g.Default())
	a.Reset(st, 0, rules.NewRNG(1))
	for range 2 {
		a.Act(st)
	}
	t.Logf("%s", log)
	b, _ := os.ReadFile(filepath.Join(dir, "memory.txt"))
	if got := strings.Count(string(b), "move\n"); got != 2 {
		t.Errorf("memory.txt holds %d moves, want 2 (log %q)", got, log)
	}
	if _, err := os.Stat(outside); err == nil || strings.Contains(log.String(), "outside: ok") {
		t.Errorf("the bot wrote outside its folder")
	}
	if after, _ := os.Stat(dir); after.Mode() != fi.Mode() {
		t.Errorf("its folder's mode is %v after the moves, was %v", after.Mode(), fi.Mode())
	}
	if n, _ := unix.Getxattr(dir, aclXattr, make([]byte, 256)); n > 0 {
		t.Errorf("its folder keeps an ACL after the moves")
	}
	if stateOf(t, filepath.Join(dir, "outside")) != before {
		t.Errorf("the bot changed a file it did not make")
	}
}
