package slime

import (
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/gridgym/gridgym/rules"
)

// competition is Slime's bot protocol (§5), exported bot and stand-alone
// executable.
var competition = &rules.Competition{
	Protocol: rules.ProgramRun, Limit: 100 * time.Millisecond,
	Rules:    "slime R14 (a fresh process per turn, argument P,row0,...), R15 (first line of stdout), R16 (turn_timeout 0.1 s)",
	Template: botTemplate,
	Refusals: rules.Refusals{
		Form: func([]byte) string {
			return "not four integers r1 c1 r2 c2 followed by a newline on the first line of standard output (R15): a pass"
		},
		Illegal: "not a valid move (R8: the source the player's slime; the target empty at distance 1 or 2, or the player's own at distance 1): a pass (R7)",
		Pass: func(answer []byte) string {
			if _, _, _, _, ok := ParseOutput(answer); ok {
				return "a coordinate off the board (R8): a pass (R7)"
			}
			return ""
		},
	},
	Export: &rules.Export{Source: twin, File: "slime_bot.py", Entry: "main_answer", Args: 1, Pure: true,
		Executable: "slime-bot", Runner: "github.com/gridgym/gridgym/cmd/slimebot",
		Usage: "slime-bot is the stand-alone executable: `./slime-bot 1,........,...` prints `r1 c1 r2 c2`.\n" +
			"It is the recommended entry: it answers in a few milliseconds, process start included.\n" +
			"slime_bot.py is the same bot in pure Python (standard library only, no NumPy):\n" +
			"`python3 slime_bot.py 1,........,...`. " + pythonLatency},
	Program: &rules.Program{
		Params: func(req string) (map[string]string, error) {
			v, err := ParseRequest(strings.TrimSpace(req))
			if err != nil {
				return nil, err
			}
			return map[string]string{"board_size": fmt.Sprint(v.N)}, nil
		},
		Position: func(st rules.State, req string) (int, error) {
			v, err := ParseRequest(strings.TrimSpace(req))
			if err != nil {
				return 0, err
			}
			s, ok := st.(*State)
			if !ok || s.n != v.N {
				return 0, fmt.Errorf("slime request of %d rows for a %T", v.N, st)
			}
			rows := make([]string, v.N)
			for r := range rows {
				rows[r] = string(v.Rows[r][:v.N])
			}
			s.Reset()
			if err := s.SetRows(rows...); err != nil {
				return 0, err
			}
			seat := v.Player - 1
			s.SetTurn(seat)
			return seat, nil
		},
		AppendAnswer: func(dst []byte, st rules.State, m rules.Move) ([]byte, bool) {
			r1, c1, r2, c2, ok := Coords(st.Spec().Rows, m)
			if !ok {
				return dst, false
			}
			return AppendAnswer(dst, r1, c1, r2, c2), true
		},
		Pass: "-1 -1 -1 -1\n",
	},
}

// pythonLatency is what the exported README says of the pure-Python Slime
// bot's speed. It gives no figure: the time of a fresh
// `/usr/bin/python3 slime_bot.py REQUEST` per move depends on the machine,
// its load and the network (issue 27 measured p50 52 ms on a lightly loaded
// 2-core machine with a 32x3 network, issue 52 p50 232 ms at load 8);
// export --python measures it on the exporting machine and adds the
// figures below this text.
const pythonLatency = "Speed: R16 allows 0.1 s a move, and a fresh Python process per move counts its start-up.\n" +
	"How long slime_bot.py takes depends on the machine, its load and the network: tens of ms on an\n" +
	"idle machine, over 0.1 s on a loaded one. Submit slime-bot (the executable, a few ms a move)\n" +
	"wherever the competition accepts an executable."

// botTemplate is the starting bot of `gridgym new-bot --game` this game.
//
//go:embed bot_template.py
var botTemplate []byte

// twin is the exported bot in pure Python (standard library only: R16
// counts its start-up), with its own network in place of
// export/py/common.py's.
//
//go:embed slime.py
var twin []byte
