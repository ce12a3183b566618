package nuggets

import "github.com/gridgym/gridgym/rules"

// testdata is what the generic tests hold the game to (rules.Testdata): the
// pinned tests' hashes of the default config, the new-bot tournament and
// the measured preset; its network fixture is testdata/policy.safetensors.
var testdata = &rules.Testdata{
	Pins: rules.Pins{
		StepRandom:       0xcd5e77822c7eb1dc,
		PlayGame:         0xe8754f1751e7e8b3,
		SelfplayRows:     0x603950f36883d5a9,
		SelfplayRowCount: 3600,
	},
	NewBot:         rules.NewBotCase{Params: []string{"setup_moves=10", "build_moves=20"}, Games: 2},
	MeasuredPreset: "harvest",
}
