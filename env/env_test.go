package env_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gridgym/gridgym/env"
	_ "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/nuggets"
)

// gamesWithEncoders lists every registered game; all must have an encoder.
func gamesWithEncoders(t testing.TB) []*rules.Game {
	var gs []*rules.Game
	for _, g := range rules.Games() {
		if g.Encoder == nil {
			t.Errorf("game %s has no encoder", g.Name)
			continue
		}
		gs = append(gs, g)
	}
	return gs
}

func newVec(t testing.TB, g *rules.Game, n, workers int) *env.Vec {
	v, err := env.New(env.Config{Game: g.Default(), N: n, Workers: workers, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

// play steps v with random legal actions, calling f after every step.
func play(v *env.Vec, steps int, seed uint64, f func(step int)) {
	rng := rules.NewRNG(seed)
	actions := make([]int32, v.N*v.Seats*v.Space.Heads)
	for i := 0; i < steps; i++ {
		v.SampleActions(rng, actions)
		v.Step(actions)
		if f != nil {
			f(i)
		}
	}
}

// Every legal action of the mask decodes to a move the rules accept for an
// active seat (masks = legal moves, the env side of issue 4's acceptance; the
// encoders' own tests check the converse against LegalMoves).
func TestMaskedActionsAreLegal(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		t.Run(g.Name, func(t *testing.T) {
			v := newVec(t, g, 4, 1)
			enc := v.Encoder()
			sp := v.Space
			mw := sp.MaskWords()
			rng := rules.NewRNG(3)
			acts := make([]int32, sp.Heads)
			play(v, 400, 1, func(int) {
				for i := 0; i < v.N; i++ {
					st := v.State(i)
					for s := 0; s < v.Seats; s++ {
						k := i*v.Seats + s
						if !v.Active[k] {
							continue
						}
						mask := v.Mask[k*mw : (k+1)*mw]
						for trial := 0; trial < 3; trial++ {
							for h := range acts {
								acts[h] = int32(env.SampleBit(mask, h*sp.Actions, (h+1)*sp.Actions, rng) - h*sp.Actions)
								if !env.Bit(mask, h*sp.Actions+int(acts[h])) {
									t.Fatalf("seat %d head %d: empty mask while active", s, h)
								}
							}
							m := enc.Decode(st, s, acts)
							if m.Kind != rules.Pass && !st.Legal(s, m) {
								t.Fatalf("env %d seat %d: masked actions %v decode to illegal %+v", i, s, acts, m)
							}
						}
					}
				}
			})
		})
	}
}

// Observe writes every byte and scalar: buffers pre-filled differently end equal.
func TestObserveWritesEverything(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		t.Run(g.Name, func(t *testing.T) {
			v := newVec(t, g, 1, 1)
			enc, sp := v.Encoder(), v.Space
			a, b := make([]uint8, sp.ObsSize()), make([]uint8, sp.ObsSize())
			sa, sb := make([]float32, sp.Scalars), make([]float32, sp.Scalars)
			ma, mb := make([]uint64, sp.MaskWords()), make([]uint64, sp.MaskWords())
			play(v, 100, 2, func(int) {
				for s := 0; s < v.Seats; s++ {
					fill(a, sa, ma, 0xAA)
					fill(b, sb, mb, 0x55)
					enc.Observe(v.State(0), s, a, sa)
					enc.Observe(v.State(0), s, b, sb)
					enc.Mask(v.State(0), s, ma)
					enc.Mask(v.State(0), s, mb)
					if string(a) != string(b) || fmt.Sprint(sa) != fmt.Sprint(sb) || fmt.Sprint(ma) != fmt.Sprint(mb) {
						t.Fatalf("seat %d: Observe or Mask leaves bytes unwritten", s)
					}
				}
			})
			if sp.Planes*sp.Height*sp.Width == 0 || sp.Heads < 1 || sp.Actions < 1 || len(sp.PlaneNames) != sp.Planes || len(sp.ScalarNames) != sp.Scalars {
				t.Fatalf("incomplete Space %+v", sp)
			}
		})
	}
}

func fill(p []uint8, s []float32, m []uint64, b byte) {
	for i := range p {
		p[i] = b
	}
	for i := range s {
		s[i] = float32(b)
	}
	for i := range m {
		m[i] = uint64(b) * 0x0101010101010101
	}
}

// Same-step autoreset (package doc): the step that ends an episode reports
// its terminal reward and final outcome, and already shows the next
// episode's first position. Rank rewards are zero-sum and in [−1, 1].
func TestAutoresetAndRewards(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		t.Run(g.Name, func(t *testing.T) {
			cfg := env.Config{Game: g.Default(), N: 3, Workers: 1, Seed: 5, MaxSteps: 150}
			v, err := env.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			fresh := g.New(cfg.Game)
			enc, sp := v.Encoder(), v.Space
			want := make([]uint8, sp.ObsSize())
			sc := make([]float32, sp.Scalars)
			ended := 0
			play(v, 400, 3, func(step int) {
				for i := 0; i < v.N; i++ {
					sum := 0.0
					for s := 0; s < v.Seats; s++ {
						r := float64(v.Reward[i*v.Seats+s])
						sum += r
						if r < -1 || r > 1 {
							t.Fatalf("reward %v outside [−1, 1]", r)
						}
						if !v.Terminated[i] && r != 0 {
							t.Fatalf("reward %v on a step that did not end the episode", r)
						}
					}
					if math.Abs(sum) > 1e-5 {
						t.Fatalf("rewards of env %d sum to %v", i, sum)
					}
					if !v.Terminated[i] && !v.Truncated[i] {
						continue
					}
					ended++
					if v.Steps[i] != 0 || v.FinalSteps[i] < 1 || v.Truncated[i] && v.FinalSteps[i] != 150 {
						t.Fatalf("env %d: Steps %d FinalSteps %d after the end", i, v.Steps[i], v.FinalSteps[i])
					}
					for s := 0; s < v.Seats; s++ {
						enc.Observe(fresh, s, want, sc)
						k := i*v.Seats + s
						if string(v.Obs[k*sp.ObsSize():(k+1)*sp.ObsSize()]) != string(want) {
							t.Fatalf("env %d seat %d: observation after autoreset is not the start position", i, s)
						}
					}
					pts := 0.0
					for s := 0; s < v.Seats; s++ {
						pts += v.FinalPoints[i*v.Seats+s]
					}
					if n := float64(v.Seats); math.Abs(pts-n*(n-1)/2) > 1e-9 {
						t.Fatalf("final points sum to %v", pts)
					}
				}
			})
			if ended == 0 {
				t.Fatalf("no episode ended in 400 steps (MaxSteps 150)")
			}
		})
	}
}

func TestScoreRewardsZeroSum(t *testing.T) {
	g, _ := rules.Lookup("slime")
	v, err := env.New(env.Config{Game: g.Default(), N: 8, Workers: 1, Reward: env.RewardScore})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ended := 0
	play(v, 3000, 4, func(int) {
		for i := 0; i < v.N; i++ {
			if !v.Terminated[i] {
				continue
			}
			ended++
			sum := 0.0
			for s := 0; s < v.Seats; s++ {
				sum += float64(v.Reward[i*v.Seats+s])
			}
			if math.Abs(sum) > 1e-5 {
				t.Fatalf("score rewards sum to %v", sum)
			}
		}
	})
	if ended == 0 {
		t.Fatal("no slime game ended")
	}
}

// With RewardNone and Shaping 1 a seat's rewards over an episode add up to
// its potential at the end (Nuggets: the final log-score, R15, over
// LogScoreScale): the shaping telescopes and no terminal reward is added.
func TestNoneRewardIsShapingAlone(t *testing.T) {
	g, _ := rules.Lookup("nuggets")
	v, err := env.New(env.Config{Game: g.Default(), N: 2, Workers: 1, Reward: env.RewardNone, Shaping: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	sums := make([]float64, v.N*v.Seats)
	ended, positive := 0, 0
	play(v, 300, 5, func(int) {
		for k, r := range v.Reward {
			sums[k] += float64(r)
		}
		for i := 0; i < v.N; i++ {
			if !v.Terminated[i] {
				continue
			}
			ended++
			for s := 0; s < v.Seats; s++ {
				k := i*v.Seats + s
				want := v.FinalScore[k] / nuggets.LogScoreScale
				if want > 0 {
					positive++
				}
				if math.Abs(sums[k]-want) > 1e-4 {
					t.Fatalf("env %d seat %d: rewards sum to %v, final potential %v", i, s, sums[k], want)
				}
				sums[k] = 0
			}
		}
	})
	if ended == 0 || positive == 0 {
		t.Fatalf("%d nuggets games ended, %d seats with a positive score", ended, positive)
	}
	if r, err := env.ParseRewardMode("none"); err != nil || r != env.RewardNone || r.String() != "none" {
		t.Fatalf("ParseRewardMode(none) = %v, %v", r, err)
	}
}

// Same seed, same trajectory, whatever the number of workers.
func TestDeterministicAcrossWorkers(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		t.Run(g.Name, func(t *testing.T) {
			var sums [2]uint64
			for w := 1; w <= 2; w++ {
				v := newVec(t, g, 6, w)
				play(v, 120, 9, func(int) {
					for _, b := range v.Obs {
						sums[w-1] = sums[w-1]*31 + uint64(b)
					}
					for _, r := range v.Reward {
						sums[w-1] = sums[w-1]*31 + uint64(math.Float32bits(r))
					}
				})
			}
			if sums[0] != sums[1] {
				t.Fatalf("1 and 2 workers give different trajectories")
			}
		})
	}
}

// Zero allocations per Step, with one worker and with two.
func TestStepAllocatesNothing(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		for _, w := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", g.Name, w), func(t *testing.T) {
				v := newVec(t, g, 8, w)
				rng := rules.NewRNG(1)
				actions := make([]int32, v.N*v.Seats*v.Space.Heads)
				if a := testing.AllocsPerRun(100, func() {
					v.SampleActions(rng, actions)
					v.Step(actions)
					v.StepRandom()
				}); a != 0 {
					t.Fatalf("%v allocations per Step", a)
				}
			})
		}
	}
}

func TestSymmetryTransformsAreInvertible(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		t.Run(g.Name, func(t *testing.T) {
			v := newVec(t, g, 1, 1)
			sym, ok := v.Encoder().(rules.Symmetric)
			if !ok {
				t.Skip("no symmetries")
			}
			sp := v.Space
			p1, p2 := make([]uint8, sp.ObsSize()), make([]uint8, sp.ObsSize())
			s1, s2 := make([]float32, sp.Scalars), make([]float32, sp.Scalars)
			play(v, 30, 1, nil)
			obs, sc := v.Obs[:sp.ObsSize()], v.Scalars[:sp.Scalars]
			for _, g := range sym.Symmetries() {
				sym.TransformObs(g, p1, s1, obs, sc)
				sym.TransformObs(g.Inverse(), p2, s2, p1, s1)
				if string(p2) != string(obs) || fmt.Sprint(s2) != fmt.Sprint(sc) {
					t.Fatalf("g=%d then its inverse is not the identity", g)
				}
				for h := 0; h < sp.Heads; h++ {
					seen := make([]bool, sp.Actions)
					for a := int32(0); a < int32(sp.Actions); a++ {
						b := sym.TransformAction(g, h, a)
						if b < 0 || int(b) >= sp.Actions || seen[b] || sym.TransformAction(g.Inverse(), h, b) != a {
							t.Fatalf("g=%d: TransformAction is not a bijection inverted by g⁻¹ at %d", g, a)
						}
						seen[b] = true
					}
				}
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	g, _ := rules.Lookup("slime")
	for _, cfg := range []env.Config{{Game: g.Default(), N: 0}, {Game: g.Default(), N: 2, MaxSteps: -1}, {N: 1}} {
		if _, err := env.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}

// BenchmarkVec: env steps per second (one per env per Step call) with random
// legal actions from the masks (StepRandom: sampling included, in the
// workers), per game and batch size.
// Run with -cpu 1,2 to compare one and two cores (Workers = GOMAXPROCS).
func BenchmarkVec(b *testing.B) {
	for _, g := range rules.Games() {
		if g.Encoder == nil {
			continue
		}
		for _, c := range []struct {
			n     int
			noObs bool
		}{{1, false}, {64, false}, {1024, false}, {1024, true}} {
			n := c.n
			name := fmt.Sprintf("%s/N=%d", g.Name, n)
			if c.noObs {
				name += "/NoObs"
			}
			b.Run(name, func(b *testing.B) {
				v, err := env.New(env.Config{Game: g.Default(), N: n, Seed: 1, NoObs: c.noObs})
				if err != nil {
					b.Fatal(err)
				}
				defer v.Close()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					v.StepRandom()
				}
				b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "envsteps/s")
			})
		}
	}
}

func TestSampleBit(t *testing.T) {
	mask := make([]uint64, 4)
	set := []int{3, 63, 64, 100, 130, 191, 200}
	for _, b := range set {
		mask[b>>6] |= 1 << uint(b&63)
	}
	rng := rules.NewRNG(1)
	cases := []struct {
		lo, hi int
		want   []int
	}{{0, 256, set}, {63, 131, []int{63, 64, 100, 130}}, {4, 63, nil}, {101, 130, nil}, {191, 192, []int{191}}}
	for _, c := range cases {
		counts := map[int]int{}
		for i := 0; i < 4000; i++ {
			counts[env.SampleBit(mask, c.lo, c.hi, rng)]++
		}
		if len(c.want) == 0 {
			if len(counts) != 1 || counts[c.lo] != 4000 {
				t.Errorf("[%d,%d): empty range should give lo, got %v", c.lo, c.hi, counts)
			}
			continue
		}
		if len(counts) != len(c.want) {
			t.Errorf("[%d,%d): drew %v, want each of %v", c.lo, c.hi, counts, c.want)
		}
		for _, b := range c.want {
			if n := counts[b]; n < 4000/len(c.want)*3/4 {
				t.Errorf("[%d,%d): bit %d drawn %d times of 4000", c.lo, c.hi, b, n)
			}
		}
	}
}

// Space.ActionPlanes describes the action layout convolutional policy heads
// rely on: the board-shaped actions of a head move with their cell under every
// symmetry (plane k, cell c → some plane, cell g(c)) and the non-spatial
// actions stay non-spatial.
func TestActionPlanesLayout(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		t.Run(g.Name, func(t *testing.T) {
			v := newVec(t, g, 1, 1)
			sp := v.Space
			hw := sp.Height * sp.Width
			if sp.ActionPlanes < 1 || sp.ActionPlanes*hw > sp.Actions || sp.Height != sp.Width {
				t.Fatalf("ActionPlanes = %d with %d actions of a %dx%d board", sp.ActionPlanes, sp.Actions, sp.Height, sp.Width)
			}
			sym, ok := v.Encoder().(rules.Symmetric)
			if !ok {
				t.Skip("no symmetries")
			}
			spatial := int32(sp.ActionPlanes * hw)
			for _, d := range sym.Symmetries() {
				for h := 0; h < sp.Heads; h++ {
					for a := int32(0); a < int32(sp.Actions); a++ {
						b := sym.TransformAction(d, h, a)
						if (a < spatial) != (b < spatial) {
							t.Fatalf("g=%d maps action %d to %d across the spatial/non-spatial boundary %d", d, a, b, spatial)
						}
						if a < spatial && int(b)%hw != d.Cell(sp.Height, int(a)%hw) {
							t.Fatalf("g=%d maps action %d (cell %d) to %d (cell %d), want cell %d", d, a, int(a)%hw, b, int(b)%hw, d.Cell(sp.Height, int(a)%hw))
						}
					}
				}
			}
		})
	}
}

// SetMove plays real moves for chosen seats: an env whose seats all play
// SetMove moves follows the rules stepped directly with the same moves and
// the same random stream (env 0 uses stream (seed, 0)).
func TestSetMoveEqualsRules(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		t.Run(g.Name, func(t *testing.T) {
			v := newVec(t, g, 1, 1)
			v.Reset(11)
			ref := g.New(g.Default())
			refRNG := rules.Derive(11, 0)
			pick := rules.NewRNG(5)
			actions := make([]int32, v.Seats*v.Space.Heads)
			moves := make([]rules.Move, v.Seats)
			var buf []uint64
			for step := 0; step < 300 && !ref.Done(); step++ {
				for s := range moves {
					moves[s] = rules.Move{}
					if ref.Active(s) {
						moves[s] = ref.RandomMove(s, pick)
					}
					v.SetMove(0, s, moves[s])
				}
				v.Step(actions)
				ref.Step(moves, refRNG)
				if ref.Done() {
					break
				}
				var h1, h2 uint64
				h1, buf = rules.Hash(v.State(0), buf)
				h2, buf = rules.Hash(ref, buf)
				if h1 != h2 {
					t.Fatalf("step %d: env state differs from the rules stepped directly", step)
				}
			}
		})
	}
}

// StepMoves plays the SetMove moves of an env seeded by ResetEnv with the
// caller's stream (here a tournament's rules.GameStream) exactly as the
// rules stepped directly with that stream, with or without masks; with
// Hold the env then keeps its final position (ended by the rules, or
// truncated at MaxSteps) through later steps, with no reward, until
// ResetEnv starts it again.
func TestResetEnvStepMovesHold(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		for _, c := range []struct {
			maxSteps int
			noMask   bool
		}{{0, false}, {5, false}, {0, true}} {
			t.Run(fmt.Sprintf("%s/max=%d/nomask=%v", g.Name, c.maxSteps, c.noMask), func(t *testing.T) {
				maxSteps := c.maxSteps
				v, err := env.New(env.Config{Game: g.Default(), N: 2, Workers: 1, Seed: 9, NoObs: true, NoMask: c.noMask, Hold: true, MaxSteps: maxSteps})
				if err != nil {
					t.Fatal(err)
				}
				defer v.Close()
				if (v.Mask == nil) != c.noMask {
					t.Fatalf("NoMask %v, Mask of %d words", c.noMask, len(v.Mask))
				}
				ls := newLockstep(g, v)
				ref, moves, pick, hash := ls.ref, ls.moves, ls.pick, ls.hash
				start := hash(ref)
				steps := 0
				for !ref.Done() && (maxSteps == 0 || steps < maxSteps) {
					if v.Terminated[1] || v.Truncated[1] {
						t.Fatalf("step %d: env ended before the rules", steps)
					}
					ls.step(t, steps)
					steps++
					if hash(v.State(1)) != hash(ref) {
						t.Fatalf("step %d: env state differs from the rules stepped directly", steps)
					}
				}
				if v.Terminated[1] != ref.Done() || v.Truncated[1] == ref.Done() || int(v.FinalSteps[1]) != steps || int(v.Steps[1]) != steps {
					t.Fatalf("after %d steps (done %v): Terminated %v Truncated %v FinalSteps %d Steps %d",
						steps, ref.Done(), v.Terminated[1], v.Truncated[1], v.FinalSteps[1], v.Steps[1])
				}
				final := hash(ref)
				for k := 0; k < 3; k++ {
					for s := range moves {
						if ref.Active(s) {
							v.SetMove(1, s, ref.RandomMove(s, pick))
						}
					}
					v.StepMoves()
					if hash(v.State(1)) != final || v.Reward[v.Seats] != 0 || !(v.Terminated[1] || v.Truncated[1]) {
						t.Fatalf("held env moved: reward %v, ends %v %v", v.Reward[v.Seats], v.Terminated[1], v.Truncated[1])
					}
				}
				v.ResetEnv(1, rules.GameStream(3, 4))
				if hash(v.State(1)) != start || v.Steps[1] != 0 || v.Terminated[1] || v.Truncated[1] {
					t.Fatalf("ResetEnv: not at the start (steps %d, ends %v %v)", v.Steps[1], v.Terminated[1], v.Truncated[1])
				}
			})
		}
	}
}

// With Continue, an env cut at MaxSteps reports Truncated with the outcome
// at the cut and holds the cut position through later steps (no reward)
// until PlayOn; then it plays its game on, exactly as the rules stepped
// straight through, its step count restarted, and only the rules' end
// reports Terminated and puts it back at the start.
func TestContinuePlaysTheGameOnAcrossCuts(t *testing.T) {
	for _, g := range gamesWithEncoders(t) {
		t.Run(g.Name, func(t *testing.T) {
			const maxSteps = 3
			v, err := env.New(env.Config{Game: g.Default(), N: 2, Workers: 1, Seed: 9, NoObs: true, MaxSteps: maxSteps, Continue: true})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			ls := newLockstep(g, v)
			ref, hash := ls.ref, ls.hash
			start := hash(ref)
			o := rules.NewOutcome(v.Seats)
			cuts := 0
			for steps := 1; !ref.Done(); steps++ {
				ls.step(t, steps)
				cut := !ref.Done() && steps%maxSteps == 0
				if v.Terminated[1] != ref.Done() || v.Truncated[1] != cut {
					t.Fatalf("step %d: Terminated %v Truncated %v, want %v %v", steps, v.Terminated[1], v.Truncated[1], ref.Done(), cut)
				}
				if ref.Done() {
					break
				}
				if hash(v.State(1)) != hash(ref) {
					t.Fatalf("step %d: env state differs from the rules stepped straight through", steps)
				}
				if want := int32((steps-1)%maxSteps + 1); v.Steps[1] != want {
					t.Fatalf("step %d: Steps %d, want %d", steps, v.Steps[1], want)
				}
				if cut {
					cuts++
					ref.Outcome(o)
					for s := range o.Points {
						if v.FinalPoints[v.Seats+s] != o.Points[s] {
							t.Fatalf("cut at step %d: seat %d points %v, the position says %v", steps, s, v.FinalPoints[v.Seats+s], o.Points[s])
						}
					}
					for k := 0; k < 2; k++ { // held: steps leave it alone
						for s := range ls.moves {
							if ref.Active(s) {
								v.SetMove(1, s, ref.RandomMove(s, ls.pick))
							}
						}
						v.StepMoves()
						if hash(v.State(1)) != hash(ref) || !v.Truncated[1] || v.Reward[v.Seats] != 0 {
							t.Fatalf("cut at step %d: the held env moved (truncated %v, reward %v)", steps, v.Truncated[1], v.Reward[v.Seats])
						}
					}
					v.PlayOn(1)
					if v.Truncated[1] || v.Steps[1] != 0 {
						t.Fatalf("cut at step %d: PlayOn left Truncated %v, Steps %d", steps, v.Truncated[1], v.Steps[1])
					}
				}
			}
			if hash(v.State(1)) != start || v.Steps[1] != 0 {
				t.Fatalf("after the rules' end: not at the start (steps %d)", v.Steps[1])
			}
			if ref.Spec().MaxSteps > 2*maxSteps && cuts == 0 {
				t.Fatalf("a game of up to %d steps was never cut at %d", ref.Spec().MaxSteps, maxSteps)
			}
		})
	}
}

// lockstep plays env 1 of v and a copy of its game stepped directly by the
// rules (ref) side by side: both seeded with rules.GameStream(3, 4), every
// active seat a random legal move of ref's (pick), set with SetMove.
type lockstep struct {
	v      *env.Vec
	ref    rules.State
	refRNG *rules.RNG
	pick   *rules.RNG
	moves  []rules.Move
	buf    []uint64
}

func newLockstep(g *rules.Game, v *env.Vec) *lockstep {
	v.ResetEnv(1, rules.GameStream(3, 4))
	return &lockstep{v: v, ref: g.New(g.Default()), refRNG: rules.GameStream(3, 4), pick: rules.NewRNG(5), moves: make([]rules.Move, v.Seats)}
}

// hash is st's rules.Hash.
func (l *lockstep) hash(st rules.State) uint64 {
	var h uint64
	h, l.buf = rules.Hash(st, l.buf)
	return h
}

// step plays one step in both, failing if the env's Active flags are not
// the rules' (step numbers the message).
func (l *lockstep) step(t *testing.T, step int) {
	t.Helper()
	v, ref := l.v, l.ref
	for s := range l.moves {
		l.moves[s] = rules.Move{}
		if ref.Active(s) != v.Active[v.Seats+s] {
			t.Fatalf("step %d: seat %d Active %v, the rules say %v", step, s, v.Active[v.Seats+s], ref.Active(s))
		}
		if ref.Active(s) {
			l.moves[s] = ref.RandomMove(s, l.pick)
			v.SetMove(1, s, l.moves[s])
		}
	}
	v.StepMoves()
	ref.Step(l.moves, l.refRNG)
}
