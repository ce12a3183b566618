//go:build linux

package host

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

// hostileFile is the hostile bots' file.
const hostileFile = "testdata/hostile/hostile.py"

// hostileCopy copies testdata/hostile into a folder of its own that user
// nobody may read (the sandbox runs the bot as nobody when the test is
// root), with settings in hostile.json and settings["marker"] in the file
// marker (the sandbox passes no variable of the test's environment), and
// returns the folder. It is removed after the test.
func hostileCopy(t *testing.T, settings map[string]any) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gridgym-hostile-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir("testdata/hostile")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("testdata/hostile", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if settings == nil {
		settings = map[string]any{}
	}
	js, err := json.Marshal(settings)
	if err != nil {
		t.Fatal(err)
	}
	marker, _ := settings["marker"].(string)
	for name, b := range map[string][]byte{"hostile.json": js, "marker": []byte(marker)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// withoutNamespace sets the sandbox's fallback for the test: no PID
// namespace, and with mode "bare" no pids cgroup either (what a user other
// than root gets).
func withoutNamespace(t *testing.T, mode string) {
	t.Helper()
	sandboxNoNamespace, sandboxNoCgroup = true, mode == "bare"
	t.Cleanup(func() { sandboxNoNamespace, sandboxNoCgroup = false, false })
}

// markedProcs returns the pids of the processes whose command line holds
// marker.
func markedProcs(marker string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), marker) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitGone waits up to d for no process to carry marker and returns those
// still there.
func waitGone(marker string, d time.Duration) []int {
	deadline := time.Now().Add(d)
	for {
		pids := markedProcs(marker)
		if len(pids) == 0 || time.Now().After(deadline) {
			return pids
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitStarted waits up to d for a process carrying marker (a daemon
// execs a moment after the bot's answer).
func waitStarted(marker string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for len(markedProcs(marker)) == 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// playHostile plays rounds rounds of Rising Tide with the hostile bot entry
// (of a hostileCopy with settings) in seat 0 and passes elsewhere, then
// closes it, and returns its agent.
func playHostile(t *testing.T, entry string, settings map[string]any, opt Options, rounds int) *Python {
	t.Helper()
	a, err := NewPython("rising-tide", filepath.Join(hostileCopy(t, settings), "hostile.py"), entry, opt)
	if err != nil {
		t.Fatal(err)
	}
	play(t, "rising-tide", 1, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, rounds)
	a.Close()
	return a
}

// modes are the sandbox's ways of ending descendants on this machine: the
// PID namespace (root), the fallback (the sandbox process as a child
// subreaper, the session, the pids cgroup where there is one) and the bare
// fallback (no cgroup).
func modes(t *testing.T) []string {
	probe()
	if !features.ns {
		t.Log("no PID namespaces here (not root): only the fallback is tested")
		return []string{"bare"}
	}
	if features.pids == "" {
		return []string{"namespace", "bare"}
	}
	return []string{"namespace", "fallback", "bare"}
}

// TestSandboxEndsDescendants: a process the bot starts in a session of its
// own and a double-forked daemon are gone once the game is over and the bot
// closed, with the PID namespace and with the fallback.
func TestSandboxEndsDescendants(t *testing.T) {
	needPython(t)
	for _, mode := range modes(t) {
		for _, entry := range []string{"setsid_child", "daemon"} {
			t.Run(mode+"/"+entry, func(t *testing.T) {
				if mode != "namespace" {
					withoutNamespace(t, mode)
				}
				marker := fmt.Sprintf("gridgym-hostile-%d-%s-%s", os.Getpid(), mode, entry)
				dir := hostileCopy(t, map[string]any{"marker": marker})
				log := &syncBuffer{}
				a, err := NewPython("rising-tide", filepath.Join(dir, "hostile.py"), entry, Options{Limit: 5 * time.Second, Log: log})
				if err != nil {
					t.Fatal(err)
				}
				defer a.Close()
				bots := []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}
				play(t, "rising-tide", 1, bots, 3)
				if !waitStarted(marker, time.Minute) {
					t.Fatalf("the bot's process did not start (log %q): the test tests nothing", log)
				}
				if ev := a.Events(); ev.Answered != 3 {
					t.Errorf("events %v, want 3 answered", ev)
				}
				a.Close()
				if pids := waitGone(marker, 30*time.Second); len(pids) > 0 {
					for _, p := range pids {
						syscallKill(p)
					}
					t.Errorf("processes %v outlived the bot", pids)
				}
			})
		}
	}
}

// TestWithoutSandboxDescendantsEscape is the control of
// TestSandboxEndsDescendants: without the sandbox, the setsid child of the
// same bot outlives it, as issue 25 found, so the test above can fail.
func TestWithoutSandboxDescendantsEscape(t *testing.T) {
	needPython(t)
	sandboxOff = true
	defer func() { sandboxOff = false }()
	marker := fmt.Sprintf("gridgym-hostile-%d-control", os.Getpid())
	playHostile(t, "setsid_child", map[string]any{"marker": marker}, Options{Limit: 5 * time.Second, Log: io.Discard}, 3)
	waitStarted(marker, time.Minute) // the child starts a moment after the answer; a loaded machine takes longer
	time.Sleep(300 * time.Millisecond)
	pids := markedProcs(marker)
	for _, p := range pids {
		syscallKill(p)
	}
	if len(pids) == 0 {
		t.Errorf("without the sandbox the setsid child is gone too: the sandbox tests prove nothing")
	}
}

// TestSandboxCommandDaemon: a program bot (cmd:) that starts a daemon in a
// session of its own at every move leaves none once its move is over.
func TestSandboxCommandDaemon(t *testing.T) {
	needPython(t)
	for _, mode := range modes(t) {
		t.Run(mode, func(t *testing.T) {
			if mode != "namespace" {
				withoutNamespace(t, mode)
			}
			marker := fmt.Sprintf("gridgym-hostile-%d-%s-cmd", os.Getpid(), mode)
			dir := hostileCopy(t, map[string]any{"marker": marker})
			log := &syncBuffer{}
			a, err := NewCommand("slime", []string{"sh", filepath.Join(dir, "slime_daemon.sh")}, Options{Limit: 10 * time.Second, Log: log})
			if err != nil {
				t.Fatal(err)
			}
			seen := make(chan bool, 1)
			stop := make(chan struct{})
			go func() {
				ok := false
				for !ok {
					select {
					case <-stop:
						seen <- false
						return
					default:
					}
					ok = len(markedProcs(marker)) > 0
					time.Sleep(5 * time.Millisecond)
				}
				seen <- true
			}()
			g, _ := rules.Lookup("slime")
			st := g.New(g.Default())
			a.Reset(st, 0, rules.NewRNG(1))
			m := a.Act(st)
			close(stop)
			if !<-seen {
				t.Fatalf("the daemon was never seen (log %q): the test tests nothing", log)
			}
			if ev := a.Events(); ev.Answered != 1 || m == (rules.Move{}) {
				t.Errorf("events %v, move %+v: want the answer played", ev, m)
			}
			if pids := waitGone(marker, 30*time.Second); len(pids) > 0 {
				for _, p := range pids {
					syscallKill(p)
				}
				t.Errorf("daemons %v outlived the move", pids)
			}
		})
	}
}

// TestSandboxMemoryLimit: a bot that allocates 50 MB per loop iteration
// is stopped by its address-space limit: its move is the no-answer, the
// event is logged with the limit, and the bot plays on.
func TestSandboxMemoryLimit(t *testing.T) {
	needPython(t)
	log := &syncBuffer{}
	start := time.Now()
	a, err := NewPython("rising-tide", hostileFile, "hog", Options{Limit: 5 * time.Second, Log: log, Memory: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	moves, _ := play(t, "rising-tide", 1, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 3)
	a.Close()
	t.Logf("3 rounds in %v", time.Since(start))
	for r, m := range moves {
		if pass := m[0] == (rules.Move{}); pass != (r == 1) {
			t.Errorf("round %d: move %+v, want the no-answer (a pass) only in round 2", r+1, m[0])
		}
	}
	if ev := a.Events(); ev.Errors != 1 || ev.Answered != 2 {
		t.Errorf("events %v, want 1 error and 2 answered (log %q)", ev, log)
	}
	if got := log.String(); !strings.Contains(got, "MemoryError") || !strings.Contains(got, "over its memory limit: 256 MiB") {
		t.Errorf("log %q, want the memory limit named", got)
	}
}

// TestSandboxCPULimit: a bot whose background thread burns CPU is killed
// at its CPU limit; the next move is a crash, logged with the limit, and a
// fresh process plays on.
func TestSandboxCPULimit(t *testing.T) {
	needPython(t)
	log := &syncBuffer{}
	a, err := NewPython("rising-tide", hostileFile, "spin", Options{Limit: time.Second, Log: log, CPU: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	bots := []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}
	g, _ := rules.Lookup("rising-tide")
	st := g.New(g.Default())
	for s, b := range bots {
		b.Reset(st, s, rules.NewRNG(1))
	}
	rng := rules.NewRNG(1)
	// The spinning thread needs a second of CPU, which a loaded machine
	// gives it slowly: up to two minutes of wall time, a liveness bound.
	deadline := time.Now().Add(2 * time.Minute)
	for a.Events().Crashes == 0 && time.Now().Before(deadline) {
		m := make([]rules.Move, 4)
		m[0] = a.Act(st)
		st.Step(m, rng)
		time.Sleep(200 * time.Millisecond)
	}
	a.Close()
	if got := log.String(); a.Events().Crashes == 0 || !strings.Contains(got, "over its CPU limit of 1 s") {
		t.Errorf("events %v, log %q: want a crash at the CPU limit", a.Events(), got)
	}
}

// TestSandboxProcessLimit: a bot that starts 100 processes gets no more
// than its limit (where the limit binds: a pids cgroup, or RLIMIT_NPROC for
// a user other than root).
func TestSandboxProcessLimit(t *testing.T) {
	needPython(t)
	probe()
	if features.pids == "" && os.Geteuid() == 0 {
		t.Skip("SKIPPED: running as root without a pids cgroup: RLIMIT_NPROC does not bind root, so no process limit is enforced here")
	}
	marker := fmt.Sprintf("gridgym-hostile-%d-forkbomb", os.Getpid())
	out := &syncBuffer{}
	a := playHostile(t, "fork_bomb", map[string]any{"marker": marker}, Options{Limit: 10 * time.Second, Log: out, Output: out, Procs: 10}, 2)
	if ev := a.Events(); ev.Answered != 2 {
		t.Errorf("events %v, want 2 answered", ev)
	}
	got := out.String()
	var n int
	var errName string
	if i := strings.Index(got, "fork_bomb: "); i < 0 {
		t.Fatalf("output %q: no fork_bomb line", got)
	} else if _, err := fmt.Sscanf(got[i:], "fork_bomb: %d started, error %s", &n, &errName); err != nil {
		t.Fatalf("output %q: %v", got, err)
	}
	t.Logf("fork_bomb: %d started, error %s", n, errName)
	if n >= 10 || errName == "none" {
		t.Errorf("the bot started %d processes (error %s), want fewer than its limit of 10", n, errName)
	}
	if pids := waitGone(marker, 30*time.Second); len(pids) > 0 {
		t.Errorf("processes %v outlived the bot", pids)
	}
}

// TestSandboxFiles: a bot cannot read another bot's file, write outside
// its temporary folder (where Landlock exists) nor read the parent's
// command line; it can write in its temporary folder.
func TestSandboxFiles(t *testing.T) {
	needPython(t)
	probe()
	if features.landlock == 0 {
		t.Skip("SKIPPED: this kernel has no Landlock (Linux < 5.13, or not enabled): files are not restricted here")
	}
	other, err := filepath.Abs("testdata/opponent/secret.py")
	if err != nil {
		t.Fatal(err)
	}
	reports := t.TempDir()
	settings := map[string]any{"other": other, "parent": strconv.Itoa(os.Getpid()), "outside": filepath.Join(reports, "report.md")}
	for _, mode := range modes(t) {
		t.Run(mode, func(t *testing.T) {
			if mode != "namespace" {
				withoutNamespace(t, mode)
			}
			out := &syncBuffer{}
			playHostile(t, "snoop", settings, Options{Limit: 5 * time.Second, Output: out, Log: out}, 2)
			got := out.String()
			t.Logf("%s", got)
			want := map[string]string{"other": "denied", "parent": "denied", "outside": "denied", "tmp": "ok"}
			for what, verdict := range want {
				if !strings.Contains(got, "snoop: "+what+": "+verdict) {
					t.Errorf("%s: want %s in %q", what, verdict, got)
				}
			}
			// The bot's parent is the sandbox process, whose command line
			// names no argument of the host's (the test binary's).
			if i := strings.Index(got, "snoop: ppid: ok"); i >= 0 {
				line := got[i:]
				line = line[:strings.IndexByte(line, '\n')]
				if strings.Contains(line, "-test.") || strings.Contains(line, filepath.Base(os.Args[0])) {
					t.Errorf("the bot read its host's command line: %s", line)
				}
			}
			if _, err := os.Stat(filepath.Join(reports, "report.md")); err == nil {
				t.Errorf("the bot wrote in the report folder")
			}
		})
	}
}

// TestSandboxNumPy: a NumPy bot runs under the default limits.
func TestSandboxNumPy(t *testing.T) {
	needPython(t)
	py, _ := Interpreter("")
	if err := exec_(py, "-c", "import numpy"); err != nil {
		t.Skipf("SKIPPED: %s has no NumPy", py)
	}
	log := &syncBuffer{}
	a, err := NewPython("rising-tide", "testdata/numpy_bot.py", "", Options{Limit: 5 * time.Second, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	play(t, "rising-tide", 1, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 3)
	a.Close()
	if ev := a.Events(); ev.Answered != 3 {
		t.Errorf("events %v, log %q: want 3 answered", ev, log)
	}
}
