package main

import (
	"os/exec"
	"testing"
)

// The commands gridgym prints for the user to run next name folders the
// user chose: each word must reach the program as it was, whatever it holds.
func TestShellWord(t *testing.T) {
	for _, s := range []string{
		"results/run-1/heldout-curve",
		"py:./bots/my_bot.py,random",
		"s3://bucket/run?endpoint=http://x:9000&region=a",
		"my runs/first try",
		"it's",
		"$HOME `x` \"y\" \\z;*",
		"",
	} {
		w := shellWord(s)
		if s == "results/run-1/heldout-curve" && w != s {
			t.Errorf("shellWord(%q) = %q: a plain path is written as it is", s, w)
		}
		out, err := exec.Command("sh", "-c", "printf %s "+w).Output()
		if err != nil {
			t.Fatalf("sh -c 'printf %%s %s': %v", w, err)
		}
		if string(out) != s {
			t.Errorf("shellWord(%q) = %s: the shell reads it as %q", s, w, out)
		}
	}
}
