package risingtide

import "github.com/gridgym/gridgym/rules"

// testdata is what the generic tests hold the game to (rules.Testdata): the
// pinned tests' hashes of the default config, the new-bot tournament and
// the measured preset; its network fixture is testdata/policy.safetensors.
var testdata = &rules.Testdata{
	Pins: rules.Pins{
		StepRandom:       0x91131ee40c8003a1,
		PlayGame:         0x2c0740e819eccc8f, // lineups drawn from agents.Names: sapper_seoul, then siege_sofia joined them
		SelfplayRows:     0x4ec8ed3acdcdd460,
		SelfplayRowCount: 3600,
	},
	NewBot:         rules.NewBotCase{Games: 2},
	MeasuredPreset: "strong",
}
