package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules/rulestest"
)

// gridgym weights play shows and sets a weights file's play settings; a
// tournament names the settings each network plays with — stored in its
// weights, or the spec's over them — and says nothing for a greedy network
// that stores none; bad settings, --temp-steps alone on a greedy file and
// a URL to write are bad input (issue 54).
func TestWeightsPlayCommand(t *testing.T) {
	w, b := rulestest.PolicyCopy(t, "four-square", 0o644)
	table := func(spec string) string {
		t.Helper()
		out, err := run("tournament", "-g", "four-square", "-b", "net="+spec+",first", "-n", "2", "-q", "--workers", "1")
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return out
	}
	for _, step := range []struct {
		args []string
		want string
	}{
		{nil, w + ": greedy (no play settings stored)"},
		{[]string{"--temperature", "6", "--temp-steps", "1"}, w + ": temp 6, first step (was greedy)"},
		{nil, w + `: temp 6, first step (stored: {"temperature":6,"steps":1})`},
		{[]string{"--temp-steps", "2"}, w + ": temp 6, first 2 steps (was temp 6, first step)"},
	} {
		out, err := run(append([]string{"weights", "play", w}, step.args...)...)
		if err != nil || !strings.Contains(out, step.want) {
			t.Fatalf("weights play %v: %v\n%s\nwant %q", step.args, err, out, step.want)
		}
	}
	if out := table(w); !strings.Contains(out, "play settings: net plays temp 6, first 2 steps, stored in its weights ("+w+":temp=0 plays it greedy)") {
		t.Errorf("the table does not name the stored settings:\n%s", out)
	}
	if out := table(w + ":temp=0"); !strings.Contains(out, "play settings: net plays greedy, the spec's over its weights' temp 6, first 2 steps") {
		t.Errorf("the table does not name the override:\n%s", out)
	}
	if out, err := run("weights", "play", w, "--temperature", "0"); err != nil || !strings.Contains(out, "greedy (was temp 6, first 2 steps)") {
		t.Fatalf("--temperature 0: %v\n%s", err, out)
	}
	if out := table(w); strings.Contains(out, "play settings:") {
		t.Errorf("a greedy network without stored settings got a note:\n%s", out)
	}
	for _, args := range [][]string{
		{"weights", "play", w, "--temperature", "-1"},
		{"weights", "play", w, "--temperature", "101"},
		{"weights", "play", w, "--temp-steps", "1"},
		{"weights", "play", w, "--opening", "8"}, // four-square has no opening
		{"weights", "play", w, "--opening", "65"},
		{"weights", "play", w, "--guard"}, // nor a guard
		{"weights", "play", "s3://bucket/run?endpoint=http://minio:9000", "--temperature", "6"},
		{"weights", "play", filepath.Join(t.TempDir(), "missing.safetensors")},
	} {
		if out, err := run(args...); err == nil || exitStatus(err) != 2 {
			t.Errorf("%v: %v, want exit 2\n%s", args[2:], err, out)
		}
	}
	if after, _ := os.ReadFile(w); string(after) != string(b) {
		t.Error("setting and clearing the settings did not give the file back")
	}
	// Rectangle has an opening (rules.Opener): it is stored alone and kept
	// when the temperature changes.
	r, _ := rulestest.PolicyCopy(t, "rectangle", 0o644)
	for _, step := range []struct {
		args []string
		want string
	}{
		{[]string{"--opening", "8"}, r + ": greedy, opening 8 (was greedy)"},
		{[]string{"--temperature", "6", "--temp-steps", "1"}, r + ": temp 6, first step, opening 8 (was greedy, opening 8)"},
		{[]string{"--opening", "0"}, r + ": temp 6, first step (was temp 6, first step, opening 8)"},
	} {
		out, err := run(append([]string{"weights", "play", r}, step.args...)...)
		if err != nil || !strings.Contains(out, step.want) {
			t.Fatalf("weights play %v: %v\n%s\nwant %q", step.args, err, out, step.want)
		}
	}
	// Bovine Borders has a guard (rules.Guarder): stored beside the
	// temperature, kept when it changes, removed by --guard=false.
	v, _ := rulestest.PolicyCopy(t, "bovine-borders", 0o644)
	for _, step := range []struct {
		args []string
		want string
	}{
		{[]string{"--temperature", "1", "--guard"}, v + ": temp 1, guard (was greedy)"},
		{[]string{"--temperature", "2"}, v + ": temp 2, guard (was temp 1, guard)"},
		{[]string{"--guard=false"}, v + ": temp 2 (was temp 2, guard)"},
	} {
		out, err := run(append([]string{"weights", "play", v}, step.args...)...)
		if err != nil || !strings.Contains(out, step.want) {
			t.Fatalf("weights play %v: %v\n%s\nwant %q", step.args, err, out, step.want)
		}
	}
}
