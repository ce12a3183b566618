package eval

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The reports list the games given replay pages (Analysis.Pages), each
// linked to its page, with its seats, steps, scores and winner; without
// pages there is no Replays section.
func TestReportLinksReplays(t *testing.T) {
	r := simulate([]float64{150, 50, -50, -150}, 4, 12, 3, 0.05)
	r.Bots = aggregate(r.Spec, r.Config.Bots, r.Games)
	a := Analyze(r, AnalyzeOptions{Ratings: RatingOptions{Resamples: 10, Seed: 2}})
	cases := []struct {
		name  string
		pages map[int]string
		links []string // game index → page, in table order
	}{
		{"none", nil, nil},
		{"two", map[int]string{0: "replays/replay-0000.html", 2: "replays/replay-0002.html"},
			[]string{"replays/replay-0000.html", "replays/replay-0002.html"}},
		{"absent game", map[int]string{999: "replays/replay-0999.html"}, nil},
	}
	mdLink := regexp.MustCompile(`\| \[game (\d+)\]\(([^)]*)\) \|`)
	htmlLink := regexp.MustCompile(`<a href="([^"]*)">game (\d+)</a>`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a.Pages = c.pages
			dir := t.TempDir()
			if _, err := WriteReport(dir, r, a); err != nil {
				t.Fatal(err)
			}
			md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
			page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
			if got := strings.Contains(string(md), "## Replays"); got != (len(c.links) > 0) {
				t.Errorf("markdown has a Replays section: %v, want %v", got, len(c.links) > 0)
			}
			if got := strings.Contains(string(page), "<h2>Replays</h2>"); got != (len(c.links) > 0) {
				t.Errorf("html has a Replays section: %v, want %v", got, len(c.links) > 0)
			}
			var mdGot, htmlGot []string
			for _, m := range mdLink.FindAllStringSubmatch(string(md), -1) {
				mdGot = append(mdGot, m[2])
				if want := "replays/replay-000" + m[1] + ".html"; m[2] != want {
					t.Errorf("markdown links game %s to %s, want %s", m[1], m[2], want)
				}
			}
			for _, m := range htmlLink.FindAllStringSubmatch(string(page), -1) {
				htmlGot = append(htmlGot, m[1])
			}
			if strings.Join(mdGot, " ") != strings.Join(c.links, " ") || strings.Join(htmlGot, " ") != strings.Join(c.links, " ") {
				t.Errorf("links: markdown %v, html %v, want %v", mdGot, htmlGot, c.links)
			}
			if len(c.links) > 0 {
				g := GameRecords(r)[0]
				if !strings.Contains(string(md), "| 0 "+g.Lineup[0]+" · 1 "+g.Lineup[1]) {
					t.Errorf("game 0's row lacks its seats %v", g.Lineup)
				}
			}
		})
	}
}
