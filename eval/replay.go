package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gridgym/gridgym/rules"
)

// ReplayFormat names version 1 of the replay file format, written in the
// header line of every replay file.
//
// A replay file is JSON lines (UTF-8, one object per line):
//
//	{"format":"gridgym-replay-v1","game":"slime","params":"max_turns=2000,board_size=8",
//	 "bots":["simplebot","random","random","random"],"seed":"1","index":0}
//	{"step":0,"words":["1","80000000","0","0","0"]}
//	{"step":1,"words":["3","c0000000","0","0","1"]}
//	…
//	{"outcome":{"score":[12,3,0,0],"points":[3,2,0.5,0.5],"win":[1,0,0,0]},"errors":[0,0,0,0]}
//
// The header gives the game (registry name), its parameters
// (rules.Config.String()), the bot of each seat in seat order, and the
// tournament seed and game index the game's random streams derive from. The
// seed is a decimal string: seeds span 0..2^64-1, beyond the 2^53 that JSON
// numbers hold exactly in many readers. Then one line per position, step 0
// (the start) to the last step in order: the compact state
// (rules.State.AppendWords) with each 64-bit word a hexadecimal string, for
// the same reason. The last line is the outcome of the game for every seat
// (non-finite scores are written as null) and, optionally, the moves each
// seat's bot did not answer.
const ReplayFormat = "gridgym-replay-v1"

// maxReplayLine bounds one line of a replay file (a position of the largest
// board is a few kilobytes).
const maxReplayLine = 16 << 20

// Replay is one recorded game: its configuration, who sat where, and every
// position from the start to the end.
type Replay struct {
	Config    rules.Config   // the game and its parameters
	Bots      []string       // bot name by seat
	Seed      uint64         // tournament seed
	Index     int            // game index: the game's streams derive from (Seed, Index)
	Positions [][]uint64     // Positions[n] = the compact state (State.AppendWords) after n steps
	Outcome   *rules.Outcome // the final outcome for every seat
	Errors    []int          // per seat: moves the bot did not answer (nil if not recorded)
}

// Steps returns the number of steps the recorded game played.
func (r *Replay) Steps() int { return len(r.Positions) - 1 }

// State returns a new state of the replay's game set to the position after n
// steps.
func (r *Replay) State(n int) (rules.State, error) {
	if n < 0 || n >= len(r.Positions) {
		return nil, fmt.Errorf("replay: step %d out of range 0..%d", n, r.Steps())
	}
	st := r.Config.Game().New(r.Config)
	if err := setWords(st, r.Positions[n]); err != nil {
		return nil, fmt.Errorf("replay: step %d: %w", n, err)
	}
	return st, nil
}

// replayHeader is the first line of a replay file.
type replayHeader struct {
	Format string   `json:"format"`
	Game   string   `json:"game"`
	Params string   `json:"params"`
	Bots   []string `json:"bots"`
	Seed   string   `json:"seed"`
	Index  *int     `json:"index"`
}

// replayOutcome is rules.Outcome with null-safe floats.
type replayOutcome struct {
	Score  []jsonFloat `json:"score"`
	Points []jsonFloat `json:"points"`
	Win    []jsonFloat `json:"win"`
}

// replayLine is a position line or the outcome line.
type replayLine struct {
	Step    *int           `json:"step,omitempty"`
	Words   []string       `json:"words,omitempty"`
	Outcome *replayOutcome `json:"outcome,omitempty"`
	Errors  []int          `json:"errors,omitempty"`
}

// WriteReplay writes r to w in the ReplayFormat.
func WriteReplay(w io.Writer, r *Replay) error {
	if r.Config.Game() == nil {
		return errors.New("replay: no game configured")
	}
	if len(r.Positions) == 0 {
		return errors.New("replay: no positions")
	}
	if r.Outcome == nil {
		return errors.New("replay: no outcome")
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	index := r.Index
	if err := enc.Encode(replayHeader{Format: ReplayFormat, Game: r.Config.Game().Name, Params: r.Config.String(),
		Bots: r.Bots, Seed: strconv.FormatUint(r.Seed, 10), Index: &index}); err != nil {
		return fmt.Errorf("replay header: %w", err)
	}
	var words []string
	for n, pos := range r.Positions {
		words = words[:0]
		for _, x := range pos {
			words = append(words, strconv.FormatUint(x, 16))
		}
		if words == nil {
			words = []string{} // "words":[] for a stateless game, never omitted
		}
		step := n
		if err := enc.Encode(struct {
			Step  *int     `json:"step"`
			Words []string `json:"words"`
		}{&step, words}); err != nil {
			return fmt.Errorf("replay step %d: %w", n, err)
		}
	}
	o := r.Outcome
	if err := enc.Encode(replayLine{Outcome: &replayOutcome{toWire(o.Score), toWire(o.Points), toWire(o.Win)}, Errors: r.Errors}); err != nil {
		return fmt.Errorf("replay outcome: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}

// SaveReplay writes r to the file path (through a temporary file in the same
// folder, renamed into place, so a reader never sees half a replay).
func SaveReplay(path string, r *Replay) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	werr := WriteReplay(f, r)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("replay %s: %w", path, werr)
	}
	return nil
}

// ReadReplay reads the replay file at path. The game's package must be linked
// in (import package games). A file that is empty, truncated, of another
// format or version, or corrupt (bad JSON, words, steps out of order, a
// position the game's SetWords rejects, an outcome of the wrong size) gives an
// error naming the file and the line.
func ReadReplay(path string) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	return DecodeReplay(f, path)
}

// DecodeReplay reads a replay in the ReplayFormat from rd; name (a file name)
// prefixes its errors.
func DecodeReplay(rd io.Reader, name string) (*Replay, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 0, 64<<10), maxReplayLine)
	line := 0
	fail := func(format string, a ...any) error {
		return fmt.Errorf("replay %s line %d: %s", name, line, fmt.Sprintf(format, a...))
	}
	next := func() ([]byte, bool) {
		for sc.Scan() {
			line++
			if b := bytes.TrimSpace(sc.Bytes()); len(b) > 0 {
				return b, true
			}
		}
		return nil, false
	}
	scanErr := func() error {
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				return fmt.Errorf("replay %s line %d: line longer than %d bytes", name, line+1, maxReplayLine)
			}
			return fmt.Errorf("replay %s: %w", name, err)
		}
		return nil
	}

	// The header.
	b, ok := next()
	if !ok {
		if err := scanErr(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("replay %s: empty file, not a %s replay", name, ReplayFormat)
	}
	var h replayHeader
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fail("not a %s replay: the first line is not its JSON header (%v)", ReplayFormat, jsonError(b, err))
	}
	if h.Format != ReplayFormat {
		if h.Format == "" {
			return nil, fail("not a %s replay: the header has no \"format\"", ReplayFormat)
		}
		return nil, fail("format %q, want %q (a foreign file, or a version this program does not read)", h.Format, ReplayFormat)
	}
	g, err := rules.Lookup(h.Game)
	if err != nil {
		return nil, fail("%v", err)
	}
	vals, err := g.ParseConfigString(h.Params)
	if err != nil {
		return nil, fail("%v", err)
	}
	cfg, err := g.Configure(vals)
	if err != nil {
		return nil, fail("%v", err)
	}
	seed, err := strconv.ParseUint(h.Seed, 10, 64)
	if err != nil {
		return nil, fail("seed %q: want a decimal string 0..18446744073709551615", h.Seed)
	}
	if h.Index == nil || *h.Index < 0 {
		return nil, fail("header: want \"index\", a game index ≥ 0")
	}
	st := g.New(cfg)
	seats := st.Spec().Seats
	if len(h.Bots) != seats {
		return nil, fail("%d bots, want one per seat (%d)", len(h.Bots), seats)
	}
	r := &Replay{Config: cfg, Bots: h.Bots, Seed: seed, Index: *h.Index}

	// The positions, then the outcome.
	for {
		b, ok := next()
		if !ok {
			if err := scanErr(); err != nil {
				return nil, err
			}
			what := "no positions"
			if len(r.Positions) > 0 {
				what = fmt.Sprintf("step %d", r.Steps())
			}
			return nil, fmt.Errorf("replay %s: truncated after line %d (%s): no outcome line", name, line, what)
		}
		var l replayLine
		if err := json.Unmarshal(b, &l); err != nil {
			return nil, fail("%v", jsonError(b, err))
		}
		switch {
		case l.Step != nil && l.Outcome != nil:
			return nil, fail("both a step and the outcome")
		case l.Step != nil:
			if *l.Step != len(r.Positions) {
				return nil, fail("step %d, want step %d (steps in order from 0)", *l.Step, len(r.Positions))
			}
			if l.Words == nil {
				return nil, fail("step %d has no words", *l.Step)
			}
			w := make([]uint64, len(l.Words))
			for i, s := range l.Words {
				if w[i], err = strconv.ParseUint(s, 16, 64); err != nil {
					return nil, fail("step %d word %d %q: want a hexadecimal 64-bit word", *l.Step, i, s)
				}
			}
			if err := setWords(st, w); err != nil {
				return nil, fail("step %d: %v", *l.Step, err)
			}
			r.Positions = append(r.Positions, w)
		case l.Outcome != nil:
			if len(r.Positions) == 0 {
				return nil, fail("the outcome before any position")
			}
			o := l.Outcome
			if len(o.Score) != seats || len(o.Points) != seats || len(o.Win) != seats {
				return nil, fail("outcome with %d scores, %d points and %d win shares, want %d of each (one per seat)",
					len(o.Score), len(o.Points), len(o.Win), seats)
			}
			if l.Errors != nil && len(l.Errors) != seats {
				return nil, fail("%d error counts, want one per seat (%d)", len(l.Errors), seats)
			}
			r.Outcome = &rules.Outcome{Score: fromWire(o.Score), Points: fromWire(o.Points), Win: fromWire(o.Win)}
			r.Errors = l.Errors
			if _, more := next(); more {
				return nil, fail("a line after the outcome")
			}
			if err := scanErr(); err != nil {
				return nil, err
			}
			return r, nil
		default:
			return nil, fail("neither a position (\"step\") nor the outcome")
		}
	}
}

// jsonError explains a line that failed to decode as JSON: one that ends
// early is most likely a file cut short.
func jsonError(b []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset >= int64(len(b)) {
		return fmt.Errorf("the line is cut short, a truncated file? (%w)", err)
	}
	return err
}

// setWords is st.SetWords that turns a panic on hostile words into an error.
func setWords(st rules.State, w []uint64) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("words rejected: %v", p)
		}
	}()
	return st.SetWords(w)
}

// replayPath is the file Run saves game index's replay to.
func replayPath(dir string, index int) string {
	return filepath.Join(dir, fmt.Sprintf("replay-%04d.jsonl", index))
}
