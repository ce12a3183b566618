package search

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

// SetValue makes f's bots (agents.Evaluator) score a's leaves, as
// Params.Value's bot does.
func SetValue(a *Agent, f agents.Factory) { a.value = f }

// Tree exposes one search tree to the external tests.
type Tree struct{ t *tree }

// NewTestTree makes a tree for st with the prior bots of a and resets it at
// st, root candidates as the agent makes them, for budget simulations.
func NewTestTree(a *Agent, st rules.State, seat int, budget int, seed uint64) Tree {
	a.Reset(st, seat, rules.NewRNG(seed))
	a.fillRoot(st)
	t := newTree(&a.p, st, a.props, a.roll, a.value, budget)
	t.reset(st, seat, a.rootCands, seed)
	return Tree{t}
}

// Simulate runs one simulation.
func (t Tree) Simulate() { t.t.simulate() }

// Reset restarts the search at the tree's root position.
func (t Tree) Reset(st rules.State, a *Agent, seed uint64) {
	t.t.reset(st, t.t.seat, a.rootCands, seed)
}

// RootVisits returns the root's visit count and, per seat, the sum of its
// candidates' visits (0 for seats without candidates) and their number.
func (t Tree) RootVisits() (root int, perSeat, cands []int) {
	nd := &t.t.nodes[0]
	for s := 0; s < t.t.seats; s++ {
		n := 0
		for _, c := range t.t.cands[nd.cs[s] : nd.cs[s]+nd.cn[s]] {
			n += int(c.n)
		}
		perSeat = append(perSeat, n)
		cands = append(cands, int(nd.cn[s]))
	}
	return int(nd.visits), perSeat, cands
}

// Nodes is the number of nodes in the tree.
func (t Tree) Nodes() int { return len(t.t.nodes) }

// RootMoves returns seat's root candidate moves in order.
func (t Tree) RootMoves(seat int) []rules.Move {
	nd := &t.t.nodes[0]
	var ms []rules.Move
	for _, c := range t.t.cands[nd.cs[seat] : nd.cs[seat]+nd.cn[seat]] {
		ms = append(ms, c.m)
	}
	return ms
}

// Round runs one round of n simulations (Params.Lanes) on this goroutine.
func (t Tree) Round(n int) { t.t.rounds(n) }

// Rounds runs k rounds of lanes simulations on this goroutine as run does:
// with one lane the sequential simulate, otherwise rounds.
func (t Tree) Rounds(k, lanes int) {
	for range k {
		if lanes == 1 {
			t.t.simulate()
		} else {
			t.t.rounds(lanes)
		}
	}
}

// CandVisits returns seat's root candidates' visits in order.
func (t Tree) CandVisits(seat int) []int {
	nd := &t.t.nodes[0]
	var vs []int
	for _, c := range t.t.cands[nd.cs[seat] : nd.cs[seat]+nd.cn[seat]] {
		vs = append(vs, int(c.n))
	}
	return vs
}

// Pending is the number of nodes still waiting for their candidates and the
// candidate room held for them.
func (t Tree) Pending() (nodes, reserved int) {
	for _, nd := range t.t.nodes {
		if nd.pending {
			nodes++
		}
	}
	return nodes, t.t.reserved
}

// Counts checks the visit counts of every node reachable from the root: each
// active seat's candidates' visits add up to the node's, and its children's
// visits to at most the node's. It returns the first node that breaks them
// (-1 for none) and the number of reachable nodes.
func (t Tree) Counts() (bad, reachable int) {
	bad = -1
	var walk func(i int32)
	walk = func(i int32) {
		reachable++
		nd := &t.t.nodes[i]
		for s := 0; s < t.t.seats; s++ {
			if nd.cn[s] == 0 {
				continue
			}
			n := int32(0)
			for _, c := range t.t.cands[nd.cs[s] : nd.cs[s]+nd.cn[s]] {
				n += c.n
			}
			if n != nd.visits && bad < 0 {
				bad = int(i)
			}
		}
		kids := int32(0)
		for c := nd.child; c >= 0; c = t.t.nodes[c].next {
			kids += t.t.nodes[c].visits
			walk(c)
		}
		if kids > nd.visits && bad < 0 {
			bad = int(i)
		}
	}
	walk(0)
	return bad, reachable
}

// KeepFinals sets whether the tree keeps the outcome of joint moves that end
// the game (it does in games without chance, Spec.Deterministic).
func (t Tree) KeepFinals(keep bool) { t.t.det = keep }

// Finals is the number of final nodes in the tree.
func (t Tree) Finals() int { return len(t.t.finals) / t.t.seats }

// RootStats returns seat's root candidates' visits and summed values.
func (t Tree) RootStats(seat int) (n []int32, w []float64) {
	nd := &t.t.nodes[0]
	for _, c := range t.t.cands[nd.cs[seat] : nd.cs[seat]+nd.cn[seat]] {
		n, w = append(n, c.n), append(w, c.w)
	}
	return n, w
}
