package rules

import (
	"math/bits"
	"math/rand/v2"
)

// RNG is the only source of randomness of the engines and agents. It wraps the
// standard library's PCG-DXSM generator and pins U(n), the uniform draw the rules
// files define their canonical draw orders with, to Lemire's multiply-shift
// method, so a seed gives the same game on every machine and Go version.
//
// A scripted RNG (Scripted) replays given draws instead; golden tests use it to
// fix the random outcomes of the rules files' worked examples.
type RNG struct {
	pcg      rand.PCG
	scripted bool
	script   []int
	used     int
}

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) *RNG {
	r := &RNG{}
	r.Seed(seed)
	return r
}

// Seed resets r to the stream of seed, dropping any script.
func (r *RNG) Seed(seed uint64) {
	r.pcg.Seed(seed, seed^Golden)
	r.script, r.scripted = nil, false
	r.used = 0
}

// Scripted returns a generator whose successive U draws are the given values
// (each taken modulo the n asked for). Once the script is used up it draws 0;
// Used counts every draw, so tests can assert how many a step took.
func Scripted(draws ...int) *RNG {
	return &RNG{scripted: true, script: draws}
}

// Used is the number of U draws taken so far from a scripted generator.
func (r *RNG) Used() int { return r.used }

// Uint64 returns 64 uniformly random bits.
func (r *RNG) Uint64() uint64 { return r.pcg.Uint64() }

// Float64 returns a uniform float64 in [0, 1) (53 random bits), for learners'
// sampling and initialisation.
func (r *RNG) Float64() float64 { return float64(r.pcg.Uint64()>>11) / (1 << 53) }

// U returns a uniform integer in [0, n); n must be ≥ 1.
func (r *RNG) U(n int) int {
	if r.scripted {
		v := 0
		if r.used < len(r.script) {
			v = r.script[r.used] % n
			if v < 0 {
				v += n
			}
		}
		r.used++
		return v
	}
	un := uint64(n)
	hi, lo := bits.Mul64(r.pcg.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.pcg.Uint64(), un)
		}
	}
	return int(hi)
}

// Shuffle puts the first n entries of s in a uniformly random order with the
// canonical draws of the rules files: for i = n−1 down to 1, j = U(i+1), swap.
func (r *RNG) Shuffle(s []int8) {
	for i := len(s) - 1; i >= 1; i-- {
		j := r.U(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}

// Derive returns a new independent generator for stream k of r's seed space,
// without disturbing r. Tournaments give each game and each agent its own.
func Derive(seed uint64, k uint64) *RNG {
	return NewRNG(splitmix(seed ^ splitmix(k+0x632be59bd9b4e019)))
}

// splitmix is one SplitMix64 step from state x: Mix64(x + Golden).
func splitmix(x uint64) uint64 { return Mix64(x + Golden) }

// Mix64 is SplitMix64's output function, a bijection on uint64 with good
// avalanche: the mixer of Derive, of the search's tree seeds and of the
// network agents' play-time draws (which exported Python bots reproduce).
func Mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
