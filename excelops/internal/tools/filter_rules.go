package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/textdist"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// set_autofilter's criteria: checked (filterRules), evaluated on cells to
// hide the rows that do not meet them (cellMeets) and stored in the
// worksheet's autoFilter element (writeFilterColumns), as Excel stores them.

// filterRules checks the criteria of set_autofilter against rng.
func filterRules(filters []filterArgs, rng cellarea.Range) ([]filterRule, error) {
	var rules []filterRule
	seen := map[int]bool{}
	for i, f := range filters {
		col, err := grid.ParseColumn(f.Column)
		if err != nil {
			return nil, fmt.Errorf("filter %d: %w", i+1, err)
		}
		if col < rng.C1 || col > rng.C2 {
			return nil, failure.Invalid("filter %d: column %s is outside %s (columns %s to %s)", i+1, grid.ColumnName(col), rng, grid.ColumnName(rng.C1), grid.ColumnName(rng.C2))
		}
		if seen[col] {
			return nil, failure.Invalid("filter %d: column %s has a criterion already; give one per column", i+1, grid.ColumnName(col))
		}
		seen[col] = true
		if !vocab.OneOf(f.Operator, filterOperators()...) {
			return nil, failure.Invalid("%s", engine.Sentences(fmt.Sprintf("filter %d: invalid operator %q: one of %s", i+1, f.Operator, strings.Join(filterOperators(), ", ")),
				textdist.DidYouMean(textdist.CloseMatches(f.Operator, filterOperators()))))
		}
		r := filterRule{col: col, op: f.Operator}
		switch v := f.Value.(type) {
		case nil:
			if f.Operator != "blanks" && f.Operator != "nonBlanks" {
				return nil, failure.Invalid("filter %d: operator %s needs a value", i+1, f.Operator)
			}
		case json.Number:
			n, err := v.Float64()
			if err != nil {
				return nil, failure.Invalid("filter %d: invalid number %s", i+1, v)
			}
			r.text, r.num = v.String(), &n
		case string:
			r.text = v
			if engine.LooksNumeric(strings.TrimSpace(v)) {
				if n, err := json.Number(strings.TrimSpace(v)).Float64(); err == nil {
					r.num = &n
				}
			}
		default:
			return nil, failure.Invalid("filter %d: value must be text or a number", i+1)
		}
		if (f.Operator == "blanks" || f.Operator == "nonBlanks") && f.Value != nil {
			return nil, failure.Invalid("filter %d: operator %s takes no value", i+1, f.Operator)
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// applyAutofilter puts the autofilter on rng with its criteria and hides
// the rows of the sheet's used range that do not meet them, as Excel does
// when a filter is applied (the file format stores the hidden rows).
func applyAutofilter(b *engine.Book, ws *excelize.XMLWorksheet, sheet string, rng cellarea.Range, rules []filterRule, ext *sheetread.SheetExtent) (int, error) {
	// excelize replaces the sheet's properties (tab colour, fit to page,
	// code name) with its own: keep them.
	saved := ws.SheetPr
	if err := b.AutoFilter(sheet, rng.String()); err != nil {
		return 0, failure.New(failure.KindInvalidArgument, "cannot set the autofilter: "+err.Error(), err)
	}
	if saved != nil {
		ws.SheetPr = saved
	}
	setFilterMode(ws, len(rules) > 0)
	if ws.AutoFilter != nil {
		// Excel writes the element's ref relative ("A1:D20"); excelize makes it absolute.
		ws.AutoFilter.Ref = rng.String()
	}
	if len(rules) > 0 {
		if err := writeFilterColumns(ws.AutoFilter, rng, rules); err != nil {
			return 0, err
		}
	}
	hidden := 0
	for r := rng.R1 + 1; r <= min(rng.R2, ext.MaxRow) && len(rules) > 0; r++ {
		keep := true
		for _, rule := range rules {
			if keep = cellMeets(b, sheet, grid.CellName(rule.col, r), rule); !keep {
				break
			}
		}
		if !keep {
			if err := b.SetRowVisible(sheet, r, false); err != nil {
				return 0, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot hide row %d: %v", r, err), err)
			}
			hidden++
		}
	}
	return hidden, nil
}

// cellMeets evaluates one criterion on a cell: numbers compare as numbers,
// text ignoring case, and a number never meets a text comparison.
func cellMeets(b *engine.Book, sheet, ref string, rule filterRule) bool {
	raw, _ := b.CellValue(sheet, ref, excelize.Options{RawCellValue: true})
	typ, _ := b.CellType(sheet, ref)
	text := strings.ToLower(raw)
	want := strings.ToLower(rule.text)
	var num *float64
	if typ == excelize.CellTypeNumber || typ == excelize.CellTypeUnset {
		if n, ok := engine.JsonCell(raw).(int64); ok {
			f := float64(n)
			num = &f
		} else if f, ok := engine.JsonCell(raw).(float64); ok {
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
func writeFilterColumns(af *excelize.XMLAutoFilter, rng cellarea.Range, rules []filterRule) error {
	if af == nil {
		return fmt.Errorf("cannot write filter criteria: the sheet has no autofilter element")
	}
	out := make([]*excelize.XMLFilterColumn, 0, len(rules))
	for _, r := range rules {
		fc := &excelize.XMLFilterColumn{ColID: r.col - rng.C1}
		if r.op == "blanks" {
			fc.Filters = &excelize.XMLFilters{Blank: true}
			out = append(out, fc)
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
		fc.CustomFilters = &excelize.XMLCustomFilters{CustomFilter: []*excelize.XMLCustomFilter{{Operator: op, Val: val}}}
		out = append(out, fc)
	}
	af.FilterColumn = out
	return nil
}

// setFilterMode sets sheetPr's filterMode (the sheet shows a filtered
// view), creating sheetPr only when turning it on.
func setFilterMode(ws *excelize.XMLWorksheet, on bool) {
	if ws.SheetPr == nil {
		if !on {
			return
		}
		ws.SheetPr = &excelize.XMLSheetPr{}
	}
	ws.SheetPr.FilterMode = on
}

// filterHidesRows reports whether the sheet's autofilter has criteria (so
// rows of it may be hidden by it).
func filterHidesRows(ws *excelize.XMLWorksheet) bool {
	return ws.AutoFilter != nil && len(ws.AutoFilter.FilterColumn) > 0
}

// showRows unhides the hidden rows from..to and counts them.
func showRows(b *engine.Book, sheet string, from, to int) (int, error) {
	shown := 0
	for r := from; r <= to; r++ {
		visible, err := b.RowVisible(sheet, r)
		if err != nil || visible {
			continue
		}
		if err := b.SetRowVisible(sheet, r, true); err != nil {
			return 0, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot show row %d: %v", r, err), err)
		}
		shown++
	}
	return shown, nil
}

// removeAutofilter drops the sheet's autofilter, its filterMode and the
// hidden _xlnm._FilterDatabase name excelize and Excel keep for it.
func removeAutofilter(b *engine.Book, ws *excelize.XMLWorksheet, sheet string) {
	ws.AutoFilter = nil
	setFilterMode(ws, false)
	b.DropSheetName(sheet, "_xlnm._FilterDatabase")
}
