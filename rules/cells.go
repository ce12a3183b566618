package rules

// Terrain is what a board cell is made of, for a replay viewer's drawing
// (package viewer). The zero value is plain open ground.
type Terrain uint8

// The terrains a viewer knows how to draw.
const (
	Open    Terrain = iota // plain ground, claimable
	Blocked                // not part of the playing area (Rectangle's unpaintable cells)
	Land                   // ground with a height (Rising Tide), CellView.Num
	Low                    // land that the next rise of the water covers (Rising Tide)
	Water                  // flooded (Rising Tide)
)

// CellView is what one board cell shows: the ground, the seat whose colour
// fills it (an owner, a claim, a slime), a piece standing on it (a robot, a
// settlement, a barn), a number, and the one-character glyph the game's
// Render prints for it without colour.
type CellView struct {
	Terrain Terrain
	Fill    int8 // seat whose colour fills the cell, -1 none
	Piece   int8 // seat of the piece on the cell, -1 none, -2 several seats' pieces
	Shape   byte // the piece: 'b' barn or base, 'r' robot, 's' settlement, 0 none
	Num     int8 // a number drawn in the cell (a height), -1 none
	Glyph   byte // the character Render(w, false) prints for the cell
}

// Viewer is implemented by the states of games a replay viewer can draw
// (every registered game). It allocates only through dst.
type Viewer interface {
	// Cells appends one CellView per board cell, row by row over
	// Spec().Rows × Spec().Cols, to dst.
	Cells(dst []CellView) []CellView
	// MoveText describes seat's move m, to be played from this position, in
	// the competition's own terms ("(3,4)→(3,5)", "N E X", "pass").
	MoveText(seat int, m Move) string
}
