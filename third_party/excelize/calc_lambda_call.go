// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: calling a LAMBDA (PATCHES.md, section N):
// its body evaluated with its parameters bound to values, and the LAMBDA
// and ISOMITTED functions.

package excelize

import (
	"container/list"
	"strconv"

	"github.com/xuri/efp"
)

// omittedArg is the value of an argument left out of a call (two
// separators with nothing between): empty, and no reference.
func omittedArg() formulaArg {
	return newEmptyFormulaArg()
}

// isOmitted reports whether arg is an argument left out of a call.
func isOmitted(arg formulaArg) bool {
	return arg.Type == ArgEmpty && arg.cellRefs == nil && arg.cellRanges == nil
}

// paramToken is the range token that names value k of the table.
func paramToken(k int) efp.Token {
	return efp.Token{TValue: lambdaValuePrefix + strconv.Itoa(k), TType: efp.TokenTypeOperand, TSubType: efp.TokenSubTypeRange}
}

// logicalToken is the token of TRUE or FALSE.
func logicalToken(b bool) efp.Token {
	v := "FALSE"
	if b {
		v = "TRUE"
	}
	return efp.Token{TValue: v, TType: efp.TokenTypeOperand, TSubType: efp.TokenSubTypeLogical}
}

// boundParam is what a parameter name is replaced by in a body.
type boundParam struct {
	token   efp.Token
	omitted bool
}

// substituteParams returns tokens with each use of a bound name replaced
// by its value token and ISOMITTED(name) by TRUE or FALSE. A LAMBDA inside
// that names a parameter the same shadows it in its own body.
func substituteParams(tokens []efp.Token, binds map[string]boundParam) ([]efp.Token, error) {
	out := make([]efp.Token, 0, len(tokens))
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		if isNamedFunction(t, "ISOMITTED") && i+2 < len(tokens) && isFunctionStopToken(tokens[i+2]) {
			if n, ok := letName(tokens[i+1]); ok {
				if b, bound := binds[n]; bound {
					out, i = append(out, logicalToken(b.omitted)), i+2
					continue
				}
			}
		}
		if isNamedFunction(t, "LAMBDA") {
			args, next, err := splitArgs(tokens, i+1)
			if err != nil {
				return nil, err
			}
			def, err := newLambdaDef(args)
			if err != nil {
				return nil, err
			}
			inner := make(map[string]boundParam, len(binds))
			for n, b := range binds {
				inner[n] = b
			}
			for _, p := range def.params {
				delete(inner, p)
			}
			body, err := substituteParams(def.body, inner)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
			for _, p := range args[:len(args)-1] {
				out = append(out, p...)
				out = append(out, efp.Token{TValue: ",", TType: efp.TokenTypeArgument})
			}
			out = append(out, body...)
			out = append(out, tokens[next-1])
			i = next - 1
			continue
		}
		if n, ok := letName(t); ok {
			if b, bound := binds[n]; bound {
				out = append(out, b.token)
				continue
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// applyLambda calls def with args in the calculation of fn: #VALUE! when
// the count of arguments does not fit its parameters.
func (fn *formulaFuncs) applyLambda(def lambdaDef, args []formulaArg) formulaArg {
	if !def.fits(len(args)) {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	ctx := fn.ctx
	if ctx == nil {
		return unsupportedArg("LAMBDA outside a calculation")
	}
	table := ctx.lambdas()
	if table.tooDeep || table.depth >= maxLambdaDepth {
		table.tooDeep = true
		return newErrorFormulaArg(formulaErrorVALUE, errLambdaDepth.Error())
	}
	if err := fn.guard().chargeCells(float64(len(def.params)), 1); err != nil {
		return stopArg(err)
	}
	binds := make(map[string]boundParam, len(def.params))
	for i, p := range def.params {
		v := omittedArg()
		if i < len(args) {
			v = args[i]
		}
		binds[p] = boundParam{token: paramToken(len(table.values)), omitted: isOmitted(v)}
		table.values = append(table.values, v)
	}
	tokens, err := substituteParams(def.body, binds)
	if err == nil {
		tokens, err = fn.f.bindLambdas(ctx, fn.sheet, tokens)
	}
	if err != nil {
		return unsupportedArg(err.Error())
	}
	table.depth++
	result, err := fn.f.evalInfixExp(ctx, fn.sheet, fn.cell, tokens)
	table.depth--
	if gerr := fn.guard().failed(); gerr != nil {
		return stopArg(gerr)
	}
	if err != nil && result.Type != ArgError {
		return unsupportedArg(err.Error())
	}
	if isLambdaValue(result) {
		return newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC)
	}
	return result
}

// callLambda calls the LAMBDA arg stands for with args; #VALUE! when arg
// is not a LAMBDA.
func (fn *formulaFuncs) callLambda(arg formulaArg, args ...formulaArg) formulaArg {
	def, ok := fn.ctx.lambdaOf(arg)
	if !ok {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	return fn.applyLambda(def, args)
}

// LAMBDA function calls a LAMBDA with arguments. The formula
// LAMBDA(x,x*2)(3), or DOUBLE(3) for a defined name DOUBLE, is evaluated
// as LAMBDA(<the LAMBDA>,3) (calc_lambda.go). The syntax of the function
// is:
//
//	LAMBDA([parameter1, parameter2, ...,] calculation)
func (fn *formulaFuncs) LAMBDA(argsList *list.List) formulaArg {
	if argsList.Len() == 0 {
		return newErrorFormulaArg(formulaErrorVALUE, "LAMBDA requires a calculation")
	}
	def, ok := fn.ctx.lambdaOf(argsList.Front().Value.(formulaArg))
	if !ok {
		return unsupportedArg("LAMBDA in this form")
	}
	args := make([]formulaArg, 0, argsList.Len()-1)
	for e := argsList.Front().Next(); e != nil; e = e.Next() {
		args = append(args, e.Value.(formulaArg))
	}
	return fn.applyLambda(def, args)
}

// ISOMITTED function returns TRUE when the LAMBDA parameter it names was
// left out of the call. In a LAMBDA's body it is replaced by its result
// before evaluation (substituteParams); anything else is not a missing
// parameter: FALSE. The syntax of the function is:
//
//	ISOMITTED(argument)
func (fn *formulaFuncs) ISOMITTED(argsList *list.List) formulaArg {
	if argsList.Len() != 1 {
		return newErrorFormulaArg(formulaErrorVALUE, "ISOMITTED requires 1 argument")
	}
	return newBoolFormulaArg(false)
}

// omittedBefore reports whether tokens[i], an argument separator or the
// end of a call, ends an argument left empty: F(,1), F(1,,2), F(1,).
func omittedBefore(tokens []efp.Token, i int) bool {
	t := tokens[i]
	if i == 0 || (t.TType != efp.TokenTypeArgument && !isFunctionStopToken(t)) {
		return false
	}
	prev := tokens[i-1]
	if prev.TType == efp.TokenTypeArgument {
		return true
	}
	return t.TType == efp.TokenTypeArgument && isFunctionStartToken(prev) && prev.TValue != "ARRAY" && prev.TValue != "ARRAYROW"
}
