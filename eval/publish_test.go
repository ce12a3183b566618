package eval

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// reportCheckWriter is w that, at its first write, records whether the
// report's files exist and Saved has run: Report must have finished both.
type reportCheckWriter struct {
	bytes.Buffer
	dir          string
	saved        *bool
	checked      bool
	reportBefore bool
}

func (w *reportCheckWriter) Write(p []byte) (int, error) {
	if !w.checked {
		w.checked = true
		_, err := os.Stat(filepath.Join(w.dir, "report.html"))
		w.reportBefore = err == nil && *w.saved
	}
	return w.Buffer.Write(p)
}

// TestReport: Report writes the report (linking the pages that its Pages
// callback wrote, their paths after the report's) and calls Saved before it
// prints anything, then prints exactly WriteTable's table and, as asked,
// WriteRatings' ratings and WriteAnswerTimes' answer times; without a folder
// it writes no files and fits ratings only for PrintRatings.
func TestReport(t *testing.T) {
	g, err := rules.Lookup("rising-tide")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Config{Game: g.Default(), Bots: []string{"random", "pass"}, Games: 4, Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	analyze := AnalyzeOptions{Ratings: RatingOptions{Resamples: 10, Seed: 3}}
	var table, ratings, answers bytes.Buffer
	if err := WriteTable(&table, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteRatings(&ratings, Analyze(r, analyze).Ratings); err != nil {
		t.Fatal(err)
	}
	if err := WriteAnswerTimes(&answers, r); err != nil {
		t.Fatal(err)
	}
	if answers.Len() == 0 {
		t.Fatal("a tournament played here has no answer times")
	}

	dir := t.TempDir()
	saved := false
	var pagesDir string
	w := &reportCheckWriter{dir: dir, saved: &saved}
	paths, err := Report(w, r, ReportOptions{
		Dir:     dir,
		Analyze: analyze,
		Pages: func(d string, got *Result) (map[int]string, []string, error) {
			pagesDir = d
			if got != r {
				t.Error("Pages was not given the result")
			}
			page := filepath.Join(d, "replays", "replay-0001.html")
			if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
				return nil, nil, err
			}
			return map[int]string{1: "replays/replay-0001.html"}, []string{page}, os.WriteFile(page, []byte("<html></html>"), 0o644)
		},
		Saved:            func() error { saved = true; return nil },
		PrintAnswerTimes: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if pagesDir != dir {
		t.Errorf("Pages got folder %q, want %q", pagesDir, dir)
	}
	if !w.reportBefore {
		t.Error("Report printed before the report was written and saved")
	}
	if want := table.String() + answers.String(); w.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", w.String(), want)
	}
	var rel []string
	for _, p := range paths {
		q, _ := filepath.Rel(dir, p)
		rel = append(rel, filepath.ToSlash(q))
	}
	if len(rel) == 0 || rel[len(rel)-1] != "replays/replay-0001.html" {
		t.Errorf("paths %v: want the page's last", rel)
	}
	for _, f := range []string{"report.md", "report.html", "games.jsonl", "plots/ratings.png"} {
		if !strings.Contains(strings.Join(rel, " "), f) {
			t.Errorf("paths %v lack %s", rel, f)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "[game 1](replays/replay-0001.html)") {
		t.Errorf("report.md does not link the page of game 1:\n%s", md)
	}

	// No folder: nothing written, no callbacks; the ratings when asked.
	var out bytes.Buffer
	called := func() error { return errors.New("Saved called without a report") }
	paths, err = Report(&out, r, ReportOptions{Analyze: analyze, PrintRatings: true, Saved: called,
		Pages: func(string, *Result) (map[int]string, []string, error) {
			return nil, nil, errors.New("Pages called without a report")
		}})
	if err != nil || len(paths) != 0 {
		t.Fatalf("no folder: paths %v, err %v", paths, err)
	}
	if want := table.String() + ratings.String(); out.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", out.String(), want)
	}

	// A callback's error stops Report before it prints.
	out.Reset()
	if _, err := Report(&out, r, ReportOptions{Dir: t.TempDir(), Saved: called}); err == nil || out.Len() != 0 {
		t.Errorf("Saved failing: err %v, printed %q", err, out.String())
	}
}
