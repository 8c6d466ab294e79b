package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Pivot table limits.
const (
	// maxPivotSourceCells caps the cells of a pivot's source range (the
	// distinct labels are counted cell by cell).
	maxPivotSourceCells = 2_000_000
	// maxPivotFields caps the fields on each axis and the value fields.
	maxPivotFields = 16
)

// pivotFunctions are the summaries create_pivot_table offers, in the
// order the schema lists them.
func pivotFunctions() []string { return []string{"sum", "count", "average"} }

// pivotSubtotal maps a summary to excelize's subtotal name.
func pivotSubtotal(fn string) (string, bool) {
	switch fn {
	case "sum":
		return "Sum", true
	case "count":
		return "Count", true
	case "average":
		return "Average", true
	}
	return "", false
}

// pivotValue is one summarised field of create_pivot_table.
type pivotValue struct {
	Field    string `json:"field" jsonschema:"Header name of the field to summarise"`
	Function string `json:"function,omitempty" enum:"${pivotFunctions}" jsonschema:"How the field's values are combined (default sum)"`
}

// check validates what can be checked without the workbook.
func (a *pivotArgs) check() (cellarea.Range, error) {
	src, err := grid.ParseRange(a.SourceRange)
	if err != nil {
		return src, err
	}
	if src.R2 <= src.R1 {
		return src, failure.Invalid("source_range %s needs a header row and at least one data row", src)
	}
	if src.Cells() > maxPivotSourceCells {
		return src, failure.New(failure.KindLimit, fmt.Sprintf("source_range %s has %d cells, more than the %d a pivot table source may have here", src, src.Cells(), maxPivotSourceCells), nil)
	}
	if len(a.Values) == 0 {
		return src, failure.Invalid("give at least one entry in values")
	}
	if len(a.Rows) == 0 && len(a.Columns) == 0 {
		return src, failure.Invalid("give at least one field in rows or columns")
	}
	if len(a.Rows) > maxPivotFields || len(a.Columns) > maxPivotFields || len(a.Values) > maxPivotFields {
		return src, failure.Invalid("at most %d fields each in rows, columns and values", maxPivotFields)
	}
	seen := map[string]string{}
	for _, axis := range []struct {
		name   string
		fields []string
	}{{"rows", a.Rows}, {"columns", a.Columns}} {
		for _, f := range axis.fields {
			if prev, dup := seen[f]; dup {
				return src, failure.Invalid("field %q is given twice (in %s and %s); a field can be on one axis once", f, prev, axis.name)
			}
			seen[f] = axis.name
		}
	}
	pairs := map[pivotValue]bool{}
	for i := range a.Values {
		v := &a.Values[i]
		if v.Function == "" {
			v.Function = "sum"
		}
		if _, ok := pivotSubtotal(v.Function); !ok {
			return src, failure.Invalid("invalid function %q for value field %q: one of %s", v.Function, v.Field, strings.Join(pivotFunctions(), ", "))
		}
		if pairs[*v] {
			return src, failure.Invalid("value field %q with function %s is given twice", v.Field, v.Function)
		}
		pairs[*v] = true
	}
	if strings.TrimSpace(a.Name) == "" && a.Name != "" {
		return src, failure.Invalid("name is blank")
	}
	return src, nil
}

// createPivotTableTool declares create_pivot_table.
var createPivotTableTool = typedTool(toolSpec{
	name: "create_pivot_table", title: "Create pivot table",
	desc:    "Create a pivot table summarising a source range with a header row: row and column fields and values (sum, count or average) by header name.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: true}),
}, (*Service).createPivotTable)

// pivotArgs are create_pivot_table's arguments.
type pivotArgs struct {
	fileArg
	SheetName   string       `json:"sheet_name,omitempty" jsonschema:"Sheet holding the source data; default the active sheet"`
	SourceRange string       `json:"source_range" rangeSheet:"sheet_name" jsonschema:"Source data with its header row first, e.g. \"A1:D100\"; every header cell must hold a distinct name. ${rangeHelp}"`
	TargetSheet string       `json:"target_sheet,omitempty" jsonschema:"Sheet to place the pivot table on, default the source sheet; must exist unless create is true"`
	TargetCell  string       `json:"target_cell,omitempty" jsonschema:"Top-left cell of the pivot table; default two columns right of the source range on the source sheet, A3 on another sheet"`
	Create      bool         `json:"create,omitempty" jsonschema:"Create target_sheet when it does not exist (default false: a missing sheet is an error naming the sheets that exist)"`
	Rows        []string     `json:"rows,omitempty" jsonschema:"Header names of the fields whose values become row labels, outermost first"`
	Columns     []string     `json:"columns,omitempty" jsonschema:"Header names of the fields whose values become column labels, outermost first"`
	Values      []pivotValue `json:"values" minItems:"1" itemDescription:"One summarised field" jsonschema:"The summarised fields"`
	Name        string       `json:"name,omitempty" maxLength:"255" jsonschema:"Pivot table name, default PivotTable1, PivotTable2, ..."`
}

// createPivotTable implements create_pivot_table through excelize's
// AddPivotTable. excelize writes the pivot definition and its cache
// definition with refreshOnLoad set: Excel and LibreOffice compute the
// pivot's cells when they open the workbook.
func (s *Service) createPivotTable(_ context.Context, a pivotArgs) (*engine.Call, error) {
	src, err := a.check()
	if err != nil {
		return nil, err
	}
	if a.TargetCell != "" {
		if _, _, err := grid.ParseCell(a.TargetCell); err != nil {
			return nil, err
		}
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		return addPivot(b, &a, src, sh.Name)
	}), nil
}

// addPivot places the pivot table a describes on the open workbook, its
// source on sheet (opened for editing by Engine.Run).
func addPivot(b *engine.Book, a *pivotArgs, src cellarea.Range, sheet string) (any, error) {
	if strings.Contains(sheet, "!") {
		return nil, failure.Invalid("sheet %q: a pivot table's source sheet name may not contain \"!\" here; rename the sheet first", sheet)
	}
	headers, err := pivotHeaders(b, sheet, src)
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range headers {
		col[h] = src.C1 + i
	}
	lookup := func(field, where string) (int, error) {
		if c, ok := col[field]; ok {
			return c, nil
		}
		for _, h := range headers {
			if strings.EqualFold(h, field) {
				return 0, failure.Invalid("%s field %q is not a header of %s; did you mean %q? The headers are: %s", where, field, src, h, engine.QuoteList(headers))
			}
		}
		return 0, failure.Invalid("%s field %q is not a header of %s; the headers are: %s", where, field, src, engine.QuoteList(headers))
	}
	var rowCols, colCols []int
	for _, f := range a.Rows {
		c, err := lookup(f, "rows")
		if err != nil {
			return nil, err
		}
		rowCols = append(rowCols, c)
	}
	for _, f := range a.Columns {
		c, err := lookup(f, "columns")
		if err != nil {
			return nil, err
		}
		colCols = append(colCols, c)
	}
	for _, v := range a.Values {
		if _, err := lookup(v.Field, "values"); err != nil {
			return nil, err
		}
	}
	target, sheetCreated := sheet, false
	if a.TargetSheet != "" {
		// A second sheet of the same workbook, opened as the first.
		var err error
		if target, _, sheetCreated, err = b.EditTarget(a.TargetSheet, a.Create); err != nil {
			return nil, err
		}
	}
	if strings.Contains(target, "!") {
		return nil, failure.Invalid("sheet %q: a pivot table's target sheet name may not contain \"!\" here; rename the sheet first", target)
	}
	anchor := a.TargetCell
	if anchor == "" {
		anchor = "A3"
		if target == sheet {
			anchor = grid.CellName(min(src.C2+2, excelize.MaxColumns), src.R1)
		}
	}
	ac, ar, err := grid.ParseCell(anchor)
	if err != nil {
		return nil, err
	}
	nRows, nCols, err := pivotSize(b, sheet, src, rowCols, colCols, len(a.Values))
	if err != nil {
		return nil, err
	}
	loc := cellarea.Range{C1: ac, R1: ar, C2: min(ac+nCols-1, excelize.MaxColumns), R2: min(ar+nRows-1, excelize.TotalRows)}
	if loc.C2 == loc.C1 && loc.R2 == loc.R1 {
		loc.R2++ // excelize wants a range, not one cell
	}
	if target == sheet && loc.Overlaps(src) {
		return nil, failure.Invalid("the pivot table at %s (about %s) would overlap its source %s; give target_cell or target_sheet elsewhere", grid.CellName(ac, ar), loc, src)
	}
	if err := checkPivotRoom(b, target, loc, a); err != nil {
		return nil, err
	}
	opts := &excelize.PivotTableOptions{
		DataRange:       sheet + "!" + absRange(src),
		PivotTableRange: target + "!" + absRange(loc),
		Name:            a.Name,
		RowGrandTotals:  true,
		ColGrandTotals:  true,
		ShowDrill:       true,
		ShowRowHeaders:  true,
		ShowColHeaders:  true,
		ShowLastColumn:  true,
		CompactData:     true,
	}
	for _, f := range a.Rows {
		opts.Rows = append(opts.Rows, excelize.PivotTableField{Data: f, DefaultSubtotal: true})
	}
	for _, f := range a.Columns {
		opts.Columns = append(opts.Columns, excelize.PivotTableField{Data: f, DefaultSubtotal: true})
	}
	values := make([]pyjson.Object, 0, len(a.Values))
	for _, v := range a.Values {
		sub, _ := pivotSubtotal(v.Function)
		name := sub + " of " + v.Field
		opts.Data = append(opts.Data, excelize.PivotTableField{Data: v.Field, Subtotal: sub, Name: name})
		values = append(values, pyjson.Object{{Key: "field", Value: v.Field}, {Key: "function", Value: v.Function}, {Key: "name", Value: name}})
	}
	if err := b.AddPivotTable(opts); err != nil {
		return nil, failure.New(failure.KindInvalidArgument, "cannot create the pivot table: "+err.Error(), err)
	}
	res := success(b.Name(), "",
		field("pivot_table", opts.Name),
		field("source_sheet", sheet),
		field("source_range", src.String()),
		field("sheet", target),
		field("anchor", grid.CellName(ac, ar)),
		field("estimated_range", loc.String()),
		field("rows", nonNil(a.Rows)),
		field("columns", nonNil(a.Columns)),
		field("values", values),
		field("note", "Excel and LibreOffice compute the pivot table's cells when they open the workbook (its cache is refreshed on load); until then read_excel sees them empty"))
	if sheetCreated {
		res = append(res, field("sheet_created", true))
	}
	return res, nil
}

// pivotHeaders reads the header row of src: every cell must hold a
// distinct, non-empty name.
func pivotHeaders(b *engine.Book, sheet string, src cellarea.Range) ([]string, error) {
	var headers []string
	seen := map[string]string{}
	for c := src.C1; c <= src.C2; c++ {
		ref := grid.CellName(c, src.R1)
		h, err := b.CellValue(sheet, ref)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, fmt.Sprintf("cannot read %s: %v", ref, err), err)
		}
		if strings.TrimSpace(h) == "" {
			return nil, failure.Invalid("header cell %s of source_range %s is empty: every column of the source needs a name in the header row", ref, src)
		}
		if prev, dup := seen[h]; dup {
			return nil, failure.Invalid("header %q appears twice in source_range %s (%s and %s): pivot fields need distinct names", h, src, prev, ref)
		}
		seen[h] = ref
		headers = append(headers, h)
	}
	return headers, nil
}

// pivotSize estimates the rows and columns the laid-out pivot table takes
// in Excel's compact form: one row per distinct row label (and per outer
// label's subtotal), one column per distinct column label and value field,
// plus headers and grand totals. Excel and LibreOffice lay it out again
// when they refresh it; the estimate places it and checks the room.
func pivotSize(b *engine.Book, sheet string, src cellarea.Range, rowCols, colCols []int, nValues int) (rows, cols int, err error) {
	distinct := func(cols []int) (int, error) {
		if len(cols) == 0 {
			return 0, nil
		}
		tuples := map[string]bool{}
		prefixes := map[string]bool{}
		for r := src.R1 + 1; r <= src.R2; r++ {
			var key strings.Builder
			for i, c := range cols {
				v, err := b.CellValue(sheet, grid.CellName(c, r))
				if err != nil {
					return 0, failure.New(failure.KindDamaged, fmt.Sprintf("cannot read %s: %v", grid.CellName(c, r), err), err)
				}
				key.WriteString(v)
				key.WriteByte(0)
				if i < len(cols)-1 {
					prefixes[key.String()] = true
				}
			}
			tuples[key.String()] = true
		}
		return len(tuples) + len(prefixes), nil
	}
	nr, err := distinct(rowCols)
	if err != nil {
		return 0, 0, err
	}
	nc, err := distinct(colCols)
	if err != nil {
		return 0, 0, err
	}
	rows = 1 + max(nr, 1) + 1 // header, labels, grand total
	if len(colCols) > 0 || nValues > 1 {
		rows++ // the column labels' row
	}
	if len(colCols) > 0 && nValues > 1 {
		rows++ // the value fields' names under each column label
	}
	cols = 1 + (max(nc, 0)+1)*nValues
	if len(rowCols) == 0 {
		cols = 1 + (nc+1)*nValues
	}
	return rows, cols, nil
}

// checkPivotRoom refuses a pivot table whose area holds values or meets
// another pivot table, and a name another pivot table of the sheet has.
func checkPivotRoom(b *engine.Book, sheet string, loc cellarea.Range, a *pivotArgs) error {
	existing, err := b.PivotTables(sheet)
	if err != nil {
		return failure.New(failure.KindDamaged, fmt.Sprintf("cannot read the pivot tables of sheet %q: %v", sheet, err), err)
	}
	for _, p := range existing {
		if a.Name != "" && strings.EqualFold(p.Name, a.Name) {
			return failure.Invalid("sheet %q already has a pivot table named %q", sheet, p.Name)
		}
		ref := p.PivotTableRange[strings.LastIndex(p.PivotTableRange, "!")+1:]
		if r, err := grid.ParseRange(strings.ReplaceAll(ref, "$", "")); err == nil && loc.Overlaps(r) {
			return failure.Invalid("the pivot table at %s would overlap pivot table %q at %s on sheet %q; give another target_cell", loc, p.Name, r, sheet)
		}
	}
	if a.Name == "" {
		a.Name = fmt.Sprintf("PivotTable%d", len(existing)+1)
	}
	_, ext, err := b.Edit(sheet)
	if err != nil {
		return err
	}
	for r := loc.R1; r <= min(loc.R2, ext.MaxRow); r++ {
		for c := loc.C1; c <= min(loc.C2, ext.MaxCol); c++ {
			if v, err := b.CellValue(sheet, grid.CellName(c, r)); err != nil || v != "" {
				return failure.Invalid("cell %s of sheet %q holds a value and lies where the pivot table goes (about %s); choose an empty target_cell or target_sheet", grid.CellName(c, r), sheet, loc)
			}
		}
	}
	return nil
}

// absRange renders r as "$A$1:$C$3".
func absRange(r cellarea.Range) string {
	return fmt.Sprintf("$%s$%d:$%s$%d", grid.ColumnName(r.C1), r.R1, grid.ColumnName(r.C2), r.R2)
}

// nonNil returns list, or an empty list for nil (JSON [] rather than null).
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
