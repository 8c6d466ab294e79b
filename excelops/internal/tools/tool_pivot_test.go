package tools

import (
	"archive/zip"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// salesBook writes sales.xlsx: sheet Data with region, product, qty, price.
func salesBook(e *env) {
	e.workbook("sales.xlsx", [][]any{
		{"region", "product", "qty", "price"},
		{"east", "pen", 3, 1.5}, {"west", "pen", 4, 1.5}, {"east", "ink", 5, 2.0},
		{"north", "pad", 6, 3.0}, {"west", "ink", 7, 2.0},
	})
	f := e.open("sales.xlsx")
	require.NoError(e.t, f.SetSheetName("Sheet1", "Data"))
	require.NoError(e.t, f.Save())
}

// zipPart returns the text of one part of a workspace workbook, or "".
func (e *env) zipPart(name, part string) string {
	e.t.Helper()
	zr, err := zip.OpenReader(e.path(name))
	require.NoError(e.t, err)
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == part {
			rc, err := f.Open()
			require.NoError(e.t, err)
			defer rc.Close()
			b, err := io.ReadAll(rc)
			require.NoError(e.t, err)
			return string(b)
		}
	}
	return ""
}

func TestCreatePivotTableOnANewSheet(t *testing.T) {
	e := newEnv(t)
	salesBook(e)
	got := e.ok("create_pivot_table", map[string]any{
		"file_path": "sales.xlsx", "sheet_name": "Data", "source_range": "A1:D6",
		"target_sheet": "Summary", "create": true,
		"rows": []string{"region"}, "columns": []string{"product"},
		"values": []map[string]any{{"field": "qty"}, {"field": "price", "function": "average"}, {"field": "qty", "function": "count"}},
	})
	assert.Equal(t, "PivotTable1", got["pivot_table"])
	assert.Equal(t, "Summary", got["sheet"])
	assert.Equal(t, "A3", got["anchor"])
	assert.Equal(t, true, got["sheet_created"])
	// Rows: a header, the product labels, the value names, 3 regions, the
	// grand total; columns: the region labels, then 3 products and a total
	// for each of the 3 value fields.
	assert.Equal(t, "A3:M9", got["estimated_range"])

	f := e.open("sales.xlsx")
	pts, err := f.GetPivotTables("Summary")
	require.NoError(t, err)
	require.Len(t, pts, 1)
	assert.Equal(t, "Data!A1:D6", strings.ReplaceAll(pts[0].DataRange, "$", ""))
	require.Len(t, pts[0].Rows, 1)
	assert.Equal(t, "region", pts[0].Rows[0].Data)
	require.Len(t, pts[0].Columns, 1)
	assert.Equal(t, "product", pts[0].Columns[0].Data)
	var data []string
	for _, d := range pts[0].Data {
		data = append(data, d.Name+"/"+d.Subtotal)
	}
	assert.Equal(t, []string{"Sum of qty/Sum", "Average of price/Average", "Count of qty/Count"}, data)
	cache := e.zipPart("sales.xlsx", "xl/pivotCache/pivotCacheDefinition1.xml")
	assert.Contains(t, cache, `refreshOnLoad="true"`)
	assert.Contains(t, cache, `sheet="Data"`)
	assert.Contains(t, e.zipPart("sales.xlsx", "xl/workbook.xml"), "<pivotCache ")
	assert.Equal(t, "east", e.value("sales.xlsx", "Data", "A2"), "the source is untouched")
}

func TestCreatePivotTableBesideItsSource(t *testing.T) {
	e := newEnv(t)
	salesBook(e)
	got := e.ok("create_pivot_table", map[string]any{
		"file_path": "sales.xlsx", "source_range": "A1:D6", "rows": []string{"region", "product"},
		"values": []map[string]any{{"field": "qty"}}, "name": "ByRegion",
	})
	assert.Equal(t, "Data", got["sheet"])
	assert.Equal(t, "F1", got["anchor"], "two columns right of the source")
	assert.Equal(t, "ByRegion", got["pivot_table"])
	// A second one may not land on the first.
	p := e.fail("create_pivot_table", map[string]any{
		"file_path": "sales.xlsx", "source_range": "A1:D6", "rows": []string{"region"},
		"values": []map[string]any{{"field": "qty"}}, "target_cell": "G2",
	})
	assert.Contains(t, p["message"], `overlap pivot table "ByRegion"`)
	pts, err := e.open("sales.xlsx").GetPivotTables("Data")
	require.NoError(t, err)
	assert.Len(t, pts, 1)
}

func TestCreatePivotTableRefusals(t *testing.T) {
	base := map[string]any{"file_path": "sales.xlsx", "source_range": "A1:D6", "rows": []string{"region"}, "values": []map[string]any{{"field": "qty"}}}
	cases := []struct {
		name      string
		args      map[string]any
		exception string
		want      string
	}{
		{"unknown header", map[string]any{"values": []map[string]any{{"field": "amount"}}}, "ValueError", `values field "amount" is not a header of A1:D6; the headers are: "region", "product", "qty", "price"`},
		{"header in another case", map[string]any{"rows": []string{"Region"}}, "ValueError", `did you mean "region"?`},
		{"no row or column field", map[string]any{"rows": []string{}}, "ValueError", "at least one field in rows or columns"},
		{"field on two axes", map[string]any{"columns": []string{"region"}}, "ValueError", "given twice"},
		{"same value twice", map[string]any{"values": []map[string]any{{"field": "qty"}, {"field": "qty", "function": "sum"}}}, "ValueError", "given twice"},
		{"header row only", map[string]any{"source_range": "A1:D1"}, "ValueError", "at least one data row"},
		{"empty header", map[string]any{"source_range": "A1:E6"}, "ValueError", "header cell E1"},
		{"over its source", map[string]any{"target_cell": "B3"}, "ValueError", "overlap its source A1:D6"},
		{"over values", map[string]any{"target_sheet": "Notes"}, "ValueError", "holds a value"},
		{"missing target sheet", map[string]any{"target_sheet": "Nope"}, "KeyError", "Nope"},
		{"bad range", map[string]any{"source_range": "A1:D"}, "ValueError", "invalid cell range"},
		{"bad target cell", map[string]any{"target_cell": "A0"}, "ValueError", "A0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			salesBook(e)
			f := e.open("sales.xlsx")
			_, err := f.NewSheet("Notes")
			require.NoError(t, err)
			require.NoError(t, f.SetCellValue("Notes", "B4", "keep me"))
			require.NoError(t, f.Save())
			args := map[string]any{}
			for k, v := range base {
				args[k] = v
			}
			for k, v := range c.args {
				args[k] = v
			}
			p := e.fail("create_pivot_table", args)
			assert.Equal(t, c.exception, p["exception"], p)
			assert.Contains(t, p["message"], c.want)
			assert.Empty(t, e.zipPart("sales.xlsx", "xl/pivotCache/pivotCacheDefinition1.xml"), "nothing was written")
		})
	}
}
