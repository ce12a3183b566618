// Package eval measures bots against each other: tournaments with seats
// rotated, each game's own competition score, rank distributions and
// confidence intervals. Games run in parallel, yet every result depends only
// on the seed: game i is seeded from (seed, i), so reports are reproducible.
package eval
