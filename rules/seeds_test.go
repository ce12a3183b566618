package rules

import "testing"

// Each named stream is the Derive(seed, key) its table row in seeds.go
// says, and the streams one program uses differ from each other
// (GameStream(seed, i) is EnvStream(seed, 2i): tournaments and envs are
// separate runs).
func TestSeedStreams(t *testing.T) {
	const seed uint64 = 0x1234_5678_9abc_def0
	golden := uint64(0x9e3779b97f4a7c15)
	for _, c := range []struct {
		name      string
		got, want *RNG
	}{
		{"EnvStream", EnvStream(seed, 3), Derive(seed, 3)},
		{"EnvActionStream", EnvActionStream(seed, 3), Derive(^seed, 3)},
		{"SelfplayAgentStream", SelfplayAgentStream(seed, 2, 5, 1), Derive(seed^0x5eed5eed5eed5eed, 2<<32|5<<3|1)},
		{"GameStream", GameStream(seed, 4), Derive(seed, 8)},
		{"SeatStream", SeatStream(seed, 4, 2), Derive(seed^3*golden, 9)},
	} {
		for i := 0; i < 4; i++ {
			if g, w := c.got.Uint64(), c.want.Uint64(); g != w {
				t.Fatalf("%s: draw %d = %#x, want %#x", c.name, i, g, w)
			}
		}
	}
	seen := map[uint64]string{}
	for name, r := range map[string]*RNG{
		"env": EnvStream(seed, 0), "action": EnvActionStream(seed, 0), "agent": SelfplayAgentStream(seed, 0, 0, 0),
		"seat": SeatStream(seed, 0, 0), "seat 1": SeatStream(seed, 0, 1), "seat 1 of game 1": SeatStream(seed, 1, 1),
	} {
		x := r.Uint64()
		if other, ok := seen[x]; ok {
			t.Fatalf("streams %s and %s start alike", name, other)
		}
		seen[x] = name
	}
}
