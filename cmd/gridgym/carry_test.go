package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/export/exporttest"
)

// TestCarriedParams: a network trained with a parameter the game state
// carries (rules.Param.Carried: Rectangle's ring_memory) is played in games
// configured with it, though the user did not set it; a conflicting -p is a
// usage error that says what to do; networks without it play anywhere.
func TestCarriedParams(t *testing.T) {
	write := func(params map[string]string) string {
		_, b, _ := exporttest.RandomNetParams(t, "rectangle", params, 1)
		p := filepath.Join(t.TempDir(), "w.safetensors")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mem := write(map[string]string{"rings": "true", "ring_memory": "true"})
	rings := write(map[string]string{"rings": "true"})
	cases := []struct {
		name, bots string
		params     []string
		memory     bool
		err        string
	}{
		{"adopted", mem + ",planner", nil, true, ""},
		{"in a search", "search:" + mem + "@2,planner", nil, true, ""},
		{"set alike", mem + ",planner", []string{"rings=true,ring_memory=true"}, true, ""},
		{"beside a network without it", mem + "," + rings, nil, true, ""},
		{"not needed", rings + ",planner", nil, false, ""},
		{"conflict", mem + ",planner", []string{"ring_memory=false"}, false, "trained with ring_memory=true"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gf := &gameFlags{game: "rectangle", params: c.params}
			cfg, _, err := gf.configAndBots(c.bots)
			if c.err != "" {
				var ue usageError
				if err == nil || !strings.Contains(err.Error(), c.err) || !errors.As(err, &ue) {
					t.Fatalf("err = %v, want a usage error with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Bool("ring_memory"); got != c.memory {
				t.Fatalf("ring_memory = %v, want %v (config %s)", got, c.memory, cfg)
			}
		})
	}
	// And a whole game: the network plays in the state that keeps its memory.
	if _, err := run("tournament", "--game", "rectangle", "-q", "--games", "1", "-p", "idle_limit=10,max_moves=30", "--bots", mem+",planner,boxer,random"); err != nil {
		t.Fatal(err)
	}
}
