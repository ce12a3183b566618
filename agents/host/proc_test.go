package host

import (
	"slices"
	"strings"
	"testing"
)

// Two processes of one bot share its --bot-log file, and each writes its
// text and its newline apart (as Python's print does): every line reaches
// the file whole, and a last line without a newline arrives at flush.
func TestTailWriterKeepsLinesWhole(t *testing.T) {
	cases := []struct {
		name   string
		pieces []string // what each process writes, in order
	}{
		{"text then newline", []string{"beta says 2", "\n", "beta says 3", "\n"}},
		{"byte at a time", strings.Split("one\ntwo\n", "")},
		{"several lines in one piece", []string{"a\nb\nc", "\nd\n"}},
		{"no final newline", []string{"x\ny"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out syncBuffer
			var ws [2]tailWriter
			for i := range ws {
				ws[i].out = &out
			}
			// Interleave the two processes' pieces as badly as possible.
			for _, p := range c.pieces {
				for i := range ws {
					ws[i].Write([]byte(p))
				}
			}
			// Lines may interleave between the processes, never within one.
			text := strings.Join(c.pieces, "")
			cut := strings.LastIndex(text, "\n") + 1
			whole, rest := text[:cut], text[cut:]
			if got, want := sortedLines(out.String()), sortedLines(whole+whole); got != want {
				t.Errorf("before flush the log's lines are %q, want each process's whole lines: %q", got, want)
			}
			for i := range ws {
				ws[i].flush()
			}
			if got, want := out.String(), rest+rest; !strings.HasSuffix(got, want) || len(got) != 2*len(text) {
				t.Errorf("after flush the log holds %q, want it to end with the unfinished lines %q", got, want)
			}
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			if last := ws[0].last(); last != lines[len(lines)-1] {
				t.Errorf("last() = %q, want %q", last, lines[len(lines)-1])
			}
		})
	}
}

// sortedLines is s's lines, sorted, for comparing logs whose lines may come
// in any order.
func sortedLines(s string) string {
	l := strings.SplitAfter(s, "\n")
	slices.Sort(l)
	return strings.Join(l, "|")
}
