// Package engine runs the spreadsheet tools' calls on the workbooks of one
// workspace: it resolves each path inside the workspace, takes the locks,
// opens the workbook (cache, stream or excelize), runs the tool's body on
// a Book, recalculates the formulas the edit reaches (package recalc, on
// the book's parsed workbook) and saves atomically. Tools (package
// internal/tools) reach a workbook only through a Book's methods
// (book_*.go, book_formulas.go), and declare what they touch with an
// Access; a Service holds one Engine:
//
//	res, err := eng.Run(ctx, access, engine.OnBook(path, sheet, func(b *engine.Book, sh engine.SheetRef) (any, error) {
//		return b.CellValue(sh.Name, "A1")
//	}))
//
// The access model (internal/access, run.go; newcomers start here). A tool is
// one typed module in its own file (excelops/internal/tools/declare.go): an argument struct whose
// tags give its schema, a plan that checks the decoded arguments and
// returns a call (the paths, the sheet names and the body to run, a closure
// func(b *Book, sh SheetRef) (any, error)), and an access declaration that
// says, for each path argument, what the tool touches:
//   - stream: reads a sheet's XML as a stream (read_excel);
//   - styles: reads parsed styles or the sheet list (read_cell_styles,
//     list_sheets);
//   - cells: edits values, styles or widths of one sheet (write_cells,
//     format_cells, adjust_column_width): the call may bring a splice plan;
//   - structure: goes through excelize (rows, columns, sheets, charts,
//     rules, validations, merges; the source read of a copy);
//
// plus what it does to the sheet it names (read, edit, create when asked,
// drop), the guard (that sheet, or every worksheet when rows, columns or
// sheets move), whether values stay as they were (no formula refresh) and
// whether it is destructive. Engine.Run, the one entry point, turns that
// into resolve (sandbox) → lock (shared for stream and styles; exclusive
// and cross-process for the edited file; several paths in sorted order) →
// open → guard → body → formula refresh → atomic save → cache, and redoes
// an edit once when another program changed the file meanwhile. The MCP
// annotations and the "Path" line of docs/TOOLS.md are derived from the
// declaration; results start with one header (success in excelops/internal/tools/result.go). A new
// tool declares its access (ReadStream, EditCells, EditStructure or its
// own files list), builds its call with OnBook, and never locks, opens or
// saves by itself; excelops/internal/tools/access_test.go proves the declaration drives all that.
// The few tools that need more say so in their call, not with their own
// lifecycle: After runs once the locks are released (render_range renders
// its private copy, list_workbooks lists a folder it declares in lists), a
// body's Unsaved{Result: res} answers without saving (find_replace's dry run),
// CreateFresh starts from an empty workbook (create_workbook), ValuesKept
// skips the formula refresh for one call (clear_range of formats). A body
// that edits a second sheet (a chart's or pivot's target, describe's
// sheets) opens it with Book.Edit or Book.EditTarget, the same guard.
//
// Two paths for edits:
//   - Splice (package splicepath, over internal/splice): write_cells,
//     format_cells and adjust_column_width on an existing worksheet stream
//     that sheet's XML once and copy every other zip entry raw; formulas
//     are recomputed in a small calculator workbook built from the cells
//     they read. A tool hands Run its plan as Call.Splice (splicepath.Edit);
//     Run tries it first under the call's locks, and an ErrNoSplice
//     (NoSplice with its reason) sends the call down the excelize path.
//     The splice path's doc.go tells what it does and what it declines.
//   - excelize (run_excelize.go): everything else, and the cell edits the
//     splice declines so that Excel's semantics hold (formulas and their
//     cached values, references, truthful reports): a missing file
//     or sheet (created), a formula to recompute that may read anything (a
//     defined name, INDIRECT, OFFSET, a 3-D or structured reference),
//     circular references, array formulas and data tables, a value
//     aimed at a merged range's hidden cell (excelize writes it to the
//     top-left cell), a value over a formula listed in calcChain.xml, a
//     shared-formula master overwritten, out-of-order rows, prefixed XML,
//     a shared string table bigger than one cell's text bound.
//     WithSplice(false) (--splice=false) forces this path for comparisons.
//     Its save (save_keep.go, internal/keepparts) copies raw every part the edit did not
//     change, and writes a list part it did change (styles, shared
//     strings, relationships, content types) as the original bytes with
//     the new records appended when that is all the edit did
//     (internal/xmlappend; the splice path's style table too).
//   - Both paths hold the per-path lock (internal/pathlock) and the cross-process lock file
//     (internal/filelock, ".~NAME.lock" beside the workbook, kept), check
//     the file's identity right before the rename (one redo, then a
//     KindConflict error), and save through internal/atomicfile (an
//     unnamed O_TMPFILE temporary linked into place only when complete; on
//     Windows a named one renamed through an os.Root on the folder:
//     internal/workspace: handle.go, handle_windows.go).
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package engine
