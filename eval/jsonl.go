package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
)

// GameRecord is one game as written to games.jsonl: the raw material for any
// analysis the reports do not make. Per-seat slices are indexed by seat.
type GameRecord struct {
	Index  int       `json:"index"`  // game index (its seed stream)
	Lineup []string  `json:"lineup"` // bot name per seat
	Score  []float64 `json:"score"`  // the game's own score (non-finite values are written as null, read as NaN)
	Points []float64 `json:"points"` // placement points
	Win    []float64 `json:"win"`    // win share
	Rank   []int     `json:"rank"`   // 1 + seats with more points (ties share the better rank)
	Steps  int       `json:"steps"`  // steps played
	Errors []int     `json:"errors"` // moves replaced by Pass because the bot failed
	// Search is a search bot's work per seat (zeros for the other seats);
	// left out of the line when no seat searched.
	Search []SearchCount `json:"search,omitempty"`
}

// GameRecords converts r's games to records, in r.Games order.
func GameRecords(r *Result) []GameRecord {
	out := make([]GameRecord, 0, len(r.Games))
	for _, g := range r.Games {
		rec := GameRecord{Index: g.Index, Steps: g.Steps, Errors: g.Errors, Search: g.Search}
		for _, bi := range g.Lineup {
			rec.Lineup = append(rec.Lineup, r.Config.Bots[bi])
		}
		if o := g.Outcome; o != nil {
			rec.Score, rec.Points, rec.Win = o.Score, o.Points, o.Win
			rec.Rank = seatRanks(o.Points)
		}
		out = append(out, rec)
	}
	return out
}

// seatRanks returns each seat's rank: 1 + the seats with strictly more points.
func seatRanks(points []float64) []int {
	ranks := make([]int, len(points))
	for s, p := range points {
		ranks[s] = 1
		for _, q := range points {
			if q > p {
				ranks[s]++
			}
		}
	}
	return ranks
}

// jsonFloat writes non-finite values as null (JSON has no NaN or infinity)
// and reads null back as NaN.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(f), 'g', -1, 64), nil
}

func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jsonFloat(math.NaN())
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	*f = jsonFloat(v)
	return err
}

// wireRecord is GameRecord with null-safe floats.
type wireRecord struct {
	Index  int           `json:"index"`
	Lineup []string      `json:"lineup"`
	Score  []jsonFloat   `json:"score"`
	Points []jsonFloat   `json:"points"`
	Win    []jsonFloat   `json:"win"`
	Rank   []int         `json:"rank"`
	Steps  int           `json:"steps"`
	Errors []int         `json:"errors"`
	Search []SearchCount `json:"search,omitempty"`
}

func toWire(xs []float64) []jsonFloat {
	out := make([]jsonFloat, len(xs))
	for i, x := range xs {
		out[i] = jsonFloat(x)
	}
	return out
}

func fromWire(xs []jsonFloat) []float64 {
	if xs == nil {
		return nil
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// WriteJSONL writes one JSON object per game (GameRecord), one per line, in
// r.Games order.
func WriteJSONL(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, rec := range GameRecords(r) {
		wr := wireRecord{Index: rec.Index, Lineup: rec.Lineup, Score: toWire(rec.Score), Points: toWire(rec.Points),
			Win: toWire(rec.Win), Rank: rec.Rank, Steps: rec.Steps, Errors: rec.Errors, Search: rec.Search}
		if err := enc.Encode(wr); err != nil {
			return fmt.Errorf("games.jsonl: game %d: %w", rec.Index, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("games.jsonl: %w", err)
	}
	return nil
}

// ReadJSONL reads the records WriteJSONL wrote, skipping blank lines.
func ReadJSONL(r io.Reader) ([]GameRecord, error) {
	var out []GameRecord
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var wr wireRecord
		if err := json.Unmarshal(b, &wr); err != nil {
			return out, fmt.Errorf("games.jsonl line %d: %w", line, err)
		}
		out = append(out, GameRecord{Index: wr.Index, Lineup: wr.Lineup, Score: fromWire(wr.Score),
			Points: fromWire(wr.Points), Win: fromWire(wr.Win), Rank: wr.Rank, Steps: wr.Steps, Errors: wr.Errors, Search: wr.Search})
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("games.jsonl: %w", err)
	}
	return out, nil
}
