package nuggets

import (
	"bytes"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	s := at(61)
	s.SetCell(0, 0, 0)
	s.SetCell(1, 0, 0)
	s.SetCell(19, 19, 3)
	var b bytes.Buffer
	s.Render(&b, false)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != Size+1 || lines[0] != "00"+strings.Repeat(".", 18) || lines[19] != strings.Repeat(".", 19)+"3" {
		t.Fatalf("render:\n%s", b.String())
	}
	if want := "move 61/260 build P=3 log-score 0:0.693 1:0.000 2:0.000 3:0.000"; lines[20] != want {
		t.Errorf("status %q, want %q", lines[20], want)
	}
	b.Reset()
	s.Render(&b, true)
	if !strings.Contains(b.String(), "\x1b[43m3\x1b[0m") {
		t.Errorf("colour render lacks seat 3's colour: %q", b.String())
	}
}

// The compact words follow the package doc's layout; SetWords rejects bad
// input and leaves the state unchanged.
func TestWords(t *testing.T) {
	s := at(77)
	s.SetCell(4, 2, 1)
	s.SetCell(19, 19, 3)
	w := s.AppendWords(nil)
	if len(w) != 81 || w[0] != 77 || w[1+20*1+2] != 1<<4 || w[1+20*3+19] != 1<<19 {
		t.Fatalf("words %v", w)
	}
	for name, bad := range map[string]func([]uint64){
		"short":        func(w []uint64) {},
		"move 261":     func(w []uint64) { w[0] = 261 },
		"bit 20":       func(w []uint64) { w[5] |= 1 << 20 },
		"two colours":  func(w []uint64) { w[1+20*0+2] |= 1 << 4 },
		"huge move":    func(w []uint64) { w[0] = 1 << 63 },
		"off-board 63": func(w []uint64) { w[80] |= 1 << 63 },
	} {
		c := append([]uint64(nil), w...)
		bad(c)
		if name == "short" {
			c = c[:80]
		}
		d := at(3)
		if err := d.SetWords(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if d.MoveNum() != 3 || d.Colored() != 0 {
			t.Errorf("%s: state changed on error", name)
		}
	}
	d := NewDefault()
	if err := d.SetWords(w); err != nil || d.own != s.own || d.t != s.t {
		t.Errorf("round trip: %v", err)
	}
}
