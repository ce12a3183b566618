package train

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train/graph"
)

// smoothRows is a minibatch of 4 head rows of 7 actions for bcTargets: row
// 0 with 3 legal actions, the teacher's among them; row 1 with every action
// legal; row 2 without a teacher action; row 3 with no legal action.
func smoothRows() (onehot, mask []float32, teacher []int) {
	const rows, actions = 4, 7
	onehot, mask = make([]float32, rows*actions), make([]float32, rows*actions)
	for k := range mask {
		mask[k] = graph.MaskedLogit
	}
	for _, k := range []int{1, 3, 6} {
		mask[k] = 0
	}
	onehot[3] = 1
	for k := actions; k < 2*actions; k++ {
		mask[k] = 0
	}
	onehot[actions+5] = 1
	mask[2*actions+2], mask[2*actions+4] = 0, 0
	onehot[3*actions+1] = 1
	return onehot, mask, make([]int, rows)
}

// bcTargets mixes each row's one-hot teacher action with the uniform
// distribution over the row's legal actions: (1−ε)·onehot + ε/|legal| on
// legal actions, 0 on illegal ones; ε = 0 and rows without a teacher action
// or a legal action keep their one-hot.
func TestBCTargets(t *testing.T) {
	const actions = 7
	oh, mask, teacher := smoothRows()
	before := append([]float32(nil), oh...)
	bcTargets(oh, mask, actions, 0, teacher)
	for k := range oh {
		if oh[k] != before[k] {
			t.Fatalf("ε = 0 changed target %d: %v, was %v", k, oh[k], before[k])
		}
	}
	if want := []int{3, 5, -1, 1}; !equalInts(teacher, want) {
		t.Fatalf("teacher actions %v, want %v", teacher, want)
	}
	const eps = 0.2
	bcTargets(oh, mask, actions, eps, teacher)
	want := make([]float32, len(oh))
	want[1], want[3], want[6] = eps/3, 1-eps+eps/3, eps/3
	for k := actions; k < 2*actions; k++ {
		want[k] = eps / 7
	}
	want[actions+5] = 1 - eps + eps/7
	want[3*actions+1] = 1 // no legal action: left as it was
	for k := range oh {
		if math.Abs(float64(oh[k]-want[k])) > 1e-7 {
			t.Errorf("row %d action %d: target %v, want %v", k/actions, k%actions, oh[k], want[k])
		}
	}
	for r := 0; r < 2; r++ {
		var sum float64
		for _, v := range oh[r*actions : (r+1)*actions] {
			sum += float64(v)
		}
		if math.Abs(sum-1) > 1e-6 {
			t.Errorf("row %d: targets sum to %v, want 1", r, sum)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// With label smoothing ε, the gradient of behaviour cloning's loss (−mean
// over the minibatch of Σ target·log π, on policyOp's masked log-softmax)
// with respect to the logits is (softmax − target)/minibatch, target =
// (1−ε)·onehot + ε/|legal| on legal actions and 0 on illegal ones; at ε = 0
// it is the plain one-hot's.
func TestBCSmoothedGradient(t *testing.T) {
	const rows, actions = 4, 7
	for _, eps := range []float64{0, 0.1, 0.3} {
		oh, mask, teacher := smoothRows()
		bcTargets(oh, mask, actions, eps, teacher)
		rng := rules.NewRNG(7)
		z := make([]float32, rows*actions)
		for k := range z {
			z[k] = float32(rng.Float64()*4 - 2)
		}
		g := G.NewGraph()
		node := func(name string, d []float32) *G.Node {
			v := tensor.New(tensor.WithShape(rows, actions), tensor.WithBacking(d))
			return G.NewMatrix(g, tensor.Float32, G.WithShape(rows, actions), G.WithName(name), G.WithValue(v))
		}
		logits := node("logits", z)
		terms := G.Must(G.ApplyOp(graph.PolicyOp(rows, actions), logits, node("mask", mask), node("target", oh)))
		// defineLoss's bc_loss with one head: −mean over samples of log π(a).
		loss := G.Must(G.Neg(G.Must(G.Mean(G.Must(G.Slice(terms, nil, G.S(0)))))))
		if _, err := G.Grad(loss, logits); err != nil {
			t.Fatal(err)
		}
		vm := G.NewTapeMachine(g, G.BindDualValues(logits))
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		gv, err := logits.Grad()
		vm.Close()
		if err != nil {
			t.Fatal(err)
		}
		grad := gv.Data().([]float32)
		for r := 0; r < rows; r++ {
			// The masked softmax in float64 of the float32 z + mask; a row
			// with no legal action is a softmax over all of them
			// (logSoftmaxRow).
			legal := func(k int) bool { return mask[r*actions+k] == 0 || r == 3 }
			v := func(k int) float64 { return float64(z[r*actions+k] + mask[r*actions+k]) }
			mx := math.Inf(-1)
			for k := 0; k < actions; k++ {
				if legal(k) {
					mx = max(mx, v(k))
				}
			}
			var s float64
			for k := 0; k < actions; k++ {
				if legal(k) {
					s += math.Exp(v(k) - mx)
				}
			}
			target := oh[r*actions : (r+1)*actions]
			for k := 0; k < actions; k++ {
				p := 0.0
				if legal(k) {
					p = math.Exp(v(k)-mx) / s
				}
				// Σ target is 1, or 0 in the row without a teacher action.
				want := (p*sum(target) - float64(target[k])) / rows
				if got := float64(grad[r*actions+k]); math.Abs(got-want) > 1e-6 {
					t.Errorf("ε %v row %d action %d: ∂loss/∂z %.7f, want (π·Σtarget − target)/B = %.7f", eps, r, k, got, want)
				}
			}
		}
		// The formula on the rows with a teacher and legal actions, from
		// the definition: π − ((1−ε)·onehot + ε/|legal|).
		var s float64
		for _, k := range []int{1, 3, 6} {
			s += math.Exp(float64(z[k]))
		}
		p3 := math.Exp(float64(z[3])) / s
		if want := (p3 - (1 - eps + eps/3)) / rows; math.Abs(float64(grad[3])-want) > 1e-6 {
			t.Errorf("ε %v: ∂loss/∂z for the teacher's action %.7f, want %.7f", eps, grad[3], want)
		}
	}
}

func sum(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x)
	}
	return s
}

// toyBatch is n Rectangle decisions (8×8, 2 robots) with random planes,
// random legal actions (about a third of each head's) and the lowest legal
// action as the teacher's: a one-hot teacher a small network learns.
func toyBatch(t *testing.T, n int) (graph.Samples, []float32) {
	t.Helper()
	g, err := rules.Lookup("rectangle")
	if err != nil {
		t.Fatal(err)
	}
	rc, err := g.Configure(map[string]string{"n": "8", "robots": "2"})
	if err != nil {
		t.Fatal(err)
	}
	sp := g.Encoder(rc).Space()
	s := graph.Samples{OS: sp.ObsSize(), NS: sp.Scalars, MW: sp.MaskWords(), Heads: sp.Heads}
	rng := rules.NewRNG(11)
	for i := 0; i < n; i++ {
		for j := 0; j < s.OS; j++ {
			s.Planes = append(s.Planes, uint8(rng.U(2)))
		}
		for j := 0; j < s.NS; j++ {
			s.Scalars = append(s.Scalars, float32(rng.Float64()))
		}
		mask := make([]uint64, s.MW)
		for h := 0; h < sp.Heads; h++ {
			act := int32(-1)
			for k := 0; k < sp.Actions; k++ {
				if rng.U(3) == 0 || (k == sp.Actions-1 && act < 0) {
					b := h*sp.Actions + k
					mask[b>>6] |= 1 << (b & 63)
					if act < 0 {
						act = int32(k)
					}
				}
			}
			s.Actions = append(s.Actions, act)
		}
		s.Masks = append(s.Masks, mask...)
	}
	return s, make([]float32, n)
}

// A short behaviour-cloning fit with label smoothing 0.1 ends with a policy
// entropy far above the plain fit's, which collapses onto the one-hot
// teacher, while its greedy policy still plays the teacher's actions.
func TestBCSmoothingKeepsEntropy(t *testing.T) {
	s, values := toyBatch(t, 64)
	fitWith := func(eps float64) BCStats {
		net := testNet(t, "rectangle", map[string]string{"n": "8", "robots": "2"}, true)
		st, err := fit(context.Background(), net, s, values, nil, CloneConfig{Seed: 5,
			BC: BCConfig{Epochs: 40, LR: 0.01, Minibatch: 16, LabelSmoothing: eps}}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	plain, smooth := fitWith(0), fitWith(0.1)
	t.Logf("ε 0: entropy %.4f, accuracy %.3f, loss %.4f; ε 0.1: entropy %.4f, accuracy %.3f, loss %.4f",
		plain.Entropy, plain.Accuracy, plain.Loss, smooth.Entropy, smooth.Accuracy, smooth.Loss)
	if plain.Accuracy < 0.9 || smooth.Accuracy < 0.9 {
		t.Errorf("teacher accuracy %.3f (ε 0), %.3f (ε 0.1): the toy teacher is not learnt", plain.Accuracy, smooth.Accuracy)
	}
	if !(smooth.Entropy > 0.2 && smooth.Entropy > 3*plain.Entropy) {
		t.Errorf("entropy %.4f with ε 0.1, %.4f without: want > 0.2 and 3 times", smooth.Entropy, plain.Entropy)
	}
}

// bc.label_smoothing outside [0, 1) is refused by the config and by Clone,
// naming the field.
func TestBCSmoothingRange(t *testing.T) {
	for _, v := range []string{"1", "1.5", "-0.1", ".nan"} {
		_, err := ParseConfig([]byte("game: slime\nbc: {label_smoothing: "+v+"}"), "test.yaml")
		if err == nil || !strings.Contains(err.Error(), "bc.label_smoothing") {
			t.Errorf("label_smoothing %s: err = %v, want one naming bc.label_smoothing", v, err)
		}
	}
	c, err := ParseConfig([]byte("game: slime\nbc: {label_smoothing: 0.15}"), "test.yaml")
	if err != nil || c.BC.LabelSmoothing != 0.15 {
		t.Fatalf("label_smoothing 0.15: %v, %v", c.BC.LabelSmoothing, err)
	}
	net := testNet(t, "slime", nil, false)
	_, err = Clone(context.Background(), net, CloneConfig{Shards: t.TempDir(), BC: BCConfig{Samples: 10, Epochs: 1, LR: 0.01, Minibatch: 4, LabelSmoothing: 1}})
	if err == nil || !strings.Contains(err.Error(), "bc.label_smoothing") {
		t.Errorf("Clone with label smoothing 1: err = %v, want one naming bc.label_smoothing", err)
	}
}
