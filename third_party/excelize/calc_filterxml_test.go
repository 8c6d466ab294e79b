// registry-sidecar: tests of FILTERXML (calc_filterxml.go). Run them with
// go test ./third_party/excelize -run FilterXML.

package excelize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFilterXML checks FILTERXML against LibreOffice 25.2's results for the
// same formulas (computed with tests/oracle/lo_driver.py): the text of the
// first node in a cell, an attribute, XPath values that are not nodes,
// the text of an element with children, an empty element, escapes, and
// #VALUE! for XML or an XPath that is not valid. Where Excel differs from
// LibreOffice, Excel: several nodes are a column (LibreOffice keeps the
// first outside an array formula), a node whose text is a number is that
// number, no node selected is #VALUE! (LibreOffice: #N/A), and an entity
// declared in a DTD is not expanded (the XML is refused). Booleans show
// as 1 (arrayText).
func TestFilterXML(t *testing.T) {
	f := NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", `<a><b>x</b><b>y</b><c n="7">z</c></a>`))
	require.NoError(t, f.SetCellValue("Sheet1", "A2", "<a>"+strings.Repeat("<b>", maxXMLDepth+1)+strings.Repeat("</b>", maxXMLDepth+1)+"</a>"))
	require.NoError(t, f.SetCellValue("Sheet1", "A3", "<a>"+strings.Repeat("<b>", maxXMLDepth-2)+"q"+strings.Repeat("</b>", maxXMLDepth-2)+"</a>"))
	checkArrays(t, f, []struct{ formula, want string }{
		{`FILTERXML(A1,"//b")`, "x;y"},
		{`INDEX(FILTERXML(A1,"//b"),2)`, "y"},
		{`FILTERXML(A1,"//c")`, "z"},
		{`FILTERXML(A1,"//c/@n")`, "7"},
		{`ISNUMBER(FILTERXML(A1,"//c/@n"))`, "1"},
		{`FILTERXML(A1,"count(//b)")`, "2"},
		{`FILTERXML(A1,"string(//c)")`, "z"},
		{`FILTERXML(A1,"//c='z'")`, "1"},
		{`FILTERXML(A1,"/a")`, "xyz"},
		{`FILTERXML("<a><b></b></a>","//b")`, ""},
		{`FILTERXML("<a><b>1.5</b></a>","//b")+1`, "2.5"},
		{`FILTERXML("<a><b> 2 </b></a>","//b")`, " 2 "},
		{`FILTERXML("<a>&amp;</a>","//a")`, "&"},
		{`FILTERXML("<a>TRUE</a>","//a")`, "TRUE"},
		{`ISTEXT(FILTERXML("<a>TRUE</a>","//a"))`, "1"},
		{`FILTERXML("<a><b><c>1</c></b></a>","//b")`, "1"},
		{`FILTERXML(A1,"//d")`, "#VALUE!"},
		{`FILTERXML("<a>","//a")`, "#VALUE!"},
		{`FILTERXML(A1,"//[")`, "#VALUE!"},
		{`FILTERXML(5,"//b")`, "#VALUE!"},
		{`FILTERXML("<a>t</a>","")`, "#VALUE!"},
		{`FILTERXML("<!DOCTYPE a [<!ENTITY e 'hi'>]><a>&e;</a>","//a")`, "#VALUE!"},
		{`FILTERXML("<!DOCTYPE a SYSTEM ""http://example.com/a.dtd""><a>&e;</a>","//a")`, "#VALUE!"},
		{`FILTERXML(A2,"//a")`, "#VALUE!"},
		{`FILTERXML(A3,"//a")`, "q"},
		{`FILTERXML(1/0,"//a")`, "#DIV/0!"},
		{`FILTERXML(A1)`, uncomputed},
	})
}
