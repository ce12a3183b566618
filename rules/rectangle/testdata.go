package rectangle

import "github.com/gridgym/gridgym/rules"

// testdata is what the generic tests hold the game to (rules.Testdata): the
// pinned tests' hashes of the default config, the new-bot tournament and
// the measured preset; its network fixture is testdata/policy.safetensors.
// The new-bot tournament keeps 4 robots, the template's ROBOTS (the
// placement cannot see b, R19).
var testdata = &rules.Testdata{
	Pins: rules.Pins{
		StepRandom:       0x784301fd7b9ecfb3,
		PlayGame:         0xeb0d10040ea516b2, // re-pinned 2026-11-30: the mason bot joined the registry (agents.Names)
		SelfplayRows:     0xc62de85a679b8398, // re-pinned 2026-11-30: the mason bot joined the registry
		SelfplayRowCount: 3600,
	},
	NewBot:         rules.NewBotCase{Params: []string{"n=8", "max_moves=40", "idle_limit=20"}, Games: 2},
	MeasuredPreset: "mason",
}
