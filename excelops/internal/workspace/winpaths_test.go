package workspace

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWindowsPathProblem: the Windows-only path rules, checked on the text
// (they run on every system here; only Windows applies them).
func TestWindowsPathProblem(t *testing.T) {
	for _, p := range []string{
		"book.xlsx", "sub/book.xlsx", "./sub//book.xlsx", "C:/ws/book.xlsx", "c:/ws/sub/book.xlsx",
		"console.xlsx", "COM10.xlsx", "nul_report.xlsx", "LPT0.xlsx", "a.b.c.xlsx", "表.xlsx", "sub/./book.xlsx",
	} {
		assert.Empty(t, windowsPathProblem(p), p)
	}
	for p, want := range map[string]string{
		"//server/share/book.xlsx": "UNC",
		"//?/C:/ws/book.xlsx":      "UNC",
		"//./pipe/x":               "UNC",
		"/ws/book.xlsx":            "root of the current drive",
		"C:book.xlsx":              "drive's current folder",
		"C:":                       "drive's current folder",
		"book.xlsx:hidden":         "alternate data stream",
		"C:/ws/book.xlsx:$DATA":    "alternate data stream",
		"sub:x/book.xlsx":          "alternate data stream",
		"NUL":                      "device (NUL)",
		"nul.xlsx":                 "device (NUL)",
		"sub/con.xlsx":             "device (CON)",
		"Aux .xlsx":                "device (AUX)",
		"COM1.xlsx":                "device (COM1)",
		"lpt9":                     "device (LPT9)",
		"COM\u00b9.xlsx":           "device",
		"CONIN$":                   "device (CONIN$)",
		"conout$.xlsx":             "device (CONOUT$)",
		"book.xlsx.":               "dot or a space",
		"book.xlsx ":               "dot or a space",
		"sub./book.xlsx":           "dot or a space",
		"what?.xlsx":               "character",
		"a*.xlsx":                  "character",
		"a<b>.xlsx":                "character",
		"a|b.xlsx":                 "character",
		"quote\".xlsx":             "character",
		"tab\there.xlsx":           "character",
	} {
		assert.Contains(t, windowsPathProblem(p), want, p)
	}
}
