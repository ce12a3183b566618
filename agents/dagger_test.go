package agents

import (
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

const daggerGame = "dagger-test"

// fixed answers one move, counting the positions it was asked about.
type fixed struct {
	m     rules.Move
	asked int
	seat  int
}

func (f *fixed) Reset(_ rules.State, seat int, _ *rules.RNG) { f.seat = seat }
func (f *fixed) Act(rules.State) rules.Move                  { f.asked++; return f.m }

func init() {
	Register(daggerGame, "teacher", "answers cell 1", func() Agent { return &fixed{m: rules.Move{N: 1, Arg: [8]int16{1}}} })
	Register(daggerGame, "student", "answers cell 2", func() Agent { return &fixed{m: rules.Move{N: 1, Arg: [8]int16{2}}} })
	RegisterHeldOut(daggerGame, "secret", "held out", func() Agent { return &fixed{} })
}

// A dagger:TEACHER:PLAYER bot plays the player's move, labels it with
// the teacher's answer to the same position, resets and asks both every
// time; it is held out when either part is; malformed specs are errors
// that say the form.
func TestDagger(t *testing.T) {
	e, err := Lookup(daggerGame, "dagger:teacher:student")
	if err != nil {
		t.Fatal(err)
	}
	d := e.New().(*Dagger)
	d.Reset(nil, 3, rules.NewRNG(1))
	for i := 0; i < 3; i++ {
		if m := d.Act(nil); m.Arg[0] != 2 {
			t.Fatalf("played %+v, want the student's move", m)
		}
		if l := d.Label(); l.Arg[0] != 1 {
			t.Fatalf("label %+v, want the teacher's move", l)
		}
	}
	te, pl := d.Teacher.(*fixed), d.Player.(*fixed)
	if te.asked != 3 || pl.asked != 3 || te.seat != 3 || pl.seat != 3 {
		t.Errorf("teacher asked %d times (seat %d), player %d (seat %d); want 3 each, seat 3", te.asked, te.seat, pl.asked, pl.seat)
	}
	if e.HeldOut {
		t.Error("dagger of two project bots marked held out")
	}
	for _, spec := range []string{"dagger:secret:student", "dagger:teacher:secret"} {
		if e, err := Lookup(daggerGame, spec); err != nil || !e.HeldOut {
			t.Errorf("%s: held out %v, err %v; want held out", spec, e.HeldOut, err)
		}
	}
	for spec, want := range map[string]string{
		"dagger:teacher":         "dagger:TEACHER:PLAYER",
		"dagger::student":        "dagger:TEACHER:PLAYER",
		"dagger:nobody:student":  "teacher",
		"dagger:teacher:nobody2": "player",
	} {
		if _, err := Lookup(daggerGame, spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one with %q", spec, err, want)
		}
	}
}
