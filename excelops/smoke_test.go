package excelops

import (
	"testing"
)

func TestSmoke(t *testing.T) {
	e := newEnv(t)
	e.workbook("a.xlsx", [][]any{{"name", "qty"}, {"x", 1}, {"y", 2}})
	t.Log(e.call("read_excel", map[string]any{"file_path": "a.xlsx"}).Text)
	t.Log(e.call("write_cells", map[string]any{"file_path": "a.xlsx", "cell_range": "C1", "values": [][]any{{"total"}, {"=B2*2"}}}).Text)
	t.Log(e.call("read_excel", map[string]any{"file_path": "a.xlsx", "range": "A1:C3"}).Text)
	t.Log(e.call("list_sheets", map[string]any{"file_path": "a.xlsx"}).Text)
	t.Log(e.call("format_cells", map[string]any{"file_path": "a.xlsx", "cell_range": "A1:C1", "font": map[string]any{"bold": true, "color": "red"}, "fill": map[string]any{"color": "FFFF00"}}).Text)
	t.Log(e.call("read_cell_styles", map[string]any{"file_path": "a.xlsx", "cell_range": "A1:B1"}).Text)
	t.Log(e.call("add_conditional_rule", map[string]any{"file_path": "a.xlsx", "cell_range": "B2:B3", "rule_type": "icon_set", "icon_style": "3Arrows"}).Text)
	t.Log(e.call("add_data_validation", map[string]any{"file_path": "a.xlsx", "cell_range": "D2:D9", "validation_type": "whole", "operator": "between", "formula1": "1", "formula2": "9"}).Text)
	t.Log(e.call("create_excel_chart", map[string]any{"file_path": "a.xlsx", "chart_type": "bar", "data_range": "B1:B3", "categories_range": "A2:A3"}).Text)
	t.Log(e.call("read_excel", map[string]any{"file_path": "../a.xlsx"}).Text)
	t.Log(e.call("read_excel", map[string]any{"file_path": "nope.xlsx"}).Text)
	t.Log(e.call("read_excel", map[string]any{"file_path": "a.xlsx", "sheet_name": "zz"}).Text)
}
