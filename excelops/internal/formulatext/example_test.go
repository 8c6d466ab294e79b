package formulatext_test

import (
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
)

func ExampleWithFilePrefixes() {
	funcs := map[string]string{"TEXTJOIN": "_xlfn.", "SUM": ""}
	stored := formulatext.WithFilePrefixes(`textjoin(",",TRUE,C3#)+SUM(@A1:A5)`, funcs)
	fmt.Println(stored)
	fmt.Println(formulatext.WithoutFilePrefixes(stored))
	fmt.Println(formulatext.MaySpill("SUM(A1:A5*B1:B5)"))
	// Output:
	// _xlfn.TEXTJOIN(",",TRUE,_xlfn.ANCHORARRAY(C3))+SUM(_xlfn.SINGLE(A1:A5))
	// TEXTJOIN(",",TRUE,C3#)+SUM(@A1:A5)
	// true
}
