package host

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// botLogs are the files of Options.BotLog opened by this process, by path:
// each is truncated when first opened and then shared by every bot and
// agent that writes to it.
var (
	botLogMu sync.Mutex
	botLogs  = map[string]*lockedFile{}
)

// botLogCap bounds one bot log file: a bot that floods its output fills
// its log up to here, then one line says that the rest was dropped (a
// variable for the tests).
var botLogCap int64 = 16 << 20

// lockedFile is a file written whole-write at a time by several processes'
// copiers, up to botLogCap bytes.
type lockedFile struct {
	mu      sync.Mutex
	f       *os.File
	written int64
	full    bool // the cap was reached: the rest is dropped
}

func (l *lockedFile) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.full {
		return len(b), nil
	}
	if l.written+int64(len(b)) > botLogCap {
		l.full = true
		fmt.Fprintf(l.f, "--- gridgym: this bot log reached its cap of %d MiB; the rest of the bot's output is dropped\n", botLogCap>>20)
		return len(b), nil
	}
	n, err := l.f.Write(b)
	l.written += int64(n)
	return n, err
}

// BotLogName is the file name of bot spec name's output in game under
// Options.BotLog: the spec with every character but ASCII letters, digits,
// '.', '-' and '_' replaced by '_', then -GAME.log.
func BotLogName(name, game string) string {
	s := strings.Map(func(r rune) rune {
		if r == '.' || r == '-' || r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return '_'
	}, name)
	if len(s) > 120 {
		s = s[:120]
	}
	return s + "-" + game + ".log"
}

// withBotLog points o.Output at bot name's file under o.BotLog, where one
// is asked for and no Output is set.
func (o Options) withBotLog(name, game string) (Options, error) {
	if o.BotLog == "" || o.Output != nil {
		return o, nil
	}
	path := filepath.Join(o.BotLog, BotLogName(name, game))
	botLogMu.Lock()
	defer botLogMu.Unlock()
	if f := botLogs[path]; f != nil {
		o.Output = f
		return o, nil
	}
	if err := os.MkdirAll(o.BotLog, 0o755); err != nil {
		return o, fmt.Errorf("%s: bot log: %w", name, err)
	}
	f, err := os.Create(path)
	if err != nil {
		return o, fmt.Errorf("%s: bot log: %w", name, err)
	}
	lf := &lockedFile{f: f}
	botLogs[path] = lf
	o.Output = lf
	return o, nil
}

// seatLog is one agent's writer into its bot's shared log file: every line
// gets the agent's prefix (botLogPrefix). It is handed whole lines by a
// process's tailWriter (a last piece without its newline gets one), and
// writes each piece in one call, so lines of agents that share the file
// do not interleave.
type seatLog struct {
	w      io.Writer
	prefix []byte
	buf    []byte
	mu     sync.Mutex
}

func (l *seatLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = l.buf[:0]
	for rest := b; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		l.buf = append(append(l.buf, l.prefix...), line...)
		if line[len(line)-1] != '\n' {
			l.buf = append(l.buf, '\n')
		}
	}
	if _, err := l.w.Write(l.buf); err != nil {
		return 0, err
	}
	return len(b), nil
}

// seatPrefix is what starts every line of a seat's output in a bot log:
// "[game G, seat S] ", or "[seat S] " where the game is not known (game <
// 0). Games and seats count from 0, as in tournament reports and the
// event log.
func seatPrefix(game int64, seat int) string {
	if game < 0 {
		return fmt.Sprintf("[seat %d] ", seat)
	}
	return fmt.Sprintf("[game %d, seat %d] ", game, seat)
}

// prefixed is where output goes that o's bot log keeps under prefix: with
// Output a BotLog file, a seatLog that starts each line with prefix; else
// Output itself (nil: discarded).
func (o Options) prefixed(prefix string) io.Writer {
	if f, ok := o.Output.(*lockedFile); ok {
		return &seatLog{w: f, prefix: []byte(prefix)}
	}
	return o.Output
}

// marker writes one line of gridgym's own into a bot log, where out is one
// (prefixed), as the bot's lines are written; other outputs get none.
func marker(out io.Writer, format string, args ...any) {
	if l, ok := out.(*seatLog); ok {
		fmt.Fprintf(l, "--- gridgym: "+format+"\n", args...)
	}
}
