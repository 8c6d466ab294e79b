// Package excelops provides the spreadsheet tools of registry-sidecar on
// excelize, confined to a workspace folder, saved atomically.
//
//	svc, err := excelops.New("/srv/workspace", excelops.WithLogger(log))
//	if err != nil { return err }
//	if err := svc.Register(reg); err != nil { return err }
//
// Tool and argument names follow the excelmanus agent (file_path, sheet_name,
// cell_range, cell, value, values, ...). Every tool returns an object
// starting with "status": "success", or an *Error whose Kind names the Python
// exception the agent sees (PermissionError, FileNotFoundError, KeyError,
// ValueError, BadZipFile, MemoryError, OSError; PermissionError also for an
// encrypted workbook).
//
// Guarantees:
//   - Sandbox: paths resolve inside the root; "..", encoded or full-width
//     dots, backslashes, NUL, over-long names, links that leave the root,
//     dangling or looping links are refused before anything is opened.
//   - Nothing is lost: a workbook is saved to a temporary file in the same
//     folder, fsynced, given the original mode and renamed over the old one
//     (internal/atomicfile); a failed mutation is never saved; one writer per
//     file at a time (a per-path lock), readers never see a half-written
//     file.
//   - Limits (Limits, DefaultLimits): a file-size cap, excelize's unzip
//     limits, a pre-scan of every sheet about to be parsed for editing that
//     refuses row-number and column bombs before excelize allocates them (all
//     sheets, for the edits where excelize parses every sheet: row and column
//     inserts and deletes, deleting or moving a sheet).
//   - Real workbooks open, damaged ones stay damaged
//     (internal/engine/pkgopen.go, internal/opc,
//     internal/engine/sheetkinds.go, internal/sharedstrings): a workbook
//     encrypted with Excel's default password (read-only recommended) is
//     read, and never saved (a write is refused); any other encrypted
//     workbook is refused with "encrypted workbook: a password is required".
//     A zip whose directory Go's reader rejects or misreads but unzip reads
//     (a prefix, a wrong directory offset, trailing bytes, a wrong comment
//     length) gets its directory rebuilt, bounded like any other; a package
//     with two parts of one name is damaged. Chart, macro and dialog sheets
//     are listed with their kind, skipped by whole-workbook calls and refused
//     by name with what they are. A write checks every sheet it rewrites as a
//     read would (cells pointing at shared strings that do not exist), and
//     first reads every other worksheet as a read of it would
//     (internal/engine/damage_check.go; sheets found sound are remembered per
//     version of the file), so a file a read calls damaged is not saved.
//   - Reads stream the sheet XML through one byte-level layer
//     (internal/sheetxml: a tokenizer and a row/cell walker, fuzzed), stop at
//     the last requested row and report a truncated or broken sheet as
//     damaged instead of returning fewer rows; rows or cells out of order are
//     reported as damage too, never read as an empty sheet.
//   - Bounded by construction (internal/limits,
//     internal/engine/limits_stream.go, internal/budget,
//     internal/tools/page.go, internal/engine/styleread.go): only regular
//     files are opened (lstat before, O_NONBLOCK open, fstat after: a FIFO,
//     socket or device named .xlsx is refused at once); one cell's or shared
//     string's inflated text is bounded while it streams
//     (Limits.MaxCellTextBytes); the file, a sheet parse, the shared strings
//     and a format's cells are checked against the per-call memory budget
//     (Limits.CallMemoryBudget, sized for the machine) before they are
//     allocated; read_cell_styles walks only the cells that exist.
//   - Paging never skips: a read_excel page is sized to fit the registry's
//     result cap (registry.ResultLimit, in code points), Limits.MaxReadCells
//     and a share of the memory budget, so truncation never cuts it;
//     rows_returned, has_more and next_offset describe exactly the rows in
//     the payload. In summary mode offset counts the data rows below the
//     header that hold cells; in range mode it counts rows from the range's
//     first row (rows without cells are empty rows), and a page ends at the
//     sheet's last row holding cells. Rows of ranges wider than 100 columns
//     are as wide as the page's widest row.
//   - Dates read like openpyxl (internal/engine/dates.go, internal/dates): a
//     number whose style has a date or time format (openpyxl's builtin table
//     and is_date_format) comes back as the isoformat() text of openpyxl's
//     value, in the 1900 system (with its 1900-02-29 bug) or the workbook's
//     1904 system; durations, negative serials and serials past 9999 stay
//     numbers.
//   - Writes are told truthfully (internal/tools/tool_merge.go,
//     internal/engine/names.go, internal/grid, internal/textdist,
//     internal/engine/values.go): merge_cells refuses to clear cells other
//     than the top-left that hold values or formulas unless discard_values is
//     true (then it lists them), refuses to overlap an existing merge partly,
//     and reports the range the sheet holds; a missing sheet or file is
//     answered with the names that exist and the close matches ("did you
//     mean"), and a tool creates a sheet only with create: true (write_cells
//     creates a missing workbook unless its name is close to an existing
//     one); text over 32,767 characters, formulas over 8,192 and cells past
//     row 1,048,576 or column XFD are ValueErrors checked before anything is
//     written; a formula naming a sheet, defined name, table or table column
//     the workbook lacks is refused the same way, with the close matches
//     (internal/recalc/names.go; a missing sheet is a KeyError);
//     write_cells stores ISO-8601 dates, times and datetimes as Excel dates
//     (openpyxl's formats, the cell's own date format kept), and keeps text
//     as text with value_types "text" or a leading '.
//   - The analyst tools do what Excel does (internal/tools/tools_analyst.go):
//     sort_range orders numbers, text (Unicode collation, ignoring case),
//     FALSE/TRUE, errors, blanks last, and moves each row's formulas as a
//     copy of the row would (LibreOffice's own sort is the oracle,
//     cases_sort.py); set_autofilter hides the rows its criteria reject, as
//     the file format requires; find_replace keeps text as text, numbers and
//     dates as such when the result still is one, and refuses a replacement
//     that breaks a formula; create_table fixes blank and repeated headers as
//     Excel does; create_table and sort_range refuse merged cells, and no
//     tool lets a table be overlapped (create_table, set_autofilter) or
//     sorted in part.
//   - Schemas: every property described, nested objects closed, fixed
//     vocabularies as enums from internal/vocab/names.go, the tables the
//     code reads.
//   - One range shape: every range argument takes "A1", "A1:C3", "$A$1:$C$3",
//     reversed corners and a sheet-qualified "Sheet1!A1:C3" or "'My
//     Sheet'!A1:C3" (internal/tools/range_arg.go: a rangeSheet tag names the
//     sheet argument the qualifier supplies or must agree with); older
//     argument names stay as documented aliases
//     (internal/tools/arg_alias.go).
//   - Saved sheets get a <dimension> covering every used cell, so readers
//     that trust it (openpyxl read-only, pandas) see all rows.
//   - Parsed workbooks stay in memory between calls (WithCacheBudget,
//     internal/engine/cache.go), keyed by path and the file's device, inode,
//     size, mtime and ctime, so a file changed on disk is parsed again; least
//     recently used books are closed beyond the budget; a book is checked out
//     for a call and put back only after its save succeeded, so a failed or
//     cancelled mutation is never served afterwards. Service.Close closes
//     them on shutdown. The cache serves the excelize path (structural
//     edits); excelize drops a sheet's parsed cells when it writes them and
//     parses the saved bytes again on the next edit of that sheet.
//   - Reads on the stream path remember, per file under the same key, the
//     sheet index, date styles and shared strings they parsed
//     (internal/lightcache: at most 256 files, the strings within an eighth
//     of the cache budget), so reading an unchanged workbook again streams
//     its sheet and nothing else.
//   - A call that opens two workbooks (copy_range_between_sheets) holds both
//     files' locks, taken in sorted path order, for the whole call.
//   - Icon-set conditional formats are serialised by a Service mutex held
//     through the save, because excelize builds them from shared presets; a
//     workbook that just got one is not kept in the cache (the new rule
//     points into those presets).
//
// This package is the public face: Service, its options, Register, the limits
// and error kinds. The tools themselves live in internal/tools, one typed
// module each; the engine beneath them (internal/engine) holds the access
// model every tool declares and the two paths an edit takes (splice and
// excelize); its doc.go tells both, newcomers start there.
//
// Rendering (render_range: internal/tools/tool_render.go over
// internal/render). The workbook's bytes are copied under the shared lock;
// excelize sets the print area on a private copy; internal/rendersafe then
// removes from that copy everything that reaches outside it (external
// relationships of drawings, images, OLE objects, hyperlinks; external
// workbook links, data connections, query tables, embedded documents, ActiveX
// controls, macros; VML src and href), and the result lists what it left out
// (not_rendered, schemes only). soffice runs with a fresh profile whose
// settings forbid linked content, macros and link updates and point every
// proxy at a closed port (internal/render: profile.go), in a new network
// namespace where the platform grants one (isolation.go; network_isolation in
// the result says "netns" or "settings"), at most WithMaxRenders at a time
// (slots.go; a wait that would outlast the call's deadline ends in a
// TimeoutError). internal/tools/render_hostile_test.go shows each of these
// layers holding alone against a workbook whose pictures link to a file
// outside the workspace and to a loopback URL.
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package excelops
