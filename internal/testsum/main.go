// Command testsum reads `go test -json` on standard input, prints what plain
// `go test` would (each package's ok/FAIL line, the output of failed tests,
// build errors) and ends with one line counting the tests that passed,
// failed and were skipped, subtests included. scripts/test pipes the suite
// through it. It exits 1 if any test or package failed, 2 on unreadable
// input.
//
//	go test -json ./... | go run ./internal/testsum [-summary FILE]
//
// With -summary the count line goes to FILE instead of standard output
// (scripts/test prints it as its very last line, after the notebooks).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
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
}

// counts are the tallies of a run.
type counts struct {
	Passed, Failed, Skipped int
	FailedPkgs              int
}

// Line is the summary line.
func (c counts) Line() string {
	s := fmt.Sprintf("== summary: %d passed, %d failed, %d skipped", c.Passed, c.Failed, c.Skipped)
	if c.FailedPkgs > 0 {
		s += fmt.Sprintf(" (%d packages failed)", c.FailedPkgs)
	}
	return s
}

// summarise copies the readable part of the JSON stream r to w and returns
// the counts.
func summarise(r io.Reader, w io.Writer) (counts, error) {
	var c counts
	held := map[string]*strings.Builder{} // output of running tests, by package and test
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
				}
				continue
			}
			switch e.Action {
			case "pass":
				c.Passed++
			case "skip":
				c.Skipped++
			case "fail":
				c.Failed++
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
	summary := flag.String("summary", "", "write the summary line to this file instead of standard output")
	flag.Parse()
	c, err := summarise(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if *summary == "" {
		fmt.Println(c.Line())
	} else {
		if err := os.WriteFile(*summary, []byte(c.Line()+"\n"), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "testsum: %v\n", err)
			os.Exit(2)
		}
	}
	if c.Failed > 0 || c.FailedPkgs > 0 {
		os.Exit(1)
	}
}
