package rules

// Testdata is what the generic test suites hold a game to beyond its
// registration, declared in the game's own folder (testdata.go, on
// Game.Testdata) so that adding a game touches no generic test: the hashes
// of the pinned tests, the length of its new-bot tournament and the preset
// its measured note names. Its network fixture is a file beside it, found
// by convention: testdata/policy.safetensors in the game's folder
// (Game.Package; rulestest.Policy). A game without Testdata fails those
// tests, each naming the value to declare.
type Testdata struct {
	// Pins are the pinned tests' hashes of the game's default config. A
	// change of the rules, the encoder or a bot changes them: re-pin then,
	// and only then, saying why in the commit.
	Pins Pins
	// NewBot is the short tournament cmd/gridgym's TestNewBotEveryGame
	// plays between the game's new-bot template and its random bot.
	NewBot NewBotCase
	// MeasuredPreset is the preset whose "# measured:" note (configs.
	// PresetNote) shows the game meeting issue 22, which configs'
	// TestEveryGameNamesItsMeasuredPreset checks; "" for a game with no
	// such note (the test game).
	MeasuredPreset string
}

// Pins are the hashes the generic pinned tests compare a game's default
// config with (each test says what it hashes).
type Pins struct {
	// StepRandom is env's TestStepRandomPinned: the observations, rewards
	// and ends of a vectorised env under StepRandom across a Reset.
	StepRandom uint64
	// PlayGame is eval's TestPlayGamePinned: every position, outcome and
	// error count of three games of the game's bots.
	PlayGame uint64
	// SelfplayRows and SelfplayRowCount are selfplay's TestRunPinnedRows:
	// every field of the rows a seeded self-play run writes, and their
	// number.
	SelfplayRows     uint64
	SelfplayRowCount int
}

// NewBotCase is the short tournament `gridgym new-bot`'s template plays in
// TestNewBotEveryGame: parameters that shorten the game where it has them,
// the number of games, and whether it is too slow for -short.
type NewBotCase struct {
	Params []string // name=value, as -p takes them
	Games  int      // games of the tournament (0: 2)
	Slow   bool     // skipped with -short
}
