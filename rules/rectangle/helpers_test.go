package rectangle

import (
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// build returns a custom state (README "custom states") of side len(rows)
// from a map: '.' unpainted, '#' unpaintable, a digit the painting player.
// Scores are set so that I3 holds with every unpaintable cell credited to
// player 0 unless the test sets them. The clock says moves are under way.
func build(t *testing.T, p, b int, rows []string) *State {
	t.Helper()
	n := len(rows)
	s := NewSized(n, p, b, 100, 2000)
	unp := 0
	for r, row := range rows {
		if len(row) != n {
			t.Fatalf("map row %d has %d cells, want %d", r, len(row), n)
		}
		for c := 0; c < n; c++ {
			switch ch := row[c]; {
			case ch == '.':
			case ch == '#':
				s.SetCell(r, c, Unpaintable)
				unp++
			case ch >= '0' && ch <= '9':
				s.SetCell(r, c, int(ch-'0'))
			default:
				t.Fatalf("map cell %q", ch)
			}
		}
	}
	s.SetScore(0, unp)
	s.SetClock(10, 3)
	return s
}

// park puts every robot not listed in placed on its own cell of the bottom
// row, from the right ("unlisted robots are far away and play X").
func park(s *State, placed map[[2]int]bool) {
	c := s.n - 1
	for i := 0; i < s.p; i++ {
		for k := 0; k < s.b; k++ {
			if !placed[[2]int{i, k}] {
				s.SetRobot(i, k, s.n-1, c)
				c--
			}
		}
	}
}

// robots places the listed robots (player, robot, r, c) and parks the rest.
func robots(s *State, list ...[4]int) {
	placed := map[[2]int]bool{}
	for _, x := range list {
		s.SetRobot(x[0], x[1], x[2], x[3])
		placed[[2]int{x[0], x[1]}] = true
	}
	park(s, placed)
}

// mapOf draws the board as build reads it.
func mapOf(s *State) []string {
	out := make([]string, s.n)
	for r := 0; r < s.n; r++ {
		var b strings.Builder
		for c := 0; c < s.n; c++ {
			switch v := s.Cell(r, c); {
			case v == Unpaintable:
				b.WriteByte('#')
			case v == Unpainted:
				b.WriteByte('.')
			default:
				b.WriteByte(byte('0' + v))
			}
		}
		out[r] = b.String()
	}
	return out
}

// wantMap fails unless the board is exactly rows.
func wantMap(t *testing.T, s *State, rows []string) {
	t.Helper()
	got := mapOf(s)
	if strings.Join(got, "\n") != strings.Join(rows, "\n") {
		t.Fatalf("board:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(rows, "\n"))
	}
}

// dirs builds the moves of all players from direction strings ("" = all X).
func dirs(s *State, per ...string) []rules.Move {
	moves := make([]rules.Move, s.p)
	for i := range moves {
		ds := make([]Dir, s.b)
		for k := range ds {
			ds[k] = Stay
			if i < len(per) && k < len(per[i]) {
				d, ok := DirOf(per[i][k])
				if !ok {
					panic("bad direction " + per[i])
				}
				ds[k] = d
			}
		}
		moves[i] = DirsMove(ds)
	}
	return moves
}

// mustCheck fails on a broken invariant.
func mustCheck(t *testing.T, s *State) {
	t.Helper()
	if err := s.Check(); err != nil {
		t.Fatalf("Check: %v\n%s", err, strings.Join(mapOf(s), "\n"))
	}
}

// wantScores fails unless the scores are want.
func wantScores(t *testing.T, s *State, want ...int) {
	t.Helper()
	for i, w := range want {
		if s.Score(i) != w {
			t.Fatalf("score of player %d = %d, want %d (all: %v)", i, s.Score(i), w, s.score[:s.p])
		}
	}
}

// wantRobot fails unless robot k of player i is at (r, c).
func wantRobot(t *testing.T, s *State, i, k, r, c int) {
	t.Helper()
	if gr, gc := s.Robot(i, k); gr != r || gc != c {
		t.Fatalf("robot %d of player %d at (%d,%d), want (%d,%d)", k, i, gr, gc, r, c)
	}
}

func cfgOf(t testing.TB, kv map[string]string) rules.Config {
	t.Helper()
	g, err := rules.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := g.Configure(kv)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
