// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: Excel's eta-reduced LAMBDA (PATCHES.md,
// section N). A function named without a call, as in GROUPBY(A2:A9,
// B2:B9,SUM), stands for LAMBDA(x,SUM(x)); the file spells it _xleta.SUM.
// bindLambdas keeps it in the lambda table like a LAMBDA written out.

package excelize

import (
	"strings"

	"github.com/xuri/efp"
)

// etaPrefix is the file prefix of a function named as a LAMBDA.
const etaPrefix = "_xleta."

// etaParams are the parameter names of an eta LAMBDA: its body is one
// call, so no name of the formula can reach them.
var etaParams = [...]string{"_eta_a", "_eta_b"}

// etaArity is the number of arguments an eta LAMBDA of name takes: two for
// PERCENTOF (the subset and all the data), one for every other function.
func etaArity(name string) int {
	if name == "PERCENTOF" {
		return 2
	}
	return 1
}

// etaName returns the function token names when it stands for an eta
// LAMBDA: spelled with the _xleta. prefix, or a bare name the calculator
// has as a function that is neither a cell reference nor a defined name
// visible from sheet.
func (f *File) etaName(sheet string, token efp.Token) (string, bool) {
	if token.TType != efp.TokenTypeOperand || token.TSubType != efp.TokenSubTypeRange {
		return "", false
	}
	name, prefixed := strings.ToUpper(token.TValue), false
	if strings.HasPrefix(name, strings.ToUpper(etaPrefix)) {
		name, prefixed = name[len(etaPrefix):], true
	}
	name = strings.TrimPrefix(strings.TrimPrefix(name, "_XLFN."), "_XLWS.")
	if name == "" || strings.ContainsAny(name, "!:$'[]") || !isFormulaFunction(name) {
		return "", false
	}
	if prefixed {
		return name, true
	}
	if _, _, err := CellNameToCoordinates(name); err == nil {
		return "", false // LOG10 is a cell before it is a function
	}
	for _, dn := range f.GetDefinedName() {
		if strings.EqualFold(dn.Name, name) && (dn.Scope == sheet || dn.Scope == "Workbook") {
			return "", false
		}
	}
	return name, true
}

// etaLambda returns the LAMBDA an eta-reduced function name stands for.
func etaLambda(name string) lambdaDef {
	n := etaArity(name)
	def := lambdaDef{params: etaParams[:n], optional: make([]bool, n)}
	def.body = append(def.body, efp.Token{TValue: name, TType: efp.TokenTypeFunction, TSubType: efp.TokenSubTypeStart})
	for i, p := range def.params {
		if i > 0 {
			def.body = append(def.body, efp.Token{TValue: ",", TType: efp.TokenTypeArgument})
		}
		def.body = append(def.body, efp.Token{TValue: p, TType: efp.TokenTypeOperand, TSubType: efp.TokenSubTypeRange})
	}
	def.body = append(def.body, efp.Token{TType: efp.TokenTypeFunction, TSubType: efp.TokenSubTypeStop})
	return def
}

// takesLambda reports whether the function name (upper case, without file
// prefixes) takes a LAMBDA as an argument, so a bare function name given
// to it is an eta LAMBDA.
func takesLambda(name string) bool {
	switch name {
	case "GROUPBY", "PIVOTBY", "MAP", "REDUCE", "SCAN", "BYROW", "BYCOL", "MAKEARRAY":
		return true
	}
	return false
}

// bindEtas returns tokens with each whole argument of a function taking a
// LAMBDA that names a function (SUM in GROUPBY(A2:A9,B2:B9,SUM)) replaced
// by the text token of its eta LAMBDA, kept in the table.
func (f *File) bindEtas(ctx *calcContext, sheet string, tokens []efp.Token) ([]efp.Token, error) {
	var calls []string
	var out []efp.Token
	for i, t := range tokens {
		switch {
		case opens(t):
			calls = append(calls, strings.ToUpper(strings.TrimPrefix(strings.TrimPrefix(strings.ToUpper(t.TValue), "_XLFN."), "_XLWS.")))
		case closes(t) && len(calls) > 0:
			calls = calls[:len(calls)-1]
		case len(calls) > 0 && takesLambda(calls[len(calls)-1]) && wholeArgument(tokens, i):
			if name, ok := f.etaName(sheet, t); ok {
				k, err := ctx.addLambda(etaLambda(name))
				if err != nil {
					return nil, err
				}
				if out == nil {
					out = append(make([]efp.Token, 0, len(tokens)), tokens[:i]...)
				}
				out = append(out, lambdaTokens(k)[1])
				continue
			}
		}
		if out != nil {
			out = append(out, t)
		}
	}
	if out == nil {
		return tokens, nil
	}
	return out, nil
}

// wholeArgument reports whether tokens[i] is a whole argument of the call
// it is in: a separator or the call's start before it, a separator or the
// call's end after it.
func wholeArgument(tokens []efp.Token, i int) bool {
	if i == 0 || i+1 >= len(tokens) {
		return false
	}
	prev, next := tokens[i-1], tokens[i+1]
	return (prev.TType == efp.TokenTypeArgument || isFunctionStartToken(prev)) &&
		(next.TType == efp.TokenTypeArgument || isFunctionStopToken(next))
}
