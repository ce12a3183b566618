package bovine

import "github.com/gridgym/gridgym/rules"

// testdata is what the generic tests hold the game to (rules.Testdata): the
// pinned tests' hashes of the default config, the new-bot tournament and
// the measured preset; its network fixture is testdata/policy.safetensors.
// No parameter shortens the game (10000 steps): the new-bot tournament is
// one game, about 15 s, skipped with -short.
var testdata = &rules.Testdata{
	Pins: rules.Pins{
		StepRandom:       0x84a8e07a5d6f5501,
		PlayGame:         0x321e358bd8138cd0,
		SelfplayRows:     0xea0262bb17013a69,
		SelfplayRowCount: 3600,
	},
	NewBot:         rules.NewBotCase{Games: 1, Slow: true},
	MeasuredPreset: "strong",
}
