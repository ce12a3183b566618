package host

import (
	"errors"
	"sync"
	"time"
)

// startWait bounds how long Shutdown waits for the process starts under
// way (a start waits up to 5 s for its sandbox, twice where a sandbox
// without namespaces is tried after one with).
const startWait = 12 * time.Second

var (
	shutMu   sync.Mutex
	shutDown bool           // set by Shutdown: no process starts any more
	starting sync.WaitGroup // process starts under way
)

// errShutDown is a start refused because gridgym is stopping.
var errShutDown = errors.New("gridgym is stopping: no bot process is started")

// beginStart registers a process start, which must call starting.Done when
// its process is in live (or failed to start); false once Shutdown has
// been called.
func beginStart() bool {
	shutMu.Lock()
	defer shutMu.Unlock()
	if shutDown {
		return false
	}
	starting.Add(1)
	return true
}

// Shutdown kills every hosted bot process and makes sure none is left when
// gridgym exits right after, for a signal handler: it refuses every later
// start (a game still running gets a start failure, the move played as no
// answer), waits for the starts under way (at most startWait), then kills
// what runs, as KillAll does, each process's temporary folder removed once
// it is reaped. Unlike KillAll, it is final: call it only when the program
// is about to exit.
func Shutdown() {
	shutMu.Lock()
	shutDown = true
	shutMu.Unlock()
	done := make(chan struct{})
	go func() {
		starting.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(startWait):
	}
	KillAll()
}
