// Package viewer turns a recorded game (an eval.Replay) into one
// self-contained HTML page that plays it back in a browser: the board drawn on
// a canvas from each cell's rules.CellView (terrain, heights and water, seat
// colours, cows, barns, robots and settlements), every seat's move at every
// step, the scores over time as a small chart and the final ranking, with
// play/pause, step, a timeline slider, a speed choice and the keyboard
// (space, ←/→, Home/End). The page opens at the step its address names
// (page.html#step=N) and, while not playing, keeps the address at the step
// it shows, so a link names a position. The final ranking is a spoiler: it
// stays collapsed, and the score chart drawn only up to the shown step,
// until the last step is shown or the ranking's heading is clicked.
//
// The page needs no server and fetches nothing: its script, style and data
// are inline. The data is compact: a table of the distinct cell views, the
// start board as indices into it, then per step only the cells that changed,
// and the moves and scores as indices into tables of distinct values, all
// written as base-64 varint strings (see Encode), so a 10,000-round Bovine
// Borders game is a page of a few hundred kilobytes that scrubs at once.
//
// With Options.Policy (gridgym's --with-policy), every seat played by a
// trained network also gets the network's view of each position it moved
// from, computed again from its weights: its most probable moves with their
// probabilities and its value, shown as a heat map over the cells the moves
// lead to and as a list.
//
// The page shows the displayed position as text for tests and tools:
// document.body.dataset.step is the step shown, dataset.ranking is "shown"
// or "hidden", and <pre id="board-dump"> holds one line per board row in
// the format of Dump.
//
// The viewer knows no game: everything it draws comes from rules.Viewer,
// which every registered game implements.
package viewer
