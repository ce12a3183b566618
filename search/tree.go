package search

import (
	"math"
	"runtime"
	"sync/atomic"

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
// indices in mixed radix (key). A pending node was added by a simulation of
// the round in progress (Params.Lanes) and gets its candidates at that
// simulation's backup; until then no simulation descends into it. In a
// game without chance (Spec.Deterministic) a joint move that ends the game
// stays in the tree as a final node (final): no candidates, and its seats'
// values at t.finals[cs[0]:], so a simulation that chooses it again needs
// neither the engine nor a rollout.
type node struct {
	cs          [rules.MaxSeats]int32
	cn          [rules.MaxSeats]int32
	child, next int32 // first child, next sibling; -1 for none
	key         uint64
	visits      int32
	pending     bool
	final       bool
}

// step is one level of a simulation's path: the node and the candidate index
// each active seat chose there.
type step struct {
	node int32
	idx  [rules.MaxSeats]int32
}

// tree is one search tree with every buffer it needs, grown as the
// simulations need it (up to the budget's size) and reused by every
// simulation and move after that. Its simulations run in rounds of
// Params.Lanes (leaf parallelism): each lane descends in turn, counting its
// path as visited with no value yet (a virtual loss, so the next lane goes
// elsewhere), then the lanes expand their leaves and roll out at the same
// time, then they back up in lane order. With one lane that is the plain
// sequential search.
type tree struct {
	p      *Params
	seats  int
	seat   int // the searching agent's seat
	seq    bool
	det    bool        // Spec.Deterministic: final nodes keep their outcome
	rng    rules.RNG   // the search's generator: the first lane's
	root   rules.State // the position searched
	seed   uint64      // the search's seed, from which the worlds are named
	nodes  []node
	cands  []cand
	finals []float64 // the final nodes' values, Seats each
	// maxNodes and maxCands are the pools' sizes for the budget: a node is
	// expanded only while both have room. The slices start smaller and grow
	// to them, so a search stopped early by Params.Limit never reserves a
	// huge budget's pools. reserved is the candidate room held for the
	// pending nodes of the round in progress.
	maxNodes, maxCands int
	reserved           int
	// free holds the slots of nodes taken back (unlink) that were not the
	// pool's last, for the next new nodes: at most a round's lanes.
	free  []int32
	lanes []*lane
	sims  int
	// The round in progress (Params.Lanes > 1). claim packs the round's
	// number (high 32 bits), its lanes (bits 24-31) and the next lane not
	// yet taken (low 24 bits) in one word, so that a goroutine that takes
	// a lane (claim.Add) takes it in the round it read, never in a stale
	// one; done counts the round's lanes finished. helpers is the move's
	// generation of helpers: stopHelpers moves it on and they return.
	claim   atomic.Uint64
	done    atomic.Int32
	helpers atomic.Uint64
}

// lane is one simulation of a round: its position, its bots and its
// scratch, so that the lanes of a round expand and roll out at the same time.
// The first lane draws from the tree's generator, the others from their own.
type lane struct {
	rng   *rules.RNG
	own   rules.RNG
	sim   rules.State        // the simulation's position
	props proposers          // the prior and the alternatives for every seat
	prop  []rules.Move       // their moves at a node, for candidates
	roll  []agents.Agent     // nil entries: RandomMove
	eval  agents.Evaluator   // scores unfinished leaves (Params.Value), nil for none
	fc    rules.Forecaster   // forecasts unfinished leaves (Params.Forecast), nil for none
	ks    rules.KeyedStepper // steps the simulation in its world (Params.CRN), nil for none
	keyed keyedRNG           // random candidates with Params.Key
	world uint64             // the simulation's world key (Params.CRN)
	path  []step
	moves []rules.Move
	legal []rules.Move
	out   *rules.Outcome
	val   [rules.MaxSeats]float64
	// leaf is the pending node this simulation adds (-1 for none) and
	// cands, cs and cn its candidates, made beside the other lanes and
	// moved into the tree at the backup.
	leaf   int32
	cands  []cand
	cs, cn [rules.MaxSeats]int32
	// cut is how many steps of path the game lasted (finish); ended
	// whether it ended there, so the pending leaf is taken back or, in a
	// game without chance, kept as a final node. final is the final node
	// the path reached (-1 for none): its values are the simulation's.
	cut   int
	ended bool
	final int32
}

// newTree makes a tree for positions like st, sized for budget simulations.
func newTree(p *Params, st rules.State, prior []agents.Factory, roll, value agents.Factory, budget int) *tree {
	spec := st.Spec()
	t := &tree{p: p, seats: spec.Seats, seq: spec.Sequential, det: spec.Deterministic, root: st.Clone()}
	t.lanes = make([]*lane, max(p.Lanes, 1))
	t.free = make([]int32, 0, len(t.lanes))
	for i := range t.lanes {
		l := &lane{sim: st.Clone(), out: rules.NewOutcome(spec.Seats), leaf: -1,
			moves: make([]rules.Move, spec.Seats), path: make([]step, 0, 64),
			legal: make([]rules.Move, 0, 1024), props: newProposers(spec.Seats, prior),
			roll: make([]agents.Agent, spec.Seats)}
		l.rng = &l.own
		if i == 0 {
			l.rng = &t.rng
		}
		for s := range l.roll {
			if roll != nil {
				l.roll[s] = roll()
			}
		}
		if value != nil {
			l.eval = value().(agents.Evaluator) // Params.Factory checked it
		}
		if p.Forecast {
			l.fc = l.sim.(rules.Forecaster) // Params.Factory checked the game
		}
		if p.CRN {
			l.ks = l.sim.(rules.KeyedStepper) // Params.Factory checked the game
		}
		t.lanes[i] = l
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

// room reports whether a new node fits in the budget's pools, besides the
// pending ones, growing the slices (doubling, up to maxNodes and maxCands)
// when it fits but they are full.
func (t *tree) room() bool {
	need := len(t.cands) + t.reserved + t.reserve()
	if len(t.nodes)-len(t.free) >= t.maxNodes || need > t.maxCands {
		return false
	}
	if len(t.free) == 0 && len(t.nodes) == cap(t.nodes) {
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
	t.free = t.free[:0]
	t.finals = t.finals[:0]
	t.reserved = 0
	t.sims = 0
	// The tree's bots are reset once per search, not per simulation: a bot
	// with memory (a plan) keeps it from one simulation to the next and
	// checks it against each position, as it does in a real game. Lanes
	// after the first have their own bots and generators.
	for i, l := range t.lanes {
		if i > 0 {
			l.own.Seed(mix(seed, laneSalt+uint64(i)))
		}
		l.props.reset(st, l.rng)
		for s := 0; s < t.seats; s++ {
			if l.roll[s] != nil {
				l.roll[s].Reset(st, s, l.rng)
			}
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

// laneSalt separates the lanes' seeds from the trees' (mix(seed, k)).
const laneSalt = 1 << 40

func (t *tree) newNode(key uint64) int32 {
	if n := len(t.free); n > 0 {
		c := t.free[n-1]
		t.free = t.free[:n-1]
		t.nodes[c] = node{child: -1, next: -1, key: key}
		return c
	}
	t.nodes = append(t.nodes, node{child: -1, next: -1, key: key})
	return int32(len(t.nodes) - 1)
}

// simulate runs one simulation on the first lane: descend, expand one node,
// roll out, back up.
func (t *tree) simulate() {
	l := t.lanes[0]
	t.descend(l)
	l.finish(t)
	t.backup(l)
	t.sims++
}

// rounds runs n simulations in one round of n ≤ len(t.lanes) lanes: their
// descents in turn, their expansions and rollouts on this goroutine and any
// helpers that take a lane, their backups in lane order. The result does not
// depend on the helpers or on which goroutine finished which lane, and the
// round waits only for lanes taken, never for a helper that took none (one
// the system has not scheduled, on a loaded machine).
func (t *tree) rounds(n int) {
	for i := 0; i < n; i++ {
		t.descend(t.lanes[i])
	}
	t.done.Store(0)
	t.claim.Store((t.claim.Load()>>32+1)<<32 | uint64(n)<<laneBits)
	t.work()
	for i := 1; int(t.done.Load()) < n; i++ {
		pause(i)
	}
	for i := 0; i < n; i++ {
		t.backup(t.lanes[i])
	}
	t.sims += n
}

// laneBits is the width of claim's next-lane field; the lanes' count sits
// above it.
const laneBits = 24

// open reports whether the round in claim word v has a lane not yet taken.
func open(v uint64) bool { return v&(1<<laneBits-1) < v>>laneBits&0xff }

// work finishes lanes of the round in progress until none is left to take.
func (t *tree) work() {
	for {
		v := t.claim.Add(1) - 1
		if !open(v) {
			return
		}
		t.lanes[v&(1<<laneBits-1)].finish(t)
		t.done.Add(1)
	}
}

// startHelpers starts h helpers for the rounds of a move; stopHelpers ends
// them. A helper that has not yet seen the end may still take a lane of a
// later round, which any goroutine may finish: rounds never wait for it.
func (t *tree) startHelpers(h int) {
	g := t.helpers.Load()
	for range h {
		go t.helper(g)
	}
}

func (t *tree) stopHelpers() { t.helpers.Add(1) }

// helper takes lanes of the rounds while the move's generation of helpers
// is g. A round's simulations take from a few to tens of microseconds, less
// than waking a parked thread can, so it spins (pause) between rounds: the
// move's cores stay with the move.
func (t *tree) helper(g uint64) {
	for i := 1; t.helpers.Load() == g; i++ {
		if open(t.claim.Load()) {
			t.work()
			i = 0
			continue
		}
		pause(i)
	}
}

// pause is the i-th wait of a spin loop: a busy wait, and every spinYield
// waits a yield to the scheduler, so a goroutine waited for that shares
// the spinner's core still runs.
func pause(i int) {
	if i%spinYield == 0 {
		runtime.Gosched()
	}
}

// spinYield is how many busy waits of a spin loop come between two yields.
const spinYield = 64

// descend chooses l's simulation's path down the tree by PUCT, from the
// statistics alone, to a joint move not yet in it and adds that node
// (pending, l.leaf) while the pools have room; then it counts the path's
// visits (the virtual loss: their values come at the backup). It does not
// play the path: the engine's steps are finish's, beside the other lanes of
// the round, so that the serial part of a round is the choices only. A path
// the game ends on before its last step is cut there by finish and the
// visits past the cut are taken back at the backup.
func (t *tree) descend(l *lane) {
	l.path = l.path[:0]
	l.leaf, l.final = -1, -1
	cur := int32(0)
	for {
		nd := &t.nodes[cur]
		st := step{node: cur}
		key, radix := uint64(0), uint64(1)
		for s := 0; s < t.seats; s++ {
			if nd.cn[s] == 0 {
				continue
			}
			i := t.pick(nd, s)
			st.idx[s] = i
			key += uint64(i) * radix
			radix *= uint64(nd.cn[s])
			if cur == 0 && s == t.seat && l.ks != nil {
				// The world: this root candidate's visits so far.
				l.world = rules.Mix64(t.seed ^ rules.Mix64(uint64(t.cands[nd.cs[s]+i].n)+1))
			}
		}
		l.path = append(l.path, st)
		child := nd.child
		for child >= 0 && t.nodes[child].key != key {
			child = t.nodes[child].next
		}
		if child >= 0 && t.nodes[child].final {
			l.final = child
			t.nodes[child].visits++
			break
		}
		if child >= 0 && !t.nodes[child].pending {
			cur = child
			continue
		}
		// Expand: one new node per simulation while the pools have room
		// (none where another lane of the round is adding it).
		if child < 0 && t.room() {
			c := t.newNode(key)
			t.nodes[c].next = t.nodes[cur].child
			t.nodes[cur].child = c
			t.nodes[c].pending = true
			t.reserved += t.reserve()
			l.leaf = c
		}
		break
	}
	for _, st := range l.path {
		nd := &t.nodes[st.node]
		nd.visits++
		for s := 0; s < t.seats; s++ {
			if nd.cn[s] != 0 {
				t.cands[nd.cs[s]+st.idx[s]].n++
			}
		}
	}
}

// finish plays l's path on a copy of the root, cutting it where the game
// ends (l.cut; no new node then), makes the candidates of l's new node, if
// any, and rolls out: the part of a simulation that touches nothing shared,
// run beside the other lanes of its round. It reads the tree, which no
// one writes until the round's backups.
func (l *lane) finish(t *tree) {
	if l.final >= 0 {
		l.cut, l.ended = len(l.path), true
		copy(l.val[:t.seats], t.finals[t.nodes[l.final].cs[0]:])
		return
	}
	l.sim.CopyFrom(t.root)
	if l.ks != nil {
		l.rng.Seed(l.world)
	}
	l.cut = len(l.path)
	for i, st := range l.path {
		nd := &t.nodes[st.node]
		for s := 0; s < t.seats; s++ {
			l.moves[s] = rules.Move{}
			if nd.cn[s] != 0 {
				l.moves[s] = t.cands[nd.cs[s]+st.idx[s]].m
			}
		}
		l.step()
		if l.sim.Done() {
			l.cut = i + 1
			break
		}
	}
	l.ended = l.sim.Done()
	if l.leaf >= 0 && !l.ended {
		l.fill(t)
	}
	l.rollout(t)
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

// fill makes the candidates of l's new node for the simulation's position
// into l.cands (offsets l.cs, counts l.cn).
func (l *lane) fill(t *tree) {
	l.cands = l.cands[:0]
	for s := 0; s < t.seats; s++ {
		l.cs[s], l.cn[s] = 0, 0
		if !l.sim.Active(s) {
			continue
		}
		start := int32(len(l.cands))
		only := t.p.Model && s != t.seat
		l.prop = l.props.propose(l.prop[:0], s, l.sim, only, t.p.Top)
		l.cands, l.legal = candidates(l.cands, l.legal, l.sim, s, l.prop, t.seq, only, t.p, l.rng, &l.keyed)
		l.cs[s] = start
		l.cn[s] = int32(len(l.cands)) - start
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

// rollout plays up to Params.Depth steps from the simulation's position with
// the rollout policy and sets l.val from Value on the outcome, or, where the
// game goes on, on its forecast (Params.Forecast) or from the evaluator that
// Params.Value names. It reads only t's settings.
func (l *lane) rollout(t *tree) {
	p, seats, seat := t.p, t.seats, t.seat
	if p.Depth > 0 && !l.sim.Done() {
		for d := 0; d < p.Depth && !l.sim.Done(); d++ {
			for s := 0; s < seats; s++ {
				l.moves[s] = rules.Move{}
				if !l.sim.Active(s) {
					continue
				}
				if l.roll[s] == nil {
					l.moves[s] = l.sim.RandomMove(s, l.rng)
				} else {
					l.moves[s], _ = agents.SafeAct(l.roll[s], l.sim)
				}
			}
			l.step()
		}
	}
	if l.eval != nil && !l.sim.Done() {
		for s := 0; s < seats; s++ {
			l.val[s] = 0.5 // a modelled seat's one candidate needs no value
			if !p.Model || s == seat {
				l.val[s] = (1 + min(1, max(-1, l.eval.Evaluate(l.sim, s)))) / 2
			}
		}
		return
	}
	if l.fc != nil && !l.sim.Done() {
		l.fc.Forecast(l.out)
	} else {
		l.sim.Outcome(l.out)
	}
	Value(l.out, l.val[:seats])
}

// step plays l.moves on the simulation's position: in its world with
// Params.CRN, otherwise with the lane's generator.
func (l *lane) step() {
	if l.ks != nil {
		l.ks.StepKeyed(l.moves, l.world)
		return
	}
	l.sim.Step(l.moves, l.rng)
}

// backup moves l's new node's candidates into the tree, or takes the node
// back where the game ended before it, takes back the visits descend counted
// past the path's cut, and adds the simulation's values along the rest.
func (t *tree) backup(l *lane) {
	if l.leaf >= 0 {
		t.reserved -= t.reserve()
		if l.ended && t.det && l.cut == len(l.path) {
			// The joint move ended the game: so it does in every
			// simulation, and the node keeps the outcome.
			nd := &t.nodes[l.leaf]
			nd.pending, nd.final = false, true
			nd.cs[0] = int32(len(t.finals))
			t.finals = append(t.finals, l.val[:t.seats]...)
		} else if l.ended {
			t.unlink(l)
		} else {
			nd := &t.nodes[l.leaf]
			base := int32(len(t.cands))
			for s := 0; s < t.seats; s++ {
				if l.cn[s] > 0 {
					nd.cs[s], nd.cn[s] = base+l.cs[s], l.cn[s]
				}
			}
			t.cands = append(t.cands, l.cands...)
			nd.pending = false
		}
	}
	for j, st := range l.path {
		nd := &t.nodes[st.node]
		if j >= l.cut {
			nd.visits--
		}
		for s := 0; s < t.seats; s++ {
			if nd.cn[s] == 0 {
				continue
			}
			c := &t.cands[nd.cs[s]+st.idx[s]]
			if j >= l.cut {
				c.n--
			} else {
				c.w += l.val[s]
			}
		}
	}
}

// unlink takes l's new node out of its parent's children, the path's last
// node, when the game ended before reaching it: no simulation can descend
// there any more. Its slot goes back to the pool: dropped when it is the
// last (always with one lane, so a sequential search's pools are as if it
// was never added), otherwise kept for the next new node (t.free).
func (t *tree) unlink(l *lane) {
	parent := &t.nodes[l.path[len(l.path)-1].node]
	if parent.child == l.leaf {
		parent.child = t.nodes[l.leaf].next
	} else {
		c := parent.child
		for t.nodes[c].next != l.leaf {
			c = t.nodes[c].next
		}
		t.nodes[c].next = t.nodes[l.leaf].next
	}
	t.nodes[l.leaf].pending = false
	if int(l.leaf) == len(t.nodes)-1 {
		t.nodes = t.nodes[:l.leaf]
	} else {
		t.free = append(t.free, l.leaf)
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
