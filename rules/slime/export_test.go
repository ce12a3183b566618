package slime_test

import (
	"encoding/json"
	"strings"
	"testing"

	_ "github.com/gridgym/gridgym/agents/slimebots" // the default config names its bots
	"github.com/gridgym/gridgym/export"
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

// malformed are arguments that are no Slime request (R14: `P,row0,…`): no
// argument, a player out of 1..4, rows too short, a foreign character, no
// rows, and positions where the player to move has no move (a board full
// of player 1's slime, player 2 without slime).
var malformed = []string{"", "5,....,....,....,....", "1,...,...,...", "1,..x.,....,....,....",
	strings.Repeat("1,", 40), "1,1111,1111,1111,1111", "2,1111,1111,1111,1111",
	"1,........,........,........,........,........,........,........,........",
	"4,2222....,........,........,........,........,........,........,.......3"}

// The exported executable's bot (export.ProgramBot, what slime-bot runs)
// answers every malformed argument with the pass line (R15), and the
// exported Python bot answers them with the same line, never raising; a
// non-string argument does not make it raise either.
func TestExportedBotsPassMalformed(t *testing.T) {
	net, _, _ := exporttest.RandomNet(t, slime.Name, 3)
	b, err := export.NewProgramBot(net)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.Lookup(slime.Name)
	pass := g.Competition.Program.Pass
	for _, arg := range malformed {
		if got := b.Answer(arg); got != pass {
			t.Errorf("ProgramBot %q: %q, want the pass line %q", arg, got, pass)
		}
	}
	exporttest.NeedPython(t, slime.Name)
	_, bot := exporttest.Bot(t, slime.Name, 1, export.Play{})
	var reqs [][]byte
	for _, arg := range malformed {
		r, _ := json.Marshal([]string{arg})
		reqs = append(reqs, r)
	}
	reqs = append(reqs, []byte(`[7]`))
	for i, r := range exporttest.Run(t, slime.Name, bot, reqs) {
		if r.Error != "" {
			t.Errorf("request %s: the bot raised %s", reqs[i], r.Error)
		} else if i < len(malformed) && string(exporttest.Answer(g, r.Answer)) != pass {
			t.Errorf("request %s: the bot answered %s, want the pass line %q", reqs[i], r.Answer, pass)
		}
	}
}
