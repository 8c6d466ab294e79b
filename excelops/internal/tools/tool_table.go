package tools

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/textdist"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Excel tables (ListObjects): create_table and the checks the other
// structural tools share (tables, autofilters and merges a range runs into).

// maxTableName is Excel's longest table name.
const maxTableName = 255

// tableStyles are Excel's built-in table styles, and "none".
func tableStyles() []string {
	out := []string{"none"}
	for _, g := range []struct {
		name string
		n    int
	}{{"Light", 21}, {"Medium", 28}, {"Dark", 11}} {
		for i := 1; i <= g.n; i++ {
			out = append(out, "TableStyle"+g.name+strconv.Itoa(i))
		}
	}
	return out
}

// checkTableStyle refuses a style Excel does not have, naming close ones.
func checkTableStyle(style string) error {
	if vocab.OneOf(style, tableStyles()...) {
		return nil
	}
	return failure.Invalid("invalid style %q: TableStyleLight1-21, TableStyleMedium1-28, TableStyleDark1-11 or none.%s", style, textdist.DidYouMean(textdist.CloseMatches(style, tableStyles())))
}

// sheetTable is one table of a sheet.
type sheetTable struct {
	name string
	rng  cellarea.Range
}

// tablesOn lists the tables of sheet (a sheet this call edits).
func tablesOn(b *engine.Book, sheet string) ([]sheetTable, error) {
	list, err := b.Tables(sheet)
	if err != nil {
		return nil, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: cannot read the tables of sheet %q: %v", sheet, err), err)
	}
	out := make([]sheetTable, 0, len(list))
	for _, t := range list {
		rng, err := grid.ParseRange(t.Range)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: table %q has the range %q", t.Name, t.Range), err)
		}
		out = append(out, sheetTable{t.Name, rng})
	}
	return out, nil
}

// refuseMerged fails when rng holds or touches a merged range, naming it.
func refuseMerged(b *engine.Book, sheet string, rng cellarea.Range, what string) error {
	merged, err := b.MergeCells(sheet, true)
	if err != nil {
		return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: cannot read the merged cells of sheet %q: %v", sheet, err), err)
	}
	for _, m := range merged {
		mr, err := grid.ParseRange(m.GetStartAxis() + ":" + m.GetEndAxis())
		if err == nil && mr.Overlaps(rng) {
			return failure.Invalid("%s %s overlaps the merged cells %s; unmerge them first (unmerge_cells)", what, rng, mr)
		}
	}
	return nil
}

// sheetAutofilter returns the range of sheet's own autofilter (not a
// table's), read from the worksheet excelize parsed.
func sheetAutofilter(b *engine.Book, sheet string) (cellarea.Range, bool) {
	ws, ok := b.Worksheet(sheet)
	if !ok {
		return cellarea.Range{}, false
	}
	if ws.AutoFilter == nil {
		return cellarea.Range{}, false
	}
	rng, err := grid.ParseRange(ws.AutoFilter.Ref)
	return rng, err == nil
}

// cellRefLike matches table names Excel refuses because they read as a
// cell reference (A1, XFD1048576) or an R1C1 reference (R1C1, R2, C3).
var cellRefLike = regexp.MustCompile(`(?i)^([a-z]{1,3}[0-9]+|r[0-9]*c[0-9]*|r[0-9]+|c[0-9]+)$`)

// checkTableName refuses names Excel cannot give a table.
func checkTableName(name string) error {
	switch {
	case name == "":
		return failure.Invalid("table_name is empty")
	case len([]rune(name)) > maxTableName:
		return failure.Invalid("table_name %q is longer than %d characters", name, maxTableName)
	case cellRefLike.MatchString(name) || strings.EqualFold(name, "r") || strings.EqualFold(name, "c"):
		return failure.Invalid("table_name %q reads as a cell reference; use a name such as \"Sales\" or \"tbl_%s\"", name, name)
	}
	for i, r := range name {
		ok := unicode.IsLetter(r) || r == '_' || r == '\\'
		if i > 0 {
			ok = ok || unicode.IsDigit(r) || r == '.'
		}
		if !ok {
			if i == 0 {
				return failure.Invalid("table_name %q must start with a letter or _", name)
			}
			return failure.Invalid("table_name %q may hold only letters, digits, _ and . (no spaces): %q is not allowed", name, string(r))
		}
	}
	return nil
}

// createTableTool declares create_table.
var createTableTool = typedTool(toolSpec{
	name: "create_table", title: "Create table",
	desc:    "Turn a range with a header row into an Excel table (name, style, banded rows); refuses ranges that overlap a table, an autofilter or merged cells.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Idempotent: true}),
}, (*Service).createTable)

// createTableArgs are create_table's arguments.
type createTableArgs struct {
	fileArg
	sheetArg
	CellRange         string `json:"cell_range" rangeSheet:"sheet_name" jsonschema:"The table's cells, header row first, e.g. \"A1:D20\" (at least two rows). ${rangeHelp}"`
	TableName         string `json:"table_name,omitempty" jsonschema:"Name used in structured references (Table1[qty]): a letter or _ first, then letters, digits, _ or .; unique in the workbook; default Table1, Table2, ..."`
	Style             string `json:"style,omitempty" enum:"${tableStyles}" jsonschema:"Built-in table style (default TableStyleMedium2); \"none\" for a plain table"`
	ShowRowStripes    *bool  `json:"show_row_stripes,omitempty" jsonschema:"Banded rows (default true)"`
	ShowColumnStripes bool   `json:"show_column_stripes,omitempty" jsonschema:"Banded columns (default false)"`
	ShowFirstColumn   bool   `json:"show_first_column,omitempty" jsonschema:"Emphasise the first column (default false)"`
	ShowLastColumn    bool   `json:"show_last_column,omitempty" jsonschema:"Emphasise the last column (default false)"`
}

// createTable implements create_table.
func (s *Service) createTable(ctx context.Context, a createTableArgs) (*engine.Call, error) {
	rng, err := grid.ParseRange(a.CellRange)
	if err != nil {
		return nil, err
	}
	if rng.R2 == rng.R1 {
		return nil, failure.Invalid("a table needs a header row and at least one data row: %s is one row; give e.g. %s", rng, grid.RangeRef(rng.C1, rng.R1, rng.C2, rng.R1+1))
	}
	style := a.Style
	if style == "" {
		style = "TableStyleMedium2"
	}
	if err := checkTableStyle(style); err != nil {
		return nil, err
	}
	shown := style
	if style == "none" {
		style = ""
	}
	if a.TableName != "" {
		if err := checkTableName(a.TableName); err != nil {
			return nil, err
		}
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet, ext := sh.Name, sh.Ext
		name, err := newTableName(b, a.TableName)
		if err != nil {
			return nil, err
		}
		if err := refuseTableClash(b, sheet, rng); err != nil {
			return nil, err
		}
		headers, filled, err := tableHeaders(b, sheet, rng)
		if err != nil {
			return nil, err
		}
		t := &excelize.Table{
			Range: rng.String(), Name: name, StyleName: style,
			ShowRowStripes: a.ShowRowStripes, ShowColumnStripes: a.ShowColumnStripes,
			ShowFirstColumn: a.ShowFirstColumn, ShowLastColumn: a.ShowLastColumn,
		}
		if t.ShowRowStripes == nil {
			on := true
			t.ShowRowStripes = &on
		}
		if err := b.AddTable(sheet, t); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "cannot create the table: "+err.Error(), err)
		}
		ext.Widen(rng.R1, rng.C1)
		ext.Widen(rng.R2, rng.C2)
		// Only header cells may have changed (filled or turned into text).
		b.Edits = &recalc.EditSet{Areas: []cellarea.Area{{Sheet: sheet, C1: rng.C1, R1: rng.R1, C2: rng.C2, R2: rng.R1}}}
		res := success(b.Name(), sheet,
			field("table_name", name),
			field("range", rng.String()),
			field("style", shown),
			field("columns", headers),
			field("data_rows", rng.R2-rng.R1))
		if len(filled) > 0 {
			res = append(res, pyjson.Field{Key: "headers_changed", Value: filled})
		}
		return res, nil
	}), nil
}

// newTableName checks that name is free in the workbook (tables and
// defined names alike, ignoring case), or picks the first free TableN.
func newTableName(b *engine.Book, name string) (string, error) {
	taken := map[string]string{}
	for _, n := range b.TableNames() {
		taken[strings.ToLower(n)] = "a table"
	}
	for _, dn := range b.DefinedNames() {
		if _, ok := taken[strings.ToLower(dn.Name)]; !ok {
			taken[strings.ToLower(dn.Name)] = "a defined name"
		}
	}
	if name != "" {
		if what, ok := taken[strings.ToLower(name)]; ok {
			return "", failure.Invalid("the workbook already has %s called %q; choose another table_name", what, name)
		}
		return name, nil
	}
	for i := 1; ; i++ {
		n := "Table" + strconv.Itoa(i)
		if _, ok := taken[strings.ToLower(n)]; !ok {
			return n, nil
		}
	}
}

// refuseTableClash fails when rng overlaps a table, the sheet's autofilter
// or merged cells: Excel cannot hold a table there.
func refuseTableClash(b *engine.Book, sheet string, rng cellarea.Range) error {
	tables, err := tablesOn(b, sheet)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if t.rng.Overlaps(rng) {
			return failure.Invalid("range %s overlaps the table %q (%s); tables cannot overlap", rng, t.name, t.rng)
		}
	}
	if af, ok := sheetAutofilter(b, sheet); ok && af.Overlaps(rng) {
		return failure.Invalid("range %s overlaps the sheet's autofilter on %s; remove it first (set_autofilter with remove: true), a table brings its own filter", rng, af)
	}
	return refuseMerged(b, sheet, rng, "range")
}

// tableHeaders makes the header row of a new table what Excel requires:
// text, non-empty and unique ignoring case. As Excel does, an empty header
// becomes ColumnN and a repeated one gets a number (qty, qty2); a number
// becomes its text. It returns the column names and the cells it changed;
// a formula in the header row is refused.
func tableHeaders(b *engine.Book, sheet string, rng cellarea.Range) ([]any, []any, error) {
	var names, changed []any
	seen := map[string]bool{}
	type write struct{ ref, text string }
	var writes []write
	for c := rng.C1; c <= rng.C2; c++ {
		ref := grid.CellName(c, rng.R1)
		formula, err := b.CellFormula(sheet, ref)
		if err != nil {
			return nil, nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
		if formula != "" {
			return nil, nil, failure.Invalid("header cell %s holds the formula =%s; table headers must be text: write the header text first", ref, formula)
		}
		text, err := b.CellValue(sheet, ref, excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
		typ, _ := b.CellType(sheet, ref)
		name := text
		if strings.TrimSpace(name) == "" {
			name = "Column" + strconv.Itoa(c-rng.C1+1)
		}
		for base, n := name, 2; seen[strings.ToLower(name)]; n++ {
			name = base + strconv.Itoa(n)
		}
		seen[strings.ToLower(name)] = true
		names = append(names, name)
		isText := typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString
		if name != text || !isText {
			writes = append(writes, write{ref, name})
			if name != text {
				changed = append(changed, pyjson.Object{{Key: "cell", Value: ref}, {Key: "was", Value: engine.JsonCell(text)}, {Key: "now", Value: name}})
			}
		}
	}
	for _, w := range writes {
		if err := grid.CheckText(w.ref, w.text); err != nil {
			return nil, nil, err // a header made unique grew past the limit
		}
		if err := b.SetCellStr(sheet, w.ref, w.text); err != nil {
			return nil, nil, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot write header %s: %v", w.ref, err), err)
		}
	}
	return names, changed, nil
}
