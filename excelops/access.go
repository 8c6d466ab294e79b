package excelops

import (
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// The access model. Every tool declares in its spec what it
// touches of which workbooks (access); the one entry point, Service.run
// (run.go), turns that declaration into resolve → lock → open → guard →
// body → formula refresh → save → cache. The MCP annotations and the
// "Path" line of docs/TOOLS.md are derived from the same declaration.

// touch is what a tool touches of one workbook; it decides how the entry
// point opens the file and whether it may save it.
type touch int

const (
	// stream reads a sheet's XML as a stream (the package index, then the
	// sheet's rows), never parsed by excelize, never saved; shared lock.
	touchStream touch = iota + 1
	// styles reads parsed styles or the package's structure (sheet list,
	// style table) without parsing a sheet; like stream otherwise.
	touchStyles
	// cells edits the values, styles or widths of one sheet: the splice
	// path (splice.go) when the call brings a splice plan, excelize when it
	// brings none or the splice declines.
	touchCells
	// structure goes through excelize's parsed workbook: edits of rows,
	// columns, sheets, charts, rules, validations and merges, and reads
	// that need excelize's model (formulas, computed values).
	touchStructure
)

// sheetUse is what the call does to the sheet it names.
type sheetUse int

const (
	// sheetNone: the call names no existing sheet (list_sheets, a new one).
	sheetNone sheetUse = iota
	// sheetRead: the named sheet is resolved (exact name, then ignoring
	// case, the active sheet when empty) and not parsed.
	sheetRead
	// sheetEdit: the named sheet is resolved, bounds-checked and parsed for
	// editing (book.edit); the body gets its used range.
	sheetEdit
	// sheetTarget: as sheetEdit, but a missing sheet is created when the
	// call says so (call.newSheet), else refused with how to create it.
	sheetTarget
	// sheetDrop: the named sheet is resolved and removed by the body; it is
	// never parsed (deleting a damaged or oversized sheet works).
	sheetDrop
)

// guard says which sheets are bounds-checked before excelize parses them
// (a row-number or column bomb is refused before it is expanded).
type guard int

const (
	// guardSheet checks the sheet the call edits (sheetEdit, sheetTarget).
	guardSheet guard = iota
	// guardEverySheet also checks every other worksheet but a dropped one:
	// for edits after which excelize parses every sheet (rows or columns
	// shift, a sheet is renamed, deleted or moved).
	guardEverySheet
)

// fileUse is one path argument of a tool and what the tool does with the
// workbook it names.
type fileUse struct {
	arg      string   // the path argument, e.g. "file_path"
	sheetArg string   // the argument naming the sheet, e.g. "sheet_name"; "" for none
	touch    touch    // what is touched (decides the path)
	sheet    sheetUse // what is done to the named sheet
	edit     bool     // the workbook is changed and saved (cells, structure only)
}

// access is a tool's declaration: the workbooks it opens and how.
type access struct {
	// files lists the path arguments in the order the call opens them; the
	// edited one (at most one) is last.
	files []fileUse
	// guard: the sheets checked before the body runs (edits only).
	guard guard
	// keepsValues: the edit changes no cell value, formula or reference
	// (styles, widths, rules, charts, validations), so cached formula
	// values are not recomputed (see refreshFormulaValues).
	keepsValues bool
	// destructive: the tool may delete or overwrite existing data (MCP
	// destructiveHint); a tool that edits and is not destructive only adds.
	destructive bool
	// idempotent: the edit sets a state, so the same call again changes
	// nothing more (MCP idempotentHint): writing the same values or
	// formats, setting widths, panes, links; an edit that adds (a rule, a
	// chart, rows) or moves cells is not. Reads are idempotent anyway.
	idempotent bool
	// lists names a folder argument whose workbooks the tool lists, each
	// one's sheet list read as a styles read (list_workbooks).
	lists string
	// scans names a folder argument whose workbooks the tool streams, each
	// one's sheets read as a stream read (inspect_excel_files).
	scans string
	// output names a path argument where the tool writes a file that is
	// not a workbook (render_range's PNG); the body writes it. A tool with
	// an output is not read-only.
	output string
}

// Shorthands for the common one-workbook declarations.

// readStream declares a tool that streams the sheet sheet_name of file_path.
func readStream() access {
	return access{files: []fileUse{{arg: "file_path", sheetArg: "sheet_name", touch: touchStream, sheet: sheetRead}}}
}

// editCells declares a cells edit of the sheet sheet_name of file_path.
func editCells(sheet sheetUse, o access) access {
	o.files = []fileUse{{arg: "file_path", sheetArg: "sheet_name", touch: touchCells, sheet: sheet, edit: true}}
	return o
}

// editStructure declares a structural (excelize) edit of file_path, whose
// named sheet is argument sheetArg.
func editStructure(sheetArg string, sheet sheetUse, o access) access {
	o.files = []fileUse{{arg: "file_path", sheetArg: sheetArg, touch: touchStructure, sheet: sheet, edit: true}}
	return o
}

// edited returns the index of the file the call edits, or -1.
func (a access) edited() int {
	for i, f := range a.files {
		if f.edit {
			return i
		}
	}
	return -1
}

// check reports a declaration the entry point cannot honour (a bug in a
// tool spec; TestEveryToolDeclaresItsAccess runs it on every tool).
func (a access) check() error {
	edits := 0
	for i, f := range a.files {
		switch {
		case f.arg == "":
			return fmt.Errorf("file %d has no path argument", i)
		case f.touch < touchStream || f.touch > touchStructure:
			return fmt.Errorf("%s: unknown touch %d", f.arg, f.touch)
		case f.edit && (f.touch == touchStream || f.touch == touchStyles):
			return fmt.Errorf("%s: stream and styles only read", f.arg)
		case !f.edit && f.touch == touchCells:
			return fmt.Errorf("%s: a read of cells through excelize is a structure read", f.arg)
		case (f.sheet == sheetNone) != (f.sheetArg == ""):
			return fmt.Errorf("%s: a sheet use needs its sheet argument and the other way round", f.arg)
		case (f.touch == touchStream || f.touch == touchStyles) && f.sheet != sheetNone && f.sheet != sheetRead:
			return fmt.Errorf("%s: a stream or styles read only resolves its sheet", f.arg)
		case !f.edit && (f.sheet == sheetTarget || f.sheet == sheetDrop):
			return fmt.Errorf("%s: only an edit creates or drops a sheet", f.arg)
		}
		if f.edit {
			edits++
			if i != len(a.files)-1 {
				return fmt.Errorf("%s: the edited workbook must be the last file", f.arg)
			}
		}
	}
	if edits == 0 && (a.keepsValues || a.guard != guardSheet) {
		return fmt.Errorf("a declaration without an edited workbook sets edit options")
	}
	if edits == 0 && a.output == "" && (a.destructive || a.idempotent) {
		return fmt.Errorf("a read-only declaration sets destructive or idempotent (reads are idempotent anyway)")
	}
	return nil
}

// annotations derives the MCP hints of a tool titled title: read-only
// when no workbook is edited and no output written, destructive and
// idempotent when declared so; no tool reaches beyond the workspace
// (openWorldHint false).
func (a access) annotations(title string) *registry.Annotations {
	if a.edited() < 0 && a.output == "" {
		return &registry.Annotations{Title: title, ReadOnly: true}
	}
	return &registry.Annotations{Title: title, Destructive: a.destructive, Idempotent: a.idempotent}
}

// describe says, for docs/TOOLS.md, which path the tool takes on each file.
func (a access) describe() string {
	var parts []string
	for _, f := range a.files {
		var s string
		switch {
		case f.touch == touchStream:
			s = "**stream**: read as it is on disk under a shared lock, its sheets streamed, never parsed in place by excelize, never saved"
		case f.touch == touchStyles:
			s = "**styles**: only the parsed sheet list and style table are read, no sheet is parsed; never saved"
		case f.touch == touchCells:
			s = "**cells**: the sheet is edited on the splice path (its XML rewritten in one pass, every other part copied raw; formula results a write changes recomputed over just the cells those formulas read), through excelize when the splice declines"
		case f.edit:
			s = "**structure**: edited through excelize's parsed workbook"
		default:
			s = "**structure** (read): read through excelize's parsed workbook"
		}
		if f.edit && a.guard == guardEverySheet {
			s += ", every worksheet bounds-checked first"
		}
		parts = append(parts, fmt.Sprintf("`%s` %s", f.arg, s))
	}
	if a.lists != "" {
		parts = append(parts, fmt.Sprintf("`%s` **styles**: the workbooks in the folder are listed, each one's sheet list read without parsing a sheet; never saved", a.lists))
	}
	if a.scans != "" {
		parts = append(parts, fmt.Sprintf("`%s` **stream**: the workbooks in the folder (links never followed) are read one at a time as they are on disk under a shared lock, their sheets streamed, never saved", a.scans))
	}
	if a.output != "" {
		parts = append(parts, fmt.Sprintf("writes `%s` (not a workbook)", a.output))
	}
	if len(parts) == 0 {
		return "Path: opens no workbook."
	}
	return "Path: " + strings.Join(parts, "; then ") + "."
}

// PathLegend is the paragraph docs/TOOLS.md puts before the tools: what the
// words of each spreadsheet tool's "Path" line (access.describe) mean.
func PathLegend() string {
	return "Each spreadsheet tool's Path line is generated from its access declaration (excelops/access.go) and says how it reaches each workbook it opens: " +
		"**stream** reads the file as it is on disk under a shared lock, streaming its sheets' XML, never parsed by excelize and never saved; " +
		"**styles** reads only the parsed style table and sheet list; " +
		"**cells** edits one sheet on the splice path, rewriting that sheet's XML in one pass and copying every other part raw, and falls back to excelize when the splice declines; " +
		"**structure** goes through excelize's parsed workbook. " +
		"Every edit holds the workbook's lock and its cross-process lock file, bounds-checks the sheets excelize will parse, and saves atomically."
}
