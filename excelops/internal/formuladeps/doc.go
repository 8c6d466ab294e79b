// Package formuladeps tells which cells a formula reads: Scan walks its
// tokens and returns the areas its references cover, or says it is wide
// (it may read anything: a volatile function, an external or 3-D
// reference, a name or table it cannot resolve, text that does not
// tokenize). A Scope, which excelops fills from the workbook it has open
// (tables, defined names, the spill ranges of dynamic arrays), resolves
// names, structured references and spill references to their cells. The
// names a LET or LAMBDA binds read nothing (LocalNames).
//
// The package reads no workbook. The package map is in ARCHITECTURE.md
// at the root of the repository.
package formuladeps
