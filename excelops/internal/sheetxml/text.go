package sheetxml

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrReference reports an entity or character reference that XML does not
// define: an unknown entity (&nbsp;), a malformed or cut-off reference, or
// a character number past U+10FFFF.
var ErrReference = errors.New("sheetxml: invalid reference in text")

// ErrChar reports text that is not UTF-8 or holds a character XML 1.0 does
// not allow (a control character, U+FFFE, U+FFFF), raw or as a reference.
var ErrChar = errors.New("sheetxml: text holds a character XML does not allow")

// ErrCDATAClose reports "]]>" in text outside a CDATA section.
var ErrCDATAClose = errors.New(`sheetxml: "]]>" in text outside a CDATA section`)

// refState says how far a TextDecoder is into a reference.
type refState uint8

// The states of a reference.
const (
	refNone refState = iota // not in a reference
	refAmp                  // after '&'
	refName                 // in an entity name
	refHash                 // after "&#"
	refX                    // after "&#x"
	refDec                  // in decimal digits
	refHex                  // in hexadecimal digits
)

// maxEcho is how many bytes of a bad reference an error message quotes.
const maxEcho = 24

// TextDecoder decodes XML character data (the raw text between two tags)
// as a strict encoding/xml Decoder does: the five predefined entities
// (&lt; &gt; &amp; &apos; &quot;) and character references (&#65; &#x41;;
// a surrogate's number gives U+FFFD, as Go's string(rune(n))) are
// replaced, "\r\n" and a lone "\r" become "\n" (a reference &#13; stays
// "\r"), and anything else after '&' is ErrReference; "]]>" is
// ErrCDATAClose. It does not check characters: run CheckChars on what a
// whole run decoded to. A run may come in pieces (Append each), a
// reference or "\r\n" split between them included; Finish ends the run.
// The zero value is ready to use.
type TextDecoder struct {
	st     refState
	n      uint32 // the number of a character reference so far (capped past MaxRune)
	echo   [maxEcho]byte
	nEcho  int
	b0, b1 byte // the last two bytes outside references, 0 after one (as encoding/xml)
}

// Append appends the decoded form of raw, a piece of a text run, to dst.
// On error dst holds what was decoded before the fault.
func (d *TextDecoder) Append(dst, raw []byte) ([]byte, error) {
	for i := 0; i < len(raw); {
		if d.st != refNone {
			var err error
			if dst, err = d.refByte(dst, raw[i]); err != nil {
				return dst, err
			}
			i++
			continue
		}
		if d.b1 == '\r' && raw[i] == '\n' { // the "\n" of "\r\n": already written
			d.b0, d.b1 = '\r', '\n'
			i++
			continue
		}
		j := i
		for j < len(raw) && raw[j] != '&' && raw[j] != '\r' && raw[j] != '>' {
			j++
		}
		if j > i {
			dst = append(dst, raw[i:j]...)
			if j-i >= 2 {
				d.b0, d.b1 = raw[j-2], raw[j-1]
			} else {
				d.b0, d.b1 = d.b1, raw[i]
			}
			i = j
			continue
		}
		switch c := raw[i]; c {
		case '&':
			d.st, d.n, d.nEcho = refAmp, 0, 0
			d.record(c)
		case '\r':
			dst = append(dst, '\n')
			d.b0, d.b1 = d.b1, c
		case '>':
			if d.b0 == ']' && d.b1 == ']' {
				return dst, ErrCDATAClose
			}
			dst = append(dst, c)
			d.b0, d.b1 = d.b1, c
		}
		i++
	}
	return dst, nil
}

// Finish ends a text run: ErrReference when it ended inside a reference.
// The decoder is ready for the next run.
func (d *TextDecoder) Finish() error {
	var err error
	if d.st != refNone {
		err = fmt.Errorf("%w: %q is cut off", ErrReference, d.echo[:d.nEcho])
	}
	*d = TextDecoder{}
	return err
}

// record keeps c for the message of a bad reference.
func (d *TextDecoder) record(c byte) {
	if d.nEcho < maxEcho {
		d.echo[d.nEcho] = c
		d.nEcho++
	}
}

// refByte takes the next byte c of a reference.
func (d *TextDecoder) refByte(dst []byte, c byte) ([]byte, error) {
	d.record(c)
	switch {
	case d.st == refAmp && c == '#':
		d.st = refHash
	case d.st == refHash && c == 'x':
		d.st = refX
	case d.st == refHash || d.st == refDec:
		if c >= '0' && c <= '9' {
			d.st, d.n = refDec, digit(d.n, 10, uint32(c-'0'))
			return dst, nil
		}
		return d.endNumber(dst, c)
	case d.st == refX || d.st == refHex:
		if v, ok := hexDigit(c); ok {
			d.st, d.n = refHex, digit(d.n, 16, v)
			return dst, nil
		}
		return d.endNumber(dst, c)
	case d.st == refAmp || d.st == refName:
		if c >= utf8.RuneSelf || isNameByte(c) {
			if d.st = refName; d.nEcho > len("&quot") { // longer than any entity XML defines
				return dst, d.bad()
			}
			return dst, nil
		}
		if c != ';' || d.st == refAmp {
			return dst, d.bad()
		}
		var r byte
		switch string(d.echo[1 : d.nEcho-1]) {
		case "lt":
			r = '<'
		case "gt":
			r = '>'
		case "amp":
			r = '&'
		case "apos":
			r = '\''
		case "quot":
			r = '"'
		default:
			return dst, d.bad()
		}
		d.st, d.b0, d.b1 = refNone, 0, 0
		return append(dst, r), nil
	}
	return dst, nil
}

// endNumber ends a character reference at c, which must be ';' after at
// least one digit.
func (d *TextDecoder) endNumber(dst []byte, c byte) ([]byte, error) {
	if c != ';' || (d.st != refDec && d.st != refHex) || d.n > utf8.MaxRune {
		return dst, d.bad()
	}
	d.st, d.b0, d.b1 = refNone, 0, 0
	return utf8.AppendRune(dst, rune(d.n)), nil
}

// bad is the error for the reference read so far.
func (d *TextDecoder) bad() error {
	return fmt.Errorf("%w: %q", ErrReference, d.echo[:d.nEcho])
}

// digit appends digit v to n in base, capping n just past MaxRune.
func digit(n, base, v uint32) uint32 {
	if n > utf8.MaxRune {
		return n
	}
	return min(n*base+v, utf8.MaxRune+1)
}

// hexDigit returns the value of hexadecimal digit c.
func hexDigit(c byte) (uint32, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint32(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint32(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint32(c-'A') + 10, true
	}
	return 0, false
}

// isNameByte reports an ASCII byte that can be part of an XML name.
func isNameByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
		c == '_' || c == ':' || c == '.' || c == '-'
}

// AppendCDATA appends the content of a CDATA section (the bytes between
// "<![CDATA[" and "]]>") to dst, as encoding/xml gives it: verbatim but for
// line ends ("\r\n" and a lone "\r" become "\n"). Check it with CheckChars.
func AppendCDATA(dst, content []byte) []byte {
	for i := 0; i < len(content); i++ {
		switch c := content[i]; {
		case c != '\r':
			dst = append(dst, c)
		case i+1 < len(content) && content[i+1] == '\n':
		default:
			dst = append(dst, '\n')
		}
	}
	return dst
}

// CheckChars reports ErrChar when b, decoded text, is not UTF-8 or holds a
// character outside XML 1.0's Char production (as encoding/xml checks each
// piece of character data it returns).
func CheckChars(b []byte) error {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return fmt.Errorf("%w: U+%04X", ErrChar, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return fmt.Errorf("%w: invalid UTF-8", ErrChar)
		}
		if r == 0xFFFE || r == 0xFFFF {
			return fmt.Errorf("%w: %U", ErrChar, r)
		}
		i += size
	}
	return nil
}
