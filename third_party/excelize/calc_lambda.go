// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: Excel's LAMBDA (PATCHES.md, section N).
//
// The calculator evaluates every argument of a function before calling it,
// so a LAMBDA's body cannot be an ordinary argument. Before evaluation each
// LAMBDA(params..., body) in the formula's tokens is taken out and kept in
// the calculation's lambda table; a text token naming its entry takes its
// place, so MAP, REDUCE... receive it as a value. A call, inline
// (LAMBDA(x,x*2)(3)) or through a workbook defined name (DOUBLE(4)),
// becomes LAMBDA(entry, arguments...), which evaluates a copy of the body
// whose parameters name the argument values (a range token the reference
// parser looks up in the table). A LAMBDA inside the body is taken out
// only when the copy is made, so it sees the outer parameters' values.

package excelize

import (
	"errors"
	"reflect"
	"strconv"
	"strings"

	"github.com/xuri/efp"
)

const (
	// lambdaRefPrefix starts the text token that stands for a LAMBDA.
	lambdaRefPrefix = "\x00lambda:"
	// lambdaValuePrefix starts the range token that names a parameter's
	// value.
	lambdaValuePrefix = "\x00lambdavalue:"
	// maxLambdaDepth bounds LAMBDA calls nested in one another (a
	// recursive defined name): each level is a few Go stack frames.
	maxLambdaDepth = 64
	// maxLambdaParams is Excel's limit on a LAMBDA's parameters.
	maxLambdaParams = 253
)

// lambdaDef is one LAMBDA: its parameter names (lower case, optional ones
// written [name]) and its body's tokens.
type lambdaDef struct {
	params   []string
	optional []bool
	body     []efp.Token
}

// lambdaTable holds the LAMBDAs and parameter values of one calculation.
type lambdaTable struct {
	defs   []lambdaDef
	values []formulaArg
	named  map[string]int // defined names already read, to their entry
	depth  int
	// tooDeep says calls nested past maxLambdaDepth: the calculator
	// evaluates both branches of an IF, so a recursive LAMBDA never stops
	// by itself, and the formula is left uncomputed (calcCellValue).
	tooDeep bool
}

// errLambdaDepth is the error of a formula whose LAMBDA calls nest past
// maxLambdaDepth: not an Excel error, the formula is left uncomputed.
var errLambdaDepth = errors.New("LAMBDA calls nested more than 64 deep (a recursive LAMBDA): not supported")

// lambdaTooDeep reports whether ctx's LAMBDA calls nested too deep.
func (ctx *calcContext) lambdaTooDeep() bool {
	return ctx != nil && ctx.lambda != nil && ctx.lambda.tooDeep
}

// lambdas returns the lambda table of ctx, made on first use.
func (ctx *calcContext) lambdas() *lambdaTable {
	if ctx.lambda == nil {
		ctx.lambda = &lambdaTable{named: map[string]int{}}
	}
	return ctx.lambda
}

// boundValue returns the value a parameter's range token names.
func (ctx *calcContext) boundValue(reference string) (formulaArg, bool) {
	if ctx == nil || ctx.lambda == nil || !strings.HasPrefix(reference, lambdaValuePrefix) {
		return formulaArg{}, false
	}
	k, err := strconv.Atoi(strings.TrimPrefix(reference, lambdaValuePrefix))
	if err != nil || k < 0 || k >= len(ctx.lambda.values) {
		return formulaArg{}, false
	}
	return ctx.lambda.values[k], true
}

// lambdaOf returns the LAMBDA arg stands for, ok false when it is not one.
func (ctx *calcContext) lambdaOf(arg formulaArg) (lambdaDef, bool) {
	if ctx == nil || ctx.lambda == nil || arg.Type != ArgString || !strings.HasPrefix(arg.String, lambdaRefPrefix) {
		return lambdaDef{}, false
	}
	k, err := strconv.Atoi(strings.TrimPrefix(arg.String, lambdaRefPrefix))
	if err != nil || k < 0 || k >= len(ctx.lambda.defs) {
		return lambdaDef{}, false
	}
	return ctx.lambda.defs[k], true
}

// isLambdaValue reports whether arg is a LAMBDA not called: a cell whose
// formula ends with one shows #CALC!, as in Excel.
func isLambdaValue(arg formulaArg) bool {
	return arg.Type == ArgString && strings.HasPrefix(arg.String, lambdaRefPrefix)
}

// isNamedFunction reports whether token starts a call of the function name
// (the file's _xlfn. prefix dropped, any case).
func isNamedFunction(token efp.Token, name string) bool {
	return isFunctionStartToken(token) && strings.EqualFold(strings.TrimPrefix(strings.ToUpper(token.TValue), "_XLFN."), name)
}

// lambdaTokens returns the token starting LAMBDA(entry, ...) for entry k.
func lambdaTokens(k int) []efp.Token {
	return []efp.Token{
		{TValue: "LAMBDA", TType: efp.TokenTypeFunction, TSubType: efp.TokenSubTypeStart},
		{TValue: lambdaRefPrefix + strconv.Itoa(k), TType: efp.TokenTypeOperand, TSubType: efp.TokenSubTypeText},
	}
}

// splitArgs splits the tokens of a call's arguments from i, up to the
// stop token closing them, at separators of their own level (an argument
// separator, or in a parenthesis the union comma). It returns the
// arguments and the index after the stop token.
func splitArgs(tokens []efp.Token, i int) ([][]efp.Token, int, error) {
	args, cur, depth := [][]efp.Token{}, []efp.Token{}, 0
	for ; i < len(tokens); i++ {
		t := tokens[i]
		switch {
		case depth == 0 && closes(t):
			if len(args) > 0 || len(cur) > 0 {
				args = append(args, cur)
			}
			return args, i + 1, nil
		case depth == 0 && (t.TType == efp.TokenTypeArgument || (t.TType == efp.TokenTypeOperatorInfix && t.TSubType == efp.TokenSubTypeUnion)):
			args, cur = append(args, cur), []efp.Token{}
			continue
		case opens(t):
			depth++
		case closes(t):
			depth--
		}
		cur = append(cur, t)
	}
	return nil, 0, errors.New("LAMBDA is not closed")
}

// newLambdaDef reads a LAMBDA's arguments: names, then the body.
func newLambdaDef(args [][]efp.Token) (lambdaDef, error) {
	if len(args) == 0 || len(args)-1 > maxLambdaParams {
		return lambdaDef{}, errors.New("LAMBDA requires parameters and a calculation")
	}
	def := lambdaDef{body: args[len(args)-1]}
	for _, p := range args[:len(args)-1] {
		if len(p) != 1 {
			return lambdaDef{}, errors.New("LAMBDA requires a name as its parameter")
		}
		t, optional := p[0], false
		if strings.HasPrefix(t.TValue, "[") && strings.HasSuffix(t.TValue, "]") {
			t.TValue, optional = t.TValue[1:len(t.TValue)-1], true
		}
		name, ok := letName(t)
		if !ok {
			return lambdaDef{}, errors.New("LAMBDA requires a name as its parameter")
		}
		def.params, def.optional = append(def.params, name), append(def.optional, optional)
	}
	if len(def.body) == 0 {
		return lambdaDef{}, errors.New("LAMBDA requires a calculation")
	}
	return def, nil
}

// addLambda keeps def in the table, counted against the guard.
func (ctx *calcContext) addLambda(def lambdaDef) (int, error) {
	if err := ctx.checks().charge(float64(len(def.body)+len(def.params)) * float64(keptTokenBytes)); err != nil {
		return 0, err
	}
	t := ctx.lambdas()
	t.defs = append(t.defs, def)
	return len(t.defs) - 1, nil
}

// keptTokenBytes is what one kept token costs the guard.
const keptTokenBytes = 64

// bindLambdas returns tokens with every LAMBDA taken out into the table:
// one not called becomes the text token naming it, a call (inline, or of
// a defined name whose formula is a LAMBDA) a call of LAMBDA with it first.
func (f *File) bindLambdas(ctx *calcContext, sheet string, tokens []efp.Token) ([]efp.Token, error) {
	has := false
	for _, t := range tokens {
		if isFunctionStartToken(t) {
			has = true
			break
		}
	}
	if !has {
		return tokens, nil
	}
	tokens, err := f.bindEtas(ctx, sheet, tokens)
	if err != nil {
		return nil, err
	}
	out := make([]efp.Token, 0, len(tokens))
	for i := 0; i < len(tokens); {
		t := tokens[i]
		if isNamedFunction(t, "LAMBDA") {
			args, next, err := splitArgs(tokens, i+1)
			if err != nil {
				return nil, err
			}
			def, err := newLambdaDef(args)
			if err != nil {
				return nil, err
			}
			k, err := ctx.addLambda(def)
			if err != nil {
				return nil, err
			}
			call := lambdaTokens(k)
			if next >= len(tokens) || !isBeginParenthesesToken(tokens[next]) {
				out, i = append(out, call[1]), next
				continue
			}
			callArgs, after, err := splitArgs(tokens, next+1)
			if err != nil {
				return nil, err
			}
			out = append(out, call...)
			for _, a := range callArgs {
				if a, err = f.bindLambdas(ctx, sheet, a); err != nil {
					return nil, err
				}
				out = append(out, efp.Token{TValue: ",", TType: efp.TokenTypeArgument})
				out = append(out, a...)
			}
			out, i = append(out, efp.Token{TType: efp.TokenTypeFunction, TSubType: efp.TokenSubTypeStop}), after
			continue
		}
		if isFunctionStartToken(t) && !isFormulaFunction(t.TValue) {
			k, ok, err := f.namedLambda(ctx, sheet, t.TValue)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, lambdaTokens(k)...)
				if i+1 < len(tokens) && !isFunctionStopToken(tokens[i+1]) {
					out = append(out, efp.Token{TValue: ",", TType: efp.TokenTypeArgument})
				}
				i++
				continue
			}
		}
		out, i = append(out, t), i+1
	}
	return out, nil
}

// isFormulaFunction reports whether the calculator has a function name.
func isFormulaFunction(name string) bool {
	return reflect.ValueOf(&formulaFuncs{}).MethodByName(formulaFnNameReplacer.Replace(name)).IsValid()
}

// namedLambda returns the table entry of the LAMBDA a defined name visible
// from sheet refers to, ok false when name is no such name.
func (f *File) namedLambda(ctx *calcContext, sheet, name string) (int, bool, error) {
	key := sheet + "!" + strings.ToLower(name)
	if k, ok := ctx.lambdas().named[key]; ok {
		return k, true, nil
	}
	var refersTo string
	for _, dn := range f.GetDefinedName() {
		if strings.EqualFold(dn.Name, name) && (dn.Scope == sheet || (dn.Scope == "Workbook" && refersTo == "")) {
			refersTo = dn.RefersTo
		}
	}
	ps := efp.ExcelParser()
	tokens := ps.Parse(strings.TrimPrefix(refersTo, "="))
	if len(tokens) == 0 || !isNamedFunction(tokens[0], "LAMBDA") {
		return 0, false, nil
	}
	tokens, err := expandLet(ctx.checks(), tokens)
	if err != nil {
		return 0, false, err
	}
	args, next, err := splitArgs(tokens, 1)
	if err != nil || next != len(tokens) {
		return 0, false, nil // a LAMBDA called or combined: not a function
	}
	def, err := newLambdaDef(args)
	if err != nil {
		return 0, false, err
	}
	k, err := ctx.addLambda(def)
	if err == nil {
		ctx.lambdas().named[key] = k
	}
	return k, err == nil, err
}
