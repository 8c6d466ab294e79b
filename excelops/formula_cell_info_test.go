package excelops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCallsHostCell(t *testing.T) {
	for formula, want := range map[string]bool{
		`CELL("row",A1)`:              false,
		`=CELL( "Contents" , B2:C3 )`: false,
		`CELL("address",A1)`:          false,
		`CELL("type",Other!A1)`:       false,
		`SUM(A1:A3)`:                  false,
		`CELL("filename",A1)`:         true,
		`MID(CELL("filename",A1),FIND("]",CELL("filename",A1))+1,99)`: true,
		`IFERROR(CELL("width",A1),5)`:                                 true,
		`CELL("row")`:                                                 true,
		`CELL("row",)`:                                                true,
		`CELL(B1,A1)`:                                                 true,
		`CELL("address",Other!A1)`:                                    true,
		`CELL("row",A1)+_xlfn.CELL("format",A1)`:                      true,
	} {
		assert.Equal(t, want, callsHostCell(formula), formula)
		assert.Equal(t, want, callsUncomputable(formula), formula)
	}
}
