// Package opc reads a workbook's zip package as the Open Packaging
// Conventions lay it out: parts found by name as Excel finds them
// (case-insensitively, with a size cap), relationships, content types, the
// workbook's sheet index (names, parts, kinds, defined names, external
// links), and a zip whose central directory Go's reader rejects rebuilt as
// unzip reads it. It holds no workbook open and knows nothing of cells.
//
//	zr.RegisterDecompressor(zip.Deflate, opc.Inflater)
//	idx, err := opc.ReadIndex(zr)
//	for _, s := range idx.Sheets { ... s.Name, s.Part, s.Kind ... }
//
// ARCHITECTURE.md at the repository root places it in the package map.
package opc
