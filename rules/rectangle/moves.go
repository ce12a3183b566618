package rectangle

import "github.com/gridgym/gridgym/rules"

// Move kinds (see the package doc).
const (
	KindPlace rules.MoveKind = 1 // placement: Arg[i] = cell r*n+c of robot i
	KindMove  rules.MoveKind = 2 // move: Arg[i] = Dir of robot i
)

// Dir is a robot's direction in a KindMove move (R2, R8).
type Dir = int16

// The directions, as Arg values of a KindMove move.
const (
	North Dir = 0 // (r−1, c)
	East  Dir = 1 // (r, c+1)
	South Dir = 2 // (r+1, c)
	West  Dir = 3 // (r, c−1)
	Stay  Dir = 4 // X
)

// DirLetters spells the directions as the protocol does (R20), indexed by Dir.
const DirLetters = "NESWX"

// validPlace reports whether m is a well-formed placement for this game.
func (s *State) validPlace(m rules.Move) bool {
	if m.Kind != KindPlace || int(m.N) != s.b {
		return false
	}
	cells := s.n * s.n
	for k := 0; k < s.b; k++ {
		if m.Arg[k] < 0 || int(m.Arg[k]) >= cells {
			return false
		}
	}
	return true
}

// validDirs reports whether m is a well-formed move for this game.
func (s *State) validDirs(m rules.Move) bool {
	if m.Kind != KindMove || int(m.N) != s.b {
		return false
	}
	for k := 0; k < s.b; k++ {
		if m.Arg[k] < North || m.Arg[k] > Stay {
			return false
		}
	}
	return true
}

// Legal implements rules.State: a valid placement at step 0, a valid direction
// list after it (R20). Pass is not legal (it means R9's default).
func (s *State) Legal(seat int, m rules.Move) bool {
	if !s.Active(seat) {
		return false
	}
	if s.steps == 0 {
		return s.validPlace(m)
	}
	return s.validDirs(m)
}

// LegalMoves implements rules.State. At a move step: all 5^b direction lists,
// robot 0's direction varying slowest. At the placement: only the n² moves
// that put every robot on one cell (see LegalMovesPartial).
func (s *State) LegalMoves(seat int, dst []rules.Move) []rules.Move {
	if !s.Active(seat) {
		return dst
	}
	m := rules.Move{N: uint8(s.b)}
	if s.steps == 0 {
		m.Kind = KindPlace
		for cell := 0; cell < s.n*s.n; cell++ {
			for k := 0; k < s.b; k++ {
				m.Arg[k] = int16(cell)
			}
			dst = append(dst, m)
		}
		return dst
	}
	m.Kind = KindMove
	total := 1
	for k := 0; k < s.b; k++ {
		total *= 5
	}
	for idx := 0; idx < total; idx++ {
		x := idx
		for k := s.b - 1; k >= 0; k-- {
			m.Arg[k] = int16(x % 5)
			x /= 5
		}
		dst = append(dst, m)
	}
	return dst
}

// LegalMovesPartial implements rules.Partial: at the placement LegalMoves
// lists only a subset of the n^(2b) placements.
func (s *State) LegalMovesPartial(seat int) bool { return s.steps == 0 }

// RandomMove implements rules.State: uniform over all legal moves. At the
// placement each robot's cell is U(n²), robot 0 first; at a move each robot's
// direction is U(5), robot 0 first. Pass once the game is over.
func (s *State) RandomMove(seat int, rng *rules.RNG) rules.Move {
	if !s.Active(seat) {
		return rules.Move{}
	}
	m := rules.Move{N: uint8(s.b)}
	if s.steps == 0 {
		m.Kind = KindPlace
		for k := 0; k < s.b; k++ {
			m.Arg[k] = int16(rng.U(s.n * s.n))
		}
		return m
	}
	m.Kind = KindMove
	for k := 0; k < s.b; k++ {
		m.Arg[k] = int16(rng.U(5))
	}
	return m
}

// Pos is a cell (row, column).
type Pos struct{ R, C int }

// PlaceMove returns the placement move putting robot i on cells[i], for a game
// of side n. The view has no rotation (R19), so view cells are real cells.
// Entries beyond MaxRobots are ignored; out-of-range cells give an invalid
// move, which Step treats as R9's default.
func PlaceMove(n int, cells []Pos) rules.Move {
	m := rules.Move{Kind: KindPlace, N: uint8(min(len(cells), MaxRobots))}
	for i := 0; i < int(m.N); i++ {
		p := cells[i]
		if p.R < 0 || p.R >= n || p.C < 0 || p.C >= n {
			m.Arg[i] = -1
			continue
		}
		m.Arg[i] = int16(p.R*n + p.C)
	}
	return m
}

// DirsMove returns the move giving robot i direction dirs[i]. Entries beyond
// MaxRobots are ignored.
func DirsMove(dirs []Dir) rules.Move {
	m := rules.Move{Kind: KindMove, N: uint8(min(len(dirs), MaxRobots))}
	copy(m.Arg[:m.N], dirs)
	return m
}

// DirOf returns the direction spelled by letter (N, E, S, W or X, R20) and
// whether it is one.
func DirOf(letter byte) (Dir, bool) {
	for d := 0; d < len(DirLetters); d++ {
		if DirLetters[d] == letter {
			return Dir(d), true
		}
	}
	return 0, false
}
