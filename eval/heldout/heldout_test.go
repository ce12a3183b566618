package heldout

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/eval"
	_ "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
)

func iterations(cps []neural.RunCheckpoint) []int {
	var its []int
	for _, c := range cps {
		its = append(its, c.Iteration)
	}
	return its
}

// SelectCheckpoints: n evenly spaced from the first to the last, all of
// them for n ≥ their number or 0, the last for 1, the named iterations in
// the order given, and an error listing the iterations there are.
func TestSelectCheckpoints(t *testing.T) {
	var cps []neural.RunCheckpoint
	for it := 0; it <= 100; it += 10 {
		cps = append(cps, neural.RunCheckpoint{Iteration: it, Path: "x"})
	}
	for _, c := range []struct {
		n    int
		its  []int
		want []int
	}{
		{0, nil, []int{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100}},
		{11, nil, []int{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100}},
		{50, nil, []int{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100}},
		{1, nil, []int{100}},
		{2, nil, []int{0, 100}},
		{3, nil, []int{0, 50, 100}},
		{5, nil, []int{0, 20, 50, 70, 100}},
		{3, []int{90, 10}, []int{90, 10}},
	} {
		got, err := SelectCheckpoints(cps, c.n, c.its)
		if err != nil || !reflect.DeepEqual(iterations(got), c.want) {
			t.Errorf("n %d iterations %v: %v %v, want %v", c.n, c.its, iterations(got), err, c.want)
		}
	}
	if _, err := SelectCheckpoints(cps[:3], 0, []int{15}); err == nil || !strings.Contains(err.Error(), "no checkpoint of iteration 15 (the run has [0 10 20])") {
		t.Errorf("a missing iteration: %v", err)
	}
}

// Verdict follows the interval: above when all of it is above 0, below
// when all of it is below, level when it holds 0 (an end at 0 included).
func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{{0.1, 2, "above"}, {-2, -0.1, "below"}, {-1, 1, "level"}, {0, 1, "level"}, {-1, 0, "level"}} {
		if got := Verdict(eval.Margin{Lo: c.lo, Hi: c.hi}); got != c.want {
			t.Errorf("[%v, %v]: %s, want %s", c.lo, c.hi, got, c.want)
		}
	}
}

// Companies: the reference bots, then the field, each cut to the seats;
// the field is left out where it comes out as the reference company, and a
// game without either plays its tables alone.
func TestCompanies(t *testing.T) {
	for _, c := range []struct {
		game string
		want []Company
	}{
		{"slime", []Company{{"reference", []string{"greedy", "simplebot"}}, {"field", []string{"simplebot", "simplebot"}}}},
		{"rising-tide", []Company{{"reference", []string{"siege_sofia", "solo_stockholm"}}, {"field", []string{"trench_tunis", "nearby_new_orleans"}}}},
	} {
		g, _ := rules.Lookup(c.game)
		if got := Companies(g.Default()); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.game, got, c.want)
		}
	}
	// Two seats: no room beside the bot and the held-out bot; one company, alone.
	g, _ := rules.Lookup("rectangle")
	two, err := g.Configure(map[string]string{"players": "2"})
	if err != nil {
		t.Fatal(err)
	}
	if got := Companies(two); len(got) != 1 || got[0].Name != "reference" || len(got[0].Bots) != 0 {
		t.Errorf("a two-seat game: %v, want the reference company, empty", got)
	}
}
