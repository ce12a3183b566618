package search

import (
	"math"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

// cand is one candidate move of one seat at one node, with its statistics.
type cand struct {
	m rules.Move
	p float64 // prior probability
	n int32   // visits
	w float64 // summed values for the seat
}

// node is a sequence of joint moves from the root (open loop). Seat s's
// candidates are cands[cs[s] : cs[s]+cn[s]]; cn[s] = 0 for a seat that is not
// active. Children are a singly linked list keyed by the joint candidate
// indices in mixed radix (key).
type node struct {
	cs          [rules.MaxSeats]int32
	cn          [rules.MaxSeats]int32
	child, next int32 // first child, next sibling; -1 for none
	key         uint64
	visits      int32
}

// step is one level of a simulation's path: the node and the candidate index
// each active seat chose there.
type step struct {
	node int32
	idx  [rules.MaxSeats]int32
}

// tree is one independent search tree with every buffer it needs, grown as
// the simulations need it (up to the budget's size) and reused by every
// simulation and move after that.
type tree struct {
	p     *Params
	seats int
	seat  int // the searching agent's seat
	seq   bool
	rng   rules.RNG
	keyed keyedRNG           // random candidates with Params.Key
	root  rules.State        // the position searched
	sim   rules.State        // the simulation's position
	props proposers          // the prior and the alternatives for every seat
	prop  []rules.Move       // their moves at a node, for candidates
	roll  []agents.Agent     // nil entries: RandomMove
	eval  agents.Evaluator   // scores unfinished leaves (Params.Value), nil for none
	fc    rules.Forecaster   // forecasts unfinished leaves (Params.Forecast), nil for none
	ks    rules.KeyedStepper // steps the simulation in its world (Params.CRN), nil for none
	seed  uint64             // the search's seed, from which the worlds are named
	world uint64             // the simulation's world key (Params.CRN)
	nodes []node
	cands []cand
	// maxNodes and maxCands are the pools' sizes for the budget: a node is
	// expanded only while both have room. The slices start smaller and grow
	// to them, so a search stopped early by Params.Limit never reserves a
	// huge budget's pools.
	maxNodes, maxCands int
	path               []step
	moves              []rules.Move
	legal              []rules.Move
	out                *rules.Outcome
	val                [rules.MaxSeats]float64
	sims               int
}

// newTree makes a tree for positions like st, sized for budget simulations.
func newTree(p *Params, st rules.State, prior []agents.Factory, roll, value agents.Factory, budget int) *tree {
	spec := st.Spec()
	t := &tree{p: p, seats: spec.Seats, seq: spec.Sequential,
		root: st.Clone(), sim: st.Clone(), out: rules.NewOutcome(spec.Seats),
		moves: make([]rules.Move, spec.Seats), path: make([]step, 0, 64),
		legal: make([]rules.Move, 0, 1024)}
	t.props = newProposers(spec.Seats, prior)
	t.roll = make([]agents.Agent, spec.Seats)
	for s := range t.roll {
		if roll != nil {
			t.roll[s] = roll()
		}
	}
	if value != nil {
		t.eval = value().(agents.Evaluator) // Params.Factory checked it
	}
	if p.Forecast {
		t.fc = t.sim.(rules.Forecaster) // Params.Factory checked the game
	}
	if p.CRN {
		t.ks = t.sim.(rules.KeyedStepper) // Params.Factory checked the game
	}
	t.grow(budget)
	return t
}

// reserve is the candidate room a new node needs at most.
func (t *tree) reserve() int {
	if t.seq {
		return maxSeqCands
	}
	return t.seats * (t.p.Extra + 2 + len(t.p.Alt))
}

// grow sizes a new tree's pools for budget simulations (one node each).
// They start at most firstNodes nodes long; room makes them larger as needed.
func (t *tree) grow(budget int) {
	n := budget + 1
	// Candidates per node: a node's reserve, and as much to start with.
	// Sequential nodes rarely use all maxSeqCands: 96 are kept for each (a
	// node that does not fit is not expanded; the simulation rolls out from
	// its parent), and 16 to start with (Slime's use about 8: ~9,000 of
	// 115,000 in 1,200 simulations).
	per, perFirst := t.reserve(), t.reserve()
	if t.seq {
		per, perFirst = 96, 16
	}
	root := 2 * maxSeqCands * t.seats // the root's candidates
	first := min(n, firstNodes)
	t.maxNodes, t.maxCands = n, n*per+root
	t.nodes = make([]node, 0, first)
	t.cands = make([]cand, 0, min(t.maxCands, first*perFirst+root))
}

// firstNodes is the node pool's first size; pools double from there.
const firstNodes = 4096

// room reports whether a new node fits in the budget's pools, growing the
// slices (doubling, up to maxNodes and maxCands) when it fits but they are
// full.
func (t *tree) room() bool {
	need := len(t.cands) + t.reserve()
	if len(t.nodes) >= t.maxNodes || need > t.maxCands {
		return false
	}
	if len(t.nodes) == cap(t.nodes) {
		t.nodes = append(make([]node, 0, min(2*cap(t.nodes)+1, t.maxNodes)), t.nodes...)
	}
	if need > cap(t.cands) {
		t.cands = append(make([]cand, 0, min(max(2*cap(t.cands), need), t.maxCands)), t.cands...)
	}
	return true
}

// maxSeqCands bounds the candidates of the seat to move in a sequential
// game; beyond it the candidates are sampled as in simultaneous games.
const maxSeqCands = 512

// reset starts a new search from st for seat with the given root candidates
// (per seat, shared by every tree so their statistics add up) and seed.
func (t *tree) reset(st rules.State, seat int, rootCands [][]cand, seed uint64) {
	t.seat = seat
	t.root.CopyFrom(st)
	t.rng.Seed(seed)
	t.seed = seed
	t.nodes = t.nodes[:0]
	t.cands = t.cands[:0]
	t.sims = 0
	// The tree's bots are reset once per search, not per simulation: a bot
	// with memory (a plan) keeps it from one simulation to the next and
	// checks it against each position, as it does in a real game.
	t.props.reset(st, &t.rng)
	for s := 0; s < t.seats; s++ {
		if t.roll[s] != nil {
			t.roll[s].Reset(st, s, &t.rng)
		}
	}
	n := t.newNode(0)
	for s, cs := range rootCands {
		nd := &t.nodes[n]
		nd.cs[s] = int32(len(t.cands))
		nd.cn[s] = int32(len(cs))
		for _, c := range cs {
			t.cands = append(t.cands, cand{m: c.m, p: c.p})
		}
	}
}

func (t *tree) newNode(key uint64) int32 {
	t.nodes = append(t.nodes, node{child: -1, next: -1, key: key})
	return int32(len(t.nodes) - 1)
}

// simulate runs one simulation: descend, expand one node, roll out, back up.
func (t *tree) simulate() {
	t.sims++
	t.sim.CopyFrom(t.root)
	t.path = t.path[:0]
	cur := int32(0)
	for {
		nd := &t.nodes[cur]
		st := step{node: cur}
		key, radix := uint64(0), uint64(1)
		for s := 0; s < t.seats; s++ {
			t.moves[s] = rules.Move{}
			if nd.cn[s] == 0 {
				continue
			}
			i := t.pick(nd, s)
			st.idx[s] = i
			t.moves[s] = t.cands[nd.cs[s]+i].m
			key += uint64(i) * radix
			radix *= uint64(nd.cn[s])
			if cur == 0 && s == t.seat && t.ks != nil {
				// The world: this root candidate's visits so far.
				t.world = rules.Mix64(t.seed ^ rules.Mix64(uint64(t.cands[nd.cs[s]+i].n)+1))
				t.rng.Seed(t.world)
			}
		}
		t.path = append(t.path, st)
		t.step()
		if t.sim.Done() {
			break
		}
		child := nd.child
		for child >= 0 && t.nodes[child].key != key {
			child = t.nodes[child].next
		}
		if child >= 0 {
			cur = child
			continue
		}
		// Expand: one new node per simulation while the pools have room.
		if t.room() {
			c := t.newNode(key)
			t.nodes[c].next = t.nodes[cur].child
			t.nodes[cur].child = c
			t.fillCands(c)
		}
		break
	}
	t.rollout()
	t.backup()
}

// pick chooses seat s's candidate at nd by PUCT.
func (t *tree) pick(nd *node, s int) int32 {
	cs := t.cands[nd.cs[s] : nd.cs[s]+nd.cn[s]]
	if len(cs) == 1 {
		return 0
	}
	var n, w float64
	for i := range cs {
		n += float64(cs[i].n)
		w += cs[i].w
	}
	fpu := 0.5
	if n > 0 {
		fpu = w / n
	}
	sq := t.p.C * math.Sqrt(n+1)
	best, bi := math.Inf(-1), 0
	for i := range cs {
		q := fpu
		if cs[i].n > 0 {
			q = cs[i].w / float64(cs[i].n)
		}
		if u := q + sq*cs[i].p/float64(1+cs[i].n); u > best {
			best, bi = u, i
		}
	}
	return int32(bi)
}

// fillCands gives node c its candidates for the simulation's position.
func (t *tree) fillCands(c int32) {
	for s := 0; s < t.seats; s++ {
		if !t.sim.Active(s) {
			continue
		}
		start := int32(len(t.cands))
		only := t.p.Model && s != t.seat
		t.prop = t.props.propose(t.prop[:0], s, t.sim, only, t.p.Top)
		t.cands, t.legal = candidates(t.cands, t.legal, t.sim, s, t.prop, t.seq, only, t.p, &t.rng, &t.keyed)
		nd := &t.nodes[c]
		nd.cs[s] = start
		nd.cn[s] = int32(len(t.cands)) - start
	}
}

// candidates appends seat s's candidate moves at st to dst: the prior's move
// prop[0] alone if only (a modelled seat, Params.Model), every legal move in
// a sequential game (when there are at most maxSeqCands), otherwise the
// proposers' moves prop (the prior's, or its p.Top best, then Params.Alt's),
// Pass and p.Extra
// distinct random legal moves, drawn from rng or, with p.Key, from kr keyed
// on the position. The prior's move comes first and carries mass p.Mass; the
// rest share the remainder.
func candidates(dst []cand, legal []rules.Move, st rules.State, s int, prop []rules.Move, seq, only bool, p *Params, rng *rules.RNG, kr *keyedRNG) ([]cand, []rules.Move) {
	start := len(dst)
	dst = append(dst, cand{m: prop[0]})
	if only {
		dst[start].p = 1
		return dst, legal
	}
	add := func(m rules.Move) {
		for i := start; i < len(dst); i++ {
			if dst[i].m == m {
				return
			}
		}
		dst = append(dst, cand{m: m})
	}
	sampled := true
	if seq {
		legal = st.LegalMoves(s, legal[:0])
		if len(legal) <= maxSeqCands {
			sampled = false
			for _, m := range legal {
				add(m)
			}
		}
	}
	if sampled {
		for _, m := range prop[1:] {
			add(m)
		}
		add(rules.Move{})
		if p.Key != 0 && p.Extra > 0 {
			rng = kr.at(st, p.Key)
		}
		for tries := 0; tries < 2*p.Extra && len(dst)-start < p.Extra+2; tries++ {
			add(st.RandomMove(s, rng))
		}
	}
	k := len(dst) - start
	if k == 1 {
		dst[start].p = 1
		return dst, legal
	}
	rest := (1 - p.Mass) / float64(k)
	for i := start; i < len(dst); i++ {
		dst[i].p = rest
	}
	dst[start].p += p.Mass
	return dst, legal
}

// keyedRNG draws the random candidates of Params.Key: a generator reseeded
// for each position, and the scratch words of the position's digest.
type keyedRNG struct {
	rng   rules.RNG
	words []uint64
}

// at seeds the generator for st with key and returns it.
func (k *keyedRNG) at(st rules.State, key uint64) *rules.RNG {
	var h uint64
	h, k.words = rules.Hash(st, k.words)
	k.rng.Seed(rules.Mix64(h ^ rules.Mix64(key)))
	return &k.rng
}

// rollout plays up to Depth steps from the simulation's position with the
// rollout policy and sets t.val from Value on the outcome, or, where the game
// goes on, on its forecast (Params.Forecast) or from the evaluator that
// Params.Value names.
func (t *tree) rollout() {
	if t.p.Depth > 0 && !t.sim.Done() {
		for d := 0; d < t.p.Depth && !t.sim.Done(); d++ {
			for s := 0; s < t.seats; s++ {
				t.moves[s] = rules.Move{}
				if !t.sim.Active(s) {
					continue
				}
				if t.roll[s] == nil {
					t.moves[s] = t.sim.RandomMove(s, &t.rng)
				} else {
					t.moves[s], _ = agents.SafeAct(t.roll[s], t.sim)
				}
			}
			t.step()
		}
	}
	if t.eval != nil && !t.sim.Done() {
		for s := 0; s < t.seats; s++ {
			t.val[s] = 0.5 // a modelled seat's one candidate needs no value
			if !t.p.Model || s == t.seat {
				t.val[s] = (1 + min(1, max(-1, t.eval.Evaluate(t.sim, s)))) / 2
			}
		}
		return
	}
	if t.fc != nil && !t.sim.Done() {
		t.fc.Forecast(t.out)
	} else {
		t.sim.Outcome(t.out)
	}
	Value(t.out, t.val[:t.seats])
}

// step plays t.moves on the simulation's position: in its world with
// Params.CRN, otherwise with the tree's generator.
func (t *tree) step() {
	if t.ks != nil {
		t.ks.StepKeyed(t.moves, t.world)
		return
	}
	t.sim.Step(t.moves, &t.rng)
}

// backup adds the simulation's values along its path.
func (t *tree) backup() {
	for _, st := range t.path {
		nd := &t.nodes[st.node]
		nd.visits++
		for s := 0; s < t.seats; s++ {
			if nd.cn[s] == 0 {
				continue
			}
			c := &t.cands[nd.cs[s]+st.idx[s]]
			c.n++
			c.w += t.val[s]
		}
	}
}

// Value fills v (one entry per seat, in [0, 1]) with the search's heuristic
// value of an outcome: half the seat's placement (Points / (seats−1)) and half
// its score margin over the best other seat, scaled to [0, 1] by
// (own − best other) / (|own| + |best other| + 1). Non-finite scores count as
// ±1e9.
func Value(o *rules.Outcome, v []float64) {
	n := len(v)
	for s := 0; s < n; s++ {
		own := finite(o.Score[s])
		other := math.Inf(-1)
		for j := 0; j < n; j++ {
			if j != s {
				other = math.Max(other, finite(o.Score[j]))
			}
		}
		margin := (own - other) / (math.Abs(own) + math.Abs(other) + 1)
		place := 0.5
		if n > 1 {
			place = o.Points[s] / float64(n-1)
		}
		v[s] = 0.5*place + 0.25*(1+margin)
	}
}

func finite(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case x > 1e9:
		return 1e9
	case x < -1e9:
		return -1e9
	}
	return x
}

// proposers are the bots whose moves are a seat's candidates: per seat, the
// prior (Params.Prior) and then the alternatives (Params.Alt), each its own
// instance, since a bot may keep a plan for its seat.
type proposers [][]agents.Agent

func newProposers(seats int, fs []agents.Factory) proposers {
	p := make(proposers, seats)
	for s := range p {
		for _, f := range fs {
			p[s] = append(p[s], f())
		}
	}
	return p
}

// reset resets every bot at st for its seat.
func (p proposers) reset(st rules.State, rng *rules.RNG) {
	for s, bs := range p {
		for _, b := range bs {
			b.Reset(st, s, rng)
		}
	}
}

// propose appends to dst the moves of seat s's bots at st, the prior's
// first (its alone if only); with top > 1 and not only, the prior's top best
// moves (agents.Ranker, Params.Top) instead of its one. A bot that fails
// proposes Pass.
func (p proposers) propose(dst []rules.Move, s int, st rules.State, only bool, top int) []rules.Move {
	for i, b := range p[s] {
		if i > 0 && only {
			break
		}
		if r, ok := b.(agents.Ranker); ok && i == 0 && top > 1 && !only {
			n := len(dst)
			if dst, _ = agents.SafeRank(r, st, top, dst); len(dst) == n {
				dst = append(dst, rules.Move{})
			}
			continue
		}
		m, failed := agents.SafeAct(b, st)
		if failed {
			m = rules.Move{}
		}
		dst = append(dst, m)
	}
	return dst
}
