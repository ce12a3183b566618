package host

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killDescendants ends a descendant that made a session of its own while
// its ancestor still runs: the sandbox's adopted orphans, which the
// session scan alone missed when Close's grace ran out on a loaded
// machine (TestSandboxEndsDescendants/bare/setsid_child failed there).
func TestKillDescendantsTree(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid(1) here")
	}
	cmd := exec.Command("sh", "-c", "setsid sleep 300 & echo $!; wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(child, syscall.SIGKILL)
	// Wait (without a clock) until the child has made its own session.
	for {
		_, session, ok := procParent(child)
		if !ok {
			t.Fatal("the child is gone before the test")
		}
		if session == child {
			break
		}
		time.Sleep(time.Millisecond)
	}
	killDescendants(cmd.Process.Pid, nil)
	// The child is killed (a zombie until sh reaps it, or gone).
	for i := 0; ; i++ {
		b, err := readState(child)
		if err != nil || b == "Z" {
			break
		}
		if i == 30000 { // 30 s at least: a SIGKILL takes far less
			t.Fatalf("the setsid child %d outlived killDescendants (state %s)", child, b)
		}
		time.Sleep(time.Millisecond)
	}
}

// readState is process pid's state letter from /proc/pid/stat.
func readState(pid int) (string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return f[0], nil
}
