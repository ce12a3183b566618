package eval

import (
	"fmt"
	"io"
	"math"
	"time"
)

// answerSteps is the number of histogram buckets per doubling of the answer
// time, and answerBuckets the buckets in all: from 1 µs up to about 2^28 µs
// (4.5 minutes), each 2^(1/8) ≈ 9% wider than the one before.
const (
	answerSteps   = 8
	answerBuckets = 28*answerSteps + 2
)

// AnswerTimes is the wall time a bot took per answer (its Act call, in this
// process) over some moves: their count, sum and maximum, and a histogram of
// log-spaced buckets from which Quantile reads the median or the 99th
// percentile to within 9%. A search bot's answers include its simulations;
// a hosted bot's its process's. Tournaments keep it per seat and game
// (GameResult.Answers) without writing it to games.jsonl, which stays the
// same for the same games.
type AnswerTimes struct {
	Moves      int
	Total, Max time.Duration
	counts     [answerBuckets]uint32
}

// bucket is d's histogram bucket: 0 below 1 µs, then one per eighth of a
// doubling, the last one open-ended.
func bucket(d time.Duration) int {
	if d < time.Microsecond {
		return 0
	}
	b := 1 + int(answerSteps*math.Log2(float64(d)/float64(time.Microsecond)))
	return min(b, answerBuckets-1)
}

// upper is the upper edge of bucket b.
func upper(b int) time.Duration {
	return time.Duration(float64(time.Microsecond) * math.Exp2(float64(b)/answerSteps))
}

// Add counts one answer of duration d. It allocates nothing.
func (a *AnswerTimes) Add(d time.Duration) {
	a.Moves++
	a.Total += d
	a.Max = max(a.Max, d)
	a.counts[bucket(d)]++
}

// Merge adds o's answers to a.
func (a *AnswerTimes) Merge(o *AnswerTimes) {
	a.Moves += o.Moves
	a.Total += o.Total
	a.Max = max(a.Max, o.Max)
	for i, c := range o.counts {
		a.counts[i] += c
	}
}

// Mean is the mean answer time (0 without answers).
func (a *AnswerTimes) Mean() time.Duration {
	if a.Moves == 0 {
		return 0
	}
	return a.Total / time.Duration(a.Moves)
}

// Quantile returns an upper bound, within 9%, of the q-quantile (0 < q ≤ 1)
// of the answer times: the upper edge of the bucket that holds it, never
// more than Max. 0 without answers.
func (a *AnswerTimes) Quantile(q float64) time.Duration {
	if a.Moves == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(a.Moves))) // the rank-th smallest answer
	rank = max(rank, 1)
	var seen uint64
	for b, c := range a.counts {
		if seen += uint64(c); seen >= rank {
			return min(upper(b), a.Max)
		}
	}
	return a.Max
}

// answersNote says what the answer-time table measures.
const answersNote = "Wall time of each move as the process that ran the tournament waited for it (the bot's own work: a search bot's simulations; for a hosted bot also its process start and pipes, so more than the competition's clock counts against the limit); p50 and p99 are upper bounds, within 9% or 1 µs. games.jsonl does not keep them, so a report rebuilt from it has none."

// answersTable is one row per bot of r with answers: moves, mean, median,
// 99th percentile and slowest, in milliseconds; no rows without answers (a
// result read back from games.jsonl).
func answersTable(r *Result) table {
	t := table{Head: []string{"bot", "moves", "mean", "p50", "p99", "max"}, Right: []bool{false, true, true, true, true, true}}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond)) }
	for _, b := range r.Bots {
		a := &b.Answers
		if a.Moves > 0 {
			t.Rows = append(t.Rows, []string{b.Name, fmt.Sprint(a.Moves), ms(a.Mean()), ms(a.Quantile(0.5)), ms(a.Quantile(0.99)), ms(a.Max)})
		}
	}
	return t
}

// WriteAnswerTimes writes answersTable (nothing for a result without answer
// times).
func WriteAnswerTimes(w io.Writer, res *Result) error {
	t := answersTable(res)
	if len(t.Rows) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nanswer times in this process (wall time of each move as the tournament waited for it; p50 and p99: upper bounds within 9%% or 1 µs;\n"+
		"a hosted bot's include its process start and pipes, so they exceed the competition's clock in the hosted bots' table, which the limit applies to):\n")
	return writeTextTable(w, t)
}
