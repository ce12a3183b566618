package env_test

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// Every game's trajectory under StepRandom is pinned for a fixed seed, across
// a Reset with another seed: a hash of the observations, rewards and ends.
// A change of the envs' seed streams (game events: Config.Seed and Reset's
// seed; random actions: Config.Seed), of the rules or of the encoder fails
// here; re-pin only for a change of rules or encoder, and say so. The pins
// are the games' own (rules.Testdata, testdata.go in each game's folder).
func TestStepRandomPinned(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		t.Run(g.Name, func(t *testing.T) {
			v := newVec(t, g, 3, 1)
			h := fnv.New64a()
			var b [8]byte
			put := func(x uint64) { binary.LittleEndian.PutUint64(b[:], x); h.Write(b[:]) }
			record := func() {
				h.Write(v.Obs)
				for _, r := range v.Reward {
					put(uint64(math.Float32bits(r)))
				}
				for i := range v.Terminated {
					if v.Terminated[i] {
						put(uint64(i) + 1)
					}
				}
			}
			for i := 0; i < 80; i++ {
				v.StepRandom()
				record()
			}
			v.Reset(21)
			record()
			for i := 0; i < 40; i++ {
				v.StepRandom()
				record()
			}
			got := h.Sum64()
			if g.Testdata == nil || got != g.Testdata.Pins.StepRandom {
				t.Fatalf("trajectory hash %#x, pinned %v (Testdata.Pins.StepRandom, in the game's folder)", got, pin(g, func(p rules.Pins) uint64 { return p.StepRandom }))
			}
		})
	}
}

// pin formats the value of one of g's pins, or says that g declares none.
func pin(g *rules.Game, of func(rules.Pins) uint64) string {
	if g.Testdata == nil {
		return "none (no rules.Game.Testdata)"
	}
	return fmt.Sprintf("%#x", of(g.Testdata.Pins))
}
