//go:build !race

package racesplit

// Enabled is true when the program is built with -race.
const Enabled = false
