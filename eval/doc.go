// Package eval measures bots against each other: tournaments with seats
// rotated, each game's own competition score, rank distributions and
// confidence intervals. Games run in parallel, yet every result depends only
// on the seed: game i is seeded from (seed, i) (rules.GameStream and
// rules.SeatStream), so reports are reproducible. Games are played on
// env.Vec, the one game loop that self-play and training step too: each
// tournament worker plays its games one after another on a Vec of one env,
// held at its final position for the replays.
package eval
