// Package testtools registers the Go tools that cross-language and
// end-to-end tests drive through `registry-sidecar --test-tools`: echo, add,
// sleep, slow, fail, panic, fallback, big and env_error. They are off by default
// and never part of the production tool set.
//
//	reg := registry.New()
//	if err := testtools.Register(reg); err != nil { ... }
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package testtools
