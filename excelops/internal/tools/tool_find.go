package tools

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// find_replace: text found in values (and, when asked, in formula text) is
// replaced on one sheet, a range or every sheet. Text cells stay text; a
// number cell matches by its digits and stays a number when the result is
// one; a date cell matches by its ISO text ("2024-01-31") and stays a date
// when the result is one. Booleans and errors are never touched. A formula
// the replacement would break is refused (internal/recalc/check.go) and nothing is
// written.

// maxListedChanges caps the changed cells a find_replace result lists.
const maxListedChanges = 100

// foundCell is one cell find_replace changes.
type foundCell struct {
	sheet, ref     string
	col, row       int
	before, after  string
	formula, isNum bool
	isDate         bool
}

// findReplaceTool declares find_replace.
var findReplaceTool = typedTool(toolSpec{
	name: "find_replace", title: "Find and replace",
	desc:    "Find text in cell values (and optionally formulas) on one sheet, a range or every sheet and replace it; returns the cells changed.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("", access.SheetNone, access.Access{Destructive: true}),
}, (*Service).findReplace)

// findArgs are find_replace's arguments.
type findArgs struct {
	fileArg
	SheetName  string  `json:"sheet_name,omitempty" jsonschema:"Sheet to search; omitted: every sheet (or, with cell_range, the active sheet)"`
	CellRange  string  `json:"cell_range,omitempty" rangeSheet:"sheet_name" jsonschema:"Only these cells, e.g. \"A1:D20\", on sheet_name or the active sheet. ${rangeHelp}"`
	Find       string  `json:"find" minLength:"1" jsonschema:"Text to find; a number cell matches by its digits, e.g. \"1500\" finds 1500"`
	Replace    *string `json:"replace" jsonschema:"Replacement text (\"\" deletes what was found); a number cell stays a number when the result is one"`
	MatchCase  bool    `json:"match_case,omitempty" jsonschema:"Match upper and lower case exactly (default false)"`
	WholeCell  bool    `json:"whole_cell,omitempty" jsonschema:"Match only cells whose entire content equals find (default false: any occurrence inside the text)"`
	InFormulas bool    `json:"in_formulas,omitempty" jsonschema:"Also replace inside formula text, e.g. a sheet or function name (default false: formula cells are left alone); a replacement that makes a formula invalid is refused and nothing is written"`
	DryRun     bool    `json:"dry_run,omitempty" jsonschema:"Only list what would change; nothing is written (default false)"`
}

// findReplace implements find_replace.
func (s *Service) findReplace(ctx context.Context, a findArgs) (*engine.Call, error) {
	if a.Find == "" {
		return nil, failure.Invalid("find is empty: give the text to look for")
	}
	if a.Replace == nil {
		return nil, failure.Invalid("replace is missing: give the replacement text (\"\" deletes what is found)")
	}
	var rng *cellarea.Range
	if a.CellRange != "" {
		r, err := grid.ParseRange(a.CellRange)
		if err != nil {
			return nil, err
		}
		rng = &r
	}
	pattern := regexp.QuoteMeta(a.Find)
	if a.WholeCell {
		pattern = `\A` + pattern + `\z`
	}
	if !a.MatchCase {
		pattern = "(?i)" + pattern
	}
	re := regexp.MustCompile(pattern) // quoted: always compiles
	return engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		sheets, err := findSheets(b, a.SheetName, rng != nil)
		if err != nil {
			return nil, err
		}
		dw, err := b.NewDateWriter()
		if err != nil {
			return nil, err
		}
		var found []foundCell
		for _, sheet := range sheets {
			got, err := findIn(b, sheet, rng, re, a.Find, *a.Replace, a.InFormulas, dw)
			if err != nil {
				return nil, err
			}
			found = append(found, got...)
		}
		res := findResult(b.Name(), a, sheets, found)
		if a.DryRun || len(found) == 0 {
			return engine.Unsaved{Result: res}, nil
		}
		if err := replaceFound(b, found, dw); err != nil {
			return nil, err
		}
		return res, nil
	}), nil
}

// findResult is find_replace's payload.
func findResult(file string, a findArgs, sheets []string, found []foundCell) pyjson.Object {
	list := make([]any, 0, min(len(found), maxListedChanges))
	for i, f := range found {
		if i == maxListedChanges {
			break
		}
		before, after := any(f.before), any(f.after)
		if f.formula {
			before, after = "="+f.before, "="+f.after
		}
		list = append(list, pyjson.Object{{Key: "sheet", Value: f.sheet}, {Key: "cell", Value: f.ref}, {Key: "before", Value: before}, {Key: "after", Value: after}})
	}
	searched := make([]any, len(sheets))
	for i, s := range sheets {
		searched[i] = s
	}
	return success(file, "",
		field("sheets_searched", searched),
		field("dry_run", a.DryRun),
		field("cells_changed", len(found)),
		field("changes", list),
		field("truncated", len(found) > maxListedChanges))
}

// findSheets is the sheets find_replace searches: the named one, the
// active one for a range without a sheet, else every worksheet.
func findSheets(b *engine.Book, name string, hasRange bool) ([]string, error) {
	if name != "" || hasRange {
		sheet, _, err := b.Edit(name)
		return []string{sheet}, err
	}
	list, _ := b.SheetList()
	var out []string
	for _, sheet := range list {
		kind, err := b.SheetKindOf(sheet)
		if err != nil {
			return nil, err
		}
		if kind != opc.Worksheet {
			continue // chart, macro and dialog sheets hold no cells to search
		}
		if _, _, err := b.Edit(sheet); err != nil {
			return nil, err
		}
		out = append(out, sheet)
	}
	return out, nil
}

// findIn lists what find_replace changes on one sheet (within rng when given).
func findIn(b *engine.Book, sheet string, rng *cellarea.Range, re *regexp.Regexp, find, repl string, inFormulas bool, dw *engine.DateWriter) ([]foundCell, error) {
	ext := b.Extents[sheet]
	if ext == nil || ext.Empty() {
		return nil, nil
	}
	area := cellarea.Range{C1: ext.MinCol, R1: ext.MinRow, C2: ext.MaxCol, R2: ext.MaxRow}
	if rng != nil {
		area = cellarea.Range{C1: max(area.C1, rng.C1), R1: max(area.R1, rng.R1), C2: min(area.C2, rng.C2), R2: min(area.R2, rng.R2)}
		if area.C1 > area.C2 || area.R1 > area.R2 {
			return nil, nil
		}
	}
	formulas, err := b.FormulaCells(sheet)
	if err != nil {
		return nil, err
	}
	isFormula := make(map[string]bool, len(formulas))
	for _, fc := range formulas {
		isFormula[fc.Ref] = true
	}
	spilled := engine.SpilledBy(formulas)
	rows, err := b.RowTexts(sheet, excelize.Options{RawCellValue: true})
	if err != nil {
		return nil, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: sheet %q cannot be read: %v", sheet, err), err)
	}
	var out []foundCell
	var names *recalc.FormulaScope // read at the first formula replaced
	for r := area.R1; r <= area.R2 && r <= len(rows); r++ {
		row := rows[r-1]
		for c := area.C1; c <= area.C2; c++ {
			ref := grid.CellName(c, r)
			if isFormula[ref] {
				if !inFormulas {
					continue
				}
				text, err := b.CellFormula(sheet, ref)
				if err != nil {
					return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
				}
				// Matched as shown, with its "=": whole_cell compares the whole formula.
				if !re.MatchString("=" + text) {
					continue
				}
				after, ok := strings.CutPrefix(re.ReplaceAllLiteralString("="+text, repl), "=")
				if !ok {
					return nil, failure.Invalid("replacing %q by %q would remove the = of the formula in %s!%s and turn it into text; nothing was written", find, repl, sheet, ref)
				}
				if after == text {
					continue
				}
				if err := grid.CheckFormula(ref, after); err != nil {
					return nil, err
				}
				if err := recalc.CheckFormulaText(sheet+"!"+ref, after); err != nil {
					return nil, fmt.Errorf("replacing %q by %q in the formula of %s!%s: %w", find, repl, sheet, ref, err)
				}
				if names == nil {
					names = b.FormulaScope()
				}
				if err := names.Check(sheet+"!"+ref, sheet, after); err != nil {
					return nil, fmt.Errorf("replacing %q by %q in the formula of %s!%s: %w", find, repl, sheet, ref, err)
				}
				out = append(out, foundCell{sheet: sheet, ref: ref, col: c, row: r, before: text, after: after, formula: true})
				continue
			}
			if c > len(row) || row[c-1] == "" || spilled(c, r) {
				continue
			}
			f, ok, err := findValue(b, sheet, ref, row[c-1], re, repl, dw)
			if err != nil {
				return nil, err
			}
			if ok {
				f.col, f.row = c, r
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// findValue matches one value cell: text as is, a number by its digits, a
// date by its ISO text; booleans and errors never match.
func findValue(b *engine.Book, sheet, ref, raw string, re *regexp.Regexp, repl string, dw *engine.DateWriter) (foundCell, bool, error) {
	f := foundCell{sheet: sheet, ref: ref, before: raw}
	if !re.MatchString(raw) && !engine.LooksNumeric(raw) {
		return f, false, nil // cheap exit for text that cannot match
	}
	t, _ := b.CellType(sheet, ref)
	switch t {
	case excelize.CellTypeBool, excelize.CellTypeError:
		return f, false, nil
	case excelize.CellTypeNumber, excelize.CellTypeUnset:
		if n, ok := engine.JsonCell(raw).(float64); ok || isInt(engine.JsonCell(raw)) {
			f.isNum = true
			if !ok {
				n = float64(engine.JsonCell(raw).(int64))
			}
			style, _ := b.CellStyle(sheet, ref)
			if isDate, err := dw.StyleIsDate(style); err == nil && isDate {
				if iso, ok := dates.SerialISO(n, dw.Date1904); ok {
					f.before, f.isDate = strings.TrimSuffix(iso, "T00:00:00"), true
				}
			}
		}
	}
	if !re.MatchString(f.before) {
		return f, false, nil
	}
	f.after = re.ReplaceAllLiteralString(f.before, repl)
	if trimmed := strings.TrimSpace(f.after); (f.isNum || f.isDate) && trimmed != f.after && engine.LooksNumeric(trimmed) {
		f.after = trimmed // stored as the number it reads as
	}
	if f.after == f.before {
		return f, false, nil
	}
	if err := grid.CheckText(sheet+"!"+ref, f.after); err != nil {
		return f, false, err
	}
	return f, true, nil
}

// isInt reports whether v is an int64.
func isInt(v any) bool {
	_, ok := v.(int64)
	return ok
}

// replaceFound writes what findIn planned. Formulas go through the plan of
// every formula on their sheets (applyRefs), so rewriting one cell of a
// shared formula keeps the others.
func replaceFound(b *engine.Book, found []foundCell, dw *engine.DateWriter) error {
	var edits []cellarea.Area
	planned := map[string]*engine.RefPlan{}
	for _, f := range found {
		edits = append(edits, cellarea.Area{Sheet: f.sheet, C1: f.col, R1: f.row, C2: f.col, R2: f.row})
		if f.formula {
			p := planned[f.sheet]
			if p == nil {
				var err error
				if p, err = sheetFormulaPlan(b, f.sheet); err != nil {
					return err
				}
				planned[f.sheet] = p
			}
			for i := range p.Cells {
				if p.Cells[i].Cell == f.ref {
					p.Cells[i].Formula, p.Cells[i].Changed = f.after, true
				}
			}
			continue
		}
		var err error
		switch {
		case f.after == "":
			err = b.SetCellValue(f.sheet, f.ref, nil)
		case (f.isNum || f.isDate) && !strings.HasPrefix(strings.TrimSpace(f.after), "=") && !strings.HasPrefix(f.after, "'"):
			var w engine.CellWrite
			if w, err = engine.PlanCell(f.col, f.row, f.after, engine.ValueTypesAuto); err == nil {
				_, err = dw.Put(f.sheet, w)
			}
		default:
			err = b.SetCellStr(f.sheet, f.ref, f.after)
		}
		if err != nil {
			if failure.KindOf(err) != "" {
				return err
			}
			return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot write %s!%s: %v", f.sheet, f.ref, err), err)
		}
	}
	for _, p := range planned {
		if err := b.ApplyRefs(p); err != nil {
			return err
		}
	}
	if len(edits) <= maxListedChanges*10 {
		b.Edits = &recalc.EditSet{Areas: edits}
	}
	return nil
}

// sheetFormulaPlan is every formula of sheet as it reads now.
func sheetFormulaPlan(b *engine.Book, sheet string) (*engine.RefPlan, error) {
	all, err := b.FormulaCells(sheet)
	if err != nil {
		return nil, err
	}
	p := &engine.RefPlan{}
	for _, fc := range all {
		text, err := b.CellFormula(sheet, fc.Ref)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
		p.Cells = append(p.Cells, engine.PlannedFormula{Sheet: sheet, Cell: fc.Ref, Formula: text, ArrayRef: fc.ArrayRef})
	}
	return p, nil
}
