package viewer

import (
	"fmt"
	"math"
	"sort"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/rules"
)

// Options configures Build.
type Options struct {
	// Policy adds, for every seat played by a trained network (a weights
	// file or run folder, as tournament bots are named), the network's view
	// of each position it moved from: its top TopK moves with their
	// probabilities and its value (Data.Policies), which the page shows as a
	// heat map over the board and a list.
	Policy bool
	// TopK is the number of moves listed per position (0: 5).
	TopK int
	// Specs maps a bot's name in the replay (a tournament shows bots by
	// label, agents.Labels) to the spec it was played from; a name not in
	// it is its own spec.
	Specs map[string]string
}

// Policy is one network seat's view of the game: at each position it was
// asked to move from, its most probable moves and its value.
type Policy struct {
	Seat  int    `json:"seat"`
	Bot   string `json:"bot"`
	Heads int    `json:"heads"` // action heads (Rectangle: one per robot)
	// Top holds, for each step 1..Steps (played from the position after
	// step−1), the number k of moves listed (0: the seat was not asked),
	// then k triples (text, permille, cell): the move's index in
	// Data.MoveTexts, its probability in thousandths, and 1 + the board cell
	// it leads to (its last cell argument; 0: none, or several heads)
	// (Encode). With several heads a move is the greedy joint move or one
	// that changes a single head's action, its probability the product of
	// the heads'.
	Top string `json:"top"`
	// Values holds per step 0 where the seat was not asked, else 1 +
	// round(4095·(v−ValueLo)/(ValueHi−ValueLo)), v the network's value
	// (Encode).
	Values  string  `json:"values"`
	ValueLo float64 `json:"valueLo"`
	ValueHi float64 `json:"valueHi"`
}

// netSeat is a seat played by a network, and what evaluating it needs.
type netSeat struct {
	seat    int
	net     *neural.Net
	enc     rules.Encoder
	w       *neural.Workspace
	planes  []uint8
	scalars []float32
	mask    []uint64
	acts    []int32
	top     Encoder
	values  []float64 // NaN: not asked
}

// networkSeats loads the network of every seat whose bot is a trained
// network (a weights file or run folder, with or without a label and play
// settings); a weights spec that does not load is an error.
func networkSeats(r *eval.Replay, specs map[string]string) ([]*netSeat, error) {
	g := r.Config.Game()
	var out []*netSeat
	for s, bot := range r.Bots {
		spec := bot
		if sp, ok := specs[bot]; ok {
			spec = sp
		}
		_, rest := agents.SplitLabel(spec)
		base, _, err := neural.SplitPlaySpec(rest)
		if err != nil {
			continue
		}
		if _, ok, _ := neural.WeightsPath(base); !ok {
			continue // a registered or hosted bot
		}
		e, err := agents.Lookup(g.Name, spec)
		if err != nil {
			return nil, fmt.Errorf("viewer: seat %d (%s): %w (a replay names a network as the tournament showed it, a path relative to the folder it ran in)", s, bot, err)
		}
		na, ok := e.New().(*neural.Agent)
		if !ok {
			continue
		}
		sp := na.Enc.Space()
		out = append(out, &netSeat{seat: s, net: na.Net, enc: na.Enc, w: neural.NewWorkspace(na.Net.Arch, 1),
			planes: make([]uint8, sp.ObsSize()), scalars: make([]float32, sp.Scalars),
			mask: make([]uint64, sp.MaskWords()), acts: make([]int32, sp.Heads)})
	}
	return out, nil
}

// joint is a candidate move of a network seat: one action per head.
type joint struct {
	acts []int32
	p    float64
}

// observe evaluates the network at st and appends its top k moves to the
// seat's Top stream.
func (ns *netSeat) observe(st rules.State, v rules.Viewer, k, cells int, text func(string) int) {
	if !st.Active(ns.seat) {
		ns.top.Put(0)
		ns.values = append(ns.values, math.NaN())
		return
	}
	a := ns.net.Arch
	ns.enc.Observe(st, ns.seat, ns.planes, ns.scalars)
	ns.enc.Mask(st, ns.seat, ns.mask)
	neural.FillInput(a, ns.w.Input, ns.planes, ns.scalars)
	ns.net.Forward(ns.w, 1, ns.mask, len(ns.mask))
	ns.values = append(ns.values, float64(ns.w.Value[0]))
	// Per head: the actions by probability.
	probs := make([][]float64, a.Heads)
	order := make([][]int32, a.Heads)
	for h := range probs {
		l := ns.w.Logits[h*a.Actions : (h+1)*a.Actions]
		probs[h] = neural.Softmax(nil, l)
		for i, p := range probs[h] {
			if p > 0 {
				order[h] = append(order[h], int32(i))
			}
		}
		sort.SliceStable(order[h], func(i, j int) bool { return probs[h][order[h][i]] > probs[h][order[h][j]] })
	}
	var cands []joint
	if a.Heads == 1 {
		for _, act := range order[0][:min(k, len(order[0]))] {
			cands = append(cands, joint{[]int32{act}, probs[0][act]})
		}
	} else { // the greedy joint move, then single-head changes of it
		best := make([]int32, a.Heads)
		pb := 1.0
		for h := range best {
			if len(order[h]) > 0 {
				best[h] = order[h][0]
				pb *= probs[h][best[h]]
			}
		}
		cands = append(cands, joint{best, pb})
		for h := range best {
			for _, act := range order[h][min(1, len(order[h])):min(k, len(order[h]))] {
				c := append([]int32(nil), best...)
				c[h] = act
				cands = append(cands, joint{c, pb / probs[h][best[h]] * probs[h][act]})
			}
		}
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].p > cands[j].p })
		cands = cands[:min(k, len(cands))]
	}
	ns.top.Put(len(cands))
	for _, c := range cands {
		copy(ns.acts, c.acts)
		m := ns.enc.Decode(st, ns.seat, ns.acts)
		cell := 0
		if a.Heads == 1 && m.N > 0 && int(m.N) <= len(m.Arg) {
			if x := int(m.Arg[m.N-1]); x >= 0 && x < cells {
				cell = 1 + x
			}
		}
		ns.top.Put(text(v.MoveText(ns.seat, m)))
		ns.top.Put(int(math.Round(1000 * c.p)))
		ns.top.Put(cell)
	}
}

// policy finishes the seat's Policy.
func (ns *netSeat) policy(bot string) Policy {
	p := Policy{Seat: ns.seat, Bot: bot, Heads: ns.net.Arch.Heads, Top: ns.top.String()}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range ns.values {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	if hi == lo {
		hi = lo + 1
	}
	var e Encoder
	for _, v := range ns.values {
		if math.IsNaN(v) {
			e.Put(0)
		} else {
			e.Put(1 + int(math.Round(4095*(v-lo)/(hi-lo))))
		}
	}
	p.Values, p.ValueLo, p.ValueHi = e.String(), lo, hi
	return p
}
