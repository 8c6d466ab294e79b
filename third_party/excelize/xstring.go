package excelize

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// registry-sidecar: text in a cell, a shared string or a rich text run is an
// ST_Xstring (ECMA-376 Part 1, 22.9.2.19): a character XML 1.0 cannot hold
// (a control character other than tab, newline and carriage return, U+FFFE,
// U+FFFF) is written _xHHHH_, and the underscore starting a text that reads
// as such an escape is itself escaped (_x005F_), as Excel writes them.
// Upstream's bstrMarshal escaped the underscore only, so encoding/xml wrote
// a control character as U+FFFD.

// EscapeXstring returns s in the form the file holds: every character XML
// cannot carry as _xHHHH_, and _x005F_ for the underscore of a text that
// reads as an escape (the literal text _x0041_ is _x005F_x0041_).
// UnescapeXstring undoes it.
func EscapeXstring(s string) string {
	if !strings.ContainsFunc(s, xstringEscaped) && !strings.Contains(s, "_x") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case xstringEscaped(r):
			fmt.Fprintf(&b, "_x%04X_", r)
		case r == '_' && xstringUnderscoreAt(s, i):
			b.WriteString("_x005F_")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// UnescapeXstring returns the text an ST_Xstring read from a file holds:
// each _xHHHH_, left to right, is the character it names.
func UnescapeXstring(s string) string { return bstrUnmarshal(s) }

// xstringEscaped reports whether r is written escaped in an ST_Xstring.
func xstringEscaped(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF
}

// xstringUnderscoreAt reports whether the underscore at byte i of s starts
// what a reader of the written text takes for an escape: _xHHHH followed by
// an underscore, or by a character written escaped (its escape supplies
// the closing underscore: "_x0041\x01" is written "_x005F_x0041_x0001_").
func xstringUnderscoreAt(s string, i int) bool {
	if i+7 > len(s) || s[i+1] != 'x' {
		return false
	}
	for _, c := range s[i+2 : i+6] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	next, _ := utf8.DecodeRuneInString(s[i+6:])
	return next == '_' || xstringEscaped(next)
}
