package neural_test

import (
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
)

// Average is each parameter's weighted mean: the mean of a net and itself
// is that net bit for bit, weights 3:1 land a quarter of the way, and the
// inputs are left as they were.
func TestAverage(t *testing.T) {
	a, _ := newNet(t, "slime")
	b, err := neural.NewInit(a.Arch, rules.NewRNG(2))
	if err != nil {
		t.Fatal(err)
	}
	before := b.Clone()
	self, err := neural.Average([]*neural.Net{a, a, a}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for p := range a.Values {
		for j := range a.Values[p] {
			if self.Values[p][j] != a.Values[p][j] {
				t.Fatalf("mean of a net and itself: %s[%d] = %g, want %g", a.Params[p].Name, j, self.Values[p][j], a.Values[p][j])
			}
		}
	}
	m, err := neural.Average([]*neural.Net{a, b}, []float64{3, 1})
	if err != nil {
		t.Fatal(err)
	}
	diff := 0
	for p := range a.Values {
		for j, x := range a.Values[p] {
			want := float32(0.75*float64(x) + 0.25*float64(b.Values[p][j]))
			if m.Values[p][j] != want {
				t.Fatalf("3:1 mean: %s[%d] = %g, want %g", a.Params[p].Name, j, m.Values[p][j], want)
			}
			if x != b.Values[p][j] {
				diff++
			}
			if b.Values[p][j] != before.Values[p][j] {
				t.Fatal("Average changed its input")
			}
		}
	}
	if diff == 0 {
		t.Fatal("the two nets are equal: the test proves nothing")
	}
	// A 3×3 tower of other filters has no mean with a; bad weights are refused.
	other := a.Arch
	other.Filters *= 2
	c, err := neural.NewInit(other, rules.NewRNG(3))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		nets []*neural.Net
		coef []float64
		want string
	}{
		{nil, nil, "no networks"},
		{[]*neural.Net{a, c}, nil, "network 2's architecture"},
		{[]*neural.Net{a, b}, []float64{1}, "1 weights for 2 networks"},
		{[]*neural.Net{a, b}, []float64{1, -1}, "weight 2 is -1"},
		{[]*neural.Net{a, b}, []float64{0, 0}, "add up to 0"},
	} {
		if _, err := neural.Average(tc.nets, tc.coef); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Average(%d nets, %v): err %v, want one containing %q", len(tc.nets), tc.coef, err, tc.want)
		}
	}
}
