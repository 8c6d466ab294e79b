package excelops

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// How a sheet is viewed: freeze_panes and set_autofilter.

// freezePanes implements freeze_panes.
func (s *Service) freezePanes(ctx context.Context, raw json.RawMessage) (*call, error) {
	var a struct {
		FilePath  string `json:"file_path"`
		SheetName string `json:"sheet_name"`
		Cell      string `json:"cell"`
		Unfreeze  bool   `json:"unfreeze"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	col, row := 1, 1
	switch {
	case a.Unfreeze && a.Cell != "":
		return nil, invalid("give cell (what to freeze) or unfreeze: true, not both")
	case !a.Unfreeze && a.Cell == "":
		return nil, invalid("give cell, the first cell that scrolls (\"A2\" freezes the header row, \"B2\" also column A), or unfreeze: true")
	case a.Cell != "":
		var err error
		if col, row, err = parseCell(a.Cell); err != nil {
			return nil, err
		}
	}
	return onBook(a.FilePath, a.SheetName, func(b *book, sh sheetRef) (any, error) {
		sheet := sh.name
		before, err := b.f.GetPanes(sheet)
		if err != nil {
			return nil, newError(KindDamaged, "file is damaged: "+err.Error(), err)
		}
		panes := &excelize.Panes{}
		var top any
		if col > 1 || row > 1 {
			top = cellName(col, row)
			pane := "bottomRight"
			switch {
			case col == 1:
				pane = "bottomLeft"
			case row == 1:
				pane = "topRight"
			}
			panes = &excelize.Panes{Freeze: true, XSplit: col - 1, YSplit: row - 1, TopLeftCell: cellName(col, row), ActivePane: pane,
				Selection: []excelize.Selection{{SQRef: cellName(col, row), ActiveCell: cellName(col, row), Pane: pane}}}
		}
		if err := b.f.SetPanes(sheet, panes); err != nil {
			return nil, newError(KindInvalidArgument, "cannot set the panes: "+err.Error(), err)
		}
		var was any
		if before.Freeze {
			was = errorsjson.Object{{Key: "frozen_rows", Value: before.YSplit}, {Key: "frozen_columns", Value: before.XSplit}}
		}
		return success(b.name(), sheet,
			field("frozen_rows", row-1),
			field("frozen_columns", col-1),
			field("top_left_cell", top),
			field("previously_frozen", was)), nil
	}), nil
}

// filterOperators are set_autofilter's criteria.
func filterOperators() []string {
	return []string{"equal", "notEqual", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual",
		"beginsWith", "endsWith", "contains", "notContains", "blanks", "nonBlanks"}
}

// filterArgs is one column criterion of set_autofilter.
type filterArgs struct {
	Column   string `json:"column"`
	Operator string `json:"operator"`
	Value    any    `json:"value"`
}

// filterRule is a checked criterion.
type filterRule struct {
	col      int    // sheet column
	op, text string // operator and the value as text
	num      *float64
}

// setAutofilter implements set_autofilter.
func (s *Service) setAutofilter(ctx context.Context, raw json.RawMessage) (*call, error) {
	var a struct {
		FilePath  string       `json:"file_path"`
		SheetName string       `json:"sheet_name"`
		CellRange string       `json:"cell_range"`
		Filters   []filterArgs `json:"filters"`
		Remove    bool         `json:"remove"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	var rng cellRange
	var rules []filterRule
	switch {
	case a.Remove && (a.CellRange != "" || len(a.Filters) > 0):
		return nil, invalid("remove: true takes no cell_range or filters: the sheet's autofilter is removed wherever it is")
	case !a.Remove && a.CellRange == "":
		return nil, invalid("give cell_range, the filtered cells with their header row (e.g. \"A1:D20\"), or remove: true")
	case !a.Remove:
		var err error
		if rng, err = parseRange(a.CellRange); err != nil {
			return nil, err
		}
		if rules, err = filterRules(a.Filters, rng); err != nil {
			return nil, err
		}
	}
	return onBook(a.FilePath, a.SheetName, func(b *book, sh sheetRef) (any, error) {
		sheet, ext := sh.name, sh.ext
		ws, ok := b.worksheet(sheet)
		if !ok {
			return nil, fmt.Errorf("cannot set an autofilter on sheet %q: this excelize version keeps worksheets in an unexpected shape", sheet)
		}
		old, hadOld := b.sheetAutofilter(sheet)
		res := success(b.name(), sheet)
		shown := 0
		if hadOld && filterHidesRows(ws) {
			var err error
			if shown, err = b.showRows(sheet, old.r1+1, min(old.r2, ext.maxRow)); err != nil {
				return nil, err
			}
		}
		if a.Remove {
			if !hadOld {
				return nil, invalid("sheet %q has no autofilter to remove (a table's filter buttons belong to the table)", sheet)
			}
			removeAutofilter(b.f, ws, sheet)
			return append(res, errorsjson.Field{Key: "removed_range", Value: old.String()}, errorsjson.Field{Key: "rows_shown", Value: shown}), nil
		}
		tables, err := b.tablesOn(sheet)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			if rangesOverlap(t.rng, rng) {
				return nil, invalid("range %s overlaps the table %q (%s), which has its own filter buttons", rng, t.name, t.rng)
			}
		}
		hidden, err := b.applyAutofilter(ws, sheet, rng, rules, ext)
		if err != nil {
			return nil, err
		}
		res = append(res, errorsjson.Field{Key: "range", Value: rng.String()},
			errorsjson.Field{Key: "filters", Value: len(rules)},
			errorsjson.Field{Key: "rows_hidden", Value: hidden})
		if hadOld {
			res = append(res, errorsjson.Field{Key: "replaced_range", Value: old.String()})
		}
		return res, nil
	}), nil
}

// filterRules checks the criteria of set_autofilter against rng.
func filterRules(filters []filterArgs, rng cellRange) ([]filterRule, error) {
	var rules []filterRule
	seen := map[int]bool{}
	for i, f := range filters {
		col, err := parseColumn(f.Column)
		if err != nil {
			return nil, fmt.Errorf("filter %d: %w", i+1, err)
		}
		if col < rng.c1 || col > rng.c2 {
			return nil, invalid("filter %d: column %s is outside %s (columns %s to %s)", i+1, columnName(col), rng, columnName(rng.c1), columnName(rng.c2))
		}
		if seen[col] {
			return nil, invalid("filter %d: column %s has a criterion already; give one per column", i+1, columnName(col))
		}
		seen[col] = true
		if !oneOf(f.Operator, filterOperators()...) {
			return nil, invalid("%s", sentences(fmt.Sprintf("filter %d: invalid operator %q: one of %s", i+1, f.Operator, strings.Join(filterOperators(), ", ")),
				didYouMean(closeMatches(f.Operator, filterOperators()))))
		}
		r := filterRule{col: col, op: f.Operator}
		switch v := f.Value.(type) {
		case nil:
			if f.Operator != "blanks" && f.Operator != "nonBlanks" {
				return nil, invalid("filter %d: operator %s needs a value", i+1, f.Operator)
			}
		case json.Number:
			n, err := v.Float64()
			if err != nil {
				return nil, invalid("filter %d: invalid number %s", i+1, v)
			}
			r.text, r.num = v.String(), &n
		case string:
			r.text = v
			if looksNumeric(strings.TrimSpace(v)) {
				if n, err := json.Number(strings.TrimSpace(v)).Float64(); err == nil {
					r.num = &n
				}
			}
		default:
			return nil, invalid("filter %d: value must be text or a number", i+1)
		}
		if (f.Operator == "blanks" || f.Operator == "nonBlanks") && f.Value != nil {
			return nil, invalid("filter %d: operator %s takes no value", i+1, f.Operator)
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// applyAutofilter puts the autofilter on rng with its criteria and hides
// the rows of the sheet's used range that do not meet them, as Excel does
// when a filter is applied (the file format stores the hidden rows).
func (b *book) applyAutofilter(ws reflect.Value, sheet string, rng cellRange, rules []filterRule, ext *sheetExtent) (int, error) {
	// excelize replaces the sheet's properties (tab colour, fit to page,
	// code name) with its own: keep them.
	pr := ws.FieldByName("SheetPr")
	var saved reflect.Value
	if pr.IsValid() && pr.Kind() == reflect.Pointer {
		saved = reflect.ValueOf(pr.Interface())
	}
	if err := b.f.AutoFilter(sheet, rng.String(), nil); err != nil {
		return 0, newError(KindInvalidArgument, "cannot set the autofilter: "+err.Error(), err)
	}
	if saved.IsValid() && !saved.IsNil() {
		pr.Set(saved)
	}
	setFilterMode(ws, len(rules) > 0)
	af := ws.FieldByName("AutoFilter")
	if af.IsValid() && af.Kind() == reflect.Pointer && !af.IsNil() {
		// Excel writes the element's ref relative ("A1:D20"); excelize makes it absolute.
		if ref := af.Elem().FieldByName("Ref"); ref.Kind() == reflect.String {
			ref.SetString(rng.String())
		}
	}
	if len(rules) > 0 {
		if err := writeFilterColumns(af, rng, rules); err != nil {
			return 0, err
		}
	}
	hidden := 0
	for r := rng.r1 + 1; r <= min(rng.r2, ext.maxRow) && len(rules) > 0; r++ {
		keep := true
		for _, rule := range rules {
			if keep = b.cellMeets(sheet, cellName(rule.col, r), rule); !keep {
				break
			}
		}
		if !keep {
			if err := b.f.SetRowVisible(sheet, r, false); err != nil {
				return 0, newError(KindInvalidArgument, fmt.Sprintf("cannot hide row %d: %v", r, err), err)
			}
			hidden++
		}
	}
	return hidden, nil
}

// cellMeets evaluates one criterion on a cell: numbers compare as numbers,
// text ignoring case, and a number never meets a text comparison.
func (b *book) cellMeets(sheet, ref string, rule filterRule) bool {
	raw, _ := b.f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
	typ, _ := b.f.GetCellType(sheet, ref)
	text := strings.ToLower(raw)
	want := strings.ToLower(rule.text)
	var num *float64
	if typ == excelize.CellTypeNumber || typ == excelize.CellTypeUnset {
		if n, ok := jsonCell(raw).(int64); ok {
			f := float64(n)
			num = &f
		} else if f, ok := jsonCell(raw).(float64); ok {
			num = &f
		}
	}
	cmp := func() (int, bool) {
		switch {
		case num != nil && rule.num != nil:
			switch {
			case *num < *rule.num:
				return -1, true
			case *num > *rule.num:
				return 1, true
			}
			return 0, true
		case num == nil && rule.num == nil && raw != "":
			return strings.Compare(text, want), true
		}
		return 0, false
	}
	switch rule.op {
	case "blanks":
		return raw == ""
	case "nonBlanks":
		return raw != ""
	case "beginsWith":
		return strings.HasPrefix(text, want)
	case "endsWith":
		return strings.HasSuffix(text, want)
	case "contains":
		return strings.Contains(text, want)
	case "notContains":
		return !strings.Contains(text, want)
	case "equal":
		c, ok := cmp()
		return (ok && c == 0) || text == want
	case "notEqual":
		c, ok := cmp()
		return !((ok && c == 0) || text == want)
	}
	c, ok := cmp()
	if !ok {
		return false
	}
	switch rule.op {
	case "greaterThan":
		return c > 0
	case "greaterThanOrEqual":
		return c >= 0
	case "lessThan":
		return c < 0
	}
	return c <= 0 // lessThanOrEqual
}

// escapeWildcards makes text match literally in a filter value.
func escapeWildcards(s string) string {
	return strings.NewReplacer("~", "~~", "*", "~*", "?", "~?").Replace(s)
}

// writeFilterColumns stores the criteria in the parsed autoFilter element
// (excelize's own expression syntax cannot hold values with spaces).
func writeFilterColumns(af reflect.Value, rng cellRange, rules []filterRule) error {
	if !af.IsValid() || af.Kind() != reflect.Pointer || af.IsNil() {
		return fmt.Errorf("cannot write filter criteria: unexpected autofilter shape")
	}
	cols := af.Elem().FieldByName("FilterColumn")
	if !cols.IsValid() || cols.Kind() != reflect.Slice || cols.Type().Elem().Kind() != reflect.Pointer {
		return fmt.Errorf("cannot write filter criteria: unexpected autofilter shape")
	}
	out := reflect.MakeSlice(cols.Type(), 0, len(rules))
	for _, r := range rules {
		fc := reflect.New(cols.Type().Elem().Elem())
		fc.Elem().FieldByName("ColID").SetInt(int64(r.col - rng.c1))
		if r.op == "blanks" {
			fs := fc.Elem().FieldByName("Filters")
			fs.Set(reflect.New(fs.Type().Elem()))
			fs.Elem().FieldByName("Blank").SetBool(true)
			out = reflect.Append(out, fc)
			continue
		}
		op, val := r.op, escapeWildcards(r.text)
		switch r.op {
		case "beginsWith":
			op, val = "equal", val+"*"
		case "endsWith":
			op, val = "equal", "*"+val
		case "contains":
			op, val = "equal", "*"+val+"*"
		case "notContains":
			op, val = "notEqual", "*"+val+"*"
		case "nonBlanks":
			op, val = "notEqual", " "
		}
		cf := fc.Elem().FieldByName("CustomFilters")
		cf.Set(reflect.New(cf.Type().Elem()))
		list := cf.Elem().FieldByName("CustomFilter")
		one := reflect.New(list.Type().Elem().Elem())
		one.Elem().FieldByName("Operator").SetString(op)
		one.Elem().FieldByName("Val").SetString(val)
		list.Set(reflect.Append(list, one))
		out = reflect.Append(out, fc)
	}
	cols.Set(out)
	return nil
}

// setFilterMode sets sheetPr's filterMode (the sheet shows a filtered
// view), creating sheetPr only when turning it on.
func setFilterMode(ws reflect.Value, on bool) {
	pr := ws.FieldByName("SheetPr")
	if !pr.IsValid() || pr.Kind() != reflect.Pointer {
		return
	}
	if pr.IsNil() {
		if !on {
			return
		}
		pr.Set(reflect.New(pr.Type().Elem()))
	}
	if fm := pr.Elem().FieldByName("FilterMode"); fm.Kind() == reflect.Bool {
		fm.SetBool(on)
	}
}

// filterHidesRows reports whether the sheet's autofilter has criteria (so
// rows of it may be hidden by it).
func filterHidesRows(ws reflect.Value) bool {
	af := ws.FieldByName("AutoFilter")
	if !af.IsValid() || af.Kind() != reflect.Pointer || af.IsNil() {
		return false
	}
	cols := af.Elem().FieldByName("FilterColumn")
	return cols.IsValid() && cols.Kind() == reflect.Slice && cols.Len() > 0
}

// showRows unhides the hidden rows from..to and counts them.
func (b *book) showRows(sheet string, from, to int) (int, error) {
	shown := 0
	for r := from; r <= to; r++ {
		visible, err := b.f.GetRowVisible(sheet, r)
		if err != nil || visible {
			continue
		}
		if err := b.f.SetRowVisible(sheet, r, true); err != nil {
			return 0, newError(KindInvalidArgument, fmt.Sprintf("cannot show row %d: %v", r, err), err)
		}
		shown++
	}
	return shown, nil
}

// removeAutofilter drops the sheet's autofilter, its filterMode and the
// hidden _xlnm._FilterDatabase name excelize and Excel keep for it.
func removeAutofilter(f *excelize.File, ws reflect.Value, sheet string) {
	if af := ws.FieldByName("AutoFilter"); af.IsValid() && af.CanSet() {
		af.Set(reflect.Zero(af.Type()))
	}
	setFilterMode(ws, false)
	idx, err := f.GetSheetIndex(sheet)
	if err != nil || f.WorkBook == nil || f.WorkBook.DefinedNames == nil {
		return
	}
	names := f.WorkBook.DefinedNames.DefinedName
	kept := names[:0]
	for _, dn := range names {
		if dn.Name == "_xlnm._FilterDatabase" && dn.LocalSheetID != nil && *dn.LocalSheetID == idx {
			continue
		}
		kept = append(kept, dn)
	}
	f.WorkBook.DefinedNames.DefinedName = kept
}
