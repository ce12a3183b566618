package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSplitLabel(t *testing.T) {
	for _, c := range []struct{ in, label, rest string }{
		{"net=runs/a/best.safetensors", "net", "runs/a/best.safetensors"},
		{"greedy", "", "greedy"},
		{"=x", "", "=x"},
		{"s3://b/p?endpoint=http://m:9000", "", "s3://b/p?endpoint=http://m:9000"},
		{"cmd:prog --x=1", "", "cmd:prog --x=1"},
		{"my-bot_2.0+=py:bot.py", "my-bot_2.0+", "py:bot.py"},
		{"a b=c", "", "a b=c"},
	} {
		l, r := SplitLabel(c.in)
		if l != c.label || r != c.rest {
			t.Errorf("SplitLabel(%q) = %q, %q; want %q, %q", c.in, l, r, c.label, c.rest)
		}
	}
}

func TestLabels(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		in   []string
		want []string
		err  string
	}{
		{"registered names stay", []string{"greedy", "random", "greedy"}, []string{"greedy", "random", "greedy"}, ""},
		{"explicit labels", []string{"clone=/root/ggbin/bov-bc.safetensors", "greedy"}, []string{"clone", "greedy"}, ""},
		{"absolute path outside the working directory: two elements", []string{"/root/ggbin/bov-bc.safetensors"}, []string{"ggbin/bov-bc.safetensors"}, ""},
		{"tails made unique", []string{"/x/a/run/best.safetensors", "/x/b/run/best.safetensors"}, []string{"a/run/best.safetensors", "b/run/best.safetensors"}, ""},
		{"under the working directory: relative", []string{filepath.Join(wd, "runs", "s1")}, []string{"runs/s1"}, ""},
		{"relative paths kept, cleaned", []string{"./runs//s1/"}, []string{"runs/s1"}, ""},
		{"schemes kept", []string{"py:/home/u/bots/my_bot.py", "cmd:" + filepath.Join(wd, "bot")}, []string{"py:bots/my_bot.py", "cmd:bot"}, ""},
		{"URLs kept whole", []string{"s3://b/runs/x?endpoint=http://m"}, []string{"s3://b/runs/x?endpoint=http://m"}, ""},
		{"a label clashing with another bot", []string{"greedy=random", "greedy"}, nil, "both shown as"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Labels(c.in)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("Labels(%q) error %v, want one containing %q", c.in, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("Labels(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestLookupLabel(t *testing.T) {
	Register("label-test-game", "bot", "a test bot", func() Agent { return Pass{} })
	e, err := Lookup("label-test-game", "mine=bot")
	if err != nil || e.Name != "mine" {
		t.Fatalf("Lookup(mine=bot) = %+v, %v; want the bot named mine", e, err)
	}
	if _, err := Lookup("label-test-game", "mine=nobot"); err == nil || !strings.Contains(err.Error(), "bot mine") {
		t.Fatalf("Lookup(mine=nobot) error %v, want one naming the label", err)
	}
}
