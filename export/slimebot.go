package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

// SlimeBot answers Slime requests (R14: `P,row0,…`) with a network, as the
// exported executable does: the board becomes a position with player P to
// move, the network picks its most probable legal action, and the answer is
// the line `r1 c1 r2 c2` (R17). A request it cannot read, or a position
// without a legal move, gets "-1 -1 -1 -1", which the controller reads as
// a pass (R15: coordinates off the board).
type SlimeBot struct {
	net    *neural.Net
	agents map[int]*neural.Agent // by board size
	states map[int]*slime.State
}

// NewSlimeBot returns the bot of a Slime network.
func NewSlimeBot(net *neural.Net) (*SlimeBot, error) {
	if net.Arch.Game != "slime" {
		return nil, fmt.Errorf("a network for %s, not slime", net.Arch.Game)
	}
	return &SlimeBot{net: net, agents: map[int]*neural.Agent{}, states: map[int]*slime.State{}}, nil
}

// Pass is the answer for no move.
const slimePass = "-1 -1 -1 -1\n"

// Answer returns the bot's output line for one request.
func (b *SlimeBot) Answer(arg string) string {
	v, err := slime.ParseRequest(strings.TrimSpace(arg))
	if err != nil {
		return slimePass
	}
	ag, st := b.agents[v.N], b.states[v.N]
	if ag == nil {
		g, _ := rules.Lookup("slime")
		cfg, err := g.Configure(map[string]string{"board_size": fmt.Sprint(v.N)})
		if err != nil {
			return slimePass
		}
		if ag, err = neural.NewAgent(b.net, cfg, false); err != nil {
			return slimePass // a network for another board size
		}
		st = g.New(cfg).(*slime.State)
		b.agents[v.N], b.states[v.N] = ag, st
	}
	rows := make([]string, v.N)
	for r := range rows {
		rows[r] = string(v.Rows[r][:v.N])
	}
	st.Reset()
	if st.SetRows(rows...) != nil {
		return slimePass
	}
	seat := v.Player - 1
	st.SetTurn(seat)
	ag.Reset(st, seat, nil)
	r1, c1, r2, c2, ok := slime.Coords(v.N, ag.Act(st))
	if !ok {
		return slimePass
	}
	return string(slime.AppendAnswer(nil, r1, c1, r2, c2))
}

// RunEmbedded is the exported executable's main: if the running binary
// carries weights (AppendPayload), it answers the one request in args as the
// Slime bot, writes the line to stdout and reports handled = true. A plain
// gridgym binary returns handled = false. Every failure still answers, with
// the pass line (and a note on stderr), as a competition bot must.
func RunEmbedded(args []string, stdout, stderr io.Writer) (handled bool) {
	w, err := EmbeddedWeights()
	if w == nil && err == nil {
		return false
	}
	answer := slimePass
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "slime-bot: %v\n", r)
			answer = slimePass
		}
		io.WriteString(stdout, answer)
	}()
	if err != nil {
		fmt.Fprintf(stderr, "slime-bot: %v\n", err)
		return true
	}
	net, _, err := neural.Decode(w)
	if err == nil {
		var b *SlimeBot
		if b, err = NewSlimeBot(net); err == nil {
			arg := ""
			if len(args) > 0 {
				arg = args[0]
			}
			answer = b.Answer(arg)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "slime-bot: %v\n", err)
	}
	return true
}
