package eval

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

// A few games of every registered game, played by PlayGame with fixed seeds
// and indices, are pinned: a hash of every position, the outcome and the
// errors. A change of the seed scheme (the game's stream or the agents'),
// the rules or an agent fails here; re-pin only for a change of rules or
// agents, and say so in the commit. The pins are the games' own
// (rules.Testdata, testdata.go in each game's folder).
func TestPlayGamePinned(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.Name, func(t *testing.T) {
			cfg := g.Default()
			names := agents.Names(g.Name)
			entries := make([]agents.Entry, len(names))
			for i, n := range names {
				e, err := agents.Lookup(g.Name, n)
				if err != nil {
					t.Fatal(err)
				}
				entries[i] = e
			}
			seats := g.New(cfg).Spec().Seats
			h := fnv.New64a()
			var b [8]byte
			put := func(v uint64) { binary.LittleEndian.PutUint64(b[:], v); h.Write(b[:]) }
			var words []uint64
			for _, game := range []struct{ seed, index uint64 }{{13, 0}, {13, 5}, {99, 2}} {
				lineup := make([]int, seats)
				for s := range lineup {
					lineup[s] = (s + int(game.index)) % len(entries)
				}
				res := PlayGame(cfg, entries, lineup, game.seed, game.index, func(st rules.State) {
					words = st.AppendWords(words[:0])
					for _, w := range words {
						put(w)
					}
				})
				put(uint64(res.Steps))
				for s := 0; s < seats; s++ {
					put(math.Float64bits(res.Outcome.Score[s]))
					put(math.Float64bits(res.Outcome.Points[s]))
					put(math.Float64bits(res.Outcome.Win[s]))
					put(uint64(res.Errors[s]))
				}
			}
			got := h.Sum64()
			if td := g.Testdata; td == nil || got != td.Pins.PlayGame {
				t.Fatalf("games hash %#x, pinned %s (Testdata.Pins.PlayGame, in the game's folder)", got, pinned(td, func(p rules.Pins) uint64 { return p.PlayGame }))
			}
		})
	}
}

// pinned formats one of a game's pins, or says that it declares none.
func pinned(td *rules.Testdata, of func(rules.Pins) uint64) string {
	if td == nil {
		return "none (no rules.Game.Testdata)"
	}
	return fmt.Sprintf("%#x", of(td.Pins))
}
