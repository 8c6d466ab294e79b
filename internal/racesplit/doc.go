// Package racesplit splits a package's tests between `make test`'s pass with
// -race and its pass without: the tests a package names as gaining nothing
// from the race detector skip under -race (they run there only when
// AllEnv=1), and the pass without -race runs them alone (SkippedOnlyEnv=1),
// so every test runs once, and the slow ones where they are cheap.
//
// It is imported by test files only.
package racesplit
