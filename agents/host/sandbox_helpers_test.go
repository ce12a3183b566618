//go:build linux

package host

import (
	"os/exec"
	"syscall"
)

func syscallKill(pid int) { syscall.Kill(pid, syscall.SIGKILL) }

func exec_(name string, args ...string) error { return exec.Command(name, args...).Run() }
