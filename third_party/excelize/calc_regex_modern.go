// registry-sidecar additions: Excel's REGEXTEST, REGEXEXTRACT and
// REGEXREPLACE (PATCHES.md, section 10).
//
// Excel's regular expressions are PCRE2's; these use Go's regexp package,
// which is RE2: linear time, no backtracking, so no lookaround ((?=...),
// (?<=...)), no backreferences (\1), no possessive quantifiers or atomic
// groups, and \Z, \G and \K are unknown. A pattern RE2 cannot compile is
// #VALUE!, where Excel would compute a result. What both accept means the
// same with these exceptions: RE2's \s does not match \v, and its \b, \w and
// \d are ASCII-only, as PCRE2's are without the UCP option Excel does not
// document. A replacement names groups as PCRE2 does ($1, ${1}, ${name},
// $$ for a dollar sign; $1x is group 1 then "x", where Go would read a group
// named "1x").

package excelize

import (
	"container/list"
	"regexp"
	"strings"
)

// maxTextBytes is the most UTF-8 bytes a text within Excel's limit of
// TotalCellChars UTF-16 code units can have (3 per unit): a longer one is
// past the limit whatever it holds.
const maxTextBytes = 3 * TotalCellChars

// regexArgs returns the text and the compiled pattern of a REGEX function
// call (the pattern case-insensitive when the case_sensitivity argument at
// caseIdx is 1), or the error to return.
func regexArgs(name string, argsList *list.List, caseIdx int) (string, *regexp.Regexp, formulaArg) {
	var texts [2]string
	for i := range texts {
		arg, ok := scalarArg(argAt(argsList, i))
		if !ok {
			return "", nil, unsupportedArg(name + " with an array argument")
		}
		if arg.Type == ArgError {
			return "", nil, arg
		}
		texts[i] = arg.Value()
	}
	insensitive := false
	if argsList.Len() > caseIdx && argAt(argsList, caseIdx).Type != ArgEmpty {
		n, errArg, ok := intArg(argAt(argsList, caseIdx))
		if !ok {
			return "", nil, errArg
		}
		if n != 0 && n != 1 {
			return "", nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
		insensitive = n == 1
	}
	pattern := texts[1]
	if insensitive {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	return texts[0], re, newEmptyFormulaArg()
}

// REGEXTEST function checks whether any part of a text matches a regular
// expression. The syntax of the function is:
//
//	REGEXTEST(text,pattern,[case_sensitivity])
func (fn *formulaFuncs) REGEXTEST(argsList *list.List) formulaArg {
	if argsList.Len() < 2 || argsList.Len() > 3 {
		return newErrorFormulaArg(formulaErrorVALUE, "REGEXTEST requires 2 or 3 arguments")
	}
	text, re, errArg := regexArgs("REGEXTEST", argsList, 2)
	if re == nil {
		return errArg
	}
	if err := fn.guard().spend(float64(len(text))); err != nil {
		return stopArg(err)
	}
	return newBoolFormulaArg(re.MatchString(text))
}

// REGEXEXTRACT function returns the first part of a text a regular
// expression matches (return_mode 0, the default). Return modes 1 (every
// match) and 2 (the groups of the first match) give arrays, which this
// calculator does not compute. The syntax of the function is:
//
//	REGEXEXTRACT(text,pattern,[return_mode],[case_sensitivity])
func (fn *formulaFuncs) REGEXEXTRACT(argsList *list.List) formulaArg {
	if argsList.Len() < 2 || argsList.Len() > 4 {
		return newErrorFormulaArg(formulaErrorVALUE, "REGEXEXTRACT requires 2 to 4 arguments")
	}
	if argsList.Len() > 2 && argAt(argsList, 2).Type != ArgEmpty {
		mode, errArg, ok := intArg(argAt(argsList, 2))
		if !ok {
			return errArg
		}
		switch mode {
		case 0:
		case 1, 2:
			return unsupportedArg("REGEXEXTRACT return_mode 1 or 2 (an array)")
		default:
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
	}
	text, re, errArg := regexArgs("REGEXEXTRACT", argsList, 3)
	if re == nil {
		return errArg
	}
	if err := fn.guard().spend(float64(len(text))); err != nil {
		return stopArg(err)
	}
	loc := re.FindStringIndex(text)
	if loc == nil {
		return newErrorFormulaArg(formulaErrorNA, formulaErrorNA)
	}
	return newStringFormulaArg(text[loc[0]:loc[1]])
}

// REGEXREPLACE function replaces the parts of a text a regular expression
// matches: all of them (occurrence 0, the default), the n-th one, or the
// n-th from the end for a negative n. The syntax of the function is:
//
//	REGEXREPLACE(text,pattern,replacement,[occurrence],[case_sensitivity])
func (fn *formulaFuncs) REGEXREPLACE(argsList *list.List) formulaArg {
	if argsList.Len() < 3 || argsList.Len() > 5 {
		return newErrorFormulaArg(formulaErrorVALUE, "REGEXREPLACE requires 3 to 5 arguments")
	}
	repl, ok := scalarArg(argAt(argsList, 2))
	if !ok {
		return unsupportedArg("REGEXREPLACE with an array argument")
	}
	if repl.Type == ArgError {
		return repl
	}
	occurrence := 0.0
	if argsList.Len() > 3 && argAt(argsList, 3).Type != ArgEmpty {
		n, errArg, ok := intArg(argAt(argsList, 3))
		if !ok {
			return errArg
		}
		occurrence = n
	}
	text, re, errArg := regexArgs("REGEXREPLACE", argsList, 4)
	if re == nil {
		return errArg
	}
	g := fn.guard()
	if err := g.spend(float64(len(text))); err != nil {
		return stopArg(err)
	}
	matches := re.FindAllStringSubmatchIndex(text, -1)
	if err := g.charge(float64(len(matches)) * float64(2*re.NumSubexp()+2) * 8); err != nil {
		return stopArg(err)
	}
	pick := -1 // every match
	if occurrence > 0 {
		pick = int(min(occurrence, float64(len(matches)+1))) - 1
	} else if occurrence < 0 {
		pick = len(matches) + int(max(occurrence, -float64(len(matches)+1)))
	}
	if occurrence != 0 && (pick < 0 || pick >= len(matches)) {
		return newStringFormulaArg(text) // no such occurrence: unchanged
	}
	var b strings.Builder
	last := 0
	for i, m := range matches {
		if pick >= 0 && i != pick {
			continue
		}
		b.WriteString(text[last:m[0]])
		if !expandReplacement(&b, repl.Value(), re, text, m) {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
		if b.Len() > maxTextBytes {
			return textLimitArg()
		}
		last = m[1]
	}
	b.WriteString(text[last:])
	return newStringFormulaArg(b.String())
}

// expandReplacement appends repl to b with PCRE2's substitutions: $n and
// ${n} the n-th group, ${name} and $name a named one, $$ a dollar sign. A
// group the pattern does not have, or a lone $, is false (PCRE2 refuses
// them), and so is a text grown past Excel's limit.
func expandReplacement(b *strings.Builder, repl string, re *regexp.Regexp, text string, m []int) bool {
	group := func(i int) bool {
		if i < 0 || i > re.NumSubexp() {
			return false
		}
		if m[2*i] >= 0 {
			b.WriteString(text[m[2*i]:m[2*i+1]])
		}
		return b.Len() <= maxTextBytes
	}
	named := func(name string) bool {
		if name == "" {
			return false
		}
		if name[0] >= '0' && name[0] <= '9' {
			n := 0
			for _, c := range name {
				if c < '0' || c > '9' || n > 1000 {
					return false
				}
				n = n*10 + int(c-'0')
			}
			return group(n)
		}
		return group(re.SubexpIndex(name))
	}
	isWord := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '$' {
			b.WriteByte(c)
			continue
		}
		i++
		switch {
		case i >= len(repl):
			return false
		case repl[i] == '$':
			b.WriteByte('$')
		case repl[i] == '{':
			end := strings.IndexByte(repl[i:], '}')
			if end < 0 || !named(repl[i+1:i+end]) {
				return false
			}
			i += end
		case repl[i] >= '0' && repl[i] <= '9':
			j := i
			for j < len(repl) && repl[j] >= '0' && repl[j] <= '9' {
				j++
			}
			if !named(repl[i:j]) {
				return false
			}
			i = j - 1
		case isWord(repl[i]):
			j := i
			for j < len(repl) && isWord(repl[j]) {
				j++
			}
			if !named(repl[i:j]) {
				return false
			}
			i = j - 1
		default:
			return false
		}
	}
	return true
}
