package sheetxml

import (
	"bytes"
	"html"
)

// AttrValue returns the raw value of attribute key in an attribute
// section, or nil. Both quote styles are accepted; key must match the
// attribute's name exactly (a prefixed "x:r" does not match "r").
func AttrValue(attrs []byte, key string) []byte {
	for i := 0; i < len(attrs); {
		for i < len(attrs) && (isSpace(attrs[i]) || attrs[i] == '/') {
			i++
		}
		start := i
		for i < len(attrs) && attrs[i] != '=' && !isSpace(attrs[i]) {
			i++
		}
		name := attrs[start:i]
		for i < len(attrs) && isSpace(attrs[i]) {
			i++
		}
		if i >= len(attrs) || attrs[i] != '=' {
			if i == start {
				i++
			}
			continue
		}
		i++
		for i < len(attrs) && isSpace(attrs[i]) {
			i++
		}
		if i >= len(attrs) || (attrs[i] != '"' && attrs[i] != '\'') {
			return nil
		}
		q := attrs[i]
		i++
		end := bytes.IndexByte(attrs[i:], q)
		if end < 0 {
			return nil
		}
		if string(name) == key {
			return attrs[i : i+end]
		}
		i += end + 1
	}
	return nil
}

// AttrInt returns attribute key as a non-negative decimal int, 0 when it is
// absent or not a plain number; values past 1<<30 are clamped there.
func AttrInt(attrs []byte, key string) int { return Uint(AttrValue(attrs, key)) }

// Uint parses plain decimal digits, 0 when b holds anything else; values
// past 1<<30 are clamped there.
func Uint(b []byte) int {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
		if n > 1<<30 {
			return 1 << 30
		}
	}
	return n
}

// SplitRef splits a cell reference like "AB12" (also "$AB$12") into its
// column and row numbers; a part that is missing or not a number is 0.
// Values are clamped (column 1<<20, row 1<<30) so hostile input cannot
// overflow.
func SplitRef(ref []byte) (col, row int) {
	i := 0
	for ; i < len(ref); i++ {
		c := ref[i]
		switch {
		case c >= 'A' && c <= 'Z':
			col = col*26 + int(c-'A'+1)
		case c >= 'a' && c <= 'z':
			col = col*26 + int(c-'a'+1)
		case c == '$':
			continue
		default:
			return col, Uint(bytes.TrimPrefix(ref[i:], []byte("$")))
		}
		if col > 1<<20 {
			col = 1 << 20
		}
	}
	return col, 0
}

// Unescape decodes the entities of raw XML text or an attribute value;
// text without '&' is returned as is. It is HTML's decoding
// (html.UnescapeString: &nbsp; is known, &#128; is Windows-1252's euro
// sign), not XML's: TextDecoder is.
func Unescape(raw []byte) []byte {
	if bytes.IndexByte(raw, '&') < 0 {
		return raw
	}
	return []byte(html.UnescapeString(string(raw)))
}

// AppendEscaped appends s escaped for XML text and attribute values
// (&, <, >, " and control characters XML 1.0 cannot carry dropped).
func AppendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '&':
			dst = append(dst, "&amp;"...)
		case '<':
			dst = append(dst, "&lt;"...)
		case '>':
			dst = append(dst, "&gt;"...)
		case '"':
			dst = append(dst, "&quot;"...)
		case '\t', '\n', '\r':
			dst = append(dst, c)
		default:
			if c < 0x20 {
				continue // not allowed in XML 1.0
			}
			dst = append(dst, c)
		}
	}
	return dst
}
