package sheetread

import (
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Text crosses the file boundary as an ST_Xstring (excelize.EscapeXstring
// and UnescapeXstring): written escaped on both save paths, read decoded by
// every reader of sheet XML (rows.go, internal/sharedstrings).

// ReadsAsEscape reports whether the text s holds a piece that reads as an
// _xHHHH_ escape, so the file holds it with its underscore escaped
// (_x005F_x0041_ for the text _x0041_). The splice path hands such a text
// to the excelize path: in an inline string openpyxl (3.1) reads that
// form as it is, in a shared string it reads the text.
func ReadsAsEscape(s string) bool {
	return strings.Contains(s, "_x") && strings.Contains(excelize.EscapeXstring(s), "_x005F_")
}
