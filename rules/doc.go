// Package rules holds what every game engine shares: the game registry, the
// State interface that the generic layers (env, selfplay, eval, the CLI) drive,
// the Move value that carries one seat's answer, and the seeded random source.
//
// Each game lives in its own package under rules/ (rules/slime, rules/nuggets,
// …) and registers itself once from an init function. The rules files in
// shared/rules are normative; every game package cites their rule numbers.
//
// Engines are pure state machines: Step is a function of (state, one move per
// seat, RNG) with no I/O, no globals and no allocation in steady state.
package rules
