// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition (PATCHES.md, section N): TEXTSPLIT, the Excel
// 365 function that splits a text into an array of texts. Its scan is
// counted and its result charged to the guard before either happens.

package excelize

import (
	"container/list"
	"slices"
	"strings"
)

// splitDelimiters returns argument i of argsList as TEXTSPLIT's
// delimiters: none when absent or empty, each value of an array as text.
// An empty delimiter is refused as unsupported (what Excel does with one
// is not documented).
func (fn *formulaFuncs) splitDelimiters(argsList *list.List, i int) ([]string, formulaArg, bool) {
	if argsList.Len() <= i || argAt(argsList, i).Type == ArgEmpty {
		return nil, formulaArg{}, true
	}
	var out []string
	for _, v := range argAt(argsList, i).ToList() {
		if v.Type == ArgError {
			return nil, v, false
		}
		if v.Value() == "" {
			return nil, fn.unsupported("TEXTSPLIT with an empty delimiter"), false
		}
		out = append(out, v.Value())
	}
	return out, formulaArg{}, true
}

// delimiterAt returns the length of the delimiter of delims found at the
// start of s (0 for none), ignoring case when fold is set; none begins
// another (overlapping), so at most one matches.
func delimiterAt(s string, delims []string, fold bool) int {
	best := 0
	for _, d := range delims {
		if len(d) <= best || len(d) > len(s) {
			continue
		}
		if s[:len(d)] == d || fold && strings.EqualFold(s[:len(d)], d) {
			best = len(d)
		}
	}
	return best
}

// splitText cuts text at every column delimiter (a new value) and row
// delimiter (a new row); ignoreEmpty drops empty values, and rows left
// with none.
func splitText(text string, cols, rows []string, fold, ignoreEmpty bool) [][]string {
	var out [][]string
	var row []string
	start := 0
	endRow := func(piece string, last bool) {
		if !ignoreEmpty || piece != "" {
			row = append(row, piece)
		}
		if last {
			if !ignoreEmpty || len(row) > 0 {
				out = append(out, row)
			}
			row = nil
		}
	}
	for i := 0; i < len(text); {
		c, r := delimiterAt(text[i:], cols, fold), delimiterAt(text[i:], rows, fold)
		switch {
		case c == 0 && r == 0:
			i++
			continue
		case c >= r:
			endRow(text[start:i], false)
			i += c
		default:
			endRow(text[start:i], true)
			i += r
		}
		start = i
	}
	endRow(text[start:], true)
	return out
}

// boolArgAt returns the optional logical argument i of argsList: def when
// it is absent or empty, the error to return for text or an array.
func boolArgAt(argsList *list.List, i int, def bool) (bool, formulaArg, bool) {
	if argsList.Len() <= i || argAt(argsList, i).Type == ArgEmpty {
		return def, formulaArg{}, true
	}
	b, ok := scalarArg(argAt(argsList, i))
	if !ok {
		return false, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	if b.Type == ArgError {
		return false, b, false
	}
	if b = b.ToBool(); b.Type == ArgError {
		return false, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	return b.Number != 0, formulaArg{}, true
}

// overlapping reports whether a delimiter begins another one, ignoring
// case (or is the same): which one Excel cuts at is not documented.
func overlapping(delims []string) bool {
	for i, a := range delims {
		for j, b := range delims {
			if i != j && len(a) <= len(b) && strings.EqualFold(a, b[:len(a)]) {
				return true
			}
		}
	}
	return false
}

// TEXTSPLIT function splits a text into columns at col_delimiter and into
// rows at row_delimiter (each a text or an array of texts), padding short
// rows with pad_with (default #N/A). The syntax of the function is:
//
//	TEXTSPLIT(text,col_delimiter,[row_delimiter],[ignore_empty],[match_mode],[pad_with])
func (fn *formulaFuncs) TEXTSPLIT(argsList *list.List) formulaArg {
	if argsList.Len() < 2 || argsList.Len() > 6 {
		return newErrorFormulaArg(formulaErrorVALUE, "TEXTSPLIT requires 2 to 6 arguments")
	}
	arg, ok := scalarArg(argAt(argsList, 0))
	if !ok {
		return fn.unsupported("TEXTSPLIT of an array of texts")
	}
	if arg.Type == ArgError {
		return arg
	}
	text := arg.Value()
	if text == "" {
		return fn.unsupported("TEXTSPLIT of an empty text")
	}
	cols, errArg, ok := fn.splitDelimiters(argsList, 1)
	if !ok {
		return errArg
	}
	rows, errArg, ok := fn.splitDelimiters(argsList, 2)
	if !ok {
		return errArg
	}
	if len(cols) == 0 && len(rows) == 0 {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	all := append(slices.Clone(cols), rows...)
	if err := fn.guard().spend(float64(len(all)) * float64(len(all))); err != nil {
		return stopArg(err)
	}
	if overlapping(all) {
		return fn.unsupported("TEXTSPLIT with a delimiter that begins another")
	}
	ignoreEmpty, errArg, ok := boolArgAt(argsList, 3, false)
	if !ok {
		return errArg
	}
	mode, errArg, ok := countArg(argsList, 4, 0)
	if !ok {
		return errArg
	}
	if mode != 0 && mode != 1 {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	pad := naArg()
	if argsList.Len() == 6 && argAt(argsList, 5).Type != ArgEmpty {
		p, ok := scalarArg(argAt(argsList, 5))
		if !ok {
			return fn.unsupported("TEXTSPLIT with an array pad_with")
		}
		pad = p
	}
	if err := fn.guard().spend(float64(len(text)) * float64(len(cols)+len(rows))); err != nil {
		return stopArg(err)
	}
	if err := fn.guard().charge(float64(len(text))); err != nil {
		return stopArg(err)
	}
	pieces := splitText(text, cols, rows, mode == 1, ignoreEmpty)
	if len(pieces) == 0 {
		return fn.unsupported("TEXTSPLIT leaving no value")
	}
	width := 0
	for _, row := range pieces {
		width = max(width, len(row))
	}
	out, errArg, ok := fn.newArray(float64(len(pieces)), float64(width))
	if !ok {
		return errArg
	}
	for r, row := range pieces {
		for c := range out[r] {
			if c < len(row) {
				out[r][c] = newStringFormulaArg(row[c])
			} else {
				out[r][c] = pad
			}
		}
	}
	return newMatrixFormulaArg(out)
}
