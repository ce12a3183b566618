package main

import (
	"strings"
	"testing"
)

// A go test -json stream with a passing, a failing (with subtests) and a
// skipped test, and a package that failed to build: the counts include
// subtests, only the failed test's output is shown, and package lines pass
// through.
func TestSummarise(t *testing.T) {
	in := `{"Action":"start","Package":"a"}
{"Action":"run","Package":"a","Test":"TestOK"}
{"Action":"output","Package":"a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"a","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}
{"Action":"pass","Package":"a","Test":"TestOK","Elapsed":1.5}
{"Action":"run","Package":"a","Test":"TestBad"}
{"Action":"output","Package":"a","Test":"TestBad","Output":"    a_test.go:9: wrong answer\n"}
{"Action":"run","Package":"a","Test":"TestBad/sub"}
{"Action":"output","Package":"a","Test":"TestBad/sub","Output":"    a_test.go:12: sub fine\n"}
{"Action":"pass","Package":"a","Test":"TestBad/sub"}
{"Action":"output","Package":"a","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"a","Test":"TestBad","Elapsed":2.25}
{"Action":"output","Package":"a","Test":"TestSkip","Output":"    a_test.go:20: no python\n"}
{"Action":"skip","Package":"a","Test":"TestSkip"}
{"Action":"output","Package":"a","Output":"FAIL\n"}
{"Action":"output","Package":"a","Output":"FAIL\ta\t0.01s\n"}
{"Action":"fail","Package":"a"}
{"Action":"output","Package":"b","Output":"PASS\n"}
{"Action":"output","Package":"b","Output":"ok  \tb\t0.01s\n"}
{"Action":"pass","Package":"b"}
{"ImportPath":"c","Action":"build-output","Output":"c/c.go:3:1: syntax error\n"}
{"Action":"fail","Package":"c","FailedBuild":"c"}
go: some plain message
`
	var out strings.Builder
	c, err := summarise(strings.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	if c.Passed != 2 || c.Failed != 1 || c.Skipped != 1 || c.FailedPkgs != 2 {
		t.Errorf("counts %+v", c)
	}
	want := "== summary: 2 passed, 1 failed, 1 skipped (2 packages failed)\n" +
		"== FAILED test: a TestBad\n" +
		"== FAILED package (build error, panic or timeout): c\n"
	if got := c.Closing(); got != want {
		t.Errorf("closing lines\n%s\nwant\n%s", got, want)
	}
	if got, want := c.Slowest(5), "== slow:     2.2s a TestBad\n== slow:     1.5s a TestOK\n"; got != want {
		t.Errorf("slowest\n%s\nwant\n%s", got, want)
	}
	o := out.String()
	for _, want := range []string{"wrong answer", "--- FAIL: TestBad", "FAIL\ta\t", "ok  \tb\t", "syntax error", "go: some plain message"} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
	for _, not := range []string{"=== RUN   TestOK", "no python", "PASS\n"} {
		if strings.Contains(o, not) {
			t.Errorf("output shows %q:\n%s", not, o)
		}
	}
}
