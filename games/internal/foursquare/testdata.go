package foursquare

import "github.com/gridgym/gridgym/rules"

// testdata is what the generic tests hold the test game to
// (rules.Testdata), as every game declares it: the pinned tests' hashes of
// the default config and the new-bot tournament (a 16-move game needs no
// shortening); no preset carries a measured note. Its network fixture,
// testdata/policy.safetensors, is 20 iterations of train/default.yaml
// (train.Run with Iterations 20).
var testdata = &rules.Testdata{
	Pins: rules.Pins{
		StepRandom:       0xda9c0084d12a77a0,
		PlayGame:         0x2e879d564ebe36c3,
		SelfplayRows:     0xe196c8e437a21ce2,
		SelfplayRowCount: 1688,
	},
	NewBot: rules.NewBotCase{Games: 2},
}
