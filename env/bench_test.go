package env

import (
	"testing"
	"time"

	"github.com/gridgym/gridgym/rules"
	_ "github.com/gridgym/gridgym/rules/slime"
)

// StepBytes counts what Step writes per env: Slime has 4 seats, each with
// 5·8·8 plane bytes, 9 float32 scalars and 25 mask words (1537 actions).
func TestStepBytes(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	cfg := g.Default()
	if got, want := StepBytes(cfg, true), 4*(5*64+4*9+8*25); got != want {
		t.Errorf("StepBytes(obs) = %d, want %d", got, want)
	}
	if got, want := StepBytes(cfg, false), 4*8*25; got != want {
		t.Errorf("StepBytes(masks) = %d, want %d", got, want)
	}
	for _, w := range []int{1, 2} {
		m := BenchStores(16, StepBytes(cfg, true), w, 5*time.Millisecond)
		if m.Rate <= 0 || m.Steps <= 0 || m.Steps%16 != 0 || m.Workers != w || m.N != 16 {
			t.Errorf("BenchStores(workers %d) = %+v", w, m)
		}
	}
}
