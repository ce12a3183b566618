package viewer

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/rules"
)

// DataVersion is the version of the data a page embeds (Data.Version); the
// page's script reads only this version.
const DataVersion = 1

// Data is what a page embeds: the game, its seats, and every position, move
// and score in compact form. Its JSON is the page's data.
type Data struct {
	Version    int      `json:"version"`    // DataVersion
	Replay     string   `json:"replay"`     // the replay file format (eval.ReplayFormat)
	Game       string   `json:"game"`       // registry name
	Title      string   `json:"title"`      // the game's display name
	Params     string   `json:"params"`     // rules.Config.String()
	Seed       string   `json:"seed"`       // tournament seed, decimal
	Index      int      `json:"index"`      // game index in the tournament
	Rows       int      `json:"rows"`       // board rows
	Cols       int      `json:"cols"`       // board columns
	Seats      int      `json:"seats"`      // number of seats
	Steps      int      `json:"steps"`      // steps played
	Sequential bool     `json:"sequential"` // one seat moves per step
	ScoreName  string   `json:"scoreName"`  // what the score counts
	Bots       []string `json:"bots"`       // bot by seat

	// Views are the distinct cell views: [terrain, fill, piece, shape, num,
	// glyph] (shape and glyph as character codes, 0 none).
	Views [][6]int `json:"views"`
	// Board0 is the start position, Rows×Cols indices into Views row by row
	// (Encode).
	Board0 string `json:"board0"`
	// Diffs holds, for each step 1..Steps in order, the number k of cells
	// that changed, then k pairs (gap, view): the cell's index minus the
	// previous changed cell's index minus 1 (the first: its index), and its
	// new view (Encode).
	Diffs string `json:"diffs"`
	// MoveTexts are the distinct move texts (rules.Viewer.MoveText).
	MoveTexts []string `json:"moveTexts"`
	// Moves holds Steps×Seats values, step by step: 0 for a seat that was
	// not asked to move at that step, else 1 + the index of its move's text
	// in MoveTexts (Encode).
	Moves string `json:"moves"`
	// ScoreValues are the distinct scores (nil: not finite).
	ScoreValues []*float64 `json:"scoreValues"`
	// Scores holds, for each seat, the steps where its score changed: pairs
	// (gap, value), gap the steps since the previous change (the first: its
	// step, 0), value an index into ScoreValues (Encode).
	Scores []string `json:"scores"`
	// Ranking is the final ranking, best first.
	Ranking []Rank `json:"ranking"`
	// Policies are the network seats' views (Options.Policy), by seat.
	Policies []Policy `json:"policies,omitempty"`
}

// Rank is one seat's line in the final ranking.
type Rank struct {
	Place  int      `json:"place"`  // 1 = best; tied seats share a place
	Seat   int      `json:"seat"`   // seat index
	Bot    string   `json:"bot"`    // the seat's bot
	Score  *float64 `json:"score"`  // the game's own score (nil: not finite)
	Points float64  `json:"points"` // placement points
	Win    float64  `json:"win"`    // win share
	Errors int      `json:"errors"` // moves the bot did not answer
}

// Build plays r's moves again (eval.Replay.Walk) and collects every position
// as cell views, every move's text and every seat's score, and with
// opt.Policy the networks' views. The game's state must implement
// rules.Viewer (every registered game does).
func Build(r *eval.Replay, opt Options) (*Data, error) {
	g := r.Config.Game()
	if g == nil {
		return nil, errors.New("viewer: replay has no game")
	}
	if r.Outcome == nil {
		return nil, errors.New("viewer: replay has no outcome")
	}
	spec := g.New(r.Config).Spec()
	d := &Data{Version: DataVersion, Replay: eval.ReplayFormat, Game: g.Name, Title: g.Title,
		Params: r.Config.String(), Seed: strconv.FormatUint(r.Seed, 10), Index: r.Index,
		Rows: spec.Rows, Cols: spec.Cols, Seats: spec.Seats, Steps: r.Steps(), Sequential: spec.Sequential,
		ScoreName: spec.ScoreName, Bots: r.Bots}
	if len(r.Bots) != spec.Seats {
		return nil, fmt.Errorf("viewer: %d bots for %d seats", len(r.Bots), spec.Seats)
	}

	views := map[rules.CellView]int{}
	viewIndex := func(cv rules.CellView) int {
		i, ok := views[cv]
		if !ok {
			i = len(d.Views)
			views[cv] = i
			d.Views = append(d.Views, [6]int{int(cv.Terrain), int(cv.Fill), int(cv.Piece), int(cv.Shape), int(cv.Num), int(cv.Glyph)})
		}
		return i
	}
	texts := map[string]int{}
	textIndex := func(t string) int {
		i, ok := texts[t]
		if !ok {
			i = len(d.MoveTexts)
			texts[t] = i
			d.MoveTexts = append(d.MoveTexts, t)
		}
		return i
	}
	var nets []*netSeat
	if opt.Policy {
		var err error
		if nets, err = networkSeats(r, opt.Specs); err != nil {
			return nil, err
		}
	}
	topK := opt.TopK
	if topK <= 0 {
		topK = 5
	}
	scoreIdx := map[float64]int{}
	nonFinite := -1
	scoreIndex := func(v float64) int {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			if nonFinite < 0 {
				nonFinite = len(d.ScoreValues)
				d.ScoreValues = append(d.ScoreValues, nil)
			}
			return nonFinite
		}
		i, ok := scoreIdx[v]
		if !ok {
			i = len(d.ScoreValues)
			scoreIdx[v] = i
			d.ScoreValues = append(d.ScoreValues, &v)
		}
		return i
	}

	var board0, diffs, moves Encoder
	scores := make([]Encoder, spec.Seats)
	lastScore := make([]int, spec.Seats) // value index, -1 before step 0
	lastChange := make([]int, spec.Seats)
	o := rules.NewOutcome(spec.Seats)
	var prev, cur []rules.CellView
	cells := spec.Rows * spec.Cols
	var changed []int
	err := r.Walk(func(n int, st rules.State) error {
		v, ok := st.(rules.Viewer)
		if !ok {
			return fmt.Errorf("viewer: game %s does not implement rules.Viewer", g.Name)
		}
		cur = v.Cells(cur[:0])
		if len(cur) != cells {
			return fmt.Errorf("viewer: step %d: %d cell views for a %d×%d board", n, len(cur), spec.Rows, spec.Cols)
		}
		if n == 0 {
			for _, cv := range cur {
				board0.Put(viewIndex(cv))
			}
		} else {
			changed = changed[:0]
			for i := range cur {
				if cur[i] != prev[i] {
					changed = append(changed, i)
				}
			}
			diffs.Put(len(changed))
			last := -1
			for _, i := range changed {
				diffs.Put(i - last - 1)
				diffs.Put(viewIndex(cur[i]))
				last = i
			}
		}
		prev, cur = cur, prev
		st.Outcome(o)
		for s := range scores {
			k := scoreIndex(o.Score[s])
			if n == 0 || k != lastScore[s] {
				scores[s].Put(n - lastChange[s])
				scores[s].Put(k)
				lastScore[s], lastChange[s] = k, n
			}
		}
		if n < len(r.Moves) {
			for s, m := range r.Moves[n] {
				if !st.Active(s) {
					moves.Put(0)
					continue
				}
				moves.Put(1 + textIndex(v.MoveText(s, m)))
			}
			for _, ns := range nets {
				ns.observe(st, v, topK, cells, textIndex)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(d.Views) > math.MaxUint16 {
		return nil, fmt.Errorf("viewer: %d distinct cell views, at most %d", len(d.Views), math.MaxUint16)
	}
	d.Board0, d.Diffs, d.Moves = board0.String(), diffs.String(), moves.String()
	for _, e := range scores {
		d.Scores = append(d.Scores, e.String())
	}
	if d.MoveTexts == nil {
		d.MoveTexts = []string{}
	}
	d.Ranking = ranking(r)
	for _, ns := range nets {
		d.Policies = append(d.Policies, ns.policy(r.Bots[ns.seat]))
	}
	return d, nil
}

// ranking orders the seats by placement points (then win share, then seat),
// tied seats sharing a place.
func ranking(r *eval.Replay) []Rank {
	o := r.Outcome
	out := make([]Rank, len(r.Bots))
	for s := range out {
		out[s] = Rank{Seat: s, Bot: r.Bots[s], Points: o.Points[s], Win: o.Win[s]}
		if v := o.Score[s]; !math.IsNaN(v) && !math.IsInf(v, 0) {
			out[s].Score = &v
		}
		if s < len(r.Errors) {
			out[s].Errors = r.Errors[s]
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Points != out[j].Points {
			return out[i].Points > out[j].Points
		}
		return out[i].Win > out[j].Win
	})
	for i := range out {
		out[i].Place = i + 1
		if i > 0 && out[i].Points == out[i-1].Points {
			out[i].Place = out[i-1].Place
		}
	}
	return out
}

// encAlphabet is the base-64 alphabet of Encode (URL-safe, nothing to escape
// in JSON or HTML).
const encAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// Encoder writes non-negative integers as base-64 varints: each character
// carries 5 bits, low bits first, and its value's bit 32 says that more
// characters of the same integer follow. 0..31 take one character, up to
// 1023 two, up to 32767 three.
type Encoder struct{ b strings.Builder }

// Put appends v (negative values are written as 0).
func (e *Encoder) Put(v int) {
	if v < 0 {
		v = 0
	}
	for v >= 32 {
		e.b.WriteByte(encAlphabet[32|v&31])
		v >>= 5
	}
	e.b.WriteByte(encAlphabet[v])
}

// String returns what was put.
func (e *Encoder) String() string { return e.b.String() }

// Decode reads back the integers of an Encode string.
func Decode(s string) ([]int, error) {
	var out []int
	v, shift := 0, 0
	for i := 0; i < len(s); i++ {
		c := strings.IndexByte(encAlphabet, s[i])
		if c < 0 {
			return nil, fmt.Errorf("viewer: byte %d (%q) is not in the alphabet", i, s[i])
		}
		if shift > 55 {
			return nil, fmt.Errorf("viewer: integer too long at byte %d", i)
		}
		v |= (c & 31) << shift
		shift += 5
		if c&32 == 0 {
			out = append(out, v)
			v, shift = 0, 0
		}
	}
	if shift != 0 {
		return nil, errors.New("viewer: the last integer is cut short")
	}
	return out, nil
}

// Dump writes the cell views of one position as the page's board dump: one
// line per row, its cells separated by single spaces, each cell as
// glyph, terrain (0..4), fill, piece, shape and number: fill and piece as
// the seat digit, '-' for none, '*' for several seats' pieces; shape as its
// character or '-'; the number in decimal or '-'. A Rising Tide settlement
// of seat 2 on height 5 is "C2-2s5", an empty Bovine Borders field ".0----".
func Dump(cells []rules.CellView, cols int) string {
	var b strings.Builder
	for i, cv := range cells {
		if i > 0 {
			if i%cols == 0 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteByte(cv.Glyph)
		b.WriteByte('0' + byte(cv.Terrain))
		b.WriteString(seatText(cv.Fill))
		b.WriteString(seatText(cv.Piece))
		if cv.Shape == 0 {
			b.WriteByte('-')
		} else {
			b.WriteByte(cv.Shape)
		}
		if cv.Num < 0 {
			b.WriteByte('-')
		} else {
			b.WriteString(strconv.Itoa(int(cv.Num)))
		}
	}
	return b.String()
}

// seatText is a fill or piece seat in Dump.
func seatText(s int8) string {
	switch {
	case s == -2:
		return "*"
	case s < 0:
		return "-"
	}
	return strconv.Itoa(int(s))
}
