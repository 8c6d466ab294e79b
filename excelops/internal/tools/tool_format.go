package tools

import (
	"context"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splicepath"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/tidwall/gjson"
)

// Style tool caps.
const (
	// maxStyledCells caps the cells read_cell_styles describes (as excelmanus).
	maxStyledCells = 200
	// maxColumnWidth is Excel's widest column.
	maxColumnWidth = 255
	// autoFitScanRows caps the rows auto_fit measures.
	autoFitScanRows = 10000
)

// formatCellsTool declares format_cells.
var formatCellsTool = typedTool(toolSpec{
	name: "format_cells", title: "Format cells",
	desc:    "Apply font, fill, border, alignment and number format to a range; unspecified attributes are kept.",
	timeout: limits.WriteTimeout,
	access:  access.EditCells(access.SheetEdit, access.Access{KeepsValues: true, Destructive: true, Idempotent: true}),
}, (*Service).formatCells)

// formatCellsArgs are format_cells' arguments.
type formatCellsArgs struct {
	fileArg
	sheetArg
	rangeArg
	Font         *vocab.FontSpec     `json:"font,omitempty" jsonschema:"Font attributes to set; attributes left out keep their current value"`
	Fill         *vocab.FillSpec     `json:"fill,omitempty" jsonschema:"Solid background fill"`
	Border       *vocab.BorderSpec   `json:"border,omitempty" jsonschema:"Cell borders: style and color apply to all four edges; left, right, top and bottom override one edge"`
	Alignment    *vocab.AlignSpec    `json:"alignment,omitempty" jsonschema:"Text alignment; attributes left out keep their current value"`
	NumberFormat *vocab.NumberFormat `json:"number_format,omitempty" jsonschema:"${numberFormatHelp}"`
}

// formatCells implements format_cells.
func (s *Service) formatCells(ctx context.Context, a formatCellsArgs) (*engine.Call, error) {
	rng, err := grid.ParseRange(a.CellRange)
	if err != nil {
		return nil, err
	}
	if a.Font == nil && a.Fill == nil && a.Border == nil && a.Alignment == nil && a.NumberFormat == nil {
		return nil, failure.Invalid("give at least one of font, fill, border, alignment, number_format")
	}
	if rng.Cells() > s.engine.Limits.MaxCells {
		return nil, budget.TooLarge(fmt.Sprintf("range %s has %d cells, more than the limit of %d cells", rng, rng.Cells(), s.engine.Limits.MaxCells))
	}
	// Every cell of the range gets its own style, so each one that does
	// not exist yet is created: refuse before allocating any of them.
	if err := s.engine.Limits.Within(fmt.Sprintf("formatting %s (%d cells)", rng, rng.Cells()), rng.Cells()*engine.ParsedCellBytes); err != nil {
		return nil, err
	}
	sc, err := vocab.ParseStyleChange(a.Font, a.Fill, a.Border, a.Alignment, a.NumberFormat)
	if err != nil {
		return nil, err
	}
	result := func(name, sheet string) pyjson.Object {
		return success(name, sheet,
			field("range", rng.String()),
			field("cells_formatted", rng.Cells()))
	}
	c := engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		if err := restyle(b, ctx, sh.Name, rng, sc); err != nil {
			return nil, err
		}
		sh.Ext.Widen(rng.R1, rng.C1)
		sh.Ext.Widen(rng.R2, rng.C2)
		return result(b.Name(), sh.Name), nil
	})
	c.Splice = splicepath.Edit(func(sb *splicepath.Book, sheet string) (splice.Plan, any, error) {
		plan, err := splicepath.FormatPlan(sb, rng, sc)
		return plan, result(sb.Name(), sheet), err
	})
	return c, nil
}

// restyle lays sc over the style of every cell in rng. Cells sharing a
// style get one new style; runs of equal styles in a row are set at once.
func restyle(b *engine.Book, ctx context.Context, sheet string, rng cellarea.Range, sc *vocab.StyleChange) error {
	derived := map[int]int{}
	width := rng.C2 - rng.C1 + 1
	for r := rng.R1; r <= rng.R2; r++ {
		// Check the deadline every streamCheckEvery rows' worth of cells,
		// so a wide range stops as soon as a narrow one does.
		if (r-rng.R1)%max(1, sheetread.StreamCheckEvery*16/width) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		runStart, runStyle := rng.C1, -1
		flush := func(end int) error {
			if runStyle < 0 {
				return nil
			}
			id, ok := derived[runStyle]
			if !ok {
				base, err := b.StyleByID(runStyle)
				if err != nil {
					return failure.New(failure.KindDamaged, "file is damaged: style table: "+err.Error(), err)
				}
				if id, err = b.NewStyle(sc.Apply(base)); err != nil {
					return failure.New(failure.KindInvalidArgument, "invalid style: "+err.Error(), err)
				}
				derived[runStyle] = id
			}
			return b.SetCellStyle(sheet, grid.CellName(runStart, r), grid.CellName(end, r), id)
		}
		for c := rng.C1; c <= rng.C2; c++ {
			cur, err := b.CellStyle(sheet, grid.CellName(c, r))
			if err != nil {
				return failure.New(failure.KindInvalidArgument, "cannot read style: "+err.Error(), err)
			}
			if cur != runStyle {
				if err := flush(c - 1); err != nil {
					return err
				}
				runStart, runStyle = c, cur
			}
		}
		if err := flush(rng.C2); err != nil {
			return err
		}
	}
	return nil
}

// readCellStylesTool declares read_cell_styles.
var readCellStylesTool = typedTool(toolSpec{
	name: "read_cell_styles", title: "Read cell styles",
	desc:    "Read the font, fill, border, alignment and number format of the cells of a range (first 200 styled cells).",
	timeout: limits.ReadTimeout,
	access:  access.Access{Files: []access.FileUse{{Arg: "file_path", SheetArg: "sheet_name", Touch: access.TouchStyles, Sheet: access.SheetRead}}},
}, (*Service).readCellStyles)

// readCellStylesArgs are read_cell_styles' arguments.
type readCellStylesArgs struct {
	fileArg
	sheetArg
	rangeArg
}

// readCellStyles implements read_cell_styles.
func (s *Service) readCellStyles(ctx context.Context, a readCellStylesArgs) (*engine.Call, error) {
	rng, err := grid.ParseRange(a.CellRange)
	if err != nil {
		return nil, err
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet := sh.Name
		// The sheet is streamed, never parsed: only cells that exist are
		// walked, whatever the size of the range; excelize sees only the
		// style parts (styleBook).
		found, err := b.ScanStyles(sheet, rng, maxStyledCells, ctx.Err)
		if err != nil {
			return nil, err
		}
		ids := make([]int, len(found.Cells))
		for i, c := range found.Cells {
			ids[i] = c.Style
		}
		styles, err := b.StylesByID(ids)
		if err != nil {
			return nil, err
		}
		cells := make([]any, 0, len(found.Cells))
		for _, c := range found.Cells {
			st, ok := styles[c.Style]
			if !ok {
				continue // a style id past the table: excelize's reader ignores it too
			}
			cells = append(cells, describeStyle(grid.CellName(c.Col, c.Row), st))
		}
		merged := make([]any, 0, len(found.Merges))
		for _, m := range found.Merges {
			merged = append(merged, m)
		}
		return success(b.Name(), sheet,
			field("range", rng.String()),
			field("total_cells", rng.Cells()),
			field("merged_ranges", merged),
			field("truncated", found.Truncated || found.MergesCut),
			field("styled_cells", cells)), nil
	}), nil
}

// describeStyle renders a style the way read_cell_styles reports it.
func describeStyle(cell string, st *excelize.Style) pyjson.Object {
	o := pyjson.Object{{Key: "cell", Value: cell}}
	if f := st.Font; f != nil {
		o = append(o, pyjson.Field{Key: "font", Value: pyjson.Object{
			{Key: "name", Value: f.Family}, {Key: "size", Value: f.Size}, {Key: "bold", Value: f.Bold},
			{Key: "italic", Value: f.Italic}, {Key: "underline", Value: f.Underline},
			{Key: "strike", Value: f.Strike}, {Key: "color", Value: f.Color},
		}})
	}
	if st.Fill.Type == "pattern" && len(st.Fill.Color) > 0 {
		o = append(o, pyjson.Field{Key: "fill", Value: pyjson.Object{{Key: "color", Value: st.Fill.Color[0]}}})
	}
	if len(st.Border) > 0 {
		bo := pyjson.Object{}
		for _, b := range st.Border {
			bo = append(bo, pyjson.Field{Key: b.Type, Value: vocab.BorderStyleName(b.Style)})
		}
		o = append(o, pyjson.Field{Key: "border", Value: bo})
	}
	if a := st.Alignment; a != nil {
		o = append(o, pyjson.Field{Key: "alignment", Value: pyjson.Object{
			{Key: "horizontal", Value: a.Horizontal}, {Key: "vertical", Value: a.Vertical},
			{Key: "wrap_text", Value: a.WrapText},
		}})
	}
	if st.CustomNumFmt != nil {
		o = append(o, pyjson.Field{Key: "number_format", Value: *st.CustomNumFmt})
	} else if st.NumFmt != 0 {
		o = append(o, pyjson.Field{Key: "number_format_id", Value: st.NumFmt})
	}
	return o
}

// adjustColumnWidthTool declares adjust_column_width.
var adjustColumnWidthTool = typedTool(toolSpec{
	name: "adjust_column_width", title: "Set column widths",
	desc:    "Set column widths ([{\"column\": \"A\", \"width\": 20}]) or fit them to their content (auto_fit).",
	timeout: limits.WriteTimeout,
	access:  access.EditCells(access.SheetEdit, access.Access{KeepsValues: true, Destructive: true, Idempotent: true}),
}, (*Service).adjustColumnWidth)

// adjustColumnWidthArgs are adjust_column_width's arguments.
type adjustColumnWidthArgs struct {
	fileArg
	sheetArg
	Columns []columnWidthArg `json:"columns,omitempty" jsonschema:"Widths to set, e.g. [{\"column\": \"A\", \"width\": 20}] (the older form {\"A\": 20} is accepted too)"`
	AutoFit bool             `json:"auto_fit,omitempty" jsonschema:"Fit every used column to its longest value"`
}

// columnWidthArg is one column width of adjust_column_width.
type columnWidthArg struct {
	Column string  `json:"column" jsonschema:"Column letter, e.g. \"A\""`
	Width  float64 `json:"width" jsonschema:"Width in characters, above 0 and at most 255"`
}

// adjustColumnWidth implements adjust_column_width.
func (s *Service) adjustColumnWidth(ctx context.Context, a adjustColumnWidthArgs) (*engine.Call, error) {
	if len(a.Columns) == 0 && !a.AutoFit {
		return nil, failure.Invalid("give columns (e.g. [{\"column\": \"A\", \"width\": 20}]) or auto_fit=true")
	}
	widths := map[int]float64{}
	for _, c := range a.Columns {
		col, err := grid.ParseColumn(c.Column)
		if err != nil {
			return nil, err
		}
		if c.Width <= 0 || c.Width > maxColumnWidth {
			return nil, failure.Invalid("width of column %s must be in (0, %d], got %v", c.Column, maxColumnWidth, c.Width)
		}
		widths[col] = c.Width
	}
	// autoFit measures the first rows of sheet in the package as on disk.
	autoFit := func(b *engine.Book, sheet string) error {
		if len(widths) > 0 {
			return nil
		}
		return b.Rows(ctx, sheet, 1, autoFitScanRows, 1, 0, func(_ int, vals []any) bool {
			for i, v := range vals {
				if v == nil {
					continue
				}
				if w := float64(utf8.RuneCountInString(fmt.Sprint(v)) + 2); w > widths[i+1] {
					widths[i+1] = min(w, maxColumnWidth)
				}
			}
			return true
		})
	}
	result := func(name, sheet string) pyjson.Object {
		cols := make([]int, 0, len(widths))
		for c := range widths {
			cols = append(cols, c)
		}
		sort.Ints(cols)
		adjusted := pyjson.Object{}
		for _, c := range cols {
			adjusted = append(adjusted, field(grid.ColumnName(c), widths[c]))
		}
		return success(name, sheet, field("columns_adjusted", adjusted))
	}
	c := engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		if err := autoFit(b, sh.Name); err != nil {
			return nil, err
		}
		for c, w := range widths {
			name := grid.ColumnName(c)
			if err := b.SetColWidth(sh.Name, name, name, w); err != nil {
				return nil, failure.New(failure.KindInvalidArgument, "cannot set width: "+err.Error(), err)
			}
		}
		return result(b.Name(), sh.Name), nil
	})
	c.Splice = splicepath.Edit(func(sb *splicepath.Book, sheet string) (splice.Plan, any, error) {
		if err := autoFit(sb.StreamBook(), sheet); err != nil {
			return splice.Plan{}, nil, err
		}
		return splicepath.WidthPlan(widths), result(sb.Name(), sheet), nil
	})
	return c, nil
}

// columnWidthsLegacy rewrites adjust_column_width's older columns form, a
// map of column letter to width ({"A": 20}, excelmanus's), into the list
// the schema describes ([{"column": "A", "width": 20}]), keeping the order
// and every value as sent (a wrong one is then refused by the schema).
// Other arguments come back unchanged.
func columnWidthsLegacy(args []byte) []byte {
	root := gjson.ParseBytes(args)
	if !root.IsObject() || !root.Get("columns").IsObject() {
		return args
	}
	out := []byte{'{'}
	root.ForEach(func(k, v gjson.Result) bool {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(out, k.Raw...), ':')
		if k.Str != "columns" {
			out = append(out, v.Raw...)
			return true
		}
		out = append(out, '[')
		first := true
		v.ForEach(func(col, width gjson.Result) bool {
			if !first {
				out = append(out, ',')
			}
			first = false
			out = append(append(append(append(append(out, `{"column":`...), col.Raw...), `,"width":`...), width.Raw...), '}')
			return true
		})
		out = append(out, ']')
		return true
	})
	return append(out, '}')
}

// legacyForm is the rewrite of older argument forms of the tool name, nil
// for a tool that has none (see registry.Tool.Legacy).
func legacyForm(name string) func([]byte) []byte {
	if name == "adjust_column_width" {
		return columnWidthsLegacy
	}
	return nil
}
