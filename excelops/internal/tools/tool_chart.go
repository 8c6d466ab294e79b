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
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Chart geometry.
const (
	// pixelsPerCm converts excelmanus's centimetre sizes to excelize pixels (96 dpi).
	pixelsPerCm = 96 / 2.54
	// defaultChartWidthCm and defaultChartHeightCm are excelmanus's defaults.
	defaultChartWidthCm  = 15.0
	defaultChartHeightCm = 10.0
	// maxChartSeries caps the series of one chart.
	maxChartSeries = 255
)

// chartType maps excelmanus chart types to excelize's.
func chartType(name string) (excelize.ChartType, bool) {
	switch name {
	case "bar":
		return excelize.Col, true
	case "line":
		return excelize.Line, true
	case "pie":
		return excelize.Pie, true
	case "scatter":
		return excelize.Scatter, true
	case "area":
		return excelize.Area, true
	}
	return 0, false
}

// quoteSheet renders a sheet name for a formula reference.
func quoteSheet(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// absRef renders a rectangle as "$A$1:$B$2" on sheet.
func absRef(sheet string, c1, r1, c2, r2 int) string {
	return fmt.Sprintf("%s!$%s$%d:$%s$%d", quoteSheet(sheet), grid.ColumnName(c1), r1, grid.ColumnName(c2), r2)
}

// createChartTool declares create_excel_chart.
var createChartTool = typedTool(toolSpec{
	name: "create_excel_chart", title: "Create chart",
	desc:    "Insert a native Excel chart (bar, line, pie, scatter, area) built from a data range.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: true}),
}, (*Service).createChart)

// createChartArgs are create_excel_chart's arguments.
type createChartArgs struct {
	fileArg
	sheetArg
	ChartType       string   `json:"chart_type" enum:"bar,line,pie,scatter,area" jsonschema:"Kind of chart"`
	DataRange       string   `json:"data_range" rangeSheet:"sheet_name" jsonschema:"Data with a header row naming the series, e.g. \"B1:D20\". ${rangeHelp}"`
	CategoriesRange string   `json:"categories_range,omitempty" rangeSheet:"sheet_name" jsonschema:"Category labels, e.g. \"A2:A20\". ${rangeHelp}"`
	TargetCell      string   `json:"target_cell,omitempty" jsonschema:"Top-left cell of the chart"`
	TargetSheet     string   `json:"target_sheet,omitempty" jsonschema:"Sheet to place the chart on, default the data sheet; must exist unless create is true"`
	Create          bool     `json:"create,omitempty" jsonschema:"Create target_sheet when it does not exist (default false: a missing sheet is an error naming the sheets that exist)"`
	Title           string   `json:"title,omitempty" jsonschema:"Chart title"`
	XTitle          string   `json:"x_title,omitempty" jsonschema:"Title of the horizontal (category) axis"`
	YTitle          string   `json:"y_title,omitempty" jsonschema:"Title of the vertical (value) axis"`
	Width           *float64 `json:"width,omitempty" jsonschema:"Width in cm, above 0 and at most 200 (default 15)"`
	Height          *float64 `json:"height,omitempty" jsonschema:"Height in cm, above 0 and at most 200 (default 10)"`
	FromRows        bool     `json:"from_rows,omitempty" jsonschema:"Series are rows instead of columns"`
}

// createChart implements create_excel_chart: a native chart whose series are
// the columns (or rows) of data_range, the first row (column) naming them.
func (s *Service) createChart(_ context.Context, a createChartArgs) (*engine.Call, error) {
	ct, ok := chartType(a.ChartType)
	if !ok {
		return nil, failure.Invalid("invalid chart_type %q: one of bar, line, pie, scatter, area", a.ChartType)
	}
	data, err := grid.ParseRange(a.DataRange)
	if err != nil {
		return nil, err
	}
	var cats *cellarea.Range
	if a.CategoriesRange != "" {
		c, err := grid.ParseRange(a.CategoriesRange)
		if err != nil {
			return nil, err
		}
		cats = &c
	}
	if a.TargetCell == "" {
		a.TargetCell = grid.CellName(data.C2+2, data.R1)
	}
	if _, _, err := grid.ParseCell(a.TargetCell); err != nil {
		return nil, err
	}
	w, h := defaultChartWidthCm, defaultChartHeightCm
	if a.Width != nil {
		w = *a.Width
	}
	if a.Height != nil {
		h = *a.Height
	}
	if w <= 0 || h <= 0 || w > 200 || h > 200 {
		return nil, failure.Invalid("width and height must be in (0, 200] cm")
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet := sh.Name
		series := chartSeries(sheet, data, cats, a.FromRows)
		if len(series) == 0 {
			return nil, failure.Invalid("data_range %s needs a header row and at least one data row", data)
		}
		if len(series) > maxChartSeries {
			return nil, failure.Invalid("data_range %s has more than %d series", data, maxChartSeries)
		}
		target, sheetCreated := sheet, false
		if a.TargetSheet != "" {
			// A second sheet of the same workbook, opened as the first.
			var err error
			if target, _, sheetCreated, err = b.EditTarget(a.TargetSheet, a.Create); err != nil {
				return nil, err
			}
		}
		chart := &excelize.Chart{
			Type:      ct,
			Series:    series,
			Dimension: excelize.ChartDimension{Width: uint(w * pixelsPerCm), Height: uint(h * pixelsPerCm)},
		}
		if a.Title != "" {
			chart.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: a.Title}}}
		}
		if a.XTitle != "" {
			chart.XAxis.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: a.XTitle}}}
		}
		if a.YTitle != "" {
			chart.YAxis.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: a.YTitle}}}
		}
		if err := b.AddChart(target, strings.ToUpper(a.TargetCell), chart); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "cannot add chart: "+err.Error(), err)
		}
		res := success(b.Name(), "",
			field("chart_type", a.ChartType),
			field("data_sheet", sheet),
			field("sheet", target),
			field("anchor", strings.ToUpper(a.TargetCell)),
			field("series_count", len(series)))
		if sheetCreated {
			res = append(res, field("sheet_created", true))
		}
		return res, nil
	}), nil
}

// chartSeries builds one series per column (or row) of data; the first
// row (column) holds the series names.
func chartSeries(sheet string, data cellarea.Range, cats *cellarea.Range, fromRows bool) []excelize.ChartSeries {
	var out []excelize.ChartSeries
	catRef := ""
	if cats != nil {
		catRef = absRef(sheet, cats.C1, cats.R1, cats.C2, cats.R2)
	}
	if !fromRows {
		if data.R2 <= data.R1 {
			return nil
		}
		for c := data.C1; c <= data.C2; c++ {
			out = append(out, excelize.ChartSeries{
				Name:       absRef(sheet, c, data.R1, c, data.R1),
				Categories: catRef,
				Values:     absRef(sheet, c, data.R1+1, c, data.R2),
			})
		}
		return out
	}
	if data.C2 <= data.C1 {
		return nil
	}
	for r := data.R1; r <= data.R2; r++ {
		out = append(out, excelize.ChartSeries{
			Name:       absRef(sheet, data.C1, r, data.C1, r),
			Categories: catRef,
			Values:     absRef(sheet, data.C1+1, r, data.C2, r),
		})
	}
	return out
}
