package tools

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestToolHintsTellTheTruth: every tool has a short human title, stays in
// the workspace (openWorldHint false), and is idempotent exactly when the
// same call again changes nothing more: reads, and edits that set a state
// (values, formats, widths, panes, links, names), not edits that add
// (rules, validations, charts, images, pivots, rows, copies) or move cells.
func TestToolHintsTellTheTruth(t *testing.T) {
	idempotent := map[string]bool{
		"list_sheets": true, "read_excel": true, "read_cell_styles": true, "list_workbooks": true, "describe_workbook": true,
		"write_cells": true, "format_cells": true, "adjust_column_width": true, "merge_cells": true, "unmerge_cells": true,
		"create_sheet": true, "rename_sheet": true, "delete_sheet": true, "create_table": true, "freeze_panes": true,
		"set_autofilter": true, "sort_range": true, "add_comment": true, "set_hyperlink": true, "create_workbook": true,
		"define_name": true, "clear_range": true, "render_range": true, "inspect_excel_files": true, "scan_excel_snapshot": true, "compare_excel": true,
		"get_reference_map": true, "trace_references": true, "get_impact_analysis": true,
		"filter_data": true, "search_excel_values": true, "discover_file_relationships": true,
		// Not idempotent: each call adds or shifts again.
		"insert_rows": false, "insert_columns": false, "delete_rows": false, "delete_columns": false, "delete_range": false,
		"add_conditional_rule": false, "add_data_validation": false, "create_excel_chart": false, "insert_image": false,
		"create_pivot_table": false, "copy_sheet": false, "find_replace": false,
		// A copy whose target overlaps its source copies the copy again.
		"copy_range_between_sheets": false,
	}
	e := newEnv(t)
	titles := map[string]string{}
	for _, tool := range e.reg.Tools() {
		t.Run(tool.Name, func(t *testing.T) {
			h := tool.Annotations.MCP()
			require.NotNil(t, h)
			want, listed := idempotent[tool.Name]
			require.True(t, listed, "add %s to this table", tool.Name)
			assert.Equal(t, want, h.IdempotentHint)
			assert.False(t, h.OpenWorldHint)
			title := h.Title
			assert.NotEmpty(t, title)
			assert.LessOrEqual(t, utf8.RuneCountInString(title), 30, "a short title")
			first, _ := utf8.DecodeRuneInString(title)
			assert.True(t, unicode.IsUpper(first), "%q starts with a capital", title)
			assert.NotContains(t, title, "_", "a title is words, not the tool name")
			assert.NotRegexp(t, `[.!?]$`, title)
			if other, dup := titles[title]; dup {
				t.Errorf("%s and %s share the title %q", other, tool.Name, title)
			}
			titles[title] = tool.Name
		})
	}
	assert.Len(t, titles, len(idempotent))
}
