package host

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gridgym/gridgym/agents"
)

func init() { agents.RegisterResolver(Resolve) }

// Resolve is the agents.Resolver of hosted bots, so that a user's own bot
// can be named wherever a bot name is (tournaments, play):
//
//	py:FILE          the Python bot FILE, called through the game's entry
//	                 point (Competition.Entry: my_bot_fn or bot)
//	py:FILE:ENTRY    the same with the function ENTRY
//	cmd:COMMAND LINE a program, for program competitions (Slime): the
//	                 line is split at spaces (strings.Fields) and run with
//	                 the request as one more argument
//
// A py: bot is imported once here, so that a missing file, a syntax error
// or a missing function is reported at once. The entry's agents use
// Defaults and share one event log. Specs of other kinds give ok = false.
func Resolve(game, spec string) (e agents.Entry, ok bool, err error) {
	switch {
	case strings.HasPrefix(spec, "py:"):
		file, entry := splitEntry(strings.TrimPrefix(spec, "py:"))
		if file == "" {
			return e, true, fmt.Errorf("%s: want py:FILE or py:FILE:ENTRY", spec)
		}
		b, err := newPyBot(spec, game, file, entry, Defaults)
		if err != nil {
			return e, true, err
		}
		if err := checkOnce(b); err != nil {
			return e, true, err
		}
		doc := fmt.Sprintf("the Python bot %s, %s() hosted by %s, %v a move", b.file, b.entry, b.python, b.opt.Limit)
		return agents.Entry{Game: game, Name: spec, Doc: doc, New: func() agents.Agent { return b.agent() }}, true, nil
	case strings.HasPrefix(spec, "cmd:"):
		b, err := newCmdBot(spec, game, strings.Fields(strings.TrimPrefix(spec, "cmd:")), Defaults)
		if err != nil {
			return e, true, err
		}
		doc := fmt.Sprintf("the program %s, run once a move, %v a move", strings.Join(b.argv, " "), b.opt.Limit)
		return agents.Entry{Game: game, Name: spec, Doc: doc, New: func() agents.Agent { return &Command{bot: b, game: -1} }}, true, nil
	}
	return e, false, nil
}

// splitEntry splits "FILE:ENTRY" where ENTRY is a Python identifier; any
// other colon belongs to the file name.
func splitEntry(s string) (file, entry string) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 || !isIdentifier(s[i+1:]) {
		return s, ""
	}
	return s[:i], s[i+1:]
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// checked remembers the bot files that imported fine (by interpreter, file,
// entry, conversion and modification time), since a tool may resolve the
// same spec several times.
var checked sync.Map

func checkOnce(b *pyBot) error {
	fi, err := os.Stat(b.file)
	if err != nil {
		return fmt.Errorf("%s: %w", b.name, err)
	}
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%d\x00%s", b.python, b.file, b.entry, b.comp.Args, fi.Size(), fi.ModTime().Format(time.RFC3339Nano))
	if _, ok := checked.Load(key); ok {
		return nil
	}
	if err := b.check(); err != nil {
		return err
	}
	checked.Store(key, true)
	return nil
}
