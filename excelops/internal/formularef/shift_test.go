package formularef

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestShiftFormula(t *testing.T) {
	delRows := func(at, n int) Shift { return Shift{Sheet: "Sheet1", Axis: Rows, At: at, Count: n, Delete: true} }
	insRows := func(at, n int) Shift { return Shift{Sheet: "Sheet1", Axis: Rows, At: at, Count: n} }
	delCols := func(at, n int) Shift { return Shift{Sheet: "Sheet1", Axis: Cols, At: at, Count: n, Delete: true} }
	insCols := func(at, n int) Shift { return Shift{Sheet: "Sheet1", Axis: Cols, At: at, Count: n} }
	cases := []struct {
		name, host, in, want string
		e                    Shift
	}{
		{"deleted cell becomes #REF!", "Sheet1", "=A3*10", "=#REF!*10", delRows(3, 1)},
		{"cell below moves up", "Sheet1", "=A5*10", "=A4*10", delRows(3, 1)},
		{"cell above stays", "Sheet1", "=A2*10", "=A2*10", delRows(3, 1)},
		{"range shrinks inside", "Sheet1", "=SUM(A1:A5)", "=SUM(A1:A3)", delRows(2, 2)},
		{"range loses its top", "Sheet1", "=SUM(A2:A5)", "=SUM(A1:A3)", delRows(1, 2)},
		{"range loses its bottom", "Sheet1", "=SUM(A2:A5)", "=SUM(A2:A3)", delRows(4, 3)},
		{"range deleted entirely", "Sheet1", "=SUM(A2:A3)", "=SUM(#REF!)", delRows(2, 2)},
		{"range covering the deletion", "Sheet1", "=SUM(B2:C9)", "=SUM(B2:C6)", delRows(4, 3)},
		{"absolute moves too", "Sheet1", "=$A$5+A$5+$A5", "=$A$4+A$4+$A4", delRows(2, 1)},
		{"absolute deleted", "Sheet1", "=$A$2", "=#REF!", delRows(2, 1)},
		{"whole column unaffected by rows", "Sheet1", "=SUM(A:A)", "=SUM(A:A)", delRows(2, 1)},
		{"whole rows shrink", "Sheet1", "=SUM(3:5)", "=SUM(3:4)", delRows(4, 1)},
		{"whole rows gone", "Sheet1", "=SUM($3:$3)", "=SUM(#REF!)", delRows(3, 1)},
		{"insert moves below", "Sheet1", "=A3+A1", "=A5+A1", insRows(2, 2)},
		{"insert inside grows", "Sheet1", "=SUM(A1:A5)", "=SUM(A1:A7)", insRows(3, 2)},
		{"insert at top of range moves it", "Sheet1", "=SUM(A3:A5)", "=SUM(A4:A6)", insRows(3, 1)},
		{"insert after range leaves it", "Sheet1", "=SUM(A3:A5)", "=SUM(A3:A5)", insRows(6, 1)},
		{"insert pushes a cell off the grid", "Sheet1", "=A1048576", "=#REF!", insRows(1, 1)},
		{"insert keeps a full-height range", "Sheet1", "=SUM(A1:A1048576)", "=SUM(A1:A1048576)", insRows(1, 1)},
		{"delete keeps a full-height range", "Sheet1", "=SUM(B1:B1048576)", "=SUM(B1:B1048576)", delRows(2, 3)},
		{"insert clamps a range at the grid end", "Sheet1", "=SUM(A2:A1048576)", "=SUM(A3:A1048576)", insRows(1, 1)},
		{"other sheet's refs untouched", "Sheet1", "=Data!A5+A5", "=Data!A5+A4", delRows(2, 1)},
		{"refs from another sheet adjust", "Data", "=Sheet1!A5+A5", "=Sheet1!A4+A5", delRows(2, 1)},
		{"sheet name case-insensitive", "Data", "=SHEET1!A5", "=SHEET1!A4", Shift{Sheet: "sheet1", Axis: Rows, At: 2, Count: 1, Delete: true}},
		{"quoted unicode sheet", "Data", "='销售 2024'!B7*2", "='销售 2024'!B6*2", Shift{Sheet: "销售 2024", Axis: Rows, At: 1, Count: 1, Delete: true}},
		{"quoted sheet with quotes", "Data", "=SUM('Q1 ''Plan'' v1'!A1:A9)", "=SUM('Q1 ''Plan'' v1'!A1:A10)", Shift{Sheet: "Q1 'Plan' v1", Axis: Rows, At: 3, Count: 1}},
		{"strings are never references", "Sheet1", `="A5"&A5&"A5 ""A5"""`, `="A5"&A4&"A5 ""A5"""`, delRows(1, 1)},
		{"no equals sign kept", "Sheet1", "A5*2", "A4*2", delRows(1, 1)},
		{"delete column", "Sheet1", "=C1+B1+D1", "=B1+#REF!+C1", delCols(2, 1)},
		{"delete columns shrink range", "Sheet1", "=SUM(A1:E1)", "=SUM(A1:C1)", delCols(2, 2)},
		{"whole columns shrink", "Sheet1", "=SUM(B:D)", "=SUM(B:C)", delCols(3, 1)},
		{"whole columns gone", "Sheet1", "=COUNTA(C:C)", "=COUNTA(#REF!)", delCols(3, 1)},
		{"whole rows unaffected by columns", "Sheet1", "=SUM(2:2)", "=SUM(2:2)", delCols(1, 1)},
		{"insert column", "Sheet1", "=$B$1*C1", "=$C$1*D1", insCols(2, 1)},
		{"insert column grows range", "Sheet1", "=SUM(A1:C3)", "=SUM(A1:E3)", insCols(2, 2)},
		{"insert column pushes off grid", "Sheet1", "=XFD1", "=#REF!", insCols(1, 1)},
		{"names and functions untouched", "Sheet1", "=Total*ROUND(A5,2)", "=Total*ROUND(A4,2)", delRows(1, 1)},
		{"array constants survive", "Sheet1", "=SUM(A5,{1,2;3,4})", "=SUM(A4,{1,2;3,4})", delRows(1, 1)},
		{"intersection kept", "Sheet1", "=SUM(A1:A9 A5:B5)", "=SUM(A1:A8 A4:B4)", delRows(1, 1)},
		{"external refs untouched", "Sheet1", "=[1]Sheet1!A5+A5", "='[1]Sheet1'!A5+A4", delRows(1, 1)},
		{"3-D refs untouched", "Sheet1", "=SUM(Sheet1:Sheet3!A5)+A5", "=SUM('Sheet1:Sheet3'!A5)+A4", delRows(1, 1)},
		{"reversed range normalised", "Sheet1", "=SUM(A5:A1)", "=SUM(A1:A4)", delRows(2, 1)},
		{"lower case refs", "Sheet1", "=sum(a5)", "=sum(A4)", delRows(1, 1)},
		{"errors kept", "Sheet1", "=IFERROR(A5,#N/A)", "=IFERROR(A4,#N/A)", delRows(1, 1)},
		{"percent and unary", "Sheet1", "=-A5%", "=-A4%", delRows(1, 1)},
		{"comparison", "Sheet1", "=IF(A5<>B5,1,0)", "=IF(A4<>B4,1,0)", delRows(1, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, changed := c.e.Formula(c.in, c.host)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.want != c.in, changed)
		})
	}
}

func TestShiftUnchangedKeepsText(t *testing.T) {
	in := "= SUM( A1 ,  B1 )  &  \"x\""
	got, changed := Shift{Sheet: "Sheet1", Axis: Rows, At: 5, Count: 1, Delete: true}.Formula(in, "Sheet1")
	assert.False(t, changed)
	assert.Equal(t, in, got)
}

func TestShiftLeavesUntokenizableAlone(t *testing.T) {
	in := "=Sheet2!#REF!+A5"
	got, changed := Shift{Sheet: "Sheet1", Axis: Rows, At: 1, Count: 1, Delete: true}.Formula(in, "Sheet1")
	assert.False(t, changed)
	assert.Equal(t, in, got)
}

func TestShiftSqrefAndArea(t *testing.T) {
	e := Shift{Sheet: "S", Axis: Rows, At: 3, Count: 2, Delete: true}
	assert.Equal(t, "A1:B2 C3 D2:D4 E3", e.Sqref("A1:B2 C3:C4 C5 D2:D6 E4:E5"))
	assert.Equal(t, "", e.Sqref("A3:Z4"))
	a, ok := e.Area("A2:C8")
	assert.True(t, ok)
	assert.Equal(t, "A2:C6", a)
	_, ok = e.Area("A3:C4")
	assert.False(t, ok)
	ins := Shift{Sheet: "S", Axis: Cols, At: 2, Count: 1}
	assert.Equal(t, "A1 C1:D4", ins.Sqref("A1 B1:C4"))
}

func TestRenameAndDeleteSheet(t *testing.T) {
	cases := []struct{ in, want string }{
		{"=Sales!A1+A1", "='销售 2024'!A1+A1"},
		{"=SUM(sales!A1:B2)*'Other'!C1", "=SUM('销售 2024'!A1:B2)*Other!C1"},
		{"=SUM(Sales:Z!A1)", "=SUM('销售 2024:Z'!A1)"},
		{`="Sales!A1"`, `="Sales!A1"`},
		{"=Sales!Total", "='销售 2024'!Total"},
	}
	for _, c := range cases {
		got, _ := RenameSheet(c.in, "Sales", "销售 2024")
		assert.Equal(t, c.want, got, c.in)
	}
	got, changed := RenameSheet("=A1+Other!B2", "Sales", "X")
	assert.False(t, changed)
	assert.Equal(t, "=A1+Other!B2", got)
	got, _ = RenameSheet("='Q1 ''Plan'' v1'!A1", "Q1 'Plan' v1", "Plan's")
	assert.Equal(t, "='Plan''s'!A1", got)

	got, changed = DeleteSheet("=Sales!A1*2+SUM('sales'!B1:B3)+A1", "Sales")
	assert.True(t, changed)
	assert.Equal(t, "=#REF!*2+SUM(#REF!)+A1", got)
}

func TestTranslate(t *testing.T) {
	cases := []struct {
		in         string
		rows, cols int
		want       string
	}{
		{"=E3*F3", 0, 1, "=F3*G3"},
		{"=E3*F3", 2, 0, "=E5*F5"},
		{"=$E$3*F$3+$F3", 1, 1, "=$E$3*G$3+$F4"},
		{"=SUM(A1:A5)", 0, 2, "=SUM(C1:C5)"},
		{"=SUM(A:A)", 5, 1, "=SUM(B:B)"},
		{"=SUM(2:3)", 5, 1, "=SUM(7:8)"},
		{"=Data!B2", 1, 0, "=Data!B3"},
		{"=A1", -1, 0, "=#REF!"},
		{"=A1", 0, -1, "=#REF!"},
		{`=A1&"A1"`, 1, 0, `=A2&"A1"`},
		{"=Total", 3, 3, "=Total"},
	}
	for _, c := range cases {
		got, changed := Translate(c.in, c.rows, c.cols)
		assert.Equal(t, c.want, got, c.in)
		assert.Equal(t, c.want != c.in, changed, c.in)
	}
}

func TestQuoteSheet(t *testing.T) {
	for name, want := range map[string]string{
		"Sheet1": "Sheet1", "My Sheet": "'My Sheet'", "A1": "'A1'", "R1C1": "'R1C1'", "2024": "'2024'",
		"it's": "'it''s'", "销售": "'销售'", "TRUE": "'TRUE'", "Data_2": "Data_2", "XFD": "XFD", "R": "'R'",
	} {
		assert.Equal(t, want, QuoteSheet(name), name)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"=SUM( A1 , B1 )":            "=SUM(A1,B1)",
		"={1,2;3,4}":                 "={1,2;3,4}",
		`=IF(A1="x""y",1,2)`:         `=IF(A1="x""y",1,2)`,
		"='My Sheet'!A1":             "='My Sheet'!A1",
		"=Table1[[#This Row],[Col]]": "=Table1[[#This Row],[Col]]",
		"=1E+3*-A1%":                 "=1E+3*-A1%",
		"=(A1+B1)*2":                 "=(A1+B1)*2",
	} {
		got, ok := Normalize(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
}

func TestSheetsReferenced(t *testing.T) {
	cases := []struct {
		formula string
		want    []string
	}{
		{"=A1+B2", nil},
		{"=Sheet1!A1+sheet1!B2+'Q1 ''Plan'' v1'!C3", []string{"Sheet1", "Q1 'Plan' v1"}},
		{"=SUM(Jan:Mar!A1)", []string{"Jan", "Mar"}},
		{`="Sheet9!A1"&[1]Other!A1`, nil},
		{"='销售 2024'!$A$1:$B$2", []string{"销售 2024"}},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, SheetsReferenced(c.formula), c.formula)
	}
}
