//go:build race

package excelops

// raceEnabled is true when the package is built with -race.
const raceEnabled = true
