// Package excelops provides the spreadsheet tools of registry-sidecar on
// excelize, confined to a workspace folder, saved atomically.
//
//	svc, err := excelops.New("/srv/workspace", excelops.WithLogger(log))
//	if err != nil { return err }
//	if err := svc.Register(reg); err != nil { return err }
//
// Tool and argument names follow the excelmanus agent (file_path,
// sheet_name, cell_range, cell, value, values, ...). Every tool returns an
// object starting with "status": "success", or an *Error whose Kind names
// the Python exception the agent sees (PermissionError, FileNotFoundError,
// KeyError, ValueError, BadZipFile, MemoryError, OSError).
//
// Guarantees:
//   - Sandbox: paths resolve inside the root; "..", encoded or full-width
//     dots, backslashes, NUL, over-long names, links that leave the root,
//     dangling or looping links are refused before anything is opened.
//   - Nothing is lost: a workbook is saved to a temporary file in the same
//     folder, fsynced, given the original mode and renamed over the old one
//     (internal/atomicfile); a failed mutation is never saved; one writer per
//     file at a time (a per-path lock), readers never see a half-written file.
//   - Limits (Limits, DefaultLimits): a file-size cap, excelize's unzip
//     limits, a pre-scan of every sheet about to be parsed for editing that
//     refuses row-number and column bombs before excelize allocates them.
//   - Reads stream the sheet XML with a byte-level scanner (fastread.go),
//     stop at the last requested row and report a truncated or broken sheet
//     as damaged instead of returning fewer rows.
//   - Saved sheets get a <dimension> covering every used cell, so readers
//     that trust it (openpyxl read-only, pandas) see all rows.
//   - Icon-set conditional formats are serialised by a Service mutex held
//     through the save, because excelize builds them from shared presets.
package excelops
