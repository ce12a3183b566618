package eval

import (
	"fmt"

	"github.com/gridgym/gridgym/rules"
)

// FromRecords rebuilds a tournament Result from the records of games.jsonl
// files (ReadJSONL), so that the games of several tournaments — other seeds,
// more games of the same lineup — are rated together (`gridgym rate`). Its
// bots are the distinct names of the records' lineups in first-seen order
// and its games the records in order, renumbered from 0; game is the
// tournament's game configuration (its seats, and how its tournament
// aggregates scores). A record that does not fit the game — another number
// of seats, a score list of another length — is an error naming it.
func FromRecords(game rules.Config, recs []GameRecord) (*Result, error) {
	spec := *game.Game().New(game).Spec()
	r := &Result{Spec: spec, Config: Config{Game: game, Recorded: true}}
	index := map[string]int{}
	for k, rec := range recs {
		n := spec.Seats
		if len(rec.Lineup) != n || len(rec.Score) != n || len(rec.Points) != n || len(rec.Win) != n ||
			rec.Errors != nil && len(rec.Errors) != n || rec.Search != nil && len(rec.Search) != n {
			return nil, fmt.Errorf("game record %d (index %d): lineup of %d seats, %d scores, %d points, %d win shares, %d error and %d search counts: want %d each (the counts may be left out) for %s",
				k, rec.Index, len(rec.Lineup), len(rec.Score), len(rec.Points), len(rec.Win), len(rec.Errors), len(rec.Search), n, spec.Game)
		}
		g := GameResult{Index: k, Lineup: make([]int, n), Steps: rec.Steps, Errors: make([]int, n),
			Outcome: &rules.Outcome{Score: rec.Score, Points: rec.Points, Win: rec.Win}}
		copy(g.Errors, rec.Errors)
		if rec.Search != nil {
			g.Search = append([]SearchCount(nil), rec.Search...)
		}
		for s, name := range rec.Lineup {
			b, ok := index[name]
			if !ok {
				b = len(r.Config.Bots)
				index[name] = b
				r.Config.Bots = append(r.Config.Bots, name)
			}
			g.Lineup[s] = b
		}
		r.Games = append(r.Games, g)
	}
	r.Config.Games = len(r.Games)
	r.Bots = aggregate(r.Spec, r.Config.Bots, r.Games)
	return r, nil
}
