package host

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
)

// TestShutdown ends a running bot process and refuses every later start:
// the bot's next move is a start failure, played as no answer.
func TestShutdown(t *testing.T) {
	needPython(t)
	t.Cleanup(func() { // Shutdown is final; the other tests start bots
		shutMu.Lock()
		shutDown = false
		shutMu.Unlock()
	})
	log := &syncBuffer{}
	a, err := NewPython("nuggets", "testdata/nuggets_twin.py", "", Options{Limit: 5 * time.Second, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	bots := []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}
	play(t, "nuggets", 1, bots, 1)
	p := a.h.p
	if p == nil || !p.running() {
		t.Fatal("no running process after a move")
	}
	Shutdown()
	if p.running() {
		t.Errorf("Shutdown left the process running")
	}
	if _, err := start([]string{"true"}, nil, nil, nil); !errors.Is(err, errShutDown) {
		t.Errorf("a start after Shutdown: %v, want %v", err, errShutDown)
	}
	play(t, "nuggets", 1, bots, 1) // a new game: the agent tries a new process
	if ev := a.Events(); ev.Crashes != 1 || !strings.Contains(log.String(), "gridgym is stopping") {
		t.Errorf("after Shutdown: events %v, log %q; want a start failure", ev, log.String())
	}
}
