package formulatext

import (
	"regexp"
	"strings"
)

// Spill references. Excel 365 writes a reference to the whole spill of a
// dynamic array as its anchor followed by "#" (C3#, Data!$C$3#) and stores
// it in the file as _xlfn.ANCHORARRAY(C3). write_cells takes the first
// form and stores the second; read_excel shows the first again.

// spillCell matches the cell part of a reference followed by "#".
var spillCell = regexp.MustCompile(`^\$?[A-Za-z]{1,3}\$?[0-9]{1,7}$`)

// anchorArrayCall matches ANCHORARRAY( with its optional file prefix.
var anchorArrayCall = regexp.MustCompile(`(?i)^(_xlfn\.)?ANCHORARRAY\(`)

// withAnchorArrays returns formula with every spill reference ref# written
// as _xlfn.ANCHORARRAY(ref), as a file holds it; text in double quotes and
// quoted sheet names are left as they are.
func withAnchorArrays(formula string) string {
	return rewriteSpillRefs(formula, func(ref string) string { return "_xlfn.ANCHORARRAY(" + ref + ")" })
}

// WithoutSpillMarks returns formula with the "#" of every spill reference
// removed (C3# -> C3): the checks of a formula's syntax read it so.
func WithoutSpillMarks(formula string) string {
	return rewriteSpillRefs(formula, func(ref string) string { return ref })
}

// rewriteSpillRefs returns formula with every spill reference ref# (its
// "#" included) replaced by fn(ref), outside text in double quotes and
// quoted sheet names.
func rewriteSpillRefs(formula string, fn func(ref string) string) string {
	if !strings.Contains(formula, "#") {
		return formula
	}
	var out strings.Builder
	last := 0
	for i := 0; i < len(formula); i++ {
		switch c := formula[i]; {
		case c == '"' || c == '\'':
			i = skipQuoted(formula, i, c)
		case c == '#':
			start, ok := spillRefStart(formula, i)
			if !ok {
				continue
			}
			out.WriteString(formula[last:start])
			out.WriteString(fn(formula[start:i]))
			last = i + 1
		}
	}
	if last == 0 {
		return formula
	}
	out.WriteString(formula[last:])
	return out.String()
}

// spillRefStart finds the reference ending right before the "#" at hash:
// a cell (C3, $C$3), with its sheet (Data!C3, 'Q1 Plan'!C3) when one is
// written; ok is false when none ends there (an error value such as #N/A).
func spillRefStart(formula string, hash int) (int, bool) {
	start := hash
	for start > 0 && (isASCIIAlnum(formula[start-1]) || formula[start-1] == '$') {
		start--
	}
	if !spillCell.MatchString(formula[start:hash]) {
		return 0, false
	}
	if start == 0 || formula[start-1] != '!' {
		if start > 0 && (formula[start-1] == '.' || formula[start-1] == '_') {
			return 0, false // part of a name
		}
		return start, true
	}
	s := start - 1 // the "!"
	if s > 0 && formula[s-1] == '\'' {
		q := strings.LastIndexByte(formula[:s-1], '\'')
		for q > 0 && formula[q-1] == '\'' { // '' inside a quoted name
			q = strings.LastIndexByte(formula[:q-1], '\'')
		}
		if q < 0 {
			return 0, false
		}
		return q, true
	}
	for s > 0 && (isASCIIAlnum(formula[s-1]) || formula[s-1] == '_' || formula[s-1] == '.' || formula[s-1] >= 0x80) {
		s--
	}
	if s == start-1 {
		return 0, false
	}
	return s, true
}

// withSpillRefs returns formula (file prefixes already dropped or not) with
// every ANCHORARRAY(ref) call of one reference written as ref#, as Excel
// shows it.
func withSpillRefs(formula string) string {
	lower := strings.ToLower(formula)
	if !strings.Contains(lower, "anchorarray(") {
		return formula
	}
	var out strings.Builder
	last := 0
	for i := 0; i < len(formula); i++ {
		if formula[i] == '"' {
			i = skipQuoted(formula, i, '"')
			continue
		}
		if i > 0 && (isASCIIAlnum(formula[i-1]) || formula[i-1] == '.' || formula[i-1] == '_') {
			continue
		}
		m := anchorArrayCall.FindStringIndex(formula[i:])
		if m == nil {
			continue
		}
		end := strings.IndexByte(formula[i+m[1]:], ')')
		if end < 0 {
			continue
		}
		arg := formula[i+m[1] : i+m[1]+end]
		if start, ok := spillRefStart(arg+"#", len(arg)); !ok || start != 0 {
			continue
		}
		out.WriteString(formula[last:i])
		out.WriteString(arg + "#")
		last = i + m[1] + end + 1
		i = last - 1
	}
	if last == 0 {
		return formula
	}
	out.WriteString(formula[last:])
	return out.String()
}

// skipQuoted returns the index of the quote closing the text that opens at
// i (a doubled quote is part of the text), or the last index.
func skipQuoted(s string, i int, q byte) int {
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j
		}
	}
	return len(s) - 1
}

// isASCIIAlnum reports whether c is an ASCII letter or digit.
func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
