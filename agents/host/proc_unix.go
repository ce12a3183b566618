//go:build unix

package host

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a session and process group of its own, so that
// killGroup also reaches the processes it starts (a shell script's
// children, say) and a scan by session id finds those that left the group.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// killGroup kills cmd's process group, then cmd itself. It is only called
// while cmd has not been reaped, so its pid, which is the group's id, cannot
// have been reused.
func killGroup(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
