package formularef

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBandFormula(t *testing.T) {
	up := Band{Sheet: "Sheet1", Up: true, C1: 3, R1: 3, C2: 4, R2: 4}    // C3:D4, shift up
	left := Band{Sheet: "Sheet1", Up: false, C1: 2, R1: 2, C2: 3, R2: 2} // B2:C2, shift left
	cases := []struct {
		band          Band
		formula, want string
	}{
		{up, "=C3", "=#REF!"},
		{up, "=D4*2", "=#REF!*2"},
		{up, "=C5", "=C3"},
		{up, "=$D$10+C$6", "=$D$8+C$4"},
		{up, "=C2", "=C2"},
		{up, "=E5", "=E5"},
		{up, "=SUM(C1:C10)", "=SUM(C1:C8)"},
		{up, "=SUM(C1:D10)", "=SUM(C1:D8)"},
		{up, "=SUM(C3:D4)", "=SUM(#REF!)"},
		{up, "=SUM(C5:C9)", "=SUM(C3:C7)"},
		{up, "=SUM(B1:C10)", "=SUM(B1:C10)"},
		{up, "=SUM(C:C)", "=SUM(C:C)"},
		{up, "=SUM(3:4)", "=SUM(3:4)"},
		{up, "=Other!C5", "=Other!C5"},
		{up, "=Sheet1!C5+sheet1!C3", "=Sheet1!C3+#REF!"},
		{left, "=B2", "=#REF!"},
		{left, "=D2+E2", "=B2+C2"},
		{left, "=D3", "=D3"},
		{left, "=SUM(A2:F2)", "=SUM(A2:D2)"},
		{left, "=SUM(A2:F3)", "=SUM(A2:F3)"},
		{left, "=SUM(2:2)", "=SUM(2:2)"},
	}
	for _, c := range cases {
		got, _ := c.band.Formula(c.formula, "Sheet1")
		assert.Equal(t, c.want, got, "%+v %s", c.band, c.formula)
	}
	got, changed := up.Formula("=C5", "Other")
	assert.False(t, changed, "a formula on another sheet without a sheet prefix points there")
	assert.Equal(t, "=C5", got)
}

func TestBandArea(t *testing.T) {
	up := Band{Sheet: "S", Up: true, C1: 1, R1: 2, C2: 2, R2: 3} // A2:B3 up
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"A1", "A1", true}, {"A2", "", false}, {"B4", "B2", true}, {"C4", "C4", true},
		{"A4:B6", "A2:B4", true}, {"A2:B3", "", false}, {"A1:A4", "A1:A2", true},
	} {
		got, ok := up.Area(c.in)
		assert.Equal(t, c.ok, ok, c.in)
		assert.Equal(t, c.want, got, c.in)
	}
	assert.Equal(t, "A2:B4 C5", up.Sqref("A2:B3 A4:B6 C5"))
}
