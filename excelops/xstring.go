package excelops

import (
	"fmt"
	"strconv"
	"strings"
)

// A cached text (t="str") is an ST_Xstring (ECMA-376 Part 1, 22.9.2.19): a
// character XML 1.0 cannot hold (a control character other than tab,
// newline and carriage return, U+FFFE, U+FFFF) is written _xHHHH_, and the
// underscore starting a text that reads as such an escape is itself escaped
// (_x005F_), as Excel writes them. Without it UNICHAR(4)'s result was
// written as U+FFFD (encoding/xml) or dropped (the splice path).

// escapeXstring returns s as an ST_Xstring.
func escapeXstring(s string) string {
	if !strings.ContainsFunc(s, xstringEscaped) && !strings.Contains(s, "_x") {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case xstringEscaped(r):
			fmt.Fprintf(&b, "_x%04X_", r)
		case r == '_' && xstringEscapeAt(s, i):
			b.WriteString("_x005F_")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unescapeXstring returns the text an ST_Xstring holds.
func unescapeXstring(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if xstringEscapeAt(s, i) {
			n, _ := strconv.ParseUint(s[i+2:i+6], 16, 16)
			b.WriteRune(rune(n))
			i += 7
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// xstringEscaped reports whether r is written escaped in an ST_Xstring.
func xstringEscaped(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF
}

// xstringEscapeAt reports whether s holds an escape _xHHHH_ at byte i.
func xstringEscapeAt(s string, i int) bool {
	if i+7 > len(s) || s[i] != '_' || s[i+1] != 'x' || s[i+6] != '_' {
		return false
	}
	for _, c := range s[i+2 : i+6] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}
