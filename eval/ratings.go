package eval

import (
	"math"
	"sort"

	"github.com/gridgym/gridgym/rules"
)

// EloScale converts a natural log-strength to the Elo-like scale of the
// reports: 400/ln 10, so a 400-point gap means 10:1 odds head to head.
const EloScale = 400 / math.Ln10

// DefaultResamples is the number of bootstrap resamples when
// RatingOptions.Resamples is 0.
const DefaultResamples = 200

// MaxResamples bounds RatingOptions.Resamples (FitRatings uses at most as
// many): each resample refits every rating and keeps a rating per bot.
const MaxResamples = 100_000

// RatingOptions configures FitRatings.
type RatingOptions struct {
	// Resamples is the number of bootstrap resamples of the games behind the
	// intervals: 0 means DefaultResamples, a negative value means none.
	Resamples int
	// Level is the coverage of the intervals; 0 means 0.95.
	Level float64
	// Seed seeds the bootstrap's generator (rules.RNG), so intervals are
	// reproducible.
	Seed uint64
	// Prior is the weight, in games, of the virtual draws each agent is
	// credited with, spread evenly over its opponents. It keeps the fit finite
	// when an agent never wins or never loses, and shrinks ratings slightly
	// towards each other; 0 means 1, a negative value means no prior (the
	// estimate may then diverge).
	Prior float64
}

// Rating is one agent's fitted rating.
type Rating struct {
	Name  string
	Games int // seats played (an agent seated twice in a game counts twice)
	// LogStrength is the fitted Plackett–Luce log-strength θ, normalised so
	// the agents' mean is 0.
	LogStrength float64
	// Elo is EloScale·LogStrength: P(i ahead of j) = 1/(1+10^((Elo_j−Elo_i)/400)).
	Elo float64
	// Lo and Hi bound the bootstrap percentile interval of Elo at the level
	// of Ratings.Level (NaN without resamples).
	Lo, Hi float64
	// SE is the bootstrap standard deviation of Elo (NaN without resamples).
	SE float64
}

// Ratings are the Plackett–Luce ratings of a tournament's agents with
// bootstrap intervals: the answer to "which bot is stronger, and how sure
// are we" that uses every finishing order, not just wins.
type Ratings struct {
	Agents []Rating // one per distinct bot name, in the order of Result.Bots
	Order  []int    // indices into Agents, highest rating first
	// Better[i][j] is the share of bootstrap resamples in which agent i is
	// rated above agent j (ties count ½); nil without resamples.
	Better [][]float64
	// GapLo[i][j] and GapHi[i][j] bound the bootstrap percentile interval,
	// at Level, of agent i's Elo minus agent j's: how far apart two bots
	// are and how sure, which the two bots' own intervals cannot say (their
	// resampling errors are correlated). nil without resamples.
	GapLo, GapHi [][]float64
	Resamples    int     // bootstrap resamples used (0 for none)
	Level        float64 // coverage of the intervals
	Seed         uint64  // the bootstrap's seed
	Prior        float64 // virtual-draw weight per agent (0 for none)
	Iterations   int     // MM iterations of the point estimate
	Converged    bool    // whether the point estimate met the tolerance
}

// FitRatings fits a Plackett–Luce (rank-ordered logit) model to the finishing
// orders of r's games by maximum likelihood and bootstraps intervals by
// resampling games with replacement.
//
// Model: in a game, the winner is drawn among the seats with probability
// proportional to the strengths e^θ, then second place among the rest, and so
// on; with two seats this is Bradley–Terry, the model behind Elo. Finishing
// order is Outcome.Points (higher is better, equal points tie).
//
// Ties are split: a k-way tie counts as each of its k! orders with weight
// 1/k!, the Plackett–Luce analogue of scoring a drawn game as half a win.
//
// The fit is Hunter's (2004) MM algorithm, with the log-strengths
// renormalised to mean 0 after every step (the likelihood only sees
// differences). Each resample refits from the point estimate with the same
// algorithm; intervals are the percentile intervals of the resampled ratings.
func FitRatings(r *Result, opt RatingOptions) Ratings {
	names, of := agentsOf(r)
	n := len(names)
	if opt.Resamples == 0 {
		opt.Resamples = DefaultResamples
	}
	if opt.Resamples < 0 {
		opt.Resamples = 0
	}
	opt.Resamples = min(opt.Resamples, MaxResamples)
	if opt.Level <= 0 || opt.Level >= 1 {
		opt.Level = 0.95
	}
	switch {
	case opt.Prior == 0:
		opt.Prior = 1
	case opt.Prior < 0:
		opt.Prior = 0
	}
	data := newPLData(n)
	games := make([]int, n)
	var keys []float64
	var who []int
	for _, g := range r.Games {
		if g.Outcome == nil {
			continue
		}
		who, keys = who[:0], keys[:0]
		for s, bi := range g.Lineup {
			who = append(who, of[bi])
			keys = append(keys, g.Outcome.Points[s])
			games[of[bi]]++
		}
		data.addGame(who, keys)
	}
	data.addPrior(opt.Prior)

	out := Ratings{Agents: make([]Rating, n), Level: opt.Level, Seed: opt.Seed, Prior: opt.Prior}
	theta := make([]float64, n)
	ones := make([]float64, len(data.games))
	for i := range ones {
		ones[i] = 1
	}
	out.Iterations, out.Converged = data.fit(ones, theta)
	for i := range out.Agents {
		out.Agents[i] = Rating{Name: names[i], Games: games[i], LogStrength: theta[i], Elo: EloScale * theta[i],
			Lo: math.NaN(), Hi: math.NaN(), SE: math.NaN()}
	}
	out.Order = make([]int, n)
	for i := range out.Order {
		out.Order[i] = i
	}
	sort.SliceStable(out.Order, func(a, b int) bool { return theta[out.Order[a]] > theta[out.Order[b]] })

	if opt.Resamples == 0 || len(data.games) == 0 {
		return out
	}
	out.Resamples = opt.Resamples
	rng := rules.NewRNG(opt.Seed)
	boot := make([][]float64, n) // boot[i][b] = agent i's Elo in resample b
	for i := range boot {
		boot[i] = make([]float64, opt.Resamples)
	}
	out.Better = make([][]float64, n)
	for i := range out.Better {
		out.Better[i] = make([]float64, n)
	}
	mult := make([]float64, len(data.games))
	th := make([]float64, n)
	for b := 0; b < opt.Resamples; b++ {
		clear(mult)
		for range mult {
			mult[rng.U(len(mult))]++
		}
		copy(th, theta)
		data.fit(mult, th)
		for i := range th {
			boot[i][b] = EloScale * th[i]
			for j := range th {
				switch {
				case th[i] > th[j]:
					out.Better[i][j]++
				case th[i] == th[j] && i != j:
					out.Better[i][j] += 0.5
				}
			}
		}
	}
	alpha := (1 - opt.Level) / 2
	out.GapLo, out.GapHi = make([][]float64, n), make([][]float64, n)
	gap := make([]float64, opt.Resamples)
	for i := range out.GapLo {
		out.GapLo[i], out.GapHi[i] = make([]float64, n), make([]float64, n)
	}
	for i := range out.GapLo {
		for j := i + 1; j < n; j++ { // j's gap over i is minus i's over j
			for b := range gap {
				gap[b] = boot[i][b] - boot[j][b]
			}
			sort.Float64s(gap)
			out.GapLo[i][j], out.GapHi[i][j] = quantile(gap, alpha), quantile(gap, 1-alpha)
			out.GapLo[j][i], out.GapHi[j][i] = -out.GapHi[i][j], -out.GapLo[i][j]
		}
	}
	for i := range out.Agents {
		a := &out.Agents[i]
		xs := boot[i]
		sort.Float64s(xs)
		a.Lo, a.Hi = quantile(xs, alpha), quantile(xs, 1-alpha)
		a.SE = stdDev(xs)
		for j := range out.Better[i] {
			out.Better[i][j] /= float64(opt.Resamples)
		}
	}
	return out
}

// agentsOf returns the distinct bot names of r in first-listed order (the
// order of Result.Bots) and, for each entry of Config.Bots, its agent index.
func agentsOf(r *Result) (names []string, of []int) {
	index := map[string]int{}
	of = make([]int, len(r.Config.Bots))
	for i, name := range r.Config.Bots {
		k, ok := index[name]
		if !ok {
			k = len(names)
			index[name] = k
			names = append(names, name)
		}
		of[i] = k
	}
	return names, of
}

// quantile returns the q-quantile of sorted xs, interpolating linearly
// between order statistics (type 7 of Hyndman and Fan).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	h := q * float64(len(xs)-1)
	lo := int(math.Floor(h))
	if lo >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	return xs[lo] + (h-float64(lo))*(xs[lo+1]-xs[lo])
}

func stdDev(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return math.Sqrt(v / float64(len(xs)-1))
}

// plSet is a choice set of Plackett–Luce stages: the distinct agents still
// unplaced and how many seats each holds.
type plSet struct {
	agents []int
	counts []float64
}

// plStage is one weighted choice: agent chosen from set.
type plStage struct {
	set, chosen int
	w           float64
}

// plData holds a tournament broken into Plackett–Luce choice stages, with
// identical choice sets shared, so that one MM iteration costs a pass over
// the distinct sets rather than over the games.
type plData struct {
	n      int
	sets   []plSet
	index  map[string]int
	games  [][]plStage // stages of each game, resampled together
	prior  []plStage   // virtual draws, never resampled
	wins   []float64   // scratch: weighted choices won per agent
	setW   []float64   // scratch: total weight per set
	denom  []float64   // scratch
	counts []float64   // scratch: seats per agent in a set being built
}

func newPLData(n int) *plData {
	return &plData{n: n, index: map[string]int{}, counts: make([]float64, n),
		wins: make([]float64, n), denom: make([]float64, n)}
}

// setOf interns the choice set of the given seats' agents and returns its
// index, or −1 when it holds a single distinct agent (a choice that carries
// no information).
func (d *plData) setOf(seats []int) int {
	clear(d.counts)
	key := make([]byte, d.n)
	distinct := 0
	for _, a := range seats {
		if d.counts[a] == 0 {
			distinct++
		}
		d.counts[a]++
		key[a]++
	}
	if distinct < 2 {
		return -1
	}
	k, ok := d.index[string(key)]
	if !ok {
		k = len(d.sets)
		d.index[string(key)] = k
		var s plSet
		for a, c := range d.counts {
			if c > 0 {
				s.agents = append(s.agents, a)
				s.counts = append(s.counts, c)
			}
		}
		d.sets = append(d.sets, s)
		d.setW = append(d.setW, 0)
	}
	return k
}

// addGame adds one game: who[s] is seat s's agent, keys[s] its finishing key
// (higher is better, equal keys tie). A tie group G of k seats above the rest
// B contributes, for every proper subset S of G already placed and every x in
// G∖S, the choice of x from (G∖S) ∪ B with weight |S|!(k−|S|−1)!/k!: the
// probability that a uniformly random order of G starts with S and then x.
// This is the k!-orders expansion with weights 1/k!, without enumerating them.
func (d *plData) addGame(who []int, keys []float64) {
	seats := make([]int, len(who))
	for i := range seats {
		seats[i] = i
	}
	sort.SliceStable(seats, func(a, b int) bool { return keys[seats[a]] > keys[seats[b]] })
	var stages []plStage
	var rest []int
	for lo := 0; lo < len(seats); {
		hi := lo + 1
		for hi < len(seats) && keys[seats[hi]] == keys[seats[lo]] {
			hi++
		}
		group, below := seats[lo:hi], seats[hi:]
		k := len(group)
		for mask := 0; mask < 1<<k-1; mask++ {
			placed := 0
			rest = rest[:0]
			for j, s := range group {
				if mask&(1<<j) != 0 {
					placed++
				} else {
					rest = append(rest, who[s])
				}
			}
			for _, s := range below {
				rest = append(rest, who[s])
			}
			set := d.setOf(rest)
			if set < 0 {
				continue
			}
			w := math.Exp(lgamma(placed+1) + lgamma(k-placed) - lgamma(k+1))
			for j, s := range group {
				if mask&(1<<j) == 0 {
					stages = append(stages, plStage{set: set, chosen: who[s], w: w})
				}
			}
		}
		lo = hi
	}
	d.games = append(d.games, stages)
}

// addPrior credits each agent with prior games' worth of draws, split evenly
// over the other agents: each pair plays a virtual 2-seat draw of weight
// prior/(n−1). Being a draw between agents, it keeps the likelihood's
// invariance to a common shift of θ.
func (d *plData) addPrior(prior float64) {
	if prior <= 0 || d.n < 2 {
		return
	}
	w := prior / float64(d.n-1) / 2 // half a win each way
	for i := 0; i < d.n; i++ {
		for j := i + 1; j < d.n; j++ {
			set := d.setOf([]int{i, j})
			d.prior = append(d.prior, plStage{set, i, w}, plStage{set, j, w})
		}
	}
}

func lgamma(n int) float64 {
	v, _ := math.Lgamma(float64(n))
	return v
}

// fit maximises the likelihood of the games weighted by mult (bootstrap
// multiplicities) starting from theta, which it overwrites with the estimate
// (mean 0). It returns the iterations used and whether the largest change of
// θ in the last one was below the tolerance.
func (d *plData) fit(mult []float64, theta []float64) (iters int, converged bool) {
	const (
		tol     = 1e-10
		maxIter = 20000
	)
	clear(d.wins)
	clear(d.setW)
	add := func(st plStage, m float64) {
		d.wins[st.chosen] += m * st.w
		d.setW[st.set] += m * st.w
	}
	for g, stages := range d.games {
		if m := mult[g]; m != 0 {
			for _, st := range stages {
				add(st, m)
			}
		}
	}
	for _, st := range d.prior {
		add(st, 1)
	}
	gamma := make([]float64, d.n)
	prev := make([]float64, d.n)
	normalise(theta)
	for iters < maxIter {
		iters++
		copy(prev, theta)
		for i := range gamma {
			gamma[i] = math.Exp(theta[i])
		}
		clear(d.denom)
		for k, s := range d.sets {
			if d.setW[k] == 0 {
				continue
			}
			total := 0.0
			for j, a := range s.agents {
				total += s.counts[j] * gamma[a]
			}
			for j, a := range s.agents {
				d.denom[a] += d.setW[k] * s.counts[j] / total
			}
		}
		for i := range theta {
			if d.denom[i] == 0 { // never seated in this sample: no information
				continue
			}
			next := math.Log(d.wins[i] / d.denom[i])
			if math.IsInf(next, -1) {
				next = theta[i] - 50 // never chosen and no prior: the MLE diverges
			}
			theta[i] = next
		}
		normalise(theta)
		change := 0.0
		for i := range theta {
			change = max(change, math.Abs(theta[i]-prev[i]))
		}
		if change < tol {
			return iters, true
		}
	}
	return iters, false
}

// normalise shifts theta to mean 0.
func normalise(theta []float64) {
	if len(theta) == 0 {
		return
	}
	m := 0.0
	for _, t := range theta {
		m += t
	}
	m /= float64(len(theta))
	for i := range theta {
		theta[i] -= m
	}
}
