package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interruptible returns a context that the first Ctrl-C (or SIGTERM) ends,
// after printing at once what happens next ("stopping after this step …");
// a second one exits the program at once with status 130, after printing
// saved() (what is kept on disk; checkpoints and shards are written
// atomically, so whatever is named there is whole). stop releases the
// signals.
func interruptible(w io.Writer, what string, saved func() string) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var once sync.Once
	go func() {
		n := 0
		for {
			select {
			case <-done:
				return
			case <-ch:
				n++
				if n == 1 {
					fmt.Fprintf(w, "\ninterrupted: %s (Ctrl-C again to stop now)\n", what)
					cancel()
					continue
				}
				msg := "stopped"
				if saved != nil {
					if s := saved(); s != "" {
						msg += "; " + s
					}
				}
				fmt.Fprintln(w, "\n"+msg)
				os.Exit(130)
			}
		}
	}()
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
}
