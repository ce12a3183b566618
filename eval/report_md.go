package eval

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gridgym/gridgym/rules"
)

// AnalyzeOptions configures Analyze.
type AnalyzeOptions struct {
	Ratings RatingOptions // Plackett–Luce fit and bootstrap
}

// Analysis is everything the reports show beyond the tournament table:
// ratings with bootstrap intervals and head-to-head win rates.
type Analysis struct {
	Ratings  Ratings
	Pairwise Pairwise
	// Pages are the recorded games' replay pages (game index → the page's
	// path relative to the report folder), written by the caller (gridgym
	// tournament --replays K --report DIR writes package viewer's pages);
	// the reports list these games with links to their pages.
	Pages map[int]string
}

// Analyze fits the ratings and tallies the pairwise records of a finished
// tournament; pass the result to WriteReport.
func Analyze(r *Result, opt AnalyzeOptions) Analysis {
	return Analysis{Ratings: FitRatings(r, opt.Ratings), Pairwise: ComputePairwise(r)}
}

// WriteReport writes the full report of a tournament into dir (created if
// needed): report.md (with images linked from plots/), report.html
// (self-contained, images embedded), games.jsonl and plots/*.png. It returns
// the paths written.
func WriteReport(dir string, r *Result, a Analysis) (paths []string, err error) {
	figs, err := RenderPlots(r, a.Ratings)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "plots"), 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	write := func(name string, fill func(io.Writer) error) error {
		path := filepath.Join(dir, name)
		var buf bytes.Buffer
		if err := fill(&buf); err != nil {
			return fmt.Errorf("report %s: %w", path, err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		paths = append(paths, path)
		return nil
	}
	m := buildModel(r, a.Ratings, a.Pairwise)
	m.Replays = replaysTable(r, a.Pages)
	links := make([]figure, len(figs))
	embedded := make([]figure, len(figs))
	for i, f := range figs {
		name := "plots/" + f.Name
		links[i] = figure{Title: f.Title, Src: name}
		embedded[i] = figure{Title: f.Title, Src: dataURI(f.PNG)}
		if err := write(filepath.FromSlash(name), func(w io.Writer) error { _, err := w.Write(f.PNG); return err }); err != nil {
			return paths, err
		}
	}
	m.Figures = links
	if err := write("report.md", func(w io.Writer) error { return writeMarkdown(w, m) }); err != nil {
		return paths, err
	}
	m.Figures = embedded
	if err := write("report.html", func(w io.Writer) error { return writeHTML(w, m) }); err != nil {
		return paths, err
	}
	if err := write("games.jsonl", func(w io.Writer) error { return WriteJSONL(w, r) }); err != nil {
		return paths, err
	}
	return paths, nil
}

// WriteMarkdown writes the report as Markdown: standings, ratings with
// intervals, adjacent-pair verdicts and the pairwise win-rate matrix. It has
// no images; WriteReport's report.md links the plots it saves.
func WriteMarkdown(w io.Writer, r *Result, rt Ratings, pw Pairwise) error {
	return writeMarkdown(w, buildModel(r, rt, pw))
}

// WriteHTML writes the report as one self-contained HTML page, with the plots
// embedded as PNG data URIs, so it can be mailed or archived alone.
func WriteHTML(w io.Writer, r *Result, rt Ratings, pw Pairwise) error {
	figs, err := RenderPlots(r, rt)
	if err != nil {
		return err
	}
	m := buildModel(r, rt, pw)
	for _, f := range figs {
		m.Figures = append(m.Figures, figure{Title: f.Title, Src: dataURI(f.PNG)})
	}
	return writeHTML(w, m)
}

func dataURI(png []byte) string {
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
}

// reportModel is the content shared by the Markdown and HTML renderings.
type reportModel struct {
	Title      string
	Summary    []string
	Standings  table
	Ratings    table
	RatingNote string
	Gaps       table // rating gaps with bootstrap intervals (no rows without resamples)
	GapNote    string
	Verdicts   []string
	Pairwise   table
	PairNote   string
	Seating    table // score by seat place after each other bot (no rows under 3 seats)
	SeatNote   string
	Answers    table // each bot's answer times (no rows in a report rebuilt from games.jsonl)
	Replays    table // games with a replay page, linked
	Figures    []figure
}

type table struct {
	Head  []string
	Right []bool // column is right-aligned
	Rows  [][]string
	Links []string // per row: where its first cell links ("" or missing: nowhere)
}

// link is where row i's first cell links, "" none.
func (t table) link(i int) string {
	if i < len(t.Links) {
		return t.Links[i]
	}
	return ""
}

// replaysNote explains the replays table.
const replaysNote = "Each game links to its replay page: one self-contained HTML file (open it in a browser) that plays the game with play/pause, step, a timeline and the keys (space, ←/→, Home/End)."

// replaysTable lists the games that have a replay page: the game (linked to
// its page), the bot of each seat, the steps, each seat's score and the
// winner.
func replaysTable(r *Result, pages map[int]string) table {
	t := table{Head: []string{"game", "seats", "steps", scoreOrPoints(r) + " by seat", "winner"}, Right: []bool{true, false, true, false, false}}
	for _, g := range GameRecords(r) {
		page, ok := pages[g.Index]
		if !ok {
			continue
		}
		seats := make([]string, len(g.Lineup))
		scores := make([]string, len(g.Score))
		winners := []string{}
		for s, b := range g.Lineup {
			seats[s] = fmt.Sprintf("%d %s", s, b)
		}
		for s, v := range g.Score {
			scores[s] = fmt.Sprintf("%.4g", v)
			if s < len(g.Rank) && g.Rank[s] == 1 {
				winners = append(winners, seats[s])
			}
		}
		t.Rows = append(t.Rows, []string{fmt.Sprintf("game %d", g.Index), strings.Join(seats, " · "), fmt.Sprint(g.Steps), strings.Join(scores, ", "), strings.Join(winners, ", ")})
		t.Links = append(t.Links, filepath.ToSlash(page))
	}
	return t
}

type figure struct {
	Title string
	Src   string // relative path or data URI
}

func buildModel(r *Result, rt Ratings, pw Pairwise) reportModel {
	game := r.Spec.Game
	if game == "" {
		game = "tournament"
	}
	m := reportModel{Title: game + " tournament"}
	names, _ := agentsOf(r)
	m.Summary = append(m.Summary, fmt.Sprintf("%d games (%d asked), %d seats, %s, seed %d. Bots: %s.",
		len(r.Games), r.Config.Games, r.Spec.Seats, seatingWords(r.Config), r.Config.Seed, strings.Join(names, ", ")))
	m.Summary = append(m.Summary, fmt.Sprintf("Tournament score = %s of %s.",
		aggregateNames[r.Spec.Tournament], scoreOrPoints(r)))
	if n := len(Seatings(r.Config, r.Spec.Seats)); len(r.Config.Bots) > 0 && r.Spec.Seats > 0 && len(r.Games)%n != 0 {
		m.Summary = append(m.Summary, fmt.Sprintf("Note: %d games is not a multiple of the %d seatings, so bots played unequal numbers of games.", len(r.Games), n))
	}
	for _, line := range searchLines(r) {
		m.Summary = append(m.Summary, strings.ToUpper(line[:1])+line[1:]+".")
	}
	m.Standings = standingsTable(r, " ± 95%")
	m.Ratings, m.RatingNote = ratingsTable(rt)
	m.Verdicts = verdicts(rt, pw)
	m.Pairwise, m.PairNote = pairwiseTable(rt, pw)
	m.Seating, m.SeatNote = seatingTable(r, ComputeSeating(r))
	m.Gaps, m.GapNote = gapTable(rt)
	m.Answers = answersTable(r)
	return m
}

// standingsTable is the tournament table of WriteTable and the reports: one
// row per bot, best tournament score first. ci follows the headers of the
// columns that carry a "± half-width" (" ± 95%" in reports).
func standingsTable(r *Result, ci string) table {
	bots := r.Bots
	if len(bots) == 0 && len(r.Games) > 0 {
		bots = aggregate(r.Spec, r.Config.Bots, r.Games)
	}
	order := make([]int, len(bots))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return bots[order[a]].Score > bots[order[b]].Score })
	pointsOnly := r.Spec.Tournament == rules.MeanPoints
	scoreName := r.Spec.ScoreName
	if scoreName == "" {
		scoreName = "score"
	}
	t := table{Head: []string{"#", "bot", "games"}}
	if !pointsOnly {
		t.Head = append(t.Head, "tournament", "mean "+scoreName+ci)
	}
	t.Head = append(t.Head, "mean points"+ci, "win share")
	seats := r.Spec.Seats
	for _, b := range bots {
		seats = max(seats, len(b.Ranks))
	}
	for k := 1; k <= seats; k++ {
		t.Head = append(t.Head, ordinal(k))
	}
	errs := false
	for _, b := range bots {
		errs = errs || b.Errors > 0
	}
	if errs {
		t.Head = append(t.Head, "errors")
	}
	for rank, i := range order {
		b := bots[i]
		row := []string{fmt.Sprint(rank + 1), b.Name, fmt.Sprint(b.Games)}
		if !pointsOnly {
			row = append(row, fmt.Sprintf("%.3f", b.Score), fmt.Sprintf("%.2f ± %.2f", b.MeanScore, b.ScoreCI))
		}
		row = append(row, fmt.Sprintf("%.3f ± %.3f", b.MeanPoints, b.PointsCI), fmt.Sprintf("%.3f", b.WinShare))
		for k := 0; k < seats; k++ {
			pct := 0.0
			if k < len(b.Ranks) && b.Games > 0 {
				pct = 100 * float64(b.Ranks[k]) / float64(b.Games)
			}
			row = append(row, fmt.Sprintf("%.0f%%", pct))
		}
		if errs {
			row = append(row, fmt.Sprint(b.Errors))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Right = make([]bool, len(t.Head))
	for c := range t.Right {
		t.Right[c] = c != 1
	}
	return t
}

func ratingsTable(rt Ratings) (table, string) {
	level := fmt.Sprintf("%.0f%%", 100*rt.Level)
	t := table{Head: []string{"#", "bot", "rating", level + " interval", "SE", "games", "P(above next)"}}
	t.Right = []bool{true, false, true, true, true, true, true}
	for k, i := range rt.Order {
		a := rt.Agents[i]
		interval, se, next := "–", "–", "–"
		if rt.Resamples > 0 {
			interval = fmt.Sprintf("[%+.0f, %+.0f]", a.Lo, a.Hi)
			se = fmt.Sprintf("%.0f", a.SE)
			if k+1 < len(rt.Order) && rt.Better != nil {
				next = fmt.Sprintf("%.1f%%", 100*rt.Better[i][rt.Order[k+1]])
			}
		}
		t.Rows = append(t.Rows, []string{fmt.Sprint(k + 1), a.Name, fmt.Sprintf("%+.0f", a.Elo), interval, se, fmt.Sprint(a.Games), next})
	}
	note := "Plackett–Luce (rank-ordered logit) ratings fitted by maximum likelihood (MM algorithm) to every game's finishing order by placement points; " +
		"ties split evenly over their orders (a k-way tie counts each of its k! orders with weight 1/k!). " +
		"Scale: 400·log₁₀ strength, mean 0, so a gap of d points means the higher-rated agent finishes ahead of the other " +
		"with probability 1/(1+10^(−d/400)) head to head."
	if rt.Prior > 0 {
		note += fmt.Sprintf(" Each agent is credited with %g virtual drawn game(s) spread over its opponents, which keeps ratings finite.", rt.Prior)
	}
	if rt.Resamples > 0 {
		note += fmt.Sprintf(" Intervals: %s bootstrap percentile intervals over %d resamples of the games (seed %d); SE is the bootstrap standard deviation; "+
			"P(above next) is the share of resamples in which the agent is rated above the next one.", level, rt.Resamples, rt.Seed)
	}
	if !rt.Converged && len(rt.Agents) > 1 {
		note += fmt.Sprintf(" Warning: the fit did not converge in %d iterations.", rt.Iterations)
	}
	return t, note
}

// verdicts answers "is A better than B" for agents adjacent in rating order.
func verdicts(rt Ratings, pw Pairwise) []string {
	var out []string
	for k := 0; k+1 < len(rt.Order); k++ {
		i, j := rt.Order[k], rt.Order[k+1]
		a, b := rt.Agents[i], rt.Agents[j]
		s := fmt.Sprintf("**%s** vs **%s**: rated %.0f points higher", mdEscape(a.Name), mdEscape(b.Name), a.Elo-b.Elo)
		if rt.Better != nil {
			p := rt.Better[i][j]
			word := "not clearly separated"
			if p >= 0.975 {
				word = "clearly stronger"
			} else if p >= 0.9 {
				word = "probably stronger"
			}
			s += fmt.Sprintf(", rated higher in %.1f%% of bootstrap resamples (%s)", 100*p, word)
		}
		if i < len(pw.Pairs) && j < len(pw.Pairs[i]) {
			if p := pw.Pairs[i][j]; p.Games > 0 {
				s += fmt.Sprintf("; finished ahead in %.1f%% [%.1f, %.1f] of %d common games", 100*p.Rate, 100*p.Lo, 100*p.Hi, p.Games)
			}
		}
		out = append(out, s+".")
	}
	return out
}

// gapTable is the rating gap, row bot minus column bot, with its bootstrap
// interval, for every pair, in rating order (no rows without resamples).
func gapTable(rt Ratings) (table, string) {
	if rt.GapLo == nil {
		return table{}, ""
	}
	t := table{Head: []string{"bot \\ minus"}, Right: []bool{false}}
	for _, j := range rt.Order {
		t.Head = append(t.Head, rt.Agents[j].Name)
		t.Right = append(t.Right, true)
	}
	for _, i := range rt.Order {
		row := []string{rt.Agents[i].Name}
		for _, j := range rt.Order {
			if i == j {
				row = append(row, "–")
				continue
			}
			row = append(row, fmt.Sprintf("%+.0f [%+.0f, %+.0f]", rt.Agents[i].Elo-rt.Agents[j].Elo, rt.GapLo[i][j], rt.GapHi[i][j]))
		}
		t.Rows = append(t.Rows, row)
	}
	note := fmt.Sprintf("The row bot's rating minus the column bot's, with the %.0f%% bootstrap percentile interval of that difference "+
		"(the same %d resamples as the ratings): the gap is clear when its interval excludes 0.", 100*rt.Level, rt.Resamples)
	return t, note
}

func pairwiseTable(rt Ratings, pw Pairwise) (table, string) {
	order := rt.Order
	if len(order) != len(pw.Names) {
		order = make([]int, len(pw.Names))
		for i := range order {
			order[i] = i
		}
	}
	t := table{Head: []string{"bot \\ against"}, Right: []bool{false}}
	for _, j := range order {
		t.Head = append(t.Head, pw.Names[j])
		t.Right = append(t.Right, true)
	}
	for _, i := range order {
		row := []string{pw.Names[i]}
		for _, j := range order {
			p := pw.Pairs[i][j]
			switch {
			case i == j:
				row = append(row, "–")
			case p.Games == 0:
				row = append(row, "no games")
			default:
				row = append(row, fmt.Sprintf("%.1f%% [%.1f, %.1f] n=%d", 100*p.Rate, 100*p.Lo, 100*p.Hi, p.Games))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	note := "Share of the games both played in which the row bot finished ahead of the column bot (more placement points; ties count ½), " +
		"with 95% Wilson intervals; n = common games."
	return t, note
}

// mdEscape keeps a cell's text from breaking a Markdown table or emphasis.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "\n", " ").Replace(s)
}

func writeMarkdown(w io.Writer, m reportModel) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", mdEscape(m.Title))
	for _, s := range m.Summary {
		fmt.Fprintf(&b, "%s\n\n", s)
	}
	b.WriteString("## Standings\n\n")
	writeMDTable(&b, m.Standings)
	b.WriteString("\n## Ratings\n\n")
	writeMDTable(&b, m.Ratings)
	fmt.Fprintf(&b, "\n%s\n", m.RatingNote)
	if len(m.Gaps.Rows) > 0 {
		b.WriteString("\n## Rating gaps\n\n")
		writeMDTable(&b, m.Gaps)
		fmt.Fprintf(&b, "\n%s\n", m.GapNote)
	}
	if len(m.Verdicts) > 0 {
		b.WriteString("\n## Is the higher-rated bot better?\n\n")
		for _, v := range m.Verdicts {
			fmt.Fprintf(&b, "- %s\n", v)
		}
	}
	b.WriteString("\n## Pairwise win rates\n\n")
	writeMDTable(&b, m.Pairwise)
	fmt.Fprintf(&b, "\n%s\n", m.PairNote)
	if len(m.Seating.Rows) > 0 {
		b.WriteString("\n## Score by seating\n\n")
		writeMDTable(&b, m.Seating)
		fmt.Fprintf(&b, "\n%s\n", m.SeatNote)
	}
	if len(m.Answers.Rows) > 0 {
		b.WriteString("\n## Answer times\n\n")
		writeMDTable(&b, m.Answers)
		fmt.Fprintf(&b, "\n%s\n", answersNote)
	}
	if len(m.Replays.Rows) > 0 {
		b.WriteString("\n## Replays\n\n")
		writeMDTable(&b, m.Replays)
		fmt.Fprintf(&b, "\n%s\n", replaysNote)
	}
	if len(m.Figures) > 0 {
		b.WriteString("\n## Plots\n")
		for _, f := range m.Figures {
			fmt.Fprintf(&b, "\n![%s](%s)\n", mdEscape(f.Title), f.Src)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("markdown report: %w", err)
	}
	return nil
}

func writeMDTable(b *strings.Builder, t table) {
	cells := func(row []string) {
		b.WriteString("|")
		for _, c := range row {
			fmt.Fprintf(b, " %s |", mdEscape(c))
		}
		b.WriteString("\n")
	}
	cells(t.Head)
	b.WriteString("|")
	for c := range t.Head {
		if c < len(t.Right) && t.Right[c] {
			b.WriteString("---:|")
		} else {
			b.WriteString(":---|")
		}
	}
	b.WriteString("\n")
	for i, row := range t.Rows {
		if l := t.link(i); l != "" && len(row) > 0 {
			row = append([]string{"[" + row[0] + "](" + strings.ReplaceAll(l, " ", "%20") + ")"}, row[1:]...)
		}
		cells(row)
	}
}

var htmlReport = template.Must(template.New("report").Funcs(template.FuncMap{
	"md": mdInline,
	"img": func(f figure) template.HTML {
		// Src is our own data URI (or relative path): base64 and path
		// characters need no escaping in a quoted attribute, and leaving them
		// unescaped keeps the page small and greppable.
		return template.HTML(`<img src="` + strings.ReplaceAll(f.Src, `"`, "%22") + `" alt="` + template.HTMLEscapeString(f.Title) + `">`)
	},
	"replaysNote": func() string { return replaysNote },
	"answersNote": func() string { return answersNote },
	"link":        func(t table, i int) string { return t.link(i) },
	"align": func(t table, c int) string {
		if c < len(t.Right) && t.Right[c] {
			return "r"
		}
		return "l"
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; }
th { background: #f2f2f2; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; }
td.l, th.l { text-align: left; }
p.note { color: #555; font-size: 0.9em; }
figure { margin: 1.5em 0; }
figure img { max-width: 100%; }
figcaption { color: #555; font-size: 0.9em; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{range .Summary}}<p>{{.}}</p>
{{end}}
<h2>Standings</h2>
{{template "table" .Standings}}
<h2>Ratings</h2>
{{template "table" .Ratings}}
<p class="note">{{.RatingNote}}</p>
{{if .Gaps.Rows}}<h2>Rating gaps</h2>
{{template "table" .Gaps}}
<p class="note">{{.GapNote}}</p>
{{end}}{{if .Verdicts}}<h2>Is the higher-rated bot better?</h2>
<ul>
{{range .Verdicts}}<li>{{md .}}</li>
{{end}}</ul>
{{end}}
<h2>Pairwise win rates</h2>
{{template "table" .Pairwise}}
<p class="note">{{.PairNote}}</p>
{{if .Seating.Rows}}<h2>Score by seating</h2>
{{template "table" .Seating}}
<p class="note">{{.SeatNote}}</p>
{{end}}{{if .Answers.Rows}}<h2>Answer times</h2>
{{template "table" .Answers}}
<p class="note">{{answersNote}}</p>
{{end}}{{if .Replays.Rows}}<h2>Replays</h2>
{{template "table" .Replays}}
<p class="note">{{replaysNote}}</p>
{{end}}{{if .Figures}}<h2>Plots</h2>
{{range .Figures}}<figure>{{img .}}<figcaption>{{.Title}}</figcaption></figure>
{{end}}{{end}}
</body>
</html>
{{define "table"}}<table>
<tr>{{range $c, $h := .Head}}<th class="{{align $ $c}}">{{$h}}</th>{{end}}</tr>
{{range $i, $row := .Rows}}<tr>{{range $c, $v := $row}}<td class="{{align $ $c}}">{{if and (eq $c 0) (link $ $i)}}<a href="{{link $ $i}}">{{$v}}</a>{{else}}{{$v}}{{end}}</td>{{end}}</tr>
{{end}}</table>
{{end}}`))

// mdInline renders the verdicts' **bold** Markdown as HTML, escaping the rest.
func mdInline(s string) template.HTML {
	s = strings.NewReplacer(`\|`, "|", `\*`, "\x00", `\_`, "_").Replace(s)
	parts := strings.Split(s, "**")
	var b strings.Builder
	for i, p := range parts {
		p = strings.ReplaceAll(p, "\x00", "*")
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<b>" + template.HTMLEscapeString(p) + "</b>")
		} else {
			if i%2 == 1 {
				b.WriteString("**")
			}
			b.WriteString(template.HTMLEscapeString(p))
		}
	}
	return template.HTML(b.String())
}

func writeHTML(w io.Writer, m reportModel) error {
	var buf bytes.Buffer
	if err := htmlReport.Execute(&buf, m); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return nil
}
