package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules/rulestest"
)

// tournament --replays K --report DIR writes each recorded game as a web
// page in DIR/replays, linked from report.md and report.html; replay FILE
// --html OUT writes the same page, and refuses a file that is not a replay.
func TestReplayPages(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "report")
	out := mustRun(t, "replay-0000.html", "tournament", "-g", "slime", "-b", "simplebot,random", "-n", "3", "-q",
		"--param", "board_size=5", "--report", report, "--replays", "2")
	if !strings.Contains(out, "watch one in a browser") {
		t.Errorf("tournament output does not say how to watch a game:\n%s", out)
	}
	pages := []string{filepath.Join(report, "replays", "replay-0000.html"), filepath.Join(report, "replays", "replay-0001.html")}
	mustExist(t, pages...)
	if _, err := os.Stat(filepath.Join(report, "replays", "replay-0002.html")); err == nil {
		t.Error("a page for a game that was not recorded")
	}
	md, _ := os.ReadFile(filepath.Join(report, "report.md"))
	html, _ := os.ReadFile(filepath.Join(report, "report.html"))
	for _, want := range []string{"[game 0](replays/replay-0000.html)", "[game 1](replays/replay-0001.html)"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %s", want)
		}
	}
	if !strings.Contains(string(html), `<a href="replays/replay-0001.html">game 1</a>`) {
		t.Error("report.html does not link game 1's page")
	}

	single := filepath.Join(dir, "game.html")
	mustRun(t, "wrote "+single, "replay", filepath.Join(report, "replays", "replay-0001.jsonl"), "--html", single)
	a, _ := os.ReadFile(single)
	b, _ := os.ReadFile(pages[1])
	if len(a) == 0 || string(a) != string(b) {
		t.Errorf("replay --html wrote %d bytes, the report's page of the same game has %d", len(a), len(b))
	}
	if _, err := run("replay", filepath.Join(report, "report.md"), "--html", filepath.Join(dir, "x.html")); err == nil {
		t.Error("replay --html accepted a Markdown file")
	}
	if _, err := os.Stat(filepath.Join(dir, "x.html")); err == nil {
		t.Error("a page was written for a file that is not a replay")
	}

	// A report without --replays has no replays folder.
	plain := filepath.Join(dir, "plain")
	mustRun(t, "report.md", "tournament", "-g", "slime", "-b", "simplebot,random", "-n", "2", "-q",
		"--param", "board_size=5", "--report", plain)
	if _, err := os.Stat(filepath.Join(plain, "replays")); err == nil {
		t.Error("a report without replays has an (empty) replays folder")
	}
}

// --with-policy puts each network seat's view into the replay pages, and is
// refused where there is no page to put it in.
func TestReplayPagesWithPolicy(t *testing.T) {
	weights := rulestest.Policy(t, "slime")
	if _, err := os.Stat(weights); err != nil {
		t.Skipf("no trained Slime network: %v", err)
	}
	dir := t.TempDir()
	report := filepath.Join(dir, "report")
	mustRun(t, "replay-0000.html", "tournament", "-g", "slime", "-b", weights+",random", "-n", "2", "-q",
		"--report", report, "--replays", "1", "--with-policy")
	page, _ := os.ReadFile(filepath.Join(report, "replays", "replay-0000.html"))
	if !strings.Contains(string(page), `"policies":[{"seat":0,`) {
		t.Error("the page has no policy for the network in seat 0")
	}
	plain := filepath.Join(dir, "plain.html")
	mustRun(t, "wrote", "replay", filepath.Join(report, "replays", "replay-0000.jsonl"), "--html", plain)
	if b, _ := os.ReadFile(plain); strings.Contains(string(b), `"policies"`) {
		t.Error("a page without --with-policy has policies")
	}
	for _, args := range [][]string{
		{"tournament", "-g", "slime", "-b", weights + ",random", "-n", "2", "-q", "--replays", "1", "--with-policy"},
		{"tournament", "-g", "slime", "-b", weights + ",random", "-n", "2", "-q", "--report", filepath.Join(dir, "r2"), "--with-policy"},
		{"replay", filepath.Join(report, "replays", "replay-0000.jsonl"), "--with-policy"},
	} {
		if out, err := run(args...); err == nil || !strings.Contains(err.Error()+out, "--with-policy goes with") {
			t.Errorf("%v: %v\n%s", args, err, out)
		}
	}
}
