package excelops

import "strings"

// withFilePrefixes returns formula (without its "=") as a file must hold
// it: every call of a function newer than Excel 2007 spelled with its
// prefix (TEXTJOIN( -> _xlfn.TEXTJOIN(, FILTER( -> _xlfn._xlws.FILTER(), as
// Excel itself stores them; without it Excel and LibreOffice show #NAME?.
// Names already prefixed, text in double quotes and quoted sheet names are
// left as they are; function names are matched case-insensitively and
// written in upper case.
func withFilePrefixes(formula string) string {
	funcs := excelFunctions()
	var out strings.Builder
	n := len(formula)
	changed := false
	for i := 0; i < n; {
		c := formula[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < n {
				if formula[j] == c {
					if j+1 < n && formula[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, n)
			out.WriteString(formula[i:j])
			i = j
		case isNameChar(c):
			j := i
			for j < n && isNameChar(formula[j]) {
				j++
			}
			name := formula[i:j]
			if j < n && formula[j] == '(' {
				if prefix := funcs[strings.ToUpper(name)]; prefix != "" {
					out.WriteString(prefix)
					name = strings.ToUpper(name)
					changed = true
				}
			}
			out.WriteString(name)
			i = j
		default:
			out.WriteByte(c)
			i++
		}
	}
	if !changed {
		return formula
	}
	return out.String()
}

// isNameChar reports whether c can be part of a function name, a
// reference or a defined name (a prefixed name such as _xlfn.CONCAT reads
// as one run, so it is never prefixed twice).
func isNameChar(c byte) bool {
	return c == '_' || c == '.' || c == '$' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}
