package env_test

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"testing"
)

// Every game's trajectory under StepRandom is pinned for a fixed seed, across
// a Reset with another seed: a hash of the observations, rewards and ends.
// A change of the envs' seed streams (game events: Config.Seed and Reset's
// seed; random actions: Config.Seed), of the rules or of the encoder fails
// here; re-pin only for a change of rules or encoder, and say so.
func TestStepRandomPinned(t *testing.T) {
	want := map[string]uint64{
		"bovine-borders": 0x84a8e07a5d6f5501,
		"nuggets":        0xcd5e77822c7eb1dc,
		"rectangle":      0x784301fd7b9ecfb3,
		"rising-tide":    0x91131ee40c8003a1,
		"slime":          0xb65b6d2cdad9d2c1,
	}
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
			if w, ok := want[g.Name]; !ok || got != w {
				t.Fatalf("trajectory hash %#x, pinned %#x", got, w)
			}
		})
	}
}
