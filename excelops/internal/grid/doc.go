// Package grid is Excel's grid as a tool's arguments meet it: cell and
// range references parsed with errors that say what is accepted or which
// edge a corner is past, cells and columns named, and Excel's own limits
// (the last row and column, the characters a cell holds, a formula's
// length and nesting), checked before anything is written so a value past
// one is a ValueError naming the limit and the cell.
//
//	rng, err := grid.ParseRange("A1:C3") // cellarea.Range{C1: 1, R1: 1, C2: 3, R2: 3}
//	if err := grid.CheckText("B2", text); err != nil { ... }
//
// It reads no workbook. ARCHITECTURE.md at the repository root places it in
// the package map.
package grid
