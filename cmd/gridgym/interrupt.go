package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/gridgym/gridgym/agents/host"
)

// signalPlan says how a command ends on Ctrl-C (SIGINT) and SIGTERM.
type signalPlan struct {
	// what is the early stop the first signal starts, said at once
	// ("stopping after this step …"); "" = none: the first signal stops
	// the program now.
	what string
	// termEarly makes SIGTERM stop early too, as Ctrl-C does (train: a
	// checkpoint is saved); else SIGTERM stops the program now.
	termEarly bool
	// saved says what is kept on disk, for the message of a stop now; nil
	// = nothing to say.
	saved func() string
}

// watchSignals handles Ctrl-C and SIGTERM by plan until release: an early
// stop ends ctx and the command winds down; a stop now (a second signal,
// or a first one the plan does not stop early for) is stopNow. release
// reports whether an early stop was asked for.
func watchSignals(w io.Writer, plan signalPlan) (ctx context.Context, release func() (early bool)) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var early atomic.Bool
	go func() {
		for {
			select {
			case <-done:
				return
			case s := <-ch:
				if early.Load() || plan.what == "" || (s == syscall.SIGTERM && !plan.termEarly) {
					stopNow(w, s, plan.saved)
				}
				early.Store(true)
				fmt.Fprintf(w, "\ninterrupted: %s (Ctrl-C again to stop now)\n", plan.what)
				cancel()
			}
		}
	}()
	var once sync.Once
	return ctx, func() bool {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
		return early.Load()
	}
}

// signalStatus is the exit status of a program stopped by s, as a shell
// reports one killed by it: 128 + the signal's number (130 for Ctrl-C, 143
// for SIGTERM).
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// signalName names s for the user: "Ctrl-C" for SIGINT.
func signalName(s os.Signal) string {
	if s == os.Interrupt {
		return "Ctrl-C"
	}
	if n, ok := s.(syscall.Signal); ok && n == syscall.SIGTERM {
		return "SIGTERM"
	}
	return s.String()
}

// stopNow ends the program after signal s: every hosted bot process is
// killed and no other starts (host.Shutdown: their temporary folders go
// with them), gridgym's own temporary folders are removed (removeTemps), a
// line says so and what saved says is kept, and the program exits with
// signalStatus(s).
func stopNow(w io.Writer, s os.Signal, saved func() string) {
	host.Shutdown()
	removeTemps()
	msg := fmt.Sprintf("stopped by %s: hosted bots killed, temporary folders removed", signalName(s))
	if saved != nil {
		if k := saved(); k != "" {
			msg += "; " + k
		}
	}
	fmt.Fprintln(w, "\n"+msg)
	os.Exit(signalStatus(s))
}

// interruptible returns a context that the first Ctrl-C or SIGTERM ends,
// after printing at once what happens next ("stopping after this step …");
// a second one stops the program now (stopNow: hosted bots killed,
// temporary folders removed, status 130 for Ctrl-C, 143 for SIGTERM), after
// printing saved() (what is kept on disk; checkpoints and shards are
// written atomically, so whatever is named there is whole). stop releases
// the signals. For commands that host no bots (train); those that do use
// hostingInterruptible.
func interruptible(w io.Writer, what string, saved func() string) (ctx context.Context, stop func()) {
	ctx, release := watchSignals(w, signalPlan{what: what, termEarly: true, saved: saved})
	return ctx, func() { release() }
}

// hostingInterruptible is Ctrl-C and SIGTERM for a command that may host
// bots (py:, cmd: specs: tournament, play, pipeline, exploit) or fetch
// inputs into temporary folders (rate), which must leave no bot process or
// temporary folder behind however it ends. SIGTERM
// stops the program now (stopNow, status 143). Ctrl-C does too (130) where
// what is "", else the first one ends ctx, after printing what happens next,
// and a second one stops now. done, called with the command's result as it
// returns, releases the signals and returns err; after an early stop it
// ends the program instead, as stopNow does, with status 130 (err written
// first, unless it is only the stop's own context.Canceled).
func hostingInterruptible(w io.Writer, what string, saved func() string) (ctx context.Context, done func(err error) error) {
	ctx, release := watchSignals(w, signalPlan{what: what, saved: saved})
	return ctx, func(err error) error {
		if !release() {
			return err
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(w, "gridgym: %v\n", err)
		}
		stopNow(w, os.Interrupt, nil)
		return err // not reached: stopNow exits
	}
}
