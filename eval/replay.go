package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gridgym/gridgym/internal/atomicfile"
	"github.com/gridgym/gridgym/internal/inputfile"
	"github.com/gridgym/gridgym/rules"
)

// ReplayFormat names version 2 of the replay file format, written in the
// header line of every replay file.
//
// A replay file is JSON lines (UTF-8, one object per line) holding the moves
// and the seeds of a game, not its positions:
//
//	{"format":"gridgym-replay-v2","game":"slime","params":"max_turns=2000,board_size=8",
//	 "bots":["simplebot","random","random","random"],"seed":"1","index":0}
//	{"step":1,"moves":[[1,2,9,18],[0,0],[0,0],[0,0]]}
//	{"step":2,"moves":[[0,0],[1,2,14,7],[0,0],[0,0]]}
//	…
//	{"outcome":{"score":[12,3,0,0],"points":[3,2,0.5,0.5],"win":[1,0,0,0]},"errors":[0,0,0,0],"hash":"9c1f…"}
//
// The header gives the game (registry name), its parameters
// (rules.Config.String()), the bot of each seat in seat order, and the
// tournament seed and game index the game's random streams derive from. The
// seed is a decimal string: seeds span 0..2^64-1, beyond the 2^53 that JSON
// numbers hold exactly in many readers. Then one line per step, 1 to the last
// in order, with the move every seat played (seats that were not asked play
// Pass): [kind, n, arg0, arg1, …], rules.Move's fields, the args after the
// last non-zero one left out. The last line is the outcome of the game for
// every seat (non-finite scores are written as null), optionally the moves
// each seat's bot did not answer, and the hash (rules.Hash, hexadecimal) of
// the final position.
//
// The game's start position follows from its parameters and every random
// event from stream (seed, 2·index) (PlayGame), so a reader plays the moves
// again to get every position, and checks the final one against the hash. A
// replay of the older version gridgym-replay-v1 (every position stored) is
// refused with an error saying how to record it again.
const ReplayFormat = "gridgym-replay-v2"

// replayFormatV1 is the first version of the format, which stored every
// position's words; it is no longer read.
const replayFormatV1 = "gridgym-replay-v1"

// maxReplayLine bounds one line of a replay file.
const maxReplayLine = 16 << 20

// Replay is one recorded game: its configuration, who sat where, every
// seat's move at every step, and the outcome.
type Replay struct {
	Config  rules.Config   // the game and its parameters
	Bots    []string       // bot name by seat
	Seed    uint64         // tournament seed
	Index   int            // game index: the game's streams derive from (Seed, Index)
	Moves   [][]rules.Move // Moves[n] = the move of every seat at step n+1
	Outcome *rules.Outcome // the final outcome for every seat
	Errors  []int          // per seat: moves the bot did not answer (nil if not recorded)
	Hash    uint64         // rules.Hash of the final position
	// Positions[n] is the compact state (State.AppendWords) after n steps.
	// ReadReplay and Simulate fill it by playing the moves again; WriteReplay
	// does not write it.
	Positions [][]uint64
}

// Steps returns the number of steps the recorded game played.
func (r *Replay) Steps() int { return len(r.Moves) }

// State returns a new state of the replay's game set to the position after n
// steps. It needs Positions (ReadReplay, Simulate).
func (r *Replay) State(n int) (rules.State, error) {
	if len(r.Positions) != len(r.Moves)+1 {
		return nil, errors.New("replay: positions not simulated")
	}
	if n < 0 || n >= len(r.Positions) {
		return nil, fmt.Errorf("replay: step %d out of range 0..%d", n, r.Steps())
	}
	st := r.Config.Game().New(r.Config)
	if err := setWords(st, r.Positions[n]); err != nil {
		return nil, fmt.Errorf("replay: step %d: %w", n, err)
	}
	return st, nil
}

// Walk plays the recorded moves again from the start: fn sees the position
// after n steps for n = 0..Steps() (st is reused, fn must not keep it). The
// game's random events come from the stream PlayGame used, so the positions
// are the recorded game's. Walk stops at fn's first error and returns it.
func (r *Replay) Walk(fn func(n int, st rules.State) error) error {
	g := r.Config.Game()
	if g == nil {
		return errors.New("replay: no game configured")
	}
	st := g.New(r.Config)
	seats := st.Spec().Seats
	rng := rules.GameStream(r.Seed, uint64(r.Index))
	for n := 0; ; n++ {
		if err := fn(n, st); err != nil {
			return err
		}
		if n == len(r.Moves) {
			return nil
		}
		if st.Done() {
			return fmt.Errorf("replay: the game ended after step %d but %d steps are recorded", n, len(r.Moves))
		}
		if len(r.Moves[n]) != seats {
			return fmt.Errorf("replay: step %d has %d moves, want one per seat (%d)", n+1, len(r.Moves[n]), seats)
		}
		if err := step(st, r.Moves[n], rng); err != nil {
			return fmt.Errorf("replay: step %d: %w", n+1, err)
		}
	}
}

// Simulate plays the moves again (Walk), fills Positions, and checks that the
// final position has the recorded hash.
func (r *Replay) Simulate() error {
	r.Positions = r.Positions[:0]
	var final uint64
	err := r.Walk(func(n int, st rules.State) error {
		r.Positions = append(r.Positions, st.AppendWords(nil))
		if n == len(r.Moves) {
			final, _ = rules.Hash(st, nil)
		}
		return nil
	})
	if err != nil {
		r.Positions = nil
		return err
	}
	if final != r.Hash {
		r.Positions = nil
		return fmt.Errorf("replay: the moves played again end in a position with hash %016x, the file records %016x (written by a program with other rules, or corrupt)", final, r.Hash)
	}
	return nil
}

// step is st.Step that turns a panic on hostile moves into an error.
func step(st rules.State, moves []rules.Move, rng *rules.RNG) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("moves rejected: %v", p)
		}
	}()
	st.Step(moves, rng)
	return nil
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

// replayLine is a step line or the outcome line.
type replayLine struct {
	Step    *int           `json:"step,omitempty"`
	Moves   [][]int        `json:"moves,omitempty"`
	Outcome *replayOutcome `json:"outcome,omitempty"`
	Errors  []int          `json:"errors,omitempty"`
	Hash    string         `json:"hash,omitempty"`
}

// moveWire is m as [kind, n, args…] without the trailing zero args.
func moveWire(m rules.Move) []int {
	k := len(m.Arg)
	for k > 0 && m.Arg[k-1] == 0 {
		k--
	}
	out := make([]int, 2+k)
	out[0], out[1] = int(m.Kind), int(m.N)
	for i := 0; i < k; i++ {
		out[2+i] = int(m.Arg[i])
	}
	return out
}

// moveFromWire is the inverse of moveWire.
func moveFromWire(w []int) (rules.Move, error) {
	var m rules.Move
	if len(w) < 2 || len(w) > 2+len(m.Arg) {
		return m, fmt.Errorf("a move is [kind, n, up to %d args], not %d numbers", len(m.Arg), len(w))
	}
	if w[0] < 0 || w[0] > 255 || w[1] < 0 || w[1] > 255 {
		return m, fmt.Errorf("move kind %d, n %d: want 0..255", w[0], w[1])
	}
	m.Kind, m.N = rules.MoveKind(w[0]), uint8(w[1])
	for i, a := range w[2:] {
		if a < -32768 || a > 32767 {
			return m, fmt.Errorf("move arg %d: want a 16-bit integer", a)
		}
		m.Arg[i] = int16(a)
	}
	return m, nil
}

// WriteReplay writes r to w in the ReplayFormat (its Positions are not
// written).
func WriteReplay(w io.Writer, r *Replay) error {
	if r.Config.Game() == nil {
		return errors.New("replay: no game configured")
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
	var wire [][]int
	for n, ms := range r.Moves {
		wire = wire[:0]
		for _, m := range ms {
			wire = append(wire, moveWire(m))
		}
		step := n + 1
		if err := enc.Encode(struct {
			Step  *int    `json:"step"`
			Moves [][]int `json:"moves"`
		}{&step, wire}); err != nil {
			return fmt.Errorf("replay step %d: %w", step, err)
		}
	}
	o := r.Outcome
	if err := enc.Encode(replayLine{Outcome: &replayOutcome{toWire(o.Score), toWire(o.Points), toWire(o.Win)},
		Errors: r.Errors, Hash: fmt.Sprintf("%016x", r.Hash)}); err != nil {
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
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return WriteReplay(w, r) })
}

// ReadReplay reads the replay file at path and plays its moves again
// (Simulate) to fill its Positions. The game's package must be linked in
// (import package games). A file that is empty, truncated, of another format
// or an older version, or corrupt (bad JSON, moves, steps out of order, an
// outcome of the wrong size, moves that do not lead to the recorded final
// position) gives an error naming the file (and the line).
func ReadReplay(path string) (*Replay, error) {
	f, err := inputfile.Open(path) // a named pipe would block the read forever
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	return DecodeReplay(f, path)
}

// DecodeReplay reads a replay in the ReplayFormat from rd and simulates it;
// name (a file name) prefixes its errors.
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
	switch h.Format {
	case ReplayFormat:
	case "":
		return nil, fail("not a %s replay: the header has no \"format\"", ReplayFormat)
	case replayFormatV1:
		return nil, fail("format %q is an older version that this program no longer reads (it stored every position; %s stores the moves and seeds); record the game again with this program: run the tournament that wrote it again (same --seed, bots and --games) with --replays",
			h.Format, ReplayFormat)
	default:
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
	spec := g.New(cfg).Spec()
	seats := spec.Seats
	if len(h.Bots) != seats {
		return nil, fail("%d bots, want one per seat (%d)", len(h.Bots), seats)
	}
	r := &Replay{Config: cfg, Bots: h.Bots, Seed: seed, Index: *h.Index}

	// The steps, then the outcome.
	for {
		b, ok := next()
		if !ok {
			if err := scanErr(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("replay %s: truncated after line %d (step %d): no outcome line", name, line, r.Steps())
		}
		var l replayLine
		if err := json.Unmarshal(b, &l); err != nil {
			return nil, fail("%v", jsonError(b, err))
		}
		switch {
		case l.Step != nil && l.Outcome != nil:
			return nil, fail("both a step and the outcome")
		case l.Step != nil:
			if *l.Step != r.Steps()+1 {
				return nil, fail("step %d, want step %d (steps in order from 1)", *l.Step, r.Steps()+1)
			}
			if r.Steps() >= spec.MaxSteps+1 {
				return nil, fail("step %d: more steps than the game allows (%d)", *l.Step, spec.MaxSteps)
			}
			if len(l.Moves) != seats {
				return nil, fail("step %d has %d moves, want one per seat (%d)", *l.Step, len(l.Moves), seats)
			}
			ms := make([]rules.Move, seats)
			for s, w := range l.Moves {
				if ms[s], err = moveFromWire(w); err != nil {
					return nil, fail("step %d seat %d: %v", *l.Step, s, err)
				}
			}
			r.Moves = append(r.Moves, ms)
		case l.Outcome != nil:
			o := l.Outcome
			if len(o.Score) != seats || len(o.Points) != seats || len(o.Win) != seats {
				return nil, fail("outcome with %d scores, %d points and %d win shares, want %d of each (one per seat)",
					len(o.Score), len(o.Points), len(o.Win), seats)
			}
			if l.Errors != nil && len(l.Errors) != seats {
				return nil, fail("%d error counts, want one per seat (%d)", len(l.Errors), seats)
			}
			if r.Hash, err = strconv.ParseUint(l.Hash, 16, 64); err != nil {
				return nil, fail("hash %q: want the final position's hash, 16 hexadecimal digits", l.Hash)
			}
			r.Outcome = &rules.Outcome{Score: fromWire(o.Score), Points: fromWire(o.Points), Win: fromWire(o.Win)}
			r.Errors = l.Errors
			if _, more := next(); more {
				return nil, fail("a line after the outcome")
			}
			if err := scanErr(); err != nil {
				return nil, err
			}
			if err := r.Simulate(); err != nil {
				return nil, fmt.Errorf("replay %s: %s", name, strings.TrimPrefix(err.Error(), "replay: "))
			}
			return r, nil
		default:
			return nil, fail("neither a step (\"step\") nor the outcome")
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
