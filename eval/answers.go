package eval

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
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

// bucket is d's histogram bucket: 0 below 1 µs, then one per ninth of a
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

// WriteAnswerTimes writes a table of each bot's answer times in res (one
// line per bot with answers): moves, mean, median, 99th percentile and
// slowest, in milliseconds. It writes nothing for a result without them (a
// tournament read back from games.jsonl).
func WriteAnswerTimes(w io.Writer, res *Result) error {
	any := false
	for _, b := range res.Bots {
		any = any || b.Answers.Moves > 0
	}
	if !any {
		return nil
	}
	fmt.Fprintf(w, "\nanswer times in this process (wall time of each move, the bot's own work; p50 and p99 within 9%%):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bot\tmoves\tmean\tp50\tp99\tmax\t\n")
	ms := func(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond)) }
	for _, b := range res.Bots {
		a := &b.Answers
		if a.Moves == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t\n", b.Name, a.Moves, ms(a.Mean()), ms(a.Quantile(0.5)), ms(a.Quantile(0.99)), ms(a.Max))
	}
	return tw.Flush()
}
