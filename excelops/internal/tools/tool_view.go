package tools

import (
	"context"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// How a sheet is viewed: freeze_panes and set_autofilter.

// freezePanesTool declares freeze_panes.
var freezePanesTool = typedTool(toolSpec{
	name: "freeze_panes", title: "Freeze panes",
	desc:    "Freeze the rows above and the columns left of a cell (\"B2\" freezes row 1 and column A); \"A1\" or unfreeze: true removes frozen panes.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: true, Idempotent: true}),
}, (*Service).freezePanes)

// freezePanesArgs are freeze_panes' arguments.
type freezePanesArgs struct {
	fileArg
	sheetArg
	Cell     string `json:"cell,omitempty" jsonschema:"First cell that scrolls: rows above it and columns left of it stay in view, e.g. \"A2\" (header row), \"B1\" (first column), \"B2\" (both)"`
	Unfreeze bool   `json:"unfreeze,omitempty" jsonschema:"Remove frozen panes instead (cell is then not needed)"`
}

// freezePanes implements freeze_panes.
func (s *Service) freezePanes(ctx context.Context, a freezePanesArgs) (*engine.Call, error) {
	col, row := 1, 1
	switch {
	case a.Unfreeze && a.Cell != "":
		return nil, failure.Invalid("give cell (what to freeze) or unfreeze: true, not both")
	case !a.Unfreeze && a.Cell == "":
		return nil, failure.Invalid("give cell, the first cell that scrolls (\"A2\" freezes the header row, \"B2\" also column A), or unfreeze: true")
	case a.Cell != "":
		var err error
		if col, row, err = grid.ParseCell(a.Cell); err != nil {
			return nil, err
		}
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet := sh.Name
		before, err := b.Panes(sheet)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
		if err := addMissingSheetView(b, sheet); err != nil {
			return nil, err
		}
		panes := &excelize.Panes{}
		var top any
		if col > 1 || row > 1 {
			top = grid.CellName(col, row)
			pane := "bottomRight"
			switch {
			case col == 1:
				pane = "bottomLeft"
			case row == 1:
				pane = "topRight"
			}
			panes = &excelize.Panes{Freeze: true, XSplit: col - 1, YSplit: row - 1, TopLeftCell: grid.CellName(col, row), ActivePane: pane,
				Selection: []excelize.Selection{{SQRef: grid.CellName(col, row), ActiveCell: grid.CellName(col, row), Pane: pane}}}
		}
		if err := b.SetPanes(sheet, panes); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "cannot set the panes: "+err.Error(), err)
		}
		var was any
		if before.Freeze {
			was = pyjson.Object{{Key: "frozen_rows", Value: before.YSplit}, {Key: "frozen_columns", Value: before.XSplit}}
		}
		return success(b.Name(), sheet,
			field("frozen_rows", row-1),
			field("frozen_columns", col-1),
			field("top_left_cell", top),
			field("previously_frozen", was)), nil
	}), nil
}

// addMissingSheetView gives sheet the default sheet view when it has none
// (<sheetView workbookViewId="0"/>, what a missing <sheetViews> means), so
// that excelize code which dereferences a worksheet's views finds one:
// CopySheet ((*File).copySheet) dereferences <sheetViews> without a nil
// check, SetPanes ((*xlsxWorksheet).setPanes) indexes its last view without
// a length check. excelize's GetSheetView adds the missing element as a side
// effect. A <sheetViews> holding no <sheetView> (the file format requires
// one) is reported as damage: excelize offers no way to add a view to it.
func addMissingSheetView(b *engine.Book, sheet string) error {
	if _, err := b.SheetView(sheet, 0); err != nil {
		return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: the <sheetViews> of sheet %q holds no <sheetView>; open and save the workbook in Excel or LibreOffice to repair it", sheet), err)
	}
	return nil
}

// filterOperators are set_autofilter's criteria.
func filterOperators() []string {
	return []string{"equal", "notEqual", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual",
		"beginsWith", "endsWith", "contains", "notContains", "blanks", "nonBlanks"}
}

// filterValue is the value a filter criterion compares with: a string or
// a number (schema in typeSchemas).
type filterValue any

// filterArgs is one column criterion of set_autofilter.
type filterArgs struct {
	Column   string      `json:"column" jsonschema:"Column letter inside cell_range, e.g. \"C\""`
	Operator string      `json:"operator" enum:"${filterOperators}" jsonschema:"How the column's values are compared with value: numbers numerically, text ignoring case; blanks and nonBlanks need no value"`
	Value    filterValue `json:"value,omitempty" jsonschema:"The value compared with (not for blanks and nonBlanks)"`
}

// filterRule is a checked criterion.
type filterRule struct {
	col      int    // sheet column
	op, text string // operator and the value as text
	num      *float64
}

// setAutofilterTool declares set_autofilter.
var setAutofilterTool = typedTool(toolSpec{
	name: "set_autofilter", title: "Set autofilter",
	desc:    "Put filter buttons on a range's header row, optionally filtering columns (rows that do not match are hidden); remove: true takes the filter off and shows its rows.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: true, Destructive: true, Idempotent: true}),
}, (*Service).setAutofilter)

// setAutofilterArgs are set_autofilter's arguments.
type setAutofilterArgs struct {
	fileArg
	sheetArg
	CellRange string       `json:"cell_range,omitempty" rangeSheet:"sheet_name" jsonschema:"The filtered cells, header row first, e.g. \"A1:D20\"; a sheet has one autofilter, so this replaces any other. ${rangeHelp}"`
	Filters   []filterArgs `json:"filters,omitempty" itemDescription:"One column's criterion" jsonschema:"Column criteria, all of which a row must meet to stay visible"`
	Remove    bool         `json:"remove,omitempty" jsonschema:"Remove the sheet's autofilter and show the rows it hid (cell_range is then not needed)"`
}

// setAutofilter implements set_autofilter.
func (s *Service) setAutofilter(ctx context.Context, a setAutofilterArgs) (*engine.Call, error) {
	var rng cellarea.Range
	var rules []filterRule
	switch {
	case a.Remove && (a.CellRange != "" || len(a.Filters) > 0):
		return nil, failure.Invalid("remove: true takes no cell_range or filters: the sheet's autofilter is removed wherever it is")
	case !a.Remove && a.CellRange == "":
		return nil, failure.Invalid("give cell_range, the filtered cells with their header row (e.g. \"A1:D20\"), or remove: true")
	case !a.Remove:
		var err error
		if rng, err = grid.ParseRange(a.CellRange); err != nil {
			return nil, err
		}
		if rules, err = filterRules(a.Filters, rng); err != nil {
			return nil, err
		}
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet, ext := sh.Name, sh.Ext
		ws, ok := b.Worksheet(sheet)
		if !ok {
			return nil, fmt.Errorf("cannot set an autofilter on sheet %q: it is not a worksheet, or its XML does not parse", sheet)
		}
		old, hadOld := sheetAutofilter(b, sheet)
		res := success(b.Name(), sheet)
		shown := 0
		if hadOld && filterHidesRows(ws) {
			var err error
			if shown, err = showRows(b, sheet, old.R1+1, min(old.R2, ext.MaxRow)); err != nil {
				return nil, err
			}
		}
		if a.Remove {
			if !hadOld {
				return nil, failure.Invalid("sheet %q has no autofilter to remove (a table's filter buttons belong to the table)", sheet)
			}
			removeAutofilter(b, ws, sheet)
			return append(res, pyjson.Field{Key: "removed_range", Value: old.String()}, pyjson.Field{Key: "rows_shown", Value: shown}), nil
		}
		tables, err := tablesOn(b, sheet)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			if t.rng.Overlaps(rng) {
				return nil, failure.Invalid("range %s overlaps the table %q (%s), which has its own filter buttons", rng, t.name, t.rng)
			}
		}
		hidden, err := applyAutofilter(b, ws, sheet, rng, rules, ext)
		if err != nil {
			return nil, err
		}
		res = append(res, pyjson.Field{Key: "range", Value: rng.String()},
			pyjson.Field{Key: "filters", Value: len(rules)},
			pyjson.Field{Key: "rows_hidden", Value: hidden})
		if hadOld {
			res = append(res, pyjson.Field{Key: "replaced_range", Value: old.String()})
		}
		return res, nil
	}), nil
}
