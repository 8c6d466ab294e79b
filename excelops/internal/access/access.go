package access

import (
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Touch is what a tool touches of one workbook; it decides how the entry
// point opens the file and whether it may save it.
type Touch int

const (
	// stream reads a sheet's XML as a stream (the package index, then the
	// sheet's rows), never parsed by excelize, never saved; shared lock.
	TouchStream Touch = iota + 1
	// styles reads parsed styles or the package's structure (sheet list,
	// style table) without parsing a sheet; like stream otherwise.
	TouchStyles
	// cells edits the values, styles or widths of one sheet: the splice
	// path (internal/splicepath) when the call brings a splice plan, excelize when it
	// brings none or the splice declines.
	TouchCells
	// structure goes through excelize's parsed workbook: edits of rows,
	// columns, sheets, charts, rules, validations and merges, and reads
	// that need excelize's model (formulas, computed values).
	TouchStructure
)

// SheetUse is what the call does to the sheet it names.
type SheetUse int

const (
	// SheetNone: the call names no existing sheet (list_sheets, a new one).
	SheetNone SheetUse = iota
	// SheetRead: the named sheet is resolved (exact name, then ignoring
	// case, the active sheet when empty) and not parsed.
	SheetRead
	// SheetEdit: the named sheet is resolved, bounds-checked and parsed for
	// editing (book.edit); the body gets its used range.
	SheetEdit
	// SheetTarget: as sheetEdit, but a missing sheet is created when the
	// call says so (call.newSheet), else refused with how to create it.
	SheetTarget
	// SheetDrop: the named sheet is resolved and removed by the body; it is
	// never parsed (deleting a damaged or oversized sheet works).
	SheetDrop
)

// GuardMode says which sheets are bounds-checked before excelize parses them
// (a row-number or column bomb is refused before it is expanded).
type GuardMode int

const (
	// GuardSheet checks the sheet the call edits (sheetEdit, sheetTarget).
	GuardSheet GuardMode = iota
	// GuardEverySheet also checks every other worksheet but a dropped one:
	// for edits after which excelize parses every sheet (rows or columns
	// shift, a sheet is renamed, deleted or moved).
	GuardEverySheet
)

// FileUse is one path argument of a tool and what the tool does with the
// workbook it names.
type FileUse struct {
	Arg      string   // the path argument, e.g. "file_path"
	SheetArg string   // the argument naming the sheet, e.g. "sheet_name"; "" for none
	Touch    Touch    // what is touched (decides the path)
	Sheet    SheetUse // what is done to the named sheet
	Edit     bool     // the workbook is changed and saved (cells, structure only)
}

// Access is a tool's declaration: the workbooks it opens and how.
type Access struct {
	// Files lists the path arguments in the order the call opens them; the
	// edited one (at most one) is last.
	Files []FileUse
	// Guard: the sheets checked before the body runs (edits only).
	Guard GuardMode
	// KeepsValues: the edit changes no cell value, formula or reference
	// (styles, widths, rules, charts, validations), so cached formula
	// values are not recomputed (see refreshFormulaValues).
	KeepsValues bool
	// Destructive: the tool may delete or overwrite existing data (MCP
	// destructiveHint); a tool that edits and is not destructive only adds.
	Destructive bool
	// Idempotent: the edit sets a state, so the same call again changes
	// nothing more (MCP idempotentHint): writing the same values or
	// formats, setting widths, panes, links; an edit that adds (a rule, a
	// chart, rows) or moves cells is not. Reads are idempotent anyway.
	Idempotent bool
	// Lists names a folder argument whose workbooks the tool lists, each
	// one's sheet list read as a styles read (list_workbooks).
	Lists string
	// Scans names a folder argument whose workbooks the tool streams, each
	// one's sheets read as a stream read (inspect_excel_files).
	Scans string
	// Output names a path argument where the tool writes a file that is
	// not a workbook (render_range's PNG); the body writes it. A tool with
	// an output is not read-only.
	Output string
}

// Shorthands for the common one-workbook declarations.

// ReadStream declares a tool that streams the sheet sheet_name of file_path.
func ReadStream() Access {
	return Access{Files: []FileUse{{Arg: "file_path", SheetArg: "sheet_name", Touch: TouchStream, Sheet: SheetRead}}}
}

// EditCells declares a cells edit of the sheet sheet_name of file_path.
func EditCells(sheet SheetUse, o Access) Access {
	o.Files = []FileUse{{Arg: "file_path", SheetArg: "sheet_name", Touch: TouchCells, Sheet: sheet, Edit: true}}
	return o
}

// EditStructure declares a structural (excelize) edit of file_path, whose
// named sheet is argument sheetArg.
func EditStructure(sheetArg string, sheet SheetUse, o Access) Access {
	o.Files = []FileUse{{Arg: "file_path", SheetArg: sheetArg, Touch: TouchStructure, Sheet: sheet, Edit: true}}
	return o
}

// Edited returns the index of the file the call edits, or -1.
func (a Access) Edited() int {
	for i, f := range a.Files {
		if f.Edit {
			return i
		}
	}
	return -1
}

// Check reports a declaration the entry point cannot honour (a bug in a
// tool spec; TestEveryToolDeclaresItsAccess runs it on every tool).
func (a Access) Check() error {
	edits := 0
	for i, f := range a.Files {
		switch {
		case f.Arg == "":
			return fmt.Errorf("file %d has no path argument", i)
		case f.Touch < TouchStream || f.Touch > TouchStructure:
			return fmt.Errorf("%s: unknown touch %d", f.Arg, f.Touch)
		case f.Edit && (f.Touch == TouchStream || f.Touch == TouchStyles):
			return fmt.Errorf("%s: stream and styles only read", f.Arg)
		case !f.Edit && f.Touch == TouchCells:
			return fmt.Errorf("%s: a read of cells through excelize is a structure read", f.Arg)
		case (f.Sheet == SheetNone) != (f.SheetArg == ""):
			return fmt.Errorf("%s: a sheet use needs its sheet argument and the other way round", f.Arg)
		case (f.Touch == TouchStream || f.Touch == TouchStyles) && f.Sheet != SheetNone && f.Sheet != SheetRead:
			return fmt.Errorf("%s: a stream or styles read only resolves its sheet", f.Arg)
		case !f.Edit && (f.Sheet == SheetTarget || f.Sheet == SheetDrop):
			return fmt.Errorf("%s: only an edit creates or drops a sheet", f.Arg)
		}
		if f.Edit {
			edits++
			if i != len(a.Files)-1 {
				return fmt.Errorf("%s: the edited workbook must be the last file", f.Arg)
			}
		}
	}
	if edits == 0 && (a.KeepsValues || a.Guard != GuardSheet) {
		return fmt.Errorf("a declaration without an edited workbook sets edit options")
	}
	if edits == 0 && a.Output == "" && (a.Destructive || a.Idempotent) {
		return fmt.Errorf("a read-only declaration sets destructive or idempotent (reads are idempotent anyway)")
	}
	return nil
}

// Annotations derives the MCP hints of a tool titled title: read-only
// when no workbook is edited and no output written, destructive and
// idempotent when declared so; no tool reaches beyond the workspace
// (openWorldHint false).
func (a Access) Annotations(title string) *registry.Annotations {
	if a.Edited() < 0 && a.Output == "" {
		return &registry.Annotations{Title: title, ReadOnly: true}
	}
	return &registry.Annotations{Title: title, Destructive: a.Destructive, Idempotent: a.Idempotent}
}

// Describe says, for docs/TOOLS.md, which path the tool takes on each file.
func (a Access) Describe() string {
	var parts []string
	for _, f := range a.Files {
		var s string
		switch {
		case f.Touch == TouchStream:
			s = "**stream**: read as it is on disk under a shared lock, its sheets streamed, never parsed in place by excelize, never saved"
		case f.Touch == TouchStyles:
			s = "**styles**: only the parsed sheet list and style table are read, no sheet is parsed; never saved"
		case f.Touch == TouchCells:
			s = "**cells**: the sheet is edited on the splice path (its XML rewritten in one pass, every other part copied raw; formula results a write changes recomputed over just the cells those formulas read), through excelize when the splice declines"
		case f.Edit:
			s = "**structure**: edited through excelize's parsed workbook"
		default:
			s = "**structure** (read): read through excelize's parsed workbook"
		}
		if f.Edit && a.Guard == GuardEverySheet {
			s += ", every worksheet bounds-checked first"
		}
		parts = append(parts, fmt.Sprintf("`%s` %s", f.Arg, s))
	}
	if a.Lists != "" {
		parts = append(parts, fmt.Sprintf("`%s` **styles**: the workbooks in the folder are listed, each one's sheet list read without parsing a sheet; never saved", a.Lists))
	}
	if a.Scans != "" {
		parts = append(parts, fmt.Sprintf("`%s` **stream**: the workbooks in the folder (links never followed) are read one at a time as they are on disk under a shared lock, their sheets streamed, never saved", a.Scans))
	}
	if a.Output != "" {
		parts = append(parts, fmt.Sprintf("writes `%s` (not a workbook)", a.Output))
	}
	if len(parts) == 0 {
		return "Path: opens no workbook."
	}
	return "Path: " + strings.Join(parts, "; then ") + "."
}

// PathLegend is the paragraph docs/TOOLS.md puts before the tools: what the
// words of each spreadsheet tool's "Path" line (access.describe) mean.
func PathLegend() string {
	return "Each spreadsheet tool's Path line is generated from its access declaration (excelops/internal/access) and says how it reaches each workbook it opens: " +
		"**stream** reads the file as it is on disk under a shared lock, streaming its sheets' XML, never parsed by excelize and never saved; " +
		"**styles** reads only the parsed style table and sheet list; " +
		"**cells** edits one sheet on the splice path, rewriting that sheet's XML in one pass and copying every other part raw, and falls back to excelize when the splice declines; " +
		"**structure** goes through excelize's parsed workbook. " +
		"Every edit holds the workbook's lock and its cross-process lock file, bounds-checks the sheets excelize will parse, and saves atomically."
}
