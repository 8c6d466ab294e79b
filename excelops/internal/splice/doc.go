// Package splice rewrites the cells of one worksheet in a single streaming
// pass over its XML, on the shared sheetxml tokenizer: rows the edit does
// not touch are copied byte for byte, touched rows are rebuilt cell by cell
// in column order (untouched cells of those rows byte for byte too), the
// <dimension> is recomputed from every cell written, <cols> can be
// rewritten, and everything else (merged ranges, conditional formats,
// unknown extension elements, comments) passes through unchanged.
//
// The sheet is deflated at a fast level in two independent deflate
// segments (the short head with <dimension>, then the body), so the head
// can be finished after the body was streamed without holding the
// uncompressed sheet in memory; the rest of the package is copied raw
// (zip.Writer.Copy: no inflate, no deflate).
//
// What splice does not do (the caller falls back to a full parse): create
// sheets or workbooks, shift rows or columns, overwrite the master cell of a
// shared formula, or rewrite a sheet whose rows are out of order.
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package splice
