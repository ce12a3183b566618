// Command testsum reads `go test -json` on standard input, prints what plain
// `go test` would (each package's ok/FAIL line, the output of failed tests,
// build errors) and ends with one line counting the tests that passed,
// failed and were skipped, subtests included, followed by one line per
// failed test and per package that failed without a failed test (a build
// error, a panic, a timeout), so the last lines of a run name what failed.
// scripts/test pipes the suite through it. It exits 1 if any test or
// package failed, 2 on unreadable input.
//
//	go test -json ./... | go run ./internal/testsum [-summary FILE] [-slowest N]
//
// With -summary these closing lines go to FILE instead of standard output
// (scripts/test prints them last, after the notebooks). With -slowest N the
// N slowest top-level tests and their times are listed before them: what
// to cut when the suite grows slow.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of `go test -json` (go doc cmd/test2json).
type event struct {
	Action      string
	Package     string
	ImportPath  string // build-output events
	Test        string
	Output      string
	FailedBuild string
	Elapsed     float64 // seconds, on pass/fail/skip
}

// counts are the tallies of a run.
type counts struct {
	Passed, Failed, Skipped int
	FailedPkgs              int
	// FailedTests are the failed tests as "package TestName" (subtests
	// included), in the order they failed.
	FailedTests []string
	// FailedOnly are the packages that failed with no failed test of
	// their own: build errors, panics outside a test, timeouts.
	FailedOnly []string
	// Times are the top-level tests' run times, for -slowest.
	Times []testTime
}

// testTime is one top-level test's run time.
type testTime struct {
	Name    string // "package TestName"
	Seconds float64
}

// Line is the summary line.
func (c counts) Line() string {
	s := fmt.Sprintf("== summary: %d passed, %d failed, %d skipped", c.Passed, c.Failed, c.Skipped)
	if c.FailedPkgs > 0 {
		s += fmt.Sprintf(" (%d packages failed)", c.FailedPkgs)
	}
	return s
}

// Closing is the summary line and, below it, one line per failed test and
// per package that failed without one: what a reader of a run's last lines
// needs to find the failure.
func (c counts) Closing() string {
	var b strings.Builder
	b.WriteString(c.Line())
	b.WriteByte('\n')
	for _, t := range c.FailedTests {
		fmt.Fprintf(&b, "== FAILED test: %s\n", t)
	}
	for _, p := range c.FailedOnly {
		fmt.Fprintf(&b, "== FAILED package (build error, panic or timeout): %s\n", p)
	}
	return b.String()
}

// Slowest lists the n slowest top-level tests, slowest first.
func (c counts) Slowest(n int) string {
	ts := append([]testTime(nil), c.Times...)
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Seconds > ts[j].Seconds })
	var b strings.Builder
	for i := 0; i < n && i < len(ts); i++ {
		fmt.Fprintf(&b, "== slow: %7.1fs %s\n", ts[i].Seconds, ts[i].Name)
	}
	return b.String()
}

// summarise copies the readable part of the JSON stream r to w and returns
// the counts.
func summarise(r io.Reader, w io.Writer) (counts, error) {
	var c counts
	held := map[string]*strings.Builder{} // output of running tests, by package and test
	failedIn := map[string]bool{}         // packages with a failed test
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line) // not JSON: go test's own messages
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch e.Action {
		case "build-output":
			io.WriteString(w, e.Output)
		case "output":
			if e.Test == "" {
				if e.Output != "PASS\n" { // plain go test prints only "ok pkg"
					io.WriteString(w, e.Output)
				}
				continue
			}
			b := held[key]
			if b == nil {
				b = &strings.Builder{}
				held[key] = b
			}
			b.WriteString(e.Output)
		case "pass", "skip", "fail":
			if e.Test == "" {
				if e.Action == "fail" {
					c.FailedPkgs++
					if !failedIn[e.Package] {
						c.FailedOnly = append(c.FailedOnly, e.Package)
					}
				}
				continue
			}
			if !strings.Contains(e.Test, "/") && e.Action != "skip" {
				c.Times = append(c.Times, testTime{e.Package + " " + e.Test, e.Elapsed})
			}
			switch e.Action {
			case "pass":
				c.Passed++
			case "skip":
				c.Skipped++
			case "fail":
				c.Failed++
				c.FailedTests = append(c.FailedTests, e.Package+" "+e.Test)
				failedIn[e.Package] = true
				if b := held[key]; b != nil {
					io.WriteString(w, b.String())
				}
			}
			delete(held, key)
		}
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("testsum: reading go test -json: %w", err)
	}
	return c, nil
}

func main() {
	summary := flag.String("summary", "", "write the closing lines (counts, failed tests) to this file instead of standard output")
	slowest := flag.Int("slowest", 0, "list the `N` slowest top-level tests before the closing lines")
	flag.Parse()
	c, err := summarise(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	closing := c.Slowest(*slowest) + c.Closing()
	if *summary == "" {
		fmt.Print(closing)
	} else {
		if err := os.WriteFile(*summary, []byte(closing), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "testsum: %v\n", err)
			os.Exit(2)
		}
	}
	if c.Failed > 0 || c.FailedPkgs > 0 {
		os.Exit(1)
	}
}
