package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWriteCellsCreatesSeriesBesideEachOther: the pairs agents reported refused are
// created without create: true; a transposed name is still refused.
func TestWriteCellsCreatesSeriesBesideEachOther(t *testing.T) {
	e := newEnv(t)
	for _, existing := range []string{"report_q1.xlsx", "sales_2024.xlsx", "r.xlsx", "budget_v1.xlsx", "report.xlsx"} {
		e.workbook(existing, [][]any{{"x", 1}})
	}
	for _, name := range []string{"report_q2.xlsx", "sales_2025.xlsx", "c.xlsx", "budget_v2.xlsx", "report (2).xlsx", "report_final.xlsx"} {
		ok := e.ok("write_cells", map[string]any{"file_path": name, "cell": "A1", "value": 1})
		assert.Equal(t, true, ok["created"], name)
	}
	got := e.fail("write_cells", map[string]any{"file_path": "repotr.xlsx", "cell": "A1", "value": 1})
	assert.Equal(t, `file not found: repotr.xlsx. Did you mean "report.xlsx"? Pass create: true to create a new workbook named "repotr.xlsx".`, got["message"])
	assert.NoFileExists(t, e.path("repotr.xlsx"))
}
