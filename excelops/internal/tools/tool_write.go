package tools

import (
	"context"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splicepath"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// Row and column edit caps per call.
const (
	// maxInsertRows caps insert_rows/delete_rows count (as excelmanus).
	maxInsertRows = 10000
	// maxInsertCols caps insert_columns count (as excelmanus).
	maxInsertCols = 1000
)

// writeCellsTool declares write_cells.
var writeCellsTool = typedTool(toolSpec{
	name: "write_cells", title: "Write cells",
	desc:    "Write one cell (cell+value) or a 2-D block (cell_range+values) into a sheet; strings starting with = are formulas, ISO-8601 dates become Excel dates; values past Excel's limits, and formulas naming a sheet, defined name or table the workbook lacks, are refused and nothing is written.",
	timeout: limits.WriteTimeout,
	access:  access.EditCells(access.SheetTarget, access.Access{Destructive: true, Idempotent: true}),
}, (*Service).writeCells)

// writeCellsArgs are write_cells' arguments.
type writeCellsArgs struct {
	fileArg
	sheetArg
	Cell       *string              `json:"cell,omitempty" jsonschema:"Target cell such as \"A1\" (single-cell mode)"`
	Value      engine.CellInput     `json:"value,omitempty" jsonschema:"Value for cell: number, string, boolean, null or \"=FORMULA\""`
	CellRange  *string              `json:"cell_range,omitempty" rangeSheet:"sheet_name" jsonschema:"Top-left cell or range of the block (block mode); the block starts at its top-left corner. ${rangeHelp}"`
	Values     [][]engine.CellInput `json:"values,omitempty" jsonschema:"Rows of values (block mode), each row a list of numbers, strings, booleans or nulls, e.g. [[\"item\", \"qty\"], [\"pen\", 3]]"`
	Create     *bool                `json:"create,omitempty" jsonschema:"true: create the workbook and/or sheet when missing; false: never create. Omitted: a missing workbook is created unless a workbook with a close name exists (a likely typo), and a missing sheet is an error"`
	ValueTypes string               `json:"value_types,omitempty" enum:"auto,text" jsonschema:"auto (default): \"=...\" is a formula, numeric text a number, ISO-8601 dates/times (\"2024-01-31\", \"13:45:00\", \"2024-01-31T13:45:00\") real Excel dates, and a leading apostrophe keeps the rest as text (\"'2024-01-31\"); text: every string is stored as text unchanged"`
}

// writeCells implements write_cells: one cell (cell+value) or a 2-D block
// (cell_range+values, anchored at the range's top-left cell).
func (s *Service) writeCells(_ context.Context, a writeCellsArgs) (*engine.Call, error) {
	single := a.Cell != nil
	block := a.CellRange != nil || a.Values != nil
	switch {
	case single && block:
		return nil, failure.Invalid("cell/value and cell_range/values are exclusive: use one mode")
	case !single && !block:
		return nil, failure.Invalid("give cell+value (one cell) or cell_range+values (a block)")
	case block && len(a.Values) == 0:
		return nil, failure.Invalid("values must be a non-empty 2-D array in range mode")
	}
	var anchor cellarea.Range
	var err error
	cells := 1
	if single {
		if anchor, err = grid.ParseRange(*a.Cell); err != nil {
			return nil, err
		}
	} else {
		anchor = cellarea.Range{C1: 1, R1: 1, C2: 1, R2: 1}
		if a.CellRange != nil {
			if anchor, err = grid.ParseRange(*a.CellRange); err != nil {
				return nil, err
			}
			anchor.C2, anchor.R2 = anchor.C1, anchor.R1
		}
		cells = 0
		width := 0
		for _, r := range a.Values {
			cells += len(r)
			width = max(width, len(r))
		}
		if cells > s.engine.Limits.MaxWriteCells {
			return nil, budget.TooLarge(fmt.Sprintf("%d cells in one call, more than the limit of %d", cells, s.engine.Limits.MaxWriteCells))
		}
		if err := grid.CheckBlockFits("the block", anchor.C1, anchor.R1, len(a.Values), max(width, 1)); err != nil {
			return nil, err
		}
		anchor.R2 = anchor.R1 + len(a.Values) - 1
		anchor.C2 = anchor.C1 + max(width, 1) - 1
	}
	plan, err := planWrite(a, anchor, single)
	if err != nil {
		return nil, err
	}
	result := func(name, sheet string) pyjson.Object {
		if single {
			return success(name, sheet,
				field("cell", *a.Cell),
				field("value_written", a.Value),
				field("cells_written", 1))
		}
		return success(name, sheet,
			field("range", anchor.String()),
			field("rows_written", len(a.Values)),
			field("cells_written", cells))
	}
	c := engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		if err := engine.CheckWriteNames(plan, sh.Name, b.FormulaScope); err != nil {
			return nil, err
		}
		if err := b.RefuseLegacyArrayPart(sh.Name, plan); err != nil {
			return nil, err
		}
		dw, err := b.NewDateWriter()
		if err != nil {
			return nil, err
		}
		old, err := b.AnchorsUnder(sh.Name, plan)
		if err != nil {
			return nil, err
		}
		dates := 0
		fit := engine.NewColFitter()
		defer fit.Close()
		for _, w := range plan {
			kind, err := dw.Put(sh.Name, w)
			if err != nil {
				return nil, err
			}
			if kind != engine.NotDate {
				dates++
			}
			if err := b.FitWritten(sh.Name, w, kind, fit); err != nil {
				return nil, err
			}
		}
		if err := b.FitColumns(sh.Name, fit); err != nil {
			return nil, err
		}
		if err := b.SpillBlock(sh, anchor, plan, old); err != nil {
			return nil, err
		}
		res := result(b.Name(), sh.Name)
		if dates > 0 {
			res = append(res, field("dates_written", dates))
		}
		if b.Created {
			res = append(res, field("created", true))
		} else if sh.Created {
			res = append(res, field("sheet_created", true))
		}
		return res, nil
	})
	c.Create, c.NewSheet = engine.CreateModeOf(a.Create), a.Create != nil && *a.Create
	c.Splice = splicepath.Edit(func(sb *splicepath.Book, sheet string) (splice.Plan, any, error) {
		if err := engine.CheckWriteNames(plan, sheet, sb.FormulaScope); err != nil {
			return splice.Plan{}, nil, err
		}
		p, dates, err := splicepath.WritePlan(sb, sheet, anchor, plan)
		res := result(sb.Name(), sheet)
		if dates > 0 {
			res = append(res, field("dates_written", dates))
		}
		return p, res, err
	})
	return c, nil
}

// planWrite converts and checks every value of a write_cells call (see
// planCell) before the workbook is opened: one value past Excel's limits
// means nothing is written.
func planWrite(a writeCellsArgs, anchor cellarea.Range, single bool) ([]engine.CellWrite, error) {
	vt := a.ValueTypes
	if vt == "" {
		vt = engine.ValueTypesAuto
	}
	if vt != engine.ValueTypesAuto && vt != engine.ValueTypesText {
		return nil, failure.Invalid("value_types must be %q or %q, got %q", engine.ValueTypesAuto, engine.ValueTypesText, a.ValueTypes)
	}
	if single {
		w, err := engine.PlanCell(anchor.C1, anchor.R1, a.Value, vt)
		return []engine.CellWrite{w}, err
	}
	var plan []engine.CellWrite
	for i, row := range a.Values {
		for j, v := range row {
			w, err := engine.PlanCell(anchor.C1+j, anchor.R1+i, v, vt)
			if err != nil {
				return nil, err
			}
			plan = append(plan, w)
		}
	}
	return plan, nil
}
