package eval

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	_ "github.com/gridgym/gridgym/games" // links every game, its bots and search specs
	"github.com/gridgym/gridgym/rules"
)

// A search bot's work is counted per bot (agents.Searcher): the moves it
// searched, those that were not its prior's move, and its simulations,
// budget × moves with a fixed budget; WriteTable and the report say it, and
// a scripted bot has none.
func TestSearchCounts(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(t.Context(), Config{Game: g.Default(), Bots: []string{"s=search:greedy@8:trees=1:depth=2", "greedy"}, Games: 2, Seed: 3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var s, greedy BotStats
	for _, b := range res.Bots {
		switch b.Name {
		case "s":
			s = b
		case "greedy":
			greedy = b
		}
	}
	c := s.Search
	if c.Searched == 0 || c.Departed > c.Searched || c.Simulations != 8*c.Searched || greedy.Search != (SearchCount{}) {
		t.Fatalf("search counts %+v, greedy's %+v", c, greedy.Search)
	}
	perGame := 0
	for _, gr := range res.Games {
		for seat, bi := range gr.Lineup {
			if bi == 0 {
				perGame += gr.Search[seat].Searched
			}
		}
	}
	if perGame != c.Searched {
		t.Errorf("per-game searched moves add up to %d, the bot's %d", perGame, c.Searched)
	}
	var out bytes.Buffer
	if err := WriteTable(&out, res); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("search s: %d moves searched, %d (", c.Searched, c.Departed)
	if !strings.Contains(out.String(), want) || strings.Contains(out.String(), "search greedy") {
		t.Errorf("table:\n%s\nwant a line %q for s alone", out.String(), want)
	}

	// games.jsonl keeps the counts: the games rated again (gridgym rate)
	// give the same line; a record with a count list of another length is
	// refused.
	var jl bytes.Buffer
	if err := WriteJSONL(&jl, res); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadJSONL(&jl)
	if err != nil {
		t.Fatal(err)
	}
	again, err := FromRecords(g.Default(), recs)
	if err != nil {
		t.Fatal(err)
	}
	if got := searchLines(again); len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("rated again from games.jsonl: search lines %q, want one starting %q", got, want)
	}
	recs[0].Search = recs[0].Search[:1]
	if _, err := FromRecords(g.Default(), recs); err == nil {
		t.Error("a record with one search count for four seats was accepted")
	}
}
