package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAliasesGiveTheCanonicalResult(t *testing.T) {
	skipUnderRace(t)
	for _, tc := range []struct {
		tool      string
		canonical map[string]any
		aliased   []map[string]any
	}{
		{
			tool:      "read_excel",
			canonical: map[string]any{"range": "A1:B3"},
			aliased: []map[string]any{
				{"cell_range": "A1:B3"},
				{"cell_range": "Sheet1!B3:A1"},
				{"range": "A1:B3", "cell_range": "$A$1:$B$3"},
			},
		},
		{
			tool:      "rename_sheet",
			canonical: map[string]any{"sheet_name": "Other", "new_name": "Renamed"},
			aliased: []map[string]any{
				{"old_name": "Other", "new_name": "Renamed"},
				{"old_name": "other", "sheet_name": "Other", "new_name": "Renamed"},
			},
		},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			run := func(args map[string]any) string {
				e := newEnv(t)
				dataBook(e)
				res := e.call(tc.tool, withFile(tc.tool, "data.xlsx", args))
				require.False(t, res.IsError, res.Text)
				return res.Text
			}
			want := run(tc.canonical)
			for _, args := range tc.aliased {
				assert.Equal(t, want, run(args), "%v", args)
			}
		})
	}
}

func TestAliasesAndQualifiersThatDisagreeAreRefused(t *testing.T) {
	e := newEnv(t)
	dataBook(e)
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		is         error
	}{
		{"range and cell_range", "read_excel", map[string]any{"range": "A1:B3", "cell_range": "A1:B2"}, errAliasConflict},
		{"sheet_name and old_name", "rename_sheet", map[string]any{"sheet_name": "Sheet1", "old_name": "Other", "new_name": "X"}, errAliasConflict},
		{"two qualifiers", "create_excel_chart", map[string]any{"chart_type": "line", "data_range": "Sheet1!B1:B3", "categories_range": "Other!A2:A3"}, errSheetQualifier},
		{"range qualifier and cell_range qualifier", "read_excel", map[string]any{"range": "Sheet1!A1:B3", "cell_range": "Other!A1:B3"}, errSheetQualifier},
		{"no sheet to rename", "rename_sheet", map[string]any{"new_name": "X"}, failure.KindInvalidArgument},
		{"no source sheet", "copy_range_between_sheets", map[string]any{"source_range": "A1:B2", "target_sheet": "Other"}, failure.KindInvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(withFile(tc.tool, "data.xlsx", tc.args))
			require.NoError(t, err)
			_, err = toolFunc(e.svc, tc.tool)(context.Background(), raw)
			require.ErrorIs(t, err, tc.is)
			require.ErrorIs(t, err, failure.KindInvalidArgument)
			// and over the wire, the same ValueError payload as any invalid argument
			payload := e.fail(tc.tool, withFile(tc.tool, "data.xlsx", tc.args))
			assert.Equal(t, "ValueError", payload["exception"], payload)
		})
	}
}
