package slime

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gridgym/gridgym/rules"
)

// View is exactly what a competition bot receives on its command line (R14):
// its player digit and the board rows, top row first. There is no rotation and
// no relabelling, so view coordinates are real coordinates.
type View struct {
	Player int        // P: the bot's player digit 1..4 (seat+1)
	N      int        // the number of rows, and of cells in each row
	Rows   [8][8]byte // Rows[r][c] is '.', '1', '2', '3' or '4' for r, c < N
}

// ViewOf returns the view of seat (0..3) of the current position.
func ViewOf(st *State, seat int) View {
	v := View{Player: seat + 1, N: st.n}
	for r := 0; r < st.n; r++ {
		for c := 0; c < st.n; c++ {
			v.Rows[r][c] = ".1234"[st.Cell(r, c)]
		}
	}
	return v
}

// ParseRequest parses a command-line argument `P,row0,…,row(N−1)` (R14), for
// bots that run as programs.
func ParseRequest(arg string) (View, error) {
	var v View
	parts := strings.Split(arg, ",")
	if len(parts[0]) != 1 || parts[0][0] < '1' || parts[0][0] > '4' {
		return v, fmt.Errorf("slime request %q: player %q, want 1..4", arg, parts[0])
	}
	v.Player = int(parts[0][0] - '0')
	rows := parts[1:]
	v.N = len(rows)
	if v.N < 4 || v.N > 8 {
		return v, fmt.Errorf("slime request %q: %d rows, want 4..8", arg, v.N)
	}
	for r, row := range rows {
		if len(row) != v.N {
			return v, fmt.Errorf("slime request %q: row %d %q has %d cells, want %d", arg, r, row, len(row), v.N)
		}
		for c := 0; c < v.N; c++ {
			if ch := row[c]; ch != '.' && (ch < '1' || ch > '4') {
				return v, fmt.Errorf("slime request %q: row %d cell %d is %q, want . or 1..4", arg, r, c, ch)
			}
			v.Rows[r][c] = row[c]
		}
	}
	return v, nil
}

// AppendArg appends the command-line argument `P,row0,…` that v was read from.
func (v *View) AppendArg(dst []byte) []byte {
	dst = append(dst, byte('0'+v.Player))
	for r := 0; r < v.N; r++ {
		dst = append(dst, ',')
		dst = append(dst, v.Rows[r][:v.N]...)
	}
	return dst
}

// InBounds reports whether (r, c) is on the board.
func (v *View) InBounds(r, c int) bool { return r >= 0 && r < v.N && c >= 0 && c < v.N }

// Cell returns the character of cell (r, c), which must be in bounds.
func (v *View) Cell(r, c int) byte { return v.Rows[r][c] }

// Cells returns the cells holding character ch as a bitboard, bit r*8+c.
func (v *View) Cells(ch byte) uint64 {
	var b uint64
	for r := 0; r < v.N; r++ {
		for c := 0; c < v.N; c++ {
			if v.Rows[r][c] == ch {
				b |= 1 << uint(r*8+c)
			}
		}
	}
	return b
}

// Own returns the bot's own cells as a bitboard, bit r*8+c.
func (v *View) Own() uint64 { return v.Cells(byte('0' + v.Player)) }

// Empty returns the empty cells as a bitboard, bit r*8+c.
func (v *View) Empty() uint64 { return v.Cells('.') }

// AnswerMove maps a bot's answer r1 c1 r2 c2 in view coordinates (which are
// real coordinates, R14) to the real Move: Pass if a coordinate is off the
// board, else a KindMove that Step applies if R8 holds.
func AnswerMove(st *State, seat, r1, c1, r2, c2 int) rules.Move {
	return NewMove(st.n, r1, c1, r2, c2)
}

// NewMove returns the move (r1, c1) → (r2, c2) on an n×n board, Pass if a
// coordinate is off the board.
func NewMove(n, r1, c1, r2, c2 int) rules.Move {
	if uint(r1) >= uint(n) || uint(c1) >= uint(n) || uint(r2) >= uint(n) || uint(c2) >= uint(n) {
		return rules.Move{}
	}
	return rules.Move{Kind: KindMove, N: 2, Arg: [8]int16{int16(r1*n + c1), int16(r2*n + c2)}}
}

// Coords returns the coordinates of a well-formed KindMove on an n×n board;
// ok is false for Pass and malformed moves.
func Coords(n int, m rules.Move) (r1, c1, r2, c2 int, ok bool) {
	a, b := int(m.Arg[0]), int(m.Arg[1])
	if m.Kind != KindMove || m.N != 2 || a < 0 || b < 0 || a >= n*n || b >= n*n {
		return 0, 0, 0, 0, false
	}
	return a / n, a % n, b / n, b % n, true
}

// AppendAnswer appends a bot's output line `r1 c1 r2 c2\n` (R17).
func AppendAnswer(dst []byte, r1, c1, r2, c2 int) []byte {
	dst = strconv.AppendInt(dst, int64(r1), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(c1), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(r2), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(c2), 10)
	return append(dst, '\n')
}

// maxLine is the most the controller reads of the first output line: its
// fgets buffer holds 128 bytes, the newline included, plus the final NUL.
const maxLine = 127

// ParseOutput reads four integers r1 c1 r2 c2 from a bot's standard output as
// the controller does (R15); ok = false means a pass. It looks only at the
// first line, cut to its first 127 bytes (the newline included) and, as the
// controller's C string is, at the first NUL byte. Each integer is optional
// whitespace (space, \t, \v, \f, \r), an optional + or −, and decimal digits;
// the first three must be followed by whitespace, the fourth by at least one
// more character of any kind, which is ignored with the rest of the line. A
// number outside the 32-bit int range, fewer than four integers or any other
// text gives ok = false. The values are not checked against the board.
func ParseOutput(out []byte) (r1, c1, r2, c2 int, ok bool) {
	line := out
	if len(line) > maxLine {
		line = line[:maxLine]
	}
	for i, ch := range line {
		if ch == '\n' {
			line = line[:i+1]
			break
		}
		if ch == 0 {
			line = line[:i]
			break
		}
	}
	var v [4]int
	pos := 0
	for i := range v {
		start := pos
		for pos < len(line) && isSpace(line[pos]) {
			pos++
		}
		if i > 0 && pos == start { // R15: whitespace-separated
			return 0, 0, 0, 0, false
		}
		neg := false
		if pos < len(line) && (line[pos] == '+' || line[pos] == '-') {
			neg = line[pos] == '-'
			pos++
		}
		digits := pos
		mag := uint64(0)
		for pos < len(line) && line[pos] >= '0' && line[pos] <= '9' {
			if mag <= 1<<31 { // saturate: anything above is out of range anyway
				mag = mag*10 + uint64(line[pos]-'0')
			}
			pos++
		}
		if pos == digits || pos == len(line) { // no digits, or nothing after them
			return 0, 0, 0, 0, false
		}
		if mag > 1<<31-1 && !(neg && mag == 1<<31) { // outside int32
			return 0, 0, 0, 0, false
		}
		v[i] = int(mag)
		if neg {
			v[i] = -v[i]
		}
	}
	return v[0], v[1], v[2], v[3], true
}

// isSpace is C's isspace in the "C" locale, which the controller's stream uses.
func isSpace(ch byte) bool { return ch == ' ' || ch-'\t' <= '\r'-'\t' }

// Codec is Slime's competition protocol (R14–R15).
type Codec struct{}

// AppendRequest appends the command-line argument of R14 for seat:
// `P,row0,…,row(N−1)`, no rotation.
func (Codec) AppendRequest(dst []byte, st rules.State, seat int) []byte {
	s := st.(*State)
	dst = append(dst, byte('1'+seat))
	for r := 0; r < s.n; r++ {
		dst = append(dst, ',')
		for c := 0; c < s.n; c++ {
			dst = append(dst, ".1234"[s.Cell(r, c)])
		}
	}
	return dst
}

// ParseAnswer maps a bot's raw standard output to the real move (R15):
// ParseOutput, then AnswerMove; every unreadable answer and every coordinate
// off the board is a pass. Whether the move is valid is Step's business (R8).
func (Codec) ParseAnswer(st rules.State, seat int, answer []byte) rules.Move {
	r1, c1, r2, c2, ok := ParseOutput(answer)
	if !ok {
		return rules.Move{}
	}
	return AnswerMove(st.(*State), seat, r1, c1, r2, c2)
}
