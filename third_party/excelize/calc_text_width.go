// registry-sidecar additions (PATCHES.md): ASC and JIS, which turn
// full-width text to half-width and back as Excel does for double-byte
// locales, and PHONETIC, which reads the furigana stored with a cell's
// shared string. The width tables are golang.org/x/text/width's; a voiced
// katakana (ガ) has no single half-width rune, so ASC decomposes it first
// (golang.org/x/text/unicode/norm) and JIS composes it again.

package excelize

import (
	"container/list"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"
)

// Voiced and semi-voiced sound marks: combining (as NFD leaves them) and
// spacing (as text usually holds them alone).
const (
	combiningVoiced     = '\u3099'
	combiningSemiVoiced = '\u309A'
	spacingVoiced       = '\u309B'
	spacingSemiVoiced   = '\u309C'
	halfwidthVoiced     = '\uFF9E'
	halfwidthSemiVoiced = '\uFF9F'
)

// widthTextArg returns the one text argument of name (ASC, JIS) as a
// string, or the error to return.
func (fn *formulaFuncs) widthTextArg(name string, argsList *list.List) (string, formulaArg, bool) {
	if argsList.Len() != 1 {
		return "", newErrorFormulaArg(formulaErrorVALUE, name+" requires 1 argument"), false
	}
	arg, ok := scalarArg(argsList.Front().Value.(formulaArg))
	if !ok {
		return "", unsupportedArg(name + " with an array text"), false
	}
	if arg.Type == ArgError {
		return "", arg, false
	}
	s := arg.Value()
	// one rune becomes at most two (ガ → ｶﾞ) and one byte at most three
	// (A → Ａ): counted before the result is built
	if err := fn.guard().spend(float64(len(s))); err != nil {
		return "", stopArg(err), false
	}
	if err := fn.guard().charge(3 * float64(len(s))); err != nil {
		return "", stopArg(err), false
	}
	return s, arg, true
}

// ASC function changes full-width (double-byte) characters to half-width
// (single-byte) ones: Latin letters, digits, punctuation, the ideographic
// space and katakana. The syntax of the function is:
//
//	ASC(text)
func (fn *formulaFuncs) ASC(argsList *list.List) formulaArg {
	s, errArg, ok := fn.widthTextArg("ASC", argsList)
	if !ok {
		return errArg
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == spacingVoiced:
			b.WriteRune(halfwidthVoiced)
		case r == spacingSemiVoiced:
			b.WriteRune(halfwidthSemiVoiced)
		case unicode.In(r, unicode.Katakana):
			b.WriteString(width.Narrow.String(norm.NFD.String(string(r))))
		default:
			b.WriteString(width.Narrow.String(string(r)))
		}
	}
	return newStringFormulaArg(b.String())
}

// JIS function changes half-width (single-byte) characters to full-width
// (double-byte) ones, the reverse of ASC; a half-width katakana followed by
// a sound mark becomes the one voiced katakana. The syntax of the function
// is:
//
//	JIS(text)
func (fn *formulaFuncs) JIS(argsList *list.List) formulaArg {
	s, errArg, ok := fn.widthTextArg("JIS", argsList)
	if !ok {
		return errArg
	}
	runes := []rune(width.Widen.String(s))
	var b strings.Builder
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		if i+1 < len(runes) && isSoundMark(runes[i+1]) {
			if c := []rune(norm.NFC.String(string(runes[i : i+2]))); len(c) == 1 {
				b.WriteRune(c[0])
				i++
				continue
			}
		}
		switch r {
		case combiningVoiced:
			r = spacingVoiced
		case combiningSemiVoiced:
			r = spacingSemiVoiced
		}
		b.WriteRune(r)
	}
	return newStringFormulaArg(b.String())
}

// isSoundMark reports whether r is a combining voiced or semi-voiced mark.
func isSoundMark(r rune) bool {
	return r == combiningVoiced || r == combiningSemiVoiced
}

// PHONETIC function returns the phonetic (furigana) text of a cell: its
// shared string with each run that has a reading replaced by the reading,
// or the cell's text when it has none. For a range it reads the first
// cell. The syntax of the function is:
//
//	PHONETIC(reference)
func (fn *formulaFuncs) PHONETIC(argsList *list.List) formulaArg {
	if argsList.Len() != 1 {
		return newErrorFormulaArg(formulaErrorVALUE, "PHONETIC requires 1 argument")
	}
	arg := argsList.Front().Value.(formulaArg)
	sheet, cell, ok := fn.firstRefCell(arg)
	if !ok {
		if arg.Type == ArgError {
			return arg
		}
		// Excel refuses a value here; a function's reference (OFFSET,
		// INDEX of one cell by row and column) is a reference there and a
		// value in this calculator
		return unsupportedArg("PHONETIC with a reference computed by a function")
	}
	first := arg
	if arg.Type == ArgMatrix {
		if len(arg.Matrix) == 0 || len(arg.Matrix[0]) == 0 {
			return newStringFormulaArg("")
		}
		first = arg.Matrix[0][0]
	}
	if first.Type == ArgError {
		return first
	}
	if reading, ok := fn.f.phoneticText(sheet, cell); ok {
		return newStringFormulaArg(reading)
	}
	return newStringFormulaArg(first.Value())
}

// firstRefCell returns the sheet and name of the first cell arg refers to;
// ok is false when arg is not a reference.
func (fn *formulaFuncs) firstRefCell(arg formulaArg) (sheet, cell string, ok bool) {
	var ref cellRef
	switch {
	case arg.cellRanges != nil && arg.cellRanges.Len() > 0:
		ref = arg.cellRanges.Front().Value.(cellRange).From
	case arg.cellRefs != nil && arg.cellRefs.Len() > 0:
		ref = arg.cellRefs.Front().Value.(cellRef)
	default:
		return "", "", false
	}
	name, err := CoordinatesToCellName(ref.Col, ref.Row)
	if err != nil {
		return "", "", false
	}
	sheet = ref.Sheet
	if sheet == "" {
		sheet = fn.sheet
	}
	return sheet, name, true
}

// phoneticText returns the text of sheet!cell's shared string with its
// phonetic runs in place of the text they read; ok is false when the cell
// holds no shared string or the string has no phonetic run.
func (f *File) phoneticText(sheet, cell string) (string, bool) {
	idx := -1
	_, err := f.getCellStringFunc(sheet, cell, func(_ *xlsxWorksheet, c *xlsxC) (string, bool, error) {
		if c.T == "s" {
			if i, err := strconv.Atoi(strings.TrimSpace(c.V)); err == nil {
				idx = i
			}
		}
		return "", true, nil
	})
	if err != nil || idx < 0 {
		return "", false
	}
	if _, streamed := f.tempFiles.Load(defaultXMLPathSharedStrings); streamed {
		return "", false
	}
	sst, err := f.sharedStringsReader()
	if err != nil || sst == nil {
		return "", false
	}
	sst.mu.Lock()
	defer sst.mu.Unlock()
	if idx >= len(sst.SI) || len(sst.SI[idx].RPh) == 0 {
		return "", false
	}
	return withReadings(sst.SI[idx])
}

// withReadings replaces each span [sb, eb) of si's text (in characters)
// that a phonetic run reads with that run's text; ok is false for a run
// outside the text or overlapping the one before.
func withReadings(si xlsxSI) (string, bool) {
	base := []rune(si.String())
	var b strings.Builder
	at := 0
	for _, run := range si.RPh {
		if run == nil {
			continue
		}
		sb, eb := int(run.Sb), int(run.Eb)
		if sb < at || eb < sb || eb > len(base) {
			return "", false
		}
		b.WriteString(string(base[at:sb]))
		b.WriteString(run.T)
		at = eb
	}
	b.WriteString(string(base[at:]))
	return b.String(), true
}
