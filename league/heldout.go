package league

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/exploit"
	"github.com/gridgym/gridgym/train"
)

// CheckNoHeldOut refuses a training config that names a held-out bot of
// its game (agents.HeldOut, issue 54's test set) in any bot field —
// opponents, eval baselines, the warm start's teacher and opponents,
// Expert Iteration's expert and opponents (exploit.BotsNamed) — by name,
// behind a LABEL=, or inside a search spec. A weights file or run folder
// (the league's own networks) is not a bot name and is not read. The
// league checks its base config and every config it derives with it.
func CheckNoHeldOut(cfg train.Config) error {
	held := agents.HeldOut(cfg.Game)
	if len(held) == 0 {
		return nil
	}
	for _, spec := range exploit.BotsNamed(cfg, "") {
		_, rest := agents.SplitLabel(spec)
		if _, isNet, _ := neural.WeightsPath(rest); isNet {
			continue
		}
		for _, tok := range botTokens(rest) {
			if slices.Contains(held, tok) {
				return fmt.Errorf("%q names the held-out bot %s: held-out bots are evaluated against, never trained against", spec, tok)
			}
		}
	}
	return nil
}

// botTokens splits a bot spec into its name-shaped words (search:A@64:roll=B
// → search, A, 64, roll, B).
func botTokens(spec string) []string {
	return strings.FieldsFunc(spec, func(r rune) bool {
		return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
}
