package eval

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/rules"
)

// TestAnswerTimesQuantiles: over durations spread from under a microsecond
// to seconds, Quantile is never below the exact quantile and at most one
// bucket (2^(1/8)) above it, never above Max; Merge of two halves equals
// adding everything to one; the mean is exact.
func TestAnswerTimesQuantiles(t *testing.T) {
	rng := rules.NewRNG(3)
	for _, n := range []int{1, 2, 7, 100, 5000} {
		ds := make([]time.Duration, n)
		var all, a, b AnswerTimes
		var sum time.Duration
		for i := range ds {
			// log-uniform from 0.1 µs to 10 s
			ds[i] = time.Duration(100 * math.Pow(10, 8*rng.Float64()))
			sum += ds[i]
			all.Add(ds[i])
			if i%2 == 0 {
				a.Add(ds[i])
			} else {
				b.Add(ds[i])
			}
		}
		a.Merge(&b)
		if a != all {
			t.Fatalf("n=%d: merging two halves differs from adding all", n)
		}
		if got, want := all.Mean(), sum/time.Duration(n); got != want {
			t.Errorf("n=%d: mean %v, want %v", n, got, want)
		}
		slices.Sort(ds)
		if all.Max != ds[n-1] {
			t.Errorf("n=%d: max %v, want %v", n, all.Max, ds[n-1])
		}
		for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 1} {
			exact := ds[max(0, int(math.Ceil(q*float64(n)))-1)]
			got := all.Quantile(q)
			hi := time.Duration(float64(max(exact, time.Microsecond)) * math.Exp2(1.0/answerSteps))
			if got < exact || got > hi+1 || got > all.Max {
				t.Errorf("n=%d q=%.2f: quantile %v, exact %v (want within [%v, %v], ≤ max %v)", n, q, got, exact, exact, hi, all.Max)
			}
		}
	}
	var none AnswerTimes
	if none.Quantile(0.5) != 0 || none.Mean() != 0 {
		t.Error("no answers: want zero quantile and mean")
	}
	if n := testing.AllocsPerRun(100, func() { none.Add(3 * time.Millisecond) }); n != 0 {
		t.Errorf("Add allocates %.1f times", n)
	}
}

// TestTournamentAnswerTimes: a tournament counts one answer per move a bot
// was asked for (steps × active seats in a simultaneous game), prints them
// per bot, and keeps them out of games.jsonl, so that the same games give
// the same file; the report shows them, and a result read back from
// games.jsonl prints none and its report has no such section.
func TestTournamentAnswerTimes(t *testing.T) {
	g, err := rules.Lookup("rectangle")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"boxer", "random"}
	res, err := Run(t.Context(), Config{Game: g.Default(), Bots: names, Games: 2, Seed: 5, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, gr := range res.Games {
		asked += gr.Steps * len(gr.Lineup)
	}
	got := 0
	for _, b := range res.Bots {
		got += b.Answers.Moves
		if b.Answers.Moves == 0 || b.Answers.Max <= 0 {
			t.Errorf("%s: no answer times", b.Name)
		}
	}
	if got != asked {
		t.Errorf("%d answers counted, the bots were asked %d times", got, asked)
	}
	var out bytes.Buffer
	if err := WriteAnswerTimes(&out, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"answer times", "boxer", "random", "p99"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the answer-time table lacks %q:\n%s", want, out.String())
		}
	}
	a := Analyze(res, AnalyzeOptions{Ratings: RatingOptions{Seed: 1}})
	var md bytes.Buffer
	if err := WriteMarkdown(&md, res, a.Ratings, a.Pairwise); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "## Answer times") {
		t.Errorf("report.md lacks the answer times:\n%s", md.String())
	}
	var jl bytes.Buffer
	if err := WriteJSONL(&jl, res); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(jl.String()), "answer") {
		t.Errorf("games.jsonl carries answer times:\n%s", jl.String())
	}
	back := &Result{Config: res.Config, Spec: res.Spec}
	back.Games = append(back.Games, res.Games...)
	for i := range back.Games {
		back.Games[i].Answers = nil // as read back from games.jsonl
	}
	back.Bots = aggregate(res.Spec, res.Config.Bots, back.Games)
	out.Reset()
	if err := WriteAnswerTimes(&out, back); err != nil || out.Len() != 0 {
		t.Errorf("a result without answer times printed %q (%v)", out.String(), err)
	}
	md.Reset()
	if err := WriteMarkdown(&md, back, a.Ratings, a.Pairwise); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "Answer times") {
		t.Error("a report rebuilt without answer times shows an answer-time section")
	}
}
