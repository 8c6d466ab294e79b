package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rulesBook has a formula rule and a validation on Sheet1 rows 2-5 and a
// list validation reading another sheet.
func rulesBook(t *testing.T, e *env, name string) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	_, err := f.NewSheet("Lists")
	require.NoError(t, err)
	style, err := f.NewConditionalStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(t, err)
	require.NoError(t, f.SetConditionalFormat("Sheet1", "B2:B5", []excelize.ConditionalFormatOptions{
		{Type: "formula", Criteria: "$A2>$D$9", Format: &style}}))
	require.NoError(t, f.SetConditionalFormat("Sheet1", "E3:E4", []excelize.ConditionalFormatOptions{
		{Type: "formula", Criteria: "E3>0", Format: &style}}))
	dv := excelize.NewDataValidation(true)
	dv.Sqref = "C2:C5"
	dv.SetSqrefDropList("Lists!$A$1:$A$4")
	require.NoError(t, f.AddDataValidation("Sheet1", dv))
	require.NoError(t, f.SaveAs(e.path(name)))
}

// rulesOf returns the formula rules (sqref -> first criteria) and the
// validations (sqref -> formula1) of sheet.
func rulesOf(t *testing.T, e *env, name, sheet string) (map[string]string, map[string]string) {
	t.Helper()
	f := e.open(name)
	cfs, err := f.GetConditionalFormats(sheet)
	require.NoError(t, err)
	cf := map[string]string{}
	for ref, opts := range cfs {
		cf[ref] = opts[0].Criteria
	}
	dvs, err := f.GetDataValidations(sheet)
	require.NoError(t, err)
	dv := map[string]string{}
	for _, d := range dvs {
		dv[d.Sqref] = d.Formula1
	}
	return cf, dv
}

func TestRulesFollowEdits(t *testing.T) {
	e := newEnv(t)
	rulesBook(t, e, "r.xlsx")

	// Deleting the first row of B2:B5 keeps the rule on the rows left,
	// read from the next row; the range E3:E4 loses its top row.
	e.ok("delete_rows", map[string]any{"file_path": "r.xlsx", "sheet_name": "Sheet1", "row": 2})
	cf, dv := rulesOf(t, e, "r.xlsx", "Sheet1")
	assert.Equal(t, map[string]string{"B2:B4": "$A2>$D$8", "E2:E3": "E2>0"}, cf)
	assert.Equal(t, map[string]string{"C2:C4": "Lists!$A$1:$A$4"}, dv)

	e.ok("delete_rows", map[string]any{"file_path": "r.xlsx", "sheet_name": "Sheet1", "row": 3})
	cf, _ = rulesOf(t, e, "r.xlsx", "Sheet1")
	assert.Equal(t, map[string]string{"B2:B3": "$A2>$D$7", "E2": "E2>0"}, cf)

	// Rows deleted on the list's sheet shrink the list; a rule whose cells
	// are all deleted goes.
	e.ok("delete_rows", map[string]any{"file_path": "r.xlsx", "sheet_name": "Lists", "row": 2, "count": 2})
	e.ok("delete_rows", map[string]any{"file_path": "r.xlsx", "sheet_name": "Sheet1", "row": 2})
	cf, dv = rulesOf(t, e, "r.xlsx", "Sheet1")
	assert.Equal(t, map[string]string{"B2": "$A2>$D$6"}, cf)
	assert.Equal(t, map[string]string{"C2": "Lists!$A$1:$A$2"}, dv)

	// Renaming the list's sheet follows into the validation.
	e.ok("rename_sheet", map[string]any{"file_path": "r.xlsx", "old_name": "Lists", "new_name": "All Lists"})
	_, dv = rulesOf(t, e, "r.xlsx", "Sheet1")
	assert.Equal(t, map[string]string{"C2": "'All Lists'!$A$1:$A$2"}, dv)

	// Inserting columns moves rules and their references.
	e.ok("insert_columns", map[string]any{"file_path": "r.xlsx", "sheet_name": "Sheet1", "column": "A"})
	cf, dv = rulesOf(t, e, "r.xlsx", "Sheet1")
	assert.Equal(t, map[string]string{"C2": "$B2>$E$6"}, cf)
	assert.Equal(t, map[string]string{"D2": "'All Lists'!$A$1:$A$2"}, dv)
}
