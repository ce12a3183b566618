package train

import (
	"fmt"
	"os"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/agents/rectanglebots"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

func TestExpAgree(t *testing.T) {
	path := os.Getenv("NET")
	if path == "" {
		t.Skip()
	}
	net, cfg, err := neural.LoadFor("rectangle", path)
	if err != nil {
		t.Fatal(err)
	}
	agree, total := 0, 0
	var kinds [5][5]int
	for g := 0; g < 10; g++ {
		s := rectangle.New(cfg)
		ag, _ := neural.NewAgent(net, cfg, false)
		pl := &rectanglebots.Planner{}
		bots := []agents.Agent{ag, &rectanglebots.Boxer{}, &agents.Random{}, &agents.Random{}}
		for i, b := range bots {
			b.Reset(s, i, rules.Derive(uint64(g), uint64(i)))
		}
		pl.Reset(s, 0, nil)
		moves := make([]rules.Move, 4)
		for !s.Done() {
			for i, b := range bots {
				moves[i] = b.Act(s)
			}
			want := pl.Act(s)
			if s.Placement() {
				fmt.Println("placement net", moves[0].Arg[:4], "planner", want.Arg[:4])
			} else {
				for i := 0; i < 4; i++ {
					total++
					if moves[0].Arg[i] == want.Arg[i] {
						agree++
					}
					kinds[want.Arg[i]][moves[0].Arg[i]]++
				}
			}
			s.Step(moves, nil)
		}
	}
	fmt.Printf("agree %d/%d = %.4f\n", agree, total, float64(agree)/float64(total))
	fmt.Println("rows planner N E S W X, cols net:", kinds)
}
