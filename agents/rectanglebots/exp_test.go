package rectanglebots

import (
	"fmt"
	"os"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

func TestExpFlicker(t *testing.T) {
	if os.Getenv("EXP") == "" {
		t.Skip()
	}
	cfg := config(t, nil)
	switches, valid, moves, idle := 0, 0, 0, 0
	noplan, notarget, ontarget, other := 0, 0, 0, 0
	for g := 0; g < 20; g++ {
		s := rectangle.New(cfg)
		bots := []agents.Agent{&Planner{}, &Boxer{}, &agents.Random{}, passBot{}}
		for i, b := range bots {
			b.Reset(s, i, rules.Derive(uint64(g), uint64(i)))
		}
		ms := make([]rules.Move, 4)
		var prev [4]rectangle.Plan
		var v rectangle.View
		plans := make([]rectangle.Plan, 4)
		for !s.Done() {
			s.View(0, &v)
			rectangle.Plans(&v, plans)
			if v.MoveNum > 1 {
				for i, p := range plans {
					moves++
					if p.Step == rectangle.Stay {
						idle++
						switch {
						case p.K == 0:
							noplan++
						case p.TR < 0:
							notarget++
						case p.TR == v.Pos[0][i].R && p.TC == v.Pos[0][i].C:
							ontarget++
						default:
							other++
						}
					}
					q := prev[i]
					if q.K > 0 && (p.R != q.R || p.C != q.C || p.K != q.K) {
						switches++
						ok := true
						for y := q.R; y < q.R+q.K; y++ {
							for x := q.C; x < q.C+q.K; x++ {
								if v.Board[y][x] == rectangle.Unpaintable {
									ok = false
								}
							}
						}
						if ok {
							valid++
						}
					}
				}
			}
			copy(prev[:], plans)
			for i, b := range bots {
				ms[i] = b.Act(s)
			}
			s.Step(ms, nil)
		}
	}
	fmt.Println("robot-moves", moves, "switches", switches, "switches while old plan still open", valid, "stays", idle, "noplan", noplan, "notarget", notarget, "ontarget", ontarget, "other", other)
}

type passBot struct{}

func (passBot) Reset(rules.State, int, *rules.RNG) {}
func (passBot) Act(rules.State) rules.Move        { return rules.Move{} }

func TestExpCurve(t *testing.T) {
	if os.Getenv("EXP") == "" {
		t.Skip()
	}
	cfg := config(t, nil)
	var at [6][2]float64
	marks := []int{25, 50, 100, 200, 400, 2000}
	for g := 0; g < 100; g++ {
		s := rectangle.New(cfg)
		bots := []agents.Agent{&Planner{}, &Boxer{}, &agents.Random{}, passBot{}}
		seat := func(k int) int { return (k + g) % 4 }
		order := make([]agents.Agent, 4)
		for k, b := range bots {
			order[seat(k)] = b
		}
		for i, b := range order {
			b.Reset(s, i, rules.Derive(uint64(g), uint64(i)))
		}
		ms := make([]rules.Move, 4)
		for !s.Done() {
			for i, b := range order {
				ms[i] = b.Act(s)
			}
			s.Step(ms, nil)
			for m, t := range marks {
				if s.MoveNum() == t+1 || (s.Done() && s.MoveNum() <= t+1) {
					at[m][0] += float64(s.Score(seat(0)))
					at[m][1] += float64(s.Score(seat(1)))
				}
			}
		}
	}
	for m, t := range marks {
		fmt.Printf("t=%d planner %.1f boxer %.1f\n", t, at[m][0]/100, at[m][1]/100)
	}
}
