package formularef

import (
	"testing"
)

func TestOperands(t *testing.T) {
	tests := []struct {
		name    string
		formula string
		want    []Operand
		ok      bool
	}{
		{"same sheet cell and range", "=A1+SUM($B$2:C3)", []Operand{
			{Text: "A1", IsArea: true, Col1: 1, Row1: 1, Col2: 1, Row2: 1},
			{Text: "$B$2:C3", IsArea: true, Col1: 2, Row1: 2, Col2: 3, Row2: 3},
		}, true},
		{"quoted sheet", "='Q1 Data'!B2*2", []Operand{
			{Text: "'Q1 Data'!B2", Sheet: "Q1 Data", IsArea: true, Col1: 2, Row1: 2, Col2: 2, Row2: 2},
		}, true},
		{"whole columns and rows", "=SUM(A:B)+SUM(3:4)", []Operand{
			{Text: "A:B", IsArea: true, Col1: 1, Row1: 1, Col2: 2, Row2: MaxRows},
			{Text: "3:4", IsArea: true, Col1: 1, Row1: 3, Col2: MaxCols, Row2: 4},
		}, true},
		{"defined name", "=Rate*2", []Operand{{Text: "Rate", Rest: "Rate"}}, true},
		{"structured with inner comma", "=SUM(Sales[Amount])+Sales[[#This Row],[Qty]]", []Operand{
			{Text: "Sales[Amount]", Rest: "Sales[Amount]"},
			{Text: "Sales[[#This Row],[Qty]]", Rest: "Sales[[#This Row],[Qty]]"},
		}, true},
		{"external", "=[1]Data!A1+'[2]My Data'!B2:C3", []Operand{
			{Text: "[1]Data!A1", Book: "[1]", Sheet: "Data", IsArea: true, Col1: 1, Row1: 1, Col2: 1, Row2: 1},
			{Text: "'[2]My Data'!B2:C3", Book: "[2]", Sheet: "My Data", IsArea: true, Col1: 2, Row1: 2, Col2: 3, Row2: 3},
		}, true},
		{"3-D span", "=SUM(Jan:Mar!B2)", []Operand{
			{Text: "Jan:Mar!B2", Sheet: "Jan", Sheet2: "Mar", IsArea: true, Col1: 2, Row1: 2, Col2: 2, Row2: 2},
		}, true},
		{"text is not a reference", `="A1"&B1`, []Operand{
			{Text: "B1", IsArea: true, Col1: 2, Row1: 1, Col2: 2, Row2: 1},
		}, true},
		{"empty", "=", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Operands(tt.formula)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("operand %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// FuzzOperands feeds arbitrary formula text to Operands: it must never
// panic, every area must be ordered and inside the grid, and every
// operand text must read back as the same operand.
func FuzzOperands(f *testing.F) {
	for _, s := range []string{
		"=SUM(A1:A5)", "='销售 2024'!B2+Sheet1!$C$3", "=Table1[[#This Row],[x]]", "=[1]Sheet1!A1",
		"=SUM(Sheet1:Sheet3!A1)", "=Rate*2", "=SUM(A:A)+SUM(3:5)", `="A1"&A1`, "=T[[a]:[b]]", "=[",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, formula string) {
		if len(formula) > 2000 {
			return
		}
		ops, _ := Operands(formula)
		for _, o := range ops {
			if !o.IsArea {
				continue
			}
			if o.Col1 < 1 || o.Col1 > o.Col2 || o.Col2 > MaxCols || o.Row1 < 1 || o.Row1 > o.Row2 || o.Row2 > MaxRows {
				t.Fatalf("%q: area out of order or grid: %+v", formula, o)
			}
		}
	})
}
