package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gridgym league on the test game: a round of seconds, its progress lines
// and summary, the main agent's final weights and the learning curve;
// the same --dir again resumes it to a later round; the main agent plays
// in a tournament by its file name.
func TestLeagueCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lg")
	args := []string{"league", "--game", "four-square", "--dir", dir, "--rounds", "1", "--iterations", "1", "--draws", "2",
		"--payoff-games", "2", "--eval", "first", "--eval-games", "2", "--workers", "1"}
	out, err := run(args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"== league of four-square", "round 1", "main-exploiter", "win share", "eval vs first", "main/final.safetensors"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"league.json", "curve.csv", "main/final.safetensors", "initial.safetensors"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	out, err = run("league", "--dir", dir, "--rounds", "2", "--workers", "1", "-q")
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if !strings.Contains(out, "round 1,") || !strings.Contains(out, "2 rounds") {
		t.Errorf("resume did not go on from round 1 to 2:\n%s", out)
	}
	final := filepath.Join(dir, "main", "final.safetensors")
	if out, err := run("tournament", "-g", "four-square", "-b", final+",first", "-n", "2", "-q"); err != nil {
		t.Errorf("tournament with the main agent: %v\n%s", err, out)
	}
}

// Bad inputs exit 2 with a message that says what is wrong.
func TestLeagueBadInputs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lg")
	if out, err := run("league", "--game", "four-square", "--dir", dir, "--rounds", "1", "--iterations", "1", "--payoff-games", "2", "--workers", "1", "-q"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	fresh := filepath.Join(t.TempDir(), "new")
	checkRefusals(t, []refusal{
		{[]string{"league", "--game", "four-square", "--rounds", "1"}, "no league folder"},
		{[]string{"league", "--game", "four-square", "--dir", fresh}, "no budget"},
		{[]string{"league", "--dir", fresh, "--rounds", "1"}, "no game"},
		{[]string{"league", "--game", "chess", "--dir", fresh, "--rounds", "1"}, "chess"},
		{[]string{"league", "--game", "four-square", "--dir", fresh, "--rounds", "1", "--draws", "0"}, "draws"},
		{[]string{"league", "--game", "four-square", "--dir", fresh, "--rounds", "1", "--config", filepath.Join(fresh, "none.yaml")}, "none.yaml"},
		{[]string{"league", "--dir", dir, "--rounds", "2", "--seed", "4"}, "fixed when it was created"},
		{[]string{"league", "--dir", dir, "--game", "slime", "--rounds", "2"}, "not slime"},
		{[]string{"league", "--dir", dir, "--minutes", "-1"}, "minutes"},
		{[]string{"league", "--game", "four-square", "--dir", fresh, "--rounds", "1", "--exploit-with", "field"}, "exploit-with: company first: 1 bots, want 0"},
		{[]string{"league", "--dir", dir, "--rounds", "2", "--exploit-with", "field"}, "(--exploit-with)"},
	})
}
