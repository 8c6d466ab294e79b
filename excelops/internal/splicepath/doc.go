// Package splicepath is the splice path of a cells edit: write_cells,
// format_cells and adjust_column_width on an existing worksheet stream that
// sheet's XML once through the shared tokenizer (internal/sheetxml) and the
// low-level splicer (internal/splice), instead of parsing the workbook.
// A tool builds its edit with Edit and hands it to the engine as
// engine.Call.Splice; engine.Engine.Run tries it first, under the call's
// locks, and takes the excelize path when it declines:
//
//	c.Splice = splicepath.Edit(func(sb *splicepath.Book, sheet string) (splice.Plan, any, error) {
//		plan, dates, err := splicepath.WritePlan(sb, sheet, anchor, writes)
//		return plan, result(sb.Name(), sheet), err
//	})
//
// What it does (cells.go, styles.go, parts.go): rebuild only the rows the
// edit touches (untouched rows pass on by their bytes, found with
// vectorised byte searches, not tokenized), recompute <dimension>, add
// style records through excelize on the small parts (styles.xml:
// format_cells' styles and the date formats of written dates, reusing an
// identical xf), write strings inline (the shared string table is never
// rewritten), copy every other zip entry raw and deflate the sheet at flate
// level 1. Numbers and dates are stored exactly as the excelize path stores
// them (15 significant digits, the same date serials and formats). Cost:
// one inflate + one deflate of one sheet; memory: flat in the workbook's
// size (the package is read through the open file, the deflated sheet
// spills past 4 MB to an unnamed temporary file).
//
// Formulas splice too (recalc.go, closure.go, copy.go, scratch.go): a write
// of formulas, a value that formulas read, a formula over a formula or a
// workbook with formulas lacking a cached value goes through the recalc
// splice. One more streamed pass lists every formula of the workbook; the
// formulas to recompute are chosen as on the excelize path (those the
// write may change, transitively, and those without a cached value); the
// cells they read, transitively, are copied at their own addresses into a
// small calculator workbook (same sheet names, same extents for whole rows
// and columns), where excelize's calculator computes them with the excelize
// path's own function (engine.ComputeFormula); the edited sheet and every
// other sheet whose cached values change are rewritten (splice.SetCached
// keeps each <f> byte for byte). A value write no formula reads skips all
// that (formulas.go checks it while streaming). Dynamic arrays spill and
// respill as on the excelize path (spill.go, respill.go, spill_parts.go).
//
// What it declines (engine.NoSplice, with a reason the engine logs), so
// that Excel's semantics hold: a missing file or sheet, a formula to
// recompute that may read anything (a defined name, INDIRECT, OFFSET, a
// 3-D or structured reference), circular references, array formulas and
// data tables, a value aimed at a merged range's hidden cell, a value over
// a formula listed in calcChain.xml, a shared-formula master overwritten,
// out-of-order rows, prefixed XML, a shared string table bigger than one
// cell's text bound.
//
// The save goes through the engine (engine.Engine.WriteAtomic): the
// file's identity is checked right before the rename, and a changed file is
// a KindConflict the engine redoes once.
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package splicepath
