package tools

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/textdist"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// sort_range sorts rows as Excel's Data > Sort does: values, formulas,
// styles, notes and links move with their row; a formula's relative
// references move with it as a copy of the row would (Excel, LibreOffice),
// absolute ones stay; references from outside into the range keep pointing
// at the same cells. Ascending order is numbers, text (ignoring case, in
// the Unicode collation order Excel and LibreOffice use),
// FALSE before TRUE, errors; descending reverses it; blanks are always last.

// sortClass orders the kinds of value in an ascending sort.
type sortClass int

const (
	classNumber sortClass = iota
	classText
	classBool
	classError
	classBlank
)

// sortValue is one cell as the sort compares it.
type sortValue struct {
	class sortClass
	num   float64
	text  []byte // collation key: case-insensitive, accents after base letters, as Excel
}

// sortKey is one checked sort_by entry.
type sortKey struct {
	col  int
	desc bool
}

// sortCell is one cell of the block being sorted.
type sortCell struct {
	value   any
	formula string
	rich    []excelize.RichTextRun
	style   int
}

// newSortCollator is the text order of a sort: Unicode's (root locale),
// ignoring case, as Excel and LibreOffice sort.
func newSortCollator() *collate.Collator { return collate.New(language.Und, collate.IgnoreCase) }

// compareSort orders a and b for one key: blanks last in either order.
func compareSort(a, b sortValue, desc bool) int {
	if a.class == classBlank || b.class == classBlank {
		return int(boolInt(a.class == classBlank) - boolInt(b.class == classBlank))
	}
	c := 0
	switch {
	case a.class != b.class:
		c = int(a.class) - int(b.class)
	case a.class == classNumber || a.class == classBool:
		c = cmpFloat(a.num, b.num)
	case a.class == classText:
		c = bytes.Compare(a.text, b.text)
	}
	if desc {
		return -c
	}
	return c
}

// boolInt is 1 for true.
func boolInt(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

// cmpFloat compares two numbers.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sortRangeTool declares sort_range.
var sortRangeTool = typedTool(toolSpec{
	name: "sort_range", title: "Sort range",
	desc:    "Sort the rows of a range by one or more columns, as Excel does (numbers before text, blanks last; formulas move with their row and their relative references follow).",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Destructive: true, Idempotent: true}),
}, (*Service).sortRange)

// sortRangeArgs are sort_range's arguments.
type sortRangeArgs struct {
	fileArg
	sheetArg
	CellRange string      `json:"cell_range" rangeSheet:"sheet_name" jsonschema:"The rows to sort, e.g. \"A1:D20\"; every column of the range moves together. ${rangeHelp}"`
	SortBy    []sortByArg `json:"sort_by" minItems:"1" maxItems:"64" itemDescription:"One sort key" jsonschema:"Sort keys, most important first"`
	Header    bool        `json:"header,omitempty" jsonschema:"The range's first row is a header that stays in place (default false)"`
}

// sortByArg is one sort key of sort_range.
type sortByArg struct {
	Column string `json:"column" jsonschema:"Column letter inside cell_range (\"C\"), or with header: true the header's text (\"qty\")"`
	Order  string `json:"order,omitempty" enum:"ascending,descending" jsonschema:"ascending (default): numbers low to high, then text A to Z (ignoring case), then FALSE, TRUE; descending reverses that; blanks are last either way"`
}

// sortRange implements sort_range.
func (s *Service) sortRange(ctx context.Context, a sortRangeArgs) (*engine.Call, error) {
	rng, err := grid.ParseRange(a.CellRange)
	if err != nil {
		return nil, err
	}
	if len(a.SortBy) == 0 {
		return nil, failure.Invalid("sort_by needs at least one key, e.g. [{\"column\": \"B\", \"order\": \"descending\"}]")
	}
	if a.Header && rng.R1 == rng.R2 {
		return nil, failure.Invalid("range %s is only its header row: nothing to sort", rng)
	}
	for i, k := range a.SortBy {
		if k.Order != "" && k.Order != "ascending" && k.Order != "descending" {
			return nil, failure.Invalid("sort_by %d: order must be ascending or descending, got %q", i+1, k.Order)
		}
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet, ext := sh.Name, sh.Ext
		keys := make([]sortKey, len(a.SortBy))
		shown := make([]any, len(a.SortBy))
		for i, k := range a.SortBy {
			col, err := sortColumn(b, sheet, rng, k.Column, a.Header)
			if err != nil {
				return nil, fmt.Errorf("sort_by %d: %w", i+1, err)
			}
			order := "ascending"
			if k.Order == "descending" {
				order = "descending"
			}
			keys[i] = sortKey{col, order == "descending"}
			shown[i] = pyjson.Object{{Key: "column", Value: grid.ColumnName(col)}, {Key: "order", Value: order}}
		}
		top := rng.R1
		if a.Header {
			top++
		}
		block := cellarea.Range{C1: rng.C1, R1: top, C2: rng.C2, R2: min(rng.R2, ext.MaxRow)}
		res := success(b.Name(), sheet, field("range", rng.String()), field("header", a.Header), field("sort_by", shown))
		if block.R2 < block.R1 {
			return append(res, pyjson.Field{Key: "rows_sorted", Value: 0}, pyjson.Field{Key: "rows_moved", Value: 0}), nil
		}
		if block.Cells() > int64(s.engine.Limits.MaxWriteCells) {
			return nil, budget.TooLarge(fmt.Sprintf("sorting %s moves %d cells, more than the limit of %d", block, block.Cells(), s.engine.Limits.MaxWriteCells))
		}
		if err := checkSortable(b, sheet, rng, block); err != nil {
			return nil, err
		}
		moved, err := sortBlock(b, sheet, block, keys)
		if err != nil {
			return nil, err
		}
		b.Edits = &recalc.EditSet{Areas: []cellarea.Area{{Sheet: sheet, C1: block.C1, R1: block.R1, C2: block.C2, R2: block.R2}}}
		return append(res, pyjson.Field{Key: "rows_sorted", Value: block.R2 - block.R1 + 1}, pyjson.Field{Key: "rows_moved", Value: moved}), nil
	}), nil
}

// sortColumn resolves a sort_by column: a header's text (with header) or a
// column letter inside rng.
func sortColumn(b *engine.Book, sheet string, rng cellarea.Range, column string, header bool) (int, error) {
	if header {
		var headers []string
		for c := rng.C1; c <= rng.C2; c++ {
			v, _ := b.CellValue(sheet, grid.CellName(c, rng.R1))
			if strings.EqualFold(strings.TrimSpace(v), strings.TrimSpace(column)) && v != "" {
				return c, nil
			}
			headers = append(headers, v)
		}
		col, err := grid.ParseColumn(column)
		if err != nil || col < rng.C1 || col > rng.C2 {
			return 0, failure.Invalid("%s", engine.Sentences(fmt.Sprintf("column %q is neither a header of %s (%s) nor a column letter inside it", column, rng, strings.Join(headers, ", ")),
				textdist.DidYouMean(textdist.CloseMatches(column, headers))))
		}
		return col, nil
	}
	col, err := grid.ParseColumn(column)
	if err != nil {
		return 0, err
	}
	if col < rng.C1 || col > rng.C2 {
		return 0, failure.Invalid("column %s is outside %s (columns %s to %s)", grid.ColumnName(col), rng, grid.ColumnName(rng.C1), grid.ColumnName(rng.C2))
	}
	return col, nil
}

// checkSortable refuses what a sort would break: merged cells, array
// formulas and tables the range covers only in part.
func checkSortable(b *engine.Book, sheet string, rng, block cellarea.Range) error {
	if err := refuseMerged(b, sheet, rng, "range"); err != nil {
		return err
	}
	tables, err := tablesOn(b, sheet)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if !t.rng.Overlaps(block) {
			continue
		}
		body := cellarea.Range{C1: t.rng.C1, R1: t.rng.R1 + 1, C2: t.rng.C2, R2: t.rng.R2}
		// The block may stop short of the table's last rows when those are empty.
		if block.C1 != body.C1 || block.C2 != body.C2 || block.R1 != body.R1 || rng.R2 != body.R2 {
			return failure.Invalid("range %s covers only part of the table %q (%s); sort the whole table: cell_range %s with header: true", rng, t.name, t.rng, t.rng)
		}
	}
	formulas, err := b.FormulaCells(sheet)
	if err != nil {
		return err
	}
	for _, fc := range formulas {
		if fc.ArrayRef == "" {
			continue
		}
		if ar, err := grid.ParseRange(fc.ArrayRef); err == nil && ar.Overlaps(block) {
			if fc.Dynamic {
				return recalc.SpillSortRefusal(rng, ar, fc.Ref)
			}
			return failure.Invalid("range %s holds the array formula at %s (%s), which a sort would break; convert it to ordinary formulas first", rng, fc.Ref, fc.ArrayRef)
		}
	}
	return nil
}
