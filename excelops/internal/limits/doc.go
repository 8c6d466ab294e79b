// Package limits holds Limits, what one spreadsheet call may make the
// process read, hold or write (file size, unzip sizes, rows, cells, text,
// memory, formula time), with defaults sized to the machine
// (DefaultCallMemoryBudget reads its memory and ulimit -v). excelops
// re-exports Limits; the engine checks them while a workbook streams or
// is parsed (internal/engine/limits_stream.go).
//
//	lim := limits.DefaultLimits()
//	if err := lim.Within("the sheet's cells", need); err != nil { return err }
//
// ARCHITECTURE.md at the repository root draws the package map and the
// path of one call through it.
package limits
