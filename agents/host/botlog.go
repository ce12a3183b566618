package host

import (
	"fmt"
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

// lockedFile is a file written whole-write at a time by several processes'
// copiers.
type lockedFile struct {
	mu sync.Mutex
	f  *os.File
}

func (l *lockedFile) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Write(b)
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
