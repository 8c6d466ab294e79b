package tools

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// detailsXML is a worksheet part holding head before the cells, rows rows of
// cells and tail after them.
func detailsXML(head string, rows int, tail string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
	b.WriteString(head)
	b.WriteString("<sheetData>")
	for r := 1; r <= rows; r++ {
		fmt.Fprintf(&b, `<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d" t="inlineStr"><is><t>&lt;/sheetData&gt;</t></is></c></row><row r="%d" spans="1:1"/>`, 2*r-1, 2*r-1, r, 2*r-1, 2*r)
	}
	b.WriteString("</sheetData>")
	b.WriteString(tail)
	b.WriteString("</worksheet>")
	return b.String()
}

func TestSheetDetailsOf(t *testing.T) {
	manyRules := strings.Repeat(`<conditionalFormatting sqref="A1"><cfRule type="duplicateValues" priority="1"/></conditionalFormatting>`, 25)
	cases := []struct {
		name   string
		xml    string
		rules  bool
		freeze any
		widths map[string]any
		cf     []any
		nRules int
	}{
		{"frozen rows and columns", detailsXML(`<sheetViews><sheetView workbookViewId="0"><pane xSplit="2" ySplit="3" topLeftCell="C4" state="frozen"/></sheetView></sheetViews>`, 3, ""), true,
			map[string]any{"top_left_cell": "C4", "frozen_rows": 3.0, "frozen_columns": 2.0}, map[string]any{}, []any{}, 0},
		{"a split that is not frozen", detailsXML(`<sheetViews><sheetView workbookViewId="0"><pane xSplit="2000" ySplit="600"/></sheetView></sheetViews>`, 1, ""), true,
			nil, map[string]any{}, []any{}, 0},
		{"only the first view counts", detailsXML(`<sheetViews><sheetView workbookViewId="0"/><sheetView workbookViewId="1"><pane ySplit="1" state="frozen"/></sheetView></sheetViews>`, 1,
			`<customSheetViews><customSheetView guid="{0}"><pane ySplit="4" state="frozen"/></customSheetView></customSheetViews>`), true,
			nil, map[string]any{}, []any{}, 0},
		{"widths of columns and ranges", detailsXML(`<cols><col min="1" max="1" width="12.5" customWidth="1"/><col min="3" max="6" width="8.7109375"/><col min="7" max="7" style="2"/></cols>`, 2, ""), false,
			nil, map[string]any{"A": 12.5, "C:F": 8.7109375}, []any{}, 0},
		{"rules after the rows, formulas decoded, extensions left out", detailsXML("", 50,
			`<conditionalFormatting sqref="B2:B9 D2"><cfRule type="cellIs" operator="between" priority="1"><formula>1</formula><formula>"a&amp;b"</formula></cfRule><cfRule type="top10" rank="3" priority="2"/></conditionalFormatting>`+
				`<extLst><ext uri="{78C0D931}"><x14:conditionalFormattings xmlns:x14="x"><x14:conditionalFormatting><x14:cfRule type="dataBar"><xm:f>1</xm:f></x14:cfRule></x14:conditionalFormatting></x14:conditionalFormattings></ext></extLst>`), true,
			nil, map[string]any{}, []any{
				map[string]any{"range": "B2:B9 D2", "type": "cellIs", "operator": "between", "formulas": []any{"1", `"a&b"`}},
				map[string]any{"range": "B2:B9 D2", "type": "top10"},
			}, 2},
		{"rules capped, all counted", detailsXML("", 1, manyRules), true, nil, map[string]any{}, nil, 25},
		{"rules not asked: the cells are never read", detailsXML("", 0, "")[:strings.Index(detailsXML("", 0, ""), "<sheetData>")+len("<sheetData>")] + "<row r=", false,
			nil, map[string]any{}, []any{}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := sheetDetailsOf(strings.NewReader(c.xml), c.rules)
			require.NoError(t, err)
			var freeze any
			if d.freeze != nil {
				freeze = toMap(t, *d.freeze)
			}
			assert.Equal(t, c.freeze, freeze)
			assert.Equal(t, c.widths, toMap(t, append(d.widths[:0:0], d.widths...)))
			assert.Equal(t, c.nRules, d.nRules)
			assert.Len(t, d.rules, min(c.nRules, maxInspectedItems))
			if c.cf != nil {
				assert.Equal(t, c.cf, toMap(t, map[string]any{"r": firstItems(d.rules)})["r"])
			}
		})
	}
	_, err := sheetDetailsOf(strings.NewReader(detailsXML("", 2, "")[:300]), true)
	assert.Error(t, err, "cells that never end are damage when the rules are asked for")
}

// detailedBook writes d.xlsx: describedBook's workbook with column widths
// and a picture on Sheet1.
func detailedBook(e *env) {
	describedBook(e)
	f := e.open("d.xlsx")
	require.NoError(e.t, f.SetColWidth("Sheet1", "B", "D", 20))
	require.NoError(e.t, f.AddPictureFromBytes("Sheet1", "E7", &excelize.Picture{Extension: ".png", File: solidPNG(e.t, color.RGBA{R: 200, A: 255})}))
	require.NoError(e.t, f.Save())
}

func TestInspectExcelFilesInclude(t *testing.T) {
	all := []any{"freeze_panes", "charts", "images", "conditional_formatting", "column_widths"}
	cases := []struct {
		name    string
		include []any
		want    map[string]any // fields of Sheet1 besides the overview
		empty   map[string]any // fields of the sheet Empty
	}{
		{"nothing asked, nothing shown", nil, map[string]any{}, map[string]any{}},
		{"freeze panes only", []any{"freeze_panes"}, map[string]any{"freeze_panes": map[string]any{"top_left_cell": "A2", "frozen_rows": 1.0, "frozen_columns": 0.0}}, map[string]any{"freeze_panes": nil}},
		{"everything, once each", append(all, "charts"), map[string]any{
			"freeze_panes":                 map[string]any{"top_left_cell": "A2", "frozen_rows": 1.0, "frozen_columns": 0.0},
			"column_widths_count":          1.0,
			"column_widths":                map[string]any{"B:D": 20.0},
			"charts_count":                 1.0,
			"charts":                       []any{map[string]any{"from_cell": "H2", "to_cell": "O16"}},
			"images_count":                 1.0,
			"images":                       []any{map[string]any{"from_cell": "E7", "to_cell": "E9"}},
			"conditional_formatting_count": 1.0,
			"conditional_formatting":       []any{map[string]any{"range": "B2:B5", "type": "cellIs", "operator": "greaterThan", "formulas": []any{"3"}}},
		}, map[string]any{"freeze_panes": nil, "column_widths_count": 0.0, "column_widths": map[string]any{}, "charts_count": 0.0, "charts": []any{},
			"images_count": 0.0, "images": []any{}, "conditional_formatting_count": 0.0, "conditional_formatting": []any{}}},
	}
	e := newEnv(t)
	detailedBook(e)
	overview := []string{"name", "used_range", "used_range_source", "max_row", "max_column", "columns_shown", "header_row", "header", "preview"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := map[string]any{}
			if c.include != nil {
				args["include"] = c.include
			}
			got := e.ok("inspect_excel_files", args)
			assert.NotContains(t, got, "include_note")
			sheets := got["files"].([]any)[0].(map[string]any)["sheets"].([]any)
			for i, want := range []map[string]any{c.want, c.empty} {
				s := sheets[i].(map[string]any)
				for _, k := range overview {
					delete(s, k)
				}
				assert.Equal(t, want, s)
			}
		})
	}
}
