package slime

import "github.com/gridgym/gridgym/rules"

// testdata is what the generic tests hold the game to (rules.Testdata): the
// pinned tests' hashes of the default config, the new-bot tournament and
// the measured preset; its network fixture is testdata/policy.safetensors.
var testdata = &rules.Testdata{
	Pins: rules.Pins{
		StepRandom:       0xb65b6d2cdad9d2c1,
		PlayGame:         0x6f72d92ad90add1,
		SelfplayRows:     0x1d29ec2bea604b8,
		SelfplayRowCount: 2896,
	},
	NewBot:         rules.NewBotCase{Params: []string{"board_size=6", "max_turns=40"}, Games: 2},
	MeasuredPreset: "exit",
}
