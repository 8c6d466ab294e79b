// Package sheetxml is the one byte-level layer over worksheet XML that the
// spreadsheet tools share: a streaming Tokenizer that splits the XML into
// text and tags without building a tree and without losing a byte (every
// token carries its exact raw bytes), plus the attribute, cell-reference
// and escaping helpers that readers and the splice writer need, and a
// TextDecoder that decodes character data exactly as encoding/xml does.
//
// Readers (read_excel's row reader, the bounds scanner) look only at the
// few tags they care about (sheetData, row, c, v, t, is); the splice writer
// copies every token it does not change, so unknown elements, comments and
// attribute order survive byte for byte.
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package sheetxml
