//go:build !linux

package host

import (
	"fmt"
	"io"
	"os/exec"
	"sync/atomic"
	"time"
)

// contained is nothing where there is no sandbox.
type contained struct{}

// contain leaves cmd as it is: outside Linux there are no namespaces, no
// Landlock, and the limits are not applied; the bot runs in its own process
// group (where there are process groups) and is timed as everywhere.
func contain(_ *exec.Cmd, _, _ []string, _ *sandbox, _ bool, log io.Writer) (*contained, error) {
	if log != nil && !logged.Swap(true) {
		fmt.Fprintf(log, "host: sandbox: %s\n", SandboxSummary())
	}
	return nil, nil
}

// logged is set once the missing sandbox has been logged.
var logged atomic.Bool

func namespaces() bool                     { return false }
func namespaceFailed(error) bool           { return false }
func killDescendants(int, *contained)      {}
func (c *contained) cleanup()              {}
func (c *contained) started(time.Duration) {}

// SandboxSummary says, in one line, how hosted bots are contained on this
// machine.
func SandboxSummary() string {
	return "no sandbox on this system (Linux only): bots run in their own process group, with time limits but no memory, CPU, process or file limits"
}
