package neural

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gridgym/gridgym/rules"
)

// Play-time symmetry breaking (issue 22).
//
// A greedy policy is a deterministic function of its observation. Where two
// copies of it can see the same observation in one game — Rectangle's
// placement: every request is relabelled so that the caller is player 0, so
// both copies get the same board and choose the same cells, where R10 leaves
// every shared cell unpainted, and they mirror each other from then on — they
// deadlock. A temperature T > 0 makes the policy sample from softmax(logits/T)
// over the legal actions, with a draw that is a pure function of
//
//	(seed, the encoded observation, the head)
//
// computed with uint64 arithmetic only (SplitMix64's finaliser, Mix64), so
// that the exported Python bot (export/py/common.py) reproduces it bit for
// bit: its moves equal the Go agent's for the same seed. The seed is what
// differs between two copies: the Go agent mixes its seat into the spec's seed
// (SeatSeed), since it knows its seat, and one draw of the game's generator
// (Agent.PerSeat), so that its draws vary from game to game; an exported
// bot is told no seat (the
// competition relabels it away), so it uses its baked SEED as it is, or with
// SEED = None a random one per process (export.Options).
//
// The default is T = 0 (greedy), unless the weights store other settings
// (PlayKey, stored.go: Rectangle's shipped network places at temp 6; issue
// 54) or the spec asks for them. A low T does
// not break Rectangle's mirror: the shipped network's placement logits lead
// by 3–5 and its move logits by 10–20, so at T ≤ 1 copies (and the planner
// it was cloned from) mostly still share cells (T = 1: 11–23 cells a game
// each). Measured (reports/rectangle/
// mirror.md): temp=6:steps=1 — a hot placement, greedy moves — gives each of
// two copies beside planner and boxer 36–37 cells a game (greedy: ≤ 0.5),
// 74–77% of the network's 48 against planner, boxer and random, at a cost
// against opponents that do not mirror it (95 → 81 beside boxer, random,
// pass).
//
// Sampling (SampleAt): with m the largest legal logit, each legal action i,
// in index order, has weight w_i = exp((float64(l_i) − m) / T), computed in
// float64 from the float32 logits; the draw u ∈ [0, 1) picks the first i
// whose running sum of weights exceeds u · Σw. Go and NumPy logits agree to
// about 1e-6, so the two sides differ only when u falls within ~1e-6 of a
// boundary between two actions' shares.

// golden is 2⁶⁴/φ, SplitMix64's increment.
const golden = rules.Golden

// Mix64 is SplitMix64's output function (rules.Mix64): the building block
// of the play-time draws.
func Mix64(z uint64) uint64 { return rules.Mix64(z) }

// ObsKey hashes an encoded observation: Σ planes[i]·Mix64((i+1)·golden) +
// Σ bits(scalars[j])·Mix64((P+j+1)·golden) mod 2⁶⁴, P = len(planes). It is
// a sum so that NumPy computes it in one vectorised pass.
func ObsKey(planes []uint8, scalars []float32) uint64 {
	var h uint64
	for i, v := range planes {
		if v != 0 {
			h += uint64(v) * Mix64(uint64(i+1)*golden)
		}
	}
	n := len(planes)
	for j, s := range scalars {
		h += uint64(math.Float32bits(s)) * Mix64(uint64(n+j+1)*golden)
	}
	return h
}

// Draw returns the uniform draw in [0, 1) of head for an observation of key
// under seed: the top 53 bits of Mix64(Mix64(seed ^ key) + (head+1)·golden).
func Draw(seed, key uint64, head int) float64 {
	return float64(Mix64(Mix64(seed^key)+uint64(head+1)*golden)>>11) / (1 << 53)
}

// SeatSeed is the seed the Go agent plays seat with under a spec's seed:
// Mix64(seed + (seat+1)·golden), so that copies in different seats draw
// differently.
func SeatSeed(seed uint64, seat int) uint64 {
	return Mix64(seed + uint64(seat+1)*golden)
}

// SampleAt returns the legal action (logit not −Inf) that draw u ∈ [0, 1)
// picks from softmax(l/t) (package comment); with t ≤ 0 the greedy Argmax,
// and with no legal action 0.
func SampleAt(l []float32, t, u float64) int {
	best := Argmax(l)
	m := float64(l[best])
	if t <= 0 || math.IsInf(m, -1) {
		return best
	}
	sum := 0.0
	for _, v := range l {
		if !math.IsInf(float64(v), -1) {
			sum += math.Exp((float64(v) - m) / t)
		}
	}
	x := u * sum
	acc, last := 0.0, best
	for i, v := range l {
		if math.IsInf(float64(v), -1) {
			continue
		}
		acc += math.Exp((float64(v) - m) / t)
		last = i
		if x < acc {
			return i
		}
	}
	return last
}

// Play holds a weights spec's play-time settings.
type Play struct {
	// Temperature T: 0 plays the most probable legal action (greedy, the
	// default); T > 0 samples from softmax(logits/T) with seeded draws.
	Temperature float64
	// Seed keys the draws (mixed with the seat by the Go agent, SeatSeed).
	Seed uint64
	// Steps, if > 0, samples only in the game's first Steps steps (greedy
	// after): steps=1 breaks the symmetry of Rectangle's placement alone.
	Steps int
	// Opening, if > 0, plays the game's scripted opening of that size at the
	// placement instead of the network (rules.Opener: Rectangle's opening
	// square of side Opening), with draws keyed like the sampling's
	// (OpeningDraw); the network plays every later step. Games without an
	// opener refuse it.
	Opening int
	// Guard plays the game's scripted guard in front of the network
	// (rules.Guarder: Bovine Borders' barn guard) in the positions it
	// answers; the network plays every other. Games without one refuse it.
	Guard bool
}

// MaxOpening bounds a spec's opening= setting.
const MaxOpening = 64

// OpeningDraw is the i-th draw of an opening (rules.Opener) under seed for
// the observation of key: Draw with head OpeningHead+i, out of the range of
// any network's heads.
func OpeningDraw(seed, key uint64, i int) float64 { return Draw(seed, key, OpeningHead+i) }

// OpeningHead is the head index of the first opening draw (OpeningDraw).
const OpeningHead = 1000

// Stores reports whether p holds settings a weights file stores (PlayKey):
// a temperature, an opening or the guard; none is greedy, stored as no
// settings.
func (p Play) Stores() bool { return p.Temperature > 0 || p.Opening > 0 || p.Guard }

// Samples reports whether play with these settings samples at the game's
// step step (rules.State.Steps): a temperature, and step within the first
// Steps steps when Steps is set; otherwise it plays greedy.
func (p Play) Samples(step int) bool {
	return p.Temperature > 0 && (p.Steps <= 0 || step < p.Steps)
}

// Sampling reports whether a network played with these settings samples
// at some step it plays itself: Samples at its first such step, which is
// step 1 under an opening (Agent.Act plays the opening at step 0) and
// step 0 otherwise (once Samples is false it stays false at later steps). So a
// temperature for the first step alone with an opening (Rectangle's stored
// temp 6, first step, opening 8) acts only where the game's opener
// declines the position.
func (p Play) Sampling() bool {
	first := 0
	if p.Opening > 0 {
		first = 1
	}
	return p.Samples(first)
}

// playKeys are the settings a weights spec may end with.
var playKeys = map[string]bool{"temp": true, "seed": true, "steps": true, "opening": true, "guard": true}

// MaxTemperature bounds a spec's temp= setting.
const MaxTemperature = 100

// SplitPlaySpec splits a weights spec FILE[:temp=T][:seed=S][:steps=K][:opening=O][:guard=1]
// (or a run folder with the same settings) into the weights part and its play
// settings. Only trailing colon-separated parts whose key is temp, seed,
// steps, opening or guard are settings, so that paths and URLs holding ':' or '=' pass unchanged.
func SplitPlaySpec(spec string) (string, Play, error) {
	base, p, _, err := SplitPlaySpecGiven(spec)
	return base, p, err
}

// SplitPlaySpecGiven is SplitPlaySpec that also says which settings the
// spec gave, so that they override the settings stored in the weights
// (PlayGiven.Over; issue 54).
func SplitPlaySpecGiven(spec string) (string, Play, PlayGiven, error) {
	var p Play
	rest, seen := spec, map[string]bool{}
	for {
		i := strings.LastIndexByte(rest, ':')
		if i < 0 {
			break
		}
		k, v, ok := strings.Cut(rest[i+1:], "=")
		if !ok || !playKeys[k] {
			break
		}
		if seen[k] {
			return "", Play{}, PlayGiven{}, fmt.Errorf("bot %s: %s= given twice", spec, k)
		}
		seen[k] = true
		switch k {
		case "temp":
			t, err := strconv.ParseFloat(v, 64)
			if err != nil || !(t >= 0 && t <= MaxTemperature) {
				return "", Play{}, PlayGiven{}, fmt.Errorf("bot %s: temp=%q: want a temperature in 0..%d (0 = greedy)", spec, v, MaxTemperature)
			}
			p.Temperature = t
		case "seed":
			s, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return "", Play{}, PlayGiven{}, fmt.Errorf("bot %s: seed=%q: want an unsigned 64-bit integer", spec, v)
			}
			p.Seed = s
		case "steps":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return "", Play{}, PlayGiven{}, fmt.Errorf("bot %s: steps=%q: want a number of steps ≥ 0 (0 = every step)", spec, v)
			}
			p.Steps = n
		case "opening":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > MaxOpening {
				return "", Play{}, PlayGiven{}, fmt.Errorf("bot %s: opening=%q: want a size in 0..%d (0 = the network places)", spec, v, MaxOpening)
			}
			p.Opening = n
		case "guard":
			switch v {
			case "0", "1":
				p.Guard = v == "1"
			default:
				return "", Play{}, PlayGiven{}, fmt.Errorf("bot %s: guard=%q: want 1 (the game's scripted guard in front of the network) or 0 (the network alone)", spec, v)
			}
		}
		rest = rest[:i]
	}
	return rest, p, PlayGiven{Temp: seen["temp"], Seed: seen["seed"], Steps: seen["steps"], Opening: seen["opening"], Guard: seen["guard"]}, nil
}
