package viewer

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/internal/atomicfile"
)

//go:embed viewer.js
var script string

//go:embed viewer.css
var style string

// page is the HTML around the data: the canvas, the controls, the seats'
// moves and scores, the chart and the ranking (collapsed, a <details>,
// until the last step is shown or it is opened); style and script inline.
var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="gridgym viewer, data version {{.Data.Version}}">
<title>{{.Data.Title}} · game {{.Data.Index}} · gridgym replay</title>
<style>{{.Style}}</style>
</head>
<body>
<h1 id="title">{{.Data.Title}}</h1>
<div id="meta">{{.Data.Params}}</div>
<div id="errors"></div>
<div id="main">
<div>
<canvas id="board" width="640" height="640"></canvas>
<div id="controls">
<button id="first" title="first step (Home)">|◀◀</button>
<button id="back" title="step back (←)">◀|</button>
<button id="play" title="play (space)">▶</button>
<button id="fwd" title="step forward (→)">|▶</button>
<button id="last" title="last step (End)">▶▶|</button>
<label>speed <select id="speed">
<option value="1">1</option><option value="2">2</option><option value="5">5</option>
<option value="10" selected>10</option><option value="25">25</option><option value="50">50</option>
<option value="100">100</option><option value="500">500</option>
</select> steps/s</label>
<span id="steplabel"></span>
</div>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
<div class="hint">space: play/pause · ←/→: step (shift: 10) · Home/End: first/last · dashed: the cells this step changed · the address (#step=N) opens this step</div>
</div>
<div id="side">
<h2>Seats at this step</h2>
<table id="seats"><thead><tr><th>seat</th><th>bot</th><th>move played</th><th id="scorehead">score</th></tr></thead><tbody></tbody></table>
<div id="policy" hidden>
<h2>Network's next move from here</h2>
<label><select id="policy-seat"></select></label>
<label><input type="checkbox" id="policy-on" checked> heat map (where its listed moves lead)</label>
<div id="policy-value"></div>
<ol id="policy-list"></ol>
</div>
<h2>Score over time</h2>
<canvas id="chart" width="420" height="120"></canvas>
<details id="ranking-box">
<summary id="ranking-show"><h2>Final ranking</h2> <span id="ranking-note">(hidden until the last step: click to show)</span></summary>
<table id="ranking"><thead><tr><th>place</th><th>seat</th><th>bot</th><th>score</th><th>points</th><th>win</th><th>no answer</th></tr></thead><tbody></tbody></table>
</details>
</div>
</div>
<pre id="board-dump" hidden></pre>
<script>
window.addEventListener("error", function (e) {
  var el = document.getElementById("errors");
  if (el) el.textContent += "error: " + e.message + "\n";
});
</script>
<script id="replay-data" type="application/json">{{.JSON}}</script>
<script>{{.Script}}</script>
</body>
</html>
`))

// Page returns the self-contained HTML page that plays d.
func Page(d *Data) ([]byte, error) {
	js, err := json.Marshal(d) // escapes <, > and &: safe inside <script>
	if err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	var b bytes.Buffer
	err = page.Execute(&b, struct {
		Data   *Data
		JSON   template.JS
		Style  template.CSS
		Script template.JS
	}{d, template.JS(js), template.CSS(style), template.JS(script)})
	if err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	return b.Bytes(), nil
}

// Write writes the page that plays r to w (Build, then Page).
func Write(w io.Writer, r *eval.Replay, opt Options) error {
	d, err := Build(r, opt)
	if err != nil {
		return err
	}
	p, err := Page(d)
	if err != nil {
		return err
	}
	if _, err := w.Write(p); err != nil {
		return fmt.Errorf("viewer: %w", err)
	}
	return nil
}

// WriteFile writes the page that plays r to path, through a temporary file
// in the same folder renamed into place.
func WriteFile(path string, r *eval.Replay, opt Options) error {
	var b bytes.Buffer
	if err := Write(&b, r, opt); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	// 0644: CreateTemp's 0600 would hide the page from a web server.
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err })
}

// WritePages writes the replay page of each replay file (tournament
// --replays) into reportDir/replays/, named as the file with .html, and
// returns each game's page path relative to reportDir by game index (for
// eval.Analysis.Pages) and the paths written.
func WritePages(reportDir string, replayFiles []string, opt Options) (pages map[int]string, paths []string, err error) {
	if len(replayFiles) == 0 {
		return map[int]string{}, nil, nil // no empty replays/ folder in a report without replays
	}
	dir := filepath.Join(reportDir, "replays")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("viewer: %w", err)
	}
	pages = map[int]string{}
	for _, f := range replayFiles {
		r, err := eval.ReadReplay(f)
		if err != nil {
			return pages, paths, err
		}
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)) + ".html"
		path := filepath.Join(dir, name)
		if err := WriteFile(path, r, opt); err != nil {
			return pages, paths, err
		}
		pages[r.Index] = "replays/" + name
		paths = append(paths, path)
	}
	return pages, paths, nil
}
