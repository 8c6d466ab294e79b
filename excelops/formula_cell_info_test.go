package excelops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCallsUncomputedForm(t *testing.T) {
	for formula, want := range map[string]bool{
		`CELL("row",A1)`:              false,
		`=CELL( "Contents" , B2:C3 )`: false,
		`CELL("address",A1)`:          false,
		`CELL("type",Other!A1)`:       false,
		`PHONETIC(A1)`:                false,
		`_xlfn.PHONETIC(A1:B2)&"x"`:   false,
		`SUM(A1:A3)`:                  false,
		`CELL(12,C5)`:                 false, // #VALUE!: info_type is text
		`CELL(TRUE)`:                  false,
		`CELL("nonsense",A1)`:         false,
		`CELL("Nonsense")`:            false,
		`CELL("width")`:               true, // an info type: the host's answer
		`CELL(12&"",A1)`:              true, // not a literal alone
		`CELL("filename",A1)`:         true,
		`MID(CELL("filename",A1),FIND("]",CELL("filename",A1))+1,99)`: true,
		`IFERROR(CELL("width",A1),5)`:                                 true,
		`CELL("row")`:                                                 true,
		`CELL("row",)`:                                                true,
		`CELL(B1,A1)`:                                                 true,
		`CELL("address",Other!A1)`:                                    true,
		`CELL("row",A1)+_xlfn.CELL("format",A1)`:                      true,
		`CELL("row",INDEX(A1:A5,3))`:                                  true,
		`IFERROR(PHONETIC(INDEX(A1:A5,2)),"")`:                        true,
		`PHONETIC("x")`:                                               true,
	} {
		assert.Equal(t, want, callsUncomputedForm(formula), formula)
		assert.Equal(t, want, callsUncomputable(formula), formula)
	}
}
