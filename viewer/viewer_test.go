package viewer

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gridgym/gridgym/eval"
	_ "github.com/gridgym/gridgym/games" // links every game and its bots
	"github.com/gridgym/gridgym/rules"
)

// record plays one tournament game of cfg between bots (seated by rotation)
// and reads back its replay file.
func record(t testing.TB, cfg rules.Config, bots []string, seed uint64) *eval.Replay {
	t.Helper()
	dir := t.TempDir()
	res, err := eval.Run(t.Context(), eval.Config{Game: cfg, Bots: bots, Games: 1, Seed: seed, Workers: 1, Replays: 1, ReplayDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r, err := eval.ReadReplay(res.Replays[0])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// gameReplays are one random-bot game of every registered game at its
// default settings (Bovine Borders: a full 10,000-round game), recorded once.
var (
	gameReplaysOnce sync.Once
	gameReplays     map[string]*eval.Replay
)

// everyGame returns a recorded game of every registered game, by name.
func everyGame(t *testing.T) map[string]*eval.Replay {
	t.Helper()
	gameReplaysOnce.Do(func() {
		gameReplays = map[string]*eval.Replay{}
		for _, g := range rules.Games() {
			gameReplays[g.Name] = record(t, g.Default(), []string{"random"}, 1)
		}
	})
	if len(gameReplays) != len(rules.Games()) {
		t.Fatal("recording the games failed in an earlier test")
	}
	return gameReplays
}

// cellsAt is the Go engine's cell views after n steps of r.
func cellsAt(t *testing.T, r *eval.Replay, n int) []rules.CellView {
	t.Helper()
	st, err := r.State(n)
	if err != nil {
		t.Fatal(err)
	}
	return st.(rules.Viewer).Cells(nil)
}

func TestEncodeRoundTrip(t *testing.T) {
	cases := [][]int{nil, {0}, {31}, {32}, {1023, 1024}, {0, 1, 31, 32, 33, 65535, 1 << 20, 1 << 40}}
	for _, c := range cases {
		var e Encoder
		for _, v := range c {
			e.Put(v)
		}
		got, err := Decode(e.String())
		if err != nil || !slices.Equal(got, c) {
			t.Errorf("%v encodes as %q, reads back %v %v", c, e.String(), got, err)
		}
		if strings.Trim(e.String(), encAlphabet) != "" {
			t.Errorf("%q: characters outside the alphabet", e.String())
		}
	}
	var e Encoder
	for v := 0; v < 32; v++ {
		e.Put(v)
	}
	if len(e.String()) != 32 {
		t.Errorf("0..31 take %d characters, want one each", len(e.String()))
	}
	for _, bad := range []string{"A!", "g", "AAg"} { // a foreign byte; an integer cut short
		if _, err := Decode(bad); err == nil {
			t.Errorf("Decode(%q) accepted", bad)
		}
	}
}

// The board dump's format, which the page writes the same way.
func TestDump(t *testing.T) {
	cells := []rules.CellView{
		{Terrain: rules.Open, Fill: -1, Piece: -1, Num: -1, Glyph: '.'},
		{Terrain: rules.Open, Fill: 0, Piece: 0, Shape: 'b', Num: -1, Glyph: 'A'},
		{Terrain: rules.Land, Fill: -1, Piece: 2, Shape: 's', Num: 5, Glyph: 'C'},
		{Terrain: rules.Water, Fill: -1, Piece: -1, Num: -1, Glyph: '~'},
		{Terrain: rules.Blocked, Fill: -1, Piece: -1, Num: -1, Glyph: '#'},
		{Terrain: rules.Open, Fill: 3, Piece: -2, Shape: 'r', Num: -1, Glyph: '*'},
	}
	want := ".0---- A000b- C2-2s5\n~4---- #1---- *03*r-"
	if got := Dump(cells, 3); got != want {
		t.Errorf("Dump:\n%s\nwant:\n%s", got, want)
	}
}

// Build's data played back in Go the way the page's script plays it (the
// start board, then each step's changed cells) gives every position of every
// game's replay; the moves and scores decode to one per seat and step.
func TestBuildEveryGame(t *testing.T) {
	for name, r := range everyGame(t) {
		t.Run(name, func(t *testing.T) {
			d, err := Build(r, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d.Steps != r.Steps() || d.Seats != len(r.Bots) || d.Rows*d.Cols == 0 || d.Version != DataVersion {
				t.Fatalf("steps %d seats %d board %dx%d version %d", d.Steps, d.Seats, d.Rows, d.Cols, d.Version)
			}
			cells := d.Rows * d.Cols
			board, err := Decode(d.Board0)
			if err != nil || len(board) != cells {
				t.Fatalf("start board: %d cells, %v", len(board), err)
			}
			diffs, err := Decode(d.Diffs)
			if err != nil {
				t.Fatal(err)
			}
			view := func(i int) rules.CellView {
				v := d.Views[i]
				return rules.CellView{Terrain: rules.Terrain(v[0]), Fill: int8(v[1]), Piece: int8(v[2]), Shape: byte(v[3]), Num: int8(v[4]), Glyph: byte(v[5])}
			}
			q := 0
			got := make([]rules.CellView, cells)
			for n := 0; n <= d.Steps; n++ {
				if n > 0 {
					k, idx := diffs[q], -1
					q++
					for j := 0; j < k; j++ {
						idx += diffs[q] + 1
						board[idx] = diffs[q+1]
						q += 2
					}
				}
				for i, v := range board {
					got[i] = view(v)
				}
				if want := cellsAt(t, r, n); !slices.Equal(got, want) {
					t.Fatalf("step %d:\n%s\nwant\n%s", n, Dump(got, d.Cols), Dump(want, d.Cols))
				}
			}
			if q != len(diffs) {
				t.Errorf("%d diff values left over", len(diffs)-q)
			}
			moves, err := Decode(d.Moves)
			if err != nil || len(moves) != d.Steps*d.Seats {
				t.Fatalf("%d moves for %d steps × %d seats (%v)", len(moves), d.Steps, d.Seats, err)
			}
			asked := 0
			for i, m := range moves {
				if m > len(d.MoveTexts) {
					t.Fatalf("move %d: text %d of %d", i, m, len(d.MoveTexts))
				}
				if m > 0 {
					asked++
				}
			}
			if asked == 0 {
				t.Error("no seat was ever asked to move")
			}
			for s, sc := range d.Scores {
				ch, err := Decode(sc)
				if err != nil || len(ch) == 0 || len(ch)%2 != 0 || ch[0] != 0 {
					t.Fatalf("seat %d scores %v (%v)", s, ch, err)
				}
				step := 0
				for j := 0; j < len(ch); j += 2 {
					step += ch[j]
					if ch[j+1] >= len(d.ScoreValues) {
						t.Fatalf("seat %d: score value %d of %d", s, ch[j+1], len(d.ScoreValues))
					}
				}
				// The last change's value is the final score.
				last, want := d.ScoreValues[ch[len(ch)-1]], r.Outcome.Score[s]
				if step > d.Steps || (last == nil) != (math.IsNaN(want) || math.IsInf(want, 0)) || last != nil && *last != want {
					t.Errorf("seat %d: last score change at step %d to %v, final score %v", s, step, last, want)
				}
			}
			if len(d.Ranking) != d.Seats || d.Ranking[0].Place != 1 {
				t.Errorf("ranking %+v", d.Ranking)
			}
			for i := 1; i < len(d.Ranking); i++ {
				if d.Ranking[i].Points > d.Ranking[i-1].Points {
					t.Errorf("ranking out of order: %+v", d.Ranking)
				}
			}
		})
	}
}

// outside finds what would make a page fetch something: a URL with a
// scheme, a src or href attribute, a stylesheet link, a CSS url() or import.
var outside = regexp.MustCompile(`(?i)https?://|\bsrc\s*=|\bhref\s*=|<link|url\(|@import|\bfetch\(|XMLHttpRequest|import\(`)

// Every game's page is one self-contained file: no URL, no src or href, its
// data version, and its data read back equal to Build's.
func TestPageSelfContained(t *testing.T) {
	dataRe := regexp.MustCompile(`(?s)<script id="replay-data" type="application/json">(.*?)</script>`)
	for name, r := range everyGame(t) {
		t.Run(name, func(t *testing.T) {
			d, err := Build(r, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Write(&b, r, Options{}); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			if m := outside.FindString(page); m != "" {
				i := strings.Index(page, m)
				t.Errorf("the page would reach outside: %q in …%s…", m, page[max(0, i-60):min(len(page), i+60)])
			}
			if !strings.Contains(page, `content="gridgym viewer, data version 1"`) || !strings.Contains(page, `id="board-dump"`) {
				t.Error("no data version or board dump")
			}
			if n := strings.Count(page, "<script"); n != 3 {
				t.Errorf("%d scripts, want 3 inline ones", n)
			}
			m := dataRe.FindStringSubmatch(page)
			if m == nil {
				t.Fatal("no data in the page")
			}
			if strings.Contains(m[1], "</") {
				t.Error("the data holds </, which would end its script")
			}
			var back Data
			if err := json.Unmarshal([]byte(m[1]), &back); err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(d)
			got, _ := json.Marshal(&back)
			if !bytes.Equal(got, want) {
				t.Error("the page's data differs from Build's")
			}
			t.Logf("%s: %d steps, page %d bytes", name, r.Steps(), len(page))
		})
	}
}

// The final ranking is a spoiler: the page holds its table in a closed
// <details> whose summary reveals it, and its script opens at the address's
// #step=N and writes the shown step back there.
func TestPageRankingCollapsed(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	r := record(t, g.Default(), []string{"random"}, 1)
	var b bytes.Buffer
	if err := Write(&b, r, Options{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	box := regexp.MustCompile(`(?s)<details id="ranking-box">\s*<summary id="ranking-show">.*?</summary>\s*<table id="ranking">.*?</table>\s*</details>`)
	if !box.MatchString(page) {
		t.Errorf("the ranking's table is not in a closed <details> with a summary:\n%s", page[strings.Index(page, "<h2>Score"):strings.Index(page, "<pre id")])
	}
	if strings.Count(page, `id="ranking"`) != 1 {
		t.Error("want one ranking table")
	}
	for _, w := range []string{`step=(\d+)`, `"#step=" + shown`, `addEventListener("hashchange"`, `rankBox.open = true`} {
		if !strings.Contains(page, w) {
			t.Errorf("the page's script lacks %s", w)
		}
	}
}

// A page names the game's parameters and escapes what bots are called.
func TestPageEscapes(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := g.Configure(map[string]string{"board_size": "4", "max_turns": "8"})
	if err != nil {
		t.Fatal(err)
	}
	r := record(t, cfg, []string{"random"}, 2)
	r.Bots[1] = `</script><script>alert(1)</script>`
	path := filepath.Join(t.TempDir(), "game.html")
	if err := WriteFile(path, r, Options{}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<script>alert") {
		t.Error("a bot's name is written into the page unescaped")
	}
	if !strings.Contains(b.String(), "max_turns=8,board_size=4") {
		t.Error("the page does not name the game's parameters")
	}
}

func TestBuildErrors(t *testing.T) {
	g, _ := rules.Lookup("slime")
	cfg, _ := g.Configure(map[string]string{"board_size": "4", "max_turns": "4"})
	good := record(t, cfg, []string{"random"}, 3)
	cases := map[string]func(r *eval.Replay){
		"no outcome": func(r *eval.Replay) { r.Outcome = nil },
		"no game":    func(r *eval.Replay) { r.Config = rules.Config{} },
		"3 bots":     func(r *eval.Replay) { r.Bots = r.Bots[:3] },
		"bad move":   func(r *eval.Replay) { r.Moves = append(r.Moves, r.Moves[0][:1]) },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			r := *good
			r.Bots = slices.Clone(good.Bots)
			r.Moves = slices.Clone(good.Moves)
			mutate(&r)
			if _, err := Build(&r, Options{}); err == nil {
				t.Error("accepted")
			}
		})
	}
}
