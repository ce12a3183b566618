package datasets

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// MaxProblems is the number of problems a Report lists; later ones are only
// counted.
const MaxProblems = 100

// Problem is one thing wrong in a dataset.
type Problem struct {
	File string
	Row  int64 // row index within the file; −1 for the file as a whole
	Msg  string
}

// String renders p as "file: row N: msg" (or "file: msg").
func (p Problem) String() string {
	if p.Row < 0 {
		return fmt.Sprintf("%s: %s", p.File, p.Msg)
	}
	return fmt.Sprintf("%s: row %d: %s", p.File, p.Row, p.Msg)
}

// Report is the result of Validate.
type Report struct {
	Path     string
	Files    int   // shards checked
	Rows     int64 // rows checked
	Episodes int64 // episodes seen
	Problems []Problem
	Omitted  int // problems found beyond the first MaxProblems
	// Unchecked lists the shards without checksums (written before shards
	// carried them): they are read and checked as before, but a flipped
	// bit inside a compressed body cannot be told from data.
	Unchecked []string
}

// ChecksumPolicy says which shards without checksums Validate counts as
// problems.
type ChecksumPolicy int

const (
	// ChecksumsExpected (the default) fails a shard without checksums that
	// a version writing checksums wrote (ChecksumsSince); older shards are
	// listed in Report.Unchecked.
	ChecksumsExpected ChecksumPolicy = iota
	// ChecksumsRequired fails every shard without checksums.
	ChecksumsRequired
	// ChecksumsOptional fails none: they are listed in Report.Unchecked.
	ChecksumsOptional
)

// ChecksumsSince is when shards began to carry checksums (commit 8619b56):
// a shard created later without them was damaged (or written by an older
// gridgym than its clock says).
var ChecksumsSince = time.Date(2026, 11, 24, 22, 12, 55, 0, time.UTC)

// ValidateOptions are ValidateWith's options.
type ValidateOptions struct {
	Checksums ChecksumPolicy
}

// checksumsExpected says why shard r, which carries no checksums, should
// carry them ("" if nothing says so): every writer of checksums puts four
// keys in the footer (KeyChecksum and its companions), so one flipped bit
// that removes KeyChecksum leaves the others; and shards created since
// ChecksumsSince carry them.
func checksumsExpected(r *Reader) string {
	var keys []string
	for _, k := range []string{KeyChecksumFooter, KeyChecksumDictionaries, KeyChecksumBatches} {
		if _, ok := r.layout.custom[k]; ok {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		return fmt.Sprintf("its footer has %s but no %s (damaged checksum metadata)", strings.Join(keys, ", "), KeyChecksum)
	}
	if r.meta.Created.After(ChecksumsSince) {
		return fmt.Sprintf("it was created %s, after shards carried checksums (%s)",
			r.meta.Created.UTC().Format(time.RFC3339), ChecksumsSince.Format(time.RFC3339))
	}
	return ""
}

// OK reports whether no problem was found.
func (r *Report) OK() bool { return len(r.Problems) == 0 && r.Omitted == 0 }

func (r *Report) add(file string, row int64, format string, args ...any) {
	if len(r.Problems) >= MaxProblems {
		r.Omitted++
		return
	}
	r.Problems = append(r.Problems, Problem{File: file, Row: row, Msg: fmt.Sprintf(format, args...)})
}

// WriteText writes the report for people: a summary line, then the problems.
func (r *Report) WriteText(w io.Writer) error {
	status := "ok"
	if !r.OK() {
		status = fmt.Sprintf("%d problems", len(r.Problems)+r.Omitted)
	}
	if _, err := fmt.Fprintf(w, "%s: %d shards, %d rows, %d episodes: %s\n", r.Path, r.Files, r.Rows, r.Episodes, status); err != nil {
		return err
	}
	if n := len(r.Unchecked); n > 0 {
		if _, err := fmt.Fprintf(w, "  notice: %d shards unchecked (without checksums, as written before shards carried them): %s\n", n, strings.Join(r.Unchecked, ", ")); err != nil {
			return err
		}
	}
	for _, p := range r.Problems {
		if _, err := fmt.Fprintf(w, "  %s\n", p); err != nil {
			return err
		}
	}
	if r.Omitted > 0 {
		if _, err := fmt.Fprintf(w, "  … and %d more\n", r.Omitted); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks the shards under path (a shard or a directory):
//
//   - each opens: a complete Arrow IPC file, every length and offset in
//     it within the file, with gridgym metadata of a readable version and
//     exactly the columns it describes;
//   - its checksums (footer, dictionaries, every record batch) match; a
//     shard written before checksums is listed in Report.Unchecked;
//   - per (episode, seat), steps run 0, 1, 2, … in file order; the last row
//     has done or truncated and nothing follows it; every seat of the game
//     has the same number of rows; an episode lies in one shard only;
//   - every action is −1 or within the action space, and each head's
//     action has its bit set in the stored legal mask;
//   - the state words decode (State.SetWords) and the stored mask equals the
//     encoder's mask of that state (this needs the game registered: import
//     package games; otherwise that is reported as a problem).
//
// Problems carry the file and row. The error is for a path that cannot be
// listed or holds no shard; unreadable shards are problems.
//
// A shard without checksums is a problem when opt.Checksums says so (by
// default, when a version writing checksums wrote it: checksumsExpected);
// otherwise it is listed in Report.Unchecked. The shards of a folder must
// be of one game: a shard of another game than the first is a problem.
func ValidateWith(path string, opt ValidateOptions) (Report, error) {
	rep := Report{Path: path}
	files, err := Files(path)
	if err != nil {
		return rep, err
	}
	if len(files) == 0 {
		return rep, fmt.Errorf("datasets: no shards (*.arrow) in %s", path)
	}
	v := validation{rep: &rep, opt: opt, seen: map[string]map[uint64]string{}}
	for _, file := range files {
		rep.Files++
		v.file(file)
	}
	return rep, nil
}

// Validate is ValidateWith with the default options (ChecksumsExpected).
func Validate(path string) (Report, error) { return ValidateWith(path, ValidateOptions{}) }

// validation is the state of one ValidateWith across its shards.
type validation struct {
	rep       *Report
	opt       ValidateOptions
	seen      map[string]map[uint64]string // run → episode → file
	game      string                       // the first shard's game
	gameShard string                       // and that shard
}

type seatTrack struct {
	next    int32 // the step expected next
	lastRow int64
	ended   bool  // a row with done or truncated was seen
	endStep int32 // its step
	after   bool  // a row after the end was reported
	agent   string
}

type epSeat struct {
	ep   uint64
	seat uint8
}

func (v *validation) file(file string) {
	rep := v.rep
	r, err := Open(file)
	if err != nil {
		rep.add(file, -1, "%v", err)
		return
	}
	defer r.Close()
	v.checksums(r)
	meta := r.Meta()
	if v.gameShard == "" {
		v.game, v.gameShard = meta.Game, file
	} else if meta.Game != v.game {
		rep.add(file, -1, "a shard of %s in a folder of %s shards (%s is %s): validate, read and train on one game's shards at a time", meta.Game, v.game, v.gameShard, v.game)
	}
	validateRows(rep, r, v.seen)
}

// checksums reports shard r without checksums as the options say: a
// problem, or a notice (Report.Unchecked).
func (v *validation) checksums(r *Reader) {
	if r.Checked() {
		return
	}
	file := r.Path()
	why := checksumsExpected(r)
	switch {
	case v.opt.Checksums == ChecksumsRequired:
		if why == "" {
			why = "checksums are required (--strict)"
		}
		v.rep.add(file, -1, "no checksums: %s", why)
	case v.opt.Checksums == ChecksumsExpected && why != "":
		v.rep.add(file, -1, "no checksums: %s; pass --strict=false to accept it unchecked", why)
	default:
		v.rep.Unchecked = append(v.rep.Unchecked, file)
	}
}

// validateRows checks the rows of shard r (see Validate).
func validateRows(rep *Report, r *Reader, seen map[string]map[uint64]string) {
	file := r.Path()
	meta := r.Meta()
	var err error
	seats, actions := 0, 0
	obs, err := NewObserver(meta)
	if err != nil {
		rep.add(file, -1, "state and mask checks skipped: %v", err)
	} else {
		seats = obs.st.Spec().Seats
		actions = obs.space.Actions
	}
	mask := make([]uint64, meta.MaskWords)
	var lastWords []uint64
	stateOK := false
	tracks := map[epSeat]*seatTrack{}
	runEps := seen[meta.RunID]
	if runEps == nil {
		runEps = map[uint64]string{}
		seen[meta.RunID] = runEps
	}
	var idx int64 = -1
	err = r.Each(func(row Row) error {
		idx++
		rep.Rows++
		where := fmt.Sprintf("episode %d step %d seat %d", row.EpisodeID, row.Step, row.Seat)
		key := epSeat{row.EpisodeID, row.Seat}
		tr := tracks[key]
		if tr == nil {
			tr = &seatTrack{agent: row.Agent}
			tracks[key] = tr
			if other, ok := runEps[row.EpisodeID]; ok && other != file {
				rep.add(file, idx, "%s: episode also in %s (episodes are never split across shards)", where, other)
			}
			runEps[row.EpisodeID] = file
		}
		if seats > 0 && int(row.Seat) >= seats {
			rep.add(file, idx, "%s: seat out of range (the game has %d seats)", where, seats)
		}
		if tr.ended && !tr.after {
			rep.add(file, idx, "%s: row after the seat's episode ended at step %d (later ones not reported)", where, tr.endStep)
			tr.after = true
		}
		if !tr.ended && row.Step != tr.next {
			rep.add(file, idx, "%s: step %d, want %d (steps of a seat run 0, 1, 2, … in order)", where, row.Step, tr.next)
		}
		tr.next = row.Step + 1
		tr.lastRow = idx
		if row.Agent != tr.agent {
			rep.add(file, idx, "%s: agent %q, earlier rows of the seat have %q", where, row.Agent, tr.agent)
		}
		if row.Done && row.Truncated {
			rep.add(file, idx, "%s: both done and truncated", where)
		}
		if (row.Done || row.Truncated) && !tr.ended {
			tr.ended, tr.endStep = true, row.Step
		}
		if math.IsNaN(float64(row.Reward)) || math.IsInf(float64(row.Reward), 0) {
			rep.add(file, idx, "%s: reward %v", where, row.Reward)
		}
		for h, a := range row.Action {
			switch {
			case a == -1:
			case a < -1 || (actions > 0 && int(a) >= actions):
				rep.add(file, idx, "%s: head %d action %d outside the action space", where, h, a)
			case actions > 0 || meta.Heads == 1:
				bit := h*actions + int(a)
				if bit >= 64*len(row.Legal) || row.Legal[bit>>6]>>(bit&63)&1 == 0 {
					rep.add(file, idx, "%s: head %d action %d is not legal in the stored mask", where, h, a)
				}
			}
		}
		if obs != nil {
			if lastWords == nil || !slices.Equal(lastWords, row.State) {
				lastWords = append(lastWords[:0], row.State...)
				err := obs.st.SetWords(row.State)
				stateOK = err == nil
				if err != nil {
					rep.add(file, idx, "%s: state words do not decode: %v", where, err)
				}
			}
			if stateOK {
				obs.enc.Mask(obs.st, int(row.Seat), mask)
				if !slices.Equal(mask, row.Legal) {
					rep.add(file, idx, "%s: stored legal mask differs from the encoder's mask of the stored state", where)
				}
			}
		}
		return nil
	})
	if err != nil {
		rep.add(file, idx+1, "%v", err)
	}

	// Episodes complete, every seat alike.
	keys := make([]epSeat, 0, len(tracks))
	for k := range tracks {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].ep != keys[j].ep {
			return keys[i].ep < keys[j].ep
		}
		return keys[i].seat < keys[j].seat
	})
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j].ep == keys[i].ep {
			j++
		}
		ep := keys[i].ep
		rep.Episodes++
		steps := tracks[keys[i]].next
		for _, k := range keys[i:j] {
			tr := tracks[k]
			if !tr.ended {
				rep.add(file, tr.lastRow, "episode %d seat %d: incomplete: its last step %d has neither done nor truncated", ep, k.seat, tr.next-1)
			}
			if tr.next != steps {
				rep.add(file, tr.lastRow, "episode %d seat %d: %d steps, seat %d has %d (every seat has a row at every step)", ep, k.seat, tr.next, keys[i].seat, steps)
			}
		}
		if seats > 0 && j-i != seats {
			rep.add(file, tracks[keys[j-1]].lastRow, "episode %d: rows for %d seats, the game has %d", ep, j-i, seats)
		}
		i = j
	}
}
