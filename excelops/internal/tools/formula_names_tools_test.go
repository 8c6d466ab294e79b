package tools

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// namesBook is a workbook with sheets Sheet1 and "Q1 Plan", the name
// TaxRate and the table Sales (Item, Amount) on Sheet1.
func namesBook(e *env) {
	e.t.Helper()
	e.workbook("n.xlsx", [][]any{{"Item", "Amount"}, {"a", 10}, {"b", 20}})
	e.ok("create_sheet", map[string]any{"file_path": "n.xlsx", "sheet_name": "Q1 Plan"})
	e.ok("define_name", map[string]any{"file_path": "n.xlsx", "name": "TaxRate", "refers_to": "0.2"})
	e.ok("create_table", map[string]any{"file_path": "n.xlsx", "sheet_name": "Sheet1", "cell_range": "A1:B3", "table_name": "Sales"})
}

func TestWriteCellsRefusesUnknownReferences(t *testing.T) {
	skipUnderRace(t)
	for _, path := range []struct {
		name string
		opts []Option
	}{{"splice", nil}, {"excelize", []Option{withoutSplice()}}} {
		t.Run(path.name, func(t *testing.T) {
			e := newEnv(t, path.opts...)
			namesBook(e)
			for _, c := range []struct {
				formula, exception, want string
			}{
				{"='Q1 Plna'!A2", "KeyError", `Did you mean "Q1 Plan"?`},
				{"=SUM(Sales!B:B)", "KeyError", `the sheet "Sales"`},
				{"=TaxRat*B2", "ValueError", `Did you mean "TaxRate"?`},
				{"=SUM(Sales[Amont])", "ValueError", `Did you mean "Amount"?`},
				{"=SUM(Sale[Amount])", "ValueError", `Did you mean "Sales"?`},
			} {
				p := e.fail("write_cells", map[string]any{"file_path": "n.xlsx", "sheet_name": "Sheet1", "cell": "D2", "value": c.formula})
				assert.Equal(t, c.exception, p["exception"], c.formula)
				assert.Contains(t, p["message"], c.want, c.formula)
				assert.Contains(t, p["message"], "nothing was written", c.formula)
			}
			formula, err := e.open("n.xlsx").GetCellFormula("Sheet1", "D2")
			require.NoError(t, err)
			assert.Empty(t, formula, "no refused formula was written")
			e.ok("write_cells", map[string]any{"file_path": "n.xlsx", "sheet_name": "Sheet1", "cell_range": "D2:G2", "values": [][]any{
				{"='q1 plan'!A2", "=TaxRate*B2", "=SUM(Sales[Amount])", "=LET(x,2,x*B2)"}}})
			f := e.open("n.xlsx")
			for cell, want := range map[string]string{"D2": "'q1 plan'!A2", "E2": "TaxRate*B2", "F2": "SUM(Sales[Amount])", "G2": "_xlfn.LET(_xlpm.x,2,_xlpm.x*B2)"} {
				got, err := f.GetCellFormula("Sheet1", cell)
				require.NoError(t, err)
				assert.Equal(t, want, got, cell)
			}
		})
	}
}

func TestWriteCellsNewSheetMayReferToItself(t *testing.T) {
	e := newEnv(t)
	namesBook(e)
	e.ok("write_cells", map[string]any{"file_path": "n.xlsx", "sheet_name": "Fresh", "create": true, "cell": "A1", "value": "=Fresh!B1+Sheet1!B2"})
	formula, err := e.open("n.xlsx").GetCellFormula("Fresh", "A1")
	require.NoError(t, err)
	assert.Equal(t, "Fresh!B1+Sheet1!B2", formula)

	p := e.fail("write_cells", map[string]any{"file_path": "n.xlsx", "sheet_name": "Later", "create": true, "cell": "A1", "value": "=Nope!A1"})
	assert.Equal(t, "KeyError", p["exception"])
	assert.Equal(t, []string{"Sheet1", "Q1 Plan", "Fresh"}, e.open("n.xlsx").GetSheetList(), "a refused write creates no sheet")
	got := e.ok("list_sheets", map[string]any{"file_path": "n.xlsx"})
	assert.NotContains(t, fmt.Sprint(got["sheets"]), "Later", "nor in the cached workbook")
}

func TestRulesAndNamesRefuseUnknownReferences(t *testing.T) {
	e := newEnv(t)
	namesBook(e)
	e.ok("write_cells", map[string]any{"file_path": "n.xlsx", "sheet_name": "Sheet1", "cell": "D1", "value": "='Q1 Plan'!A1"})
	for _, c := range []struct {
		tool      string
		args      map[string]any
		exception string
		want      string
	}{
		{"add_conditional_rule", map[string]any{"sheet_name": "Sheet1", "cell_range": "B2:B3", "rule_type": "formula", "formula": "=B2>TaxRat"},
			"ValueError", `Did you mean "TaxRate"?`},
		{"add_data_validation", map[string]any{"sheet_name": "Sheet1", "cell_range": "C2:C3", "validation_type": "list", "formula1": "='Q1 Plna'!$A$1:$A$3"},
			"KeyError", `Did you mean "Q1 Plan"?`},
		{"add_data_validation", map[string]any{"sheet_name": "Sheet1", "cell_range": "C2:C3", "validation_type": "custom", "formula1": "=C2<Limit"},
			"ValueError", `the name "Limit"`},
		{"define_name", map[string]any{"name": "Gross", "refers_to": "=Sheet1!$B$2*(1+TaxRat)"},
			"ValueError", `Did you mean "TaxRate"?`},
		{"define_name", map[string]any{"name": "Plan", "refers_to": "=Q1Plan!$A$1"},
			"KeyError", `Did you mean "Q1 Plan"?`},
		{"find_replace", map[string]any{"find": "Q1 Plan", "replace": "Q2 Plan", "in_formulas": true},
			"KeyError", `the sheet "Q2 Plan"`},
	} {
		c.args["file_path"] = "n.xlsx"
		p := e.fail(c.tool, c.args)
		assert.Equal(t, c.exception, p["exception"], c.args)
		assert.Contains(t, p["message"], c.want, c.args)
	}
	e.ok("add_conditional_rule", map[string]any{"file_path": "n.xlsx", "sheet_name": "Sheet1", "cell_range": "B2:B3", "rule_type": "formula", "formula": "=B2>TaxRate*50"})
	e.ok("add_data_validation", map[string]any{"file_path": "n.xlsx", "sheet_name": "Sheet1", "cell_range": "C2:C3", "validation_type": "list", "formula1": "='Q1 Plan'!$A$1:$A$3"})
	e.ok("define_name", map[string]any{"file_path": "n.xlsx", "name": "Gross", "refers_to": "=Sheet1!$B$2*(1+TaxRate)"})
	assert.Len(t, e.open("n.xlsx").GetDefinedName(), 2, "TaxRate and Gross only")
}
