package eval

import (
	"bytes"
	"context"
	"encoding/base64"
	"html/template"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
	_ "github.com/gridgym/gridgym/rules/risingtide" // a real game for the end-to-end report
)

var imgRE = regexp.MustCompile(`<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"`)

// checkHTML checks that page embeds n decodable PNGs.
func checkHTML(t *testing.T, page string, n int) {
	t.Helper()
	imgs := imgRE.FindAllStringSubmatch(page, -1)
	if len(imgs) != n {
		t.Fatalf("%d embedded PNGs, want %d", len(imgs), n)
	}
	for _, m := range imgs {
		raw, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil {
			t.Fatalf("base64: %v", err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("png: %v", err)
		}
		if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
			t.Errorf("image %v too small", b)
		}
	}
	if strings.Contains(page, "ZgotmplZ") {
		t.Errorf("html/template rejected a value")
	}
}

func TestReportsRender(t *testing.T) {
	r := simulate([]float64{150, 50, -50, -150, 0}, 4, 100, 3, 0.05)
	r.Config.Bots[1] = "bot|with*odd_name"
	r.Bots = aggregate(r.Spec, r.Config.Bots, r.Games)
	a := Analyze(r, AnalyzeOptions{Ratings: RatingOptions{Resamples: 30, Seed: 2}})

	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, a.Ratings, a.Pairwise); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# synthetic tournament", "## Standings", "## Ratings", "## Rating gaps", "## Pairwise win rates", "95% interval", "bootstrap"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	for _, name := range r.Config.Bots {
		if !strings.Contains(md.String(), mdEscape(name)) {
			t.Errorf("markdown lacks agent %q", name)
		}
	}
	// Every table row has as many cells as its header.
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "|") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") < 3 {
			t.Errorf("malformed table row %q", line)
		}
	}

	var page bytes.Buffer
	if err := WriteHTML(&page, r, a.Ratings, a.Pairwise); err != nil {
		t.Fatal(err)
	}
	checkHTML(t, page.String(), 3)
	for _, name := range r.Config.Bots {
		if !strings.Contains(page.String(), template.HTMLEscapeString(name)) {
			t.Errorf("html lacks agent %q", name)
		}
	}
	if !strings.Contains(page.String(), "<b>agent-0</b>") {
		t.Errorf("html verdicts not rendered in bold")
	}
	if !strings.Contains(page.String(), "<h2>Rating gaps</h2>") {
		t.Errorf("html lacks the rating gaps")
	}
}

func TestJSONLRoundTrip(t *testing.T) {
	r := simulate([]float64{100, 0, -100}, 4, 12, 4, 0.2)
	r.Games[3].Errors[2] = 5
	r.Games[5].Outcome.Score[1] = math.Inf(-1) // JSON has no infinities: written as null
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, r); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(buf.String(), "\n"); lines != len(r.Games) {
		t.Fatalf("%d lines for %d games", lines, len(r.Games))
	}
	recs, err := ReadJSONL(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := GameRecords(r)
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i := range recs {
		got, w := recs[i], want[i]
		if i == 5 {
			if !math.IsNaN(got.Score[1]) {
				t.Errorf("non-finite score read back as %v, want NaN", got.Score[1])
			}
			got.Score[1], w.Score = w.Score[1], slices.Clone(w.Score)
		}
		if got.Index != w.Index || got.Steps != w.Steps || !slices.Equal(got.Lineup, w.Lineup) || !slices.Equal(got.Score, w.Score) ||
			!slices.Equal(got.Points, w.Points) || !slices.Equal(got.Win, w.Win) || !slices.Equal(got.Rank, w.Rank) || !slices.Equal(got.Errors, w.Errors) {
			t.Errorf("record %d: got %+v, want %+v", i, got, w)
		}
	}
	if recs[3].Errors[2] != 5 || recs[0].Lineup[0] != "agent-0" {
		t.Errorf("records %+v", recs[:4])
	}
	for _, rec := range recs {
		for s, rank := range rec.Rank {
			if rank < 1 || rank > 4 || (rank == 1) != (rec.Win[s] > 0) {
				t.Errorf("game %d: rank %d with win share %v", rec.Index, rank, rec.Win[s])
			}
		}
	}
	if _, err := ReadJSONL(strings.NewReader("{\"index\": 1}\nnot json\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad line: err = %v", err)
	}
}

// TestWriteReport runs a small real tournament and writes its full report.
func TestWriteReport(t *testing.T) {
	g, err := rules.Lookup("rising-tide")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Config{Game: g.Default(), Bots: []string{"random", "pass"}, Games: 4, Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	a := Analyze(r, AnalyzeOptions{Ratings: RatingOptions{Resamples: 10}})
	dir := t.TempDir()
	paths, err := WriteReport(dir, r, a)
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, p := range paths {
		q, _ := filepath.Rel(dir, p)
		rel = append(rel, filepath.ToSlash(q))
	}
	slices.Sort(rel)
	want := []string{"games.jsonl", "plots/ranks.png", "plots/ratings.png", "plots/scores.png", "report.html", "report.md"}
	if !slices.Equal(rel, want) {
		t.Fatalf("wrote %v, want %v", rel, want)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	for _, want := range []string{"random", "pass", "](plots/ratings.png)", "rising-tide tournament"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	checkHTML(t, string(page), 3)
	f, err := os.Open(filepath.Join(dir, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadJSONL(f)
	if err != nil || len(recs) != 4 {
		t.Fatalf("games.jsonl: %d records, %v", len(recs), err)
	}
}

// TestReportsEmpty renders tournaments with no games, or a single bot,
// as a cancelled or trivial run produces.
func TestReportsEmpty(t *testing.T) {
	for _, r := range []*Result{
		{Spec: rules.Spec{Game: "g", Seats: 4}, Config: Config{Bots: []string{"a", "b"}, Games: 8}},
		{Spec: rules.Spec{Game: "g", Seats: 4}},
		simulate([]float64{0}, 4, 3, 1, 0),
	} {
		a := Analyze(r, AnalyzeOptions{Ratings: RatingOptions{Resamples: 5}})
		for _, rt := range a.Ratings.Agents {
			if rt.Elo != 0 {
				t.Errorf("rating without information: %+v", rt)
			}
		}
		var md, page bytes.Buffer
		if err := WriteMarkdown(&md, r, a.Ratings, a.Pairwise); err != nil {
			t.Error(err)
		}
		if err := WriteHTML(&page, r, a.Ratings, a.Pairwise); err != nil {
			t.Error(err)
		}
		checkHTML(t, page.String(), 3)
	}
}

// A tournament's games written to games.jsonl and rebuilt (FromRecords) rate
// exactly as the tournament did, and two files pool: each bot's games add up.
// Records of another game's seats are refused.
func TestFromRecords(t *testing.T) {
	r := simulate([]float64{150, 0, -150}, 4, 60, 9, 0.1)
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, r); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadJSONL(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	game, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromRecords(game.Default(), recs)
	if err != nil {
		t.Fatal(err)
	}
	opt := RatingOptions{Resamples: 50, Seed: 4}
	want, got := FitRatings(r, opt), FitRatings(back, opt)
	for i := range want.Agents {
		if want.Agents[i] != got.Agents[i] {
			t.Fatalf("rebuilt ratings %+v, want %+v", got.Agents[i], want.Agents[i])
		}
	}
	pooled, err := FromRecords(game.Default(), append(recs, recs...))
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range pooled.Bots {
		if b.Games != 2*r.Bots[i].Games || b.Name != r.Bots[i].Name {
			t.Fatalf("pooled %s: %d games, want %s's %d twice", b.Name, b.Games, r.Bots[i].Name, r.Bots[i].Games)
		}
	}
	recs[3].Score = recs[3].Score[:2]
	if _, err := FromRecords(game.Default(), recs); err == nil || !strings.Contains(err.Error(), "game record 3") {
		t.Fatalf("a record with 2 scores of 4 seats: error %v", err)
	}
}
