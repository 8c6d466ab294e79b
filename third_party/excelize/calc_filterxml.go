// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: Excel's FILTERXML (PATCHES.md, section N).
// The XML is parsed by github.com/antchfx/xmlquery (Go's encoding/xml:
// no DTD is read, so no entity is expanded and nothing is fetched) and the
// XPath evaluated by github.com/antchfx/xpath. The text is bounded by
// Excel's cell text limit, the tree by maxXMLDepth, and both are charged
// to the guard.

package excelize

import (
	"container/list"
	"regexp"
	"strconv"
	"strings"

	"github.com/antchfx/xmlquery"
	"github.com/antchfx/xpath"
)

const (
	// maxXMLDepth bounds how deep FILTERXML's elements nest: XPath walks
	// the tree recursively.
	maxXMLDepth = 256
	// xmlNodeBytes is what FILTERXML charges per byte of its XML: the
	// parsed tree's nodes and their text.
	xmlNodeBytes = 16
)

// xmlNumber is the text of a node FILTERXML returns as a number.
var xmlNumber = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// xmlValue is a node's text as FILTERXML returns it: a number when it is
// one, as Excel reads it, else the text.
func xmlValue(s string) formulaArg {
	if xmlNumber.MatchString(s) {
		if n, err := strconv.ParseFloat(s, 64); err == nil {
			return newNumberFormulaArg(n)
		}
	}
	return newStringFormulaArg(s)
}

// xmlTooDeep reports whether the elements under top nest past maxXMLDepth.
func xmlTooDeep(top *xmlquery.Node) bool {
	type at struct {
		node  *xmlquery.Node
		depth int
	}
	stack := []at{{top, 0}}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if cur.depth > maxXMLDepth {
			return true
		}
		for c := cur.node.FirstChild; c != nil; c = c.NextSibling {
			stack = append(stack, at{c, cur.depth + 1})
		}
	}
	return false
}

// evalXPath evaluates expr on the document top; ok false when the
// evaluation fails (the library panics on some bad expressions).
func evalXPath(expr *xpath.Expr, top *xmlquery.Node) (result any, ok bool) {
	defer func() {
		if recover() != nil {
			result, ok = nil, false
		}
	}()
	return expr.Evaluate(xmlquery.CreateXPathNavigator(top)), true
}

// FILTERXML function returns the values of the nodes of an XML text an
// XPath selects: one value, or a column of them; #VALUE! for XML or an
// XPath that is not valid, or none selected. The syntax of the function
// is:
//
//	FILTERXML(xml,xpath)
func (fn *formulaFuncs) FILTERXML(argsList *list.List) formulaArg {
	if argsList.Len() != 2 {
		return newErrorFormulaArg(formulaErrorVALUE, "FILTERXML requires 2 arguments")
	}
	var texts [2]string
	for i := range texts {
		arg, ok := scalarArg(argAt(argsList, i))
		if !ok {
			return fn.unsupported("FILTERXML of an array")
		}
		if arg.Type == ArgError {
			return arg
		}
		texts[i] = arg.Value()
	}
	doc, path := texts[0], texts[1]
	if doc == "" || path == "" || textTooLong(doc) {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	if err := fn.guard().charge(float64(len(doc)) * xmlNodeBytes); err != nil {
		return stopArg(err)
	}
	if err := fn.guard().spend(float64(len(doc))); err != nil {
		return stopArg(err)
	}
	top, err := xmlquery.Parse(strings.NewReader(doc))
	if err != nil || xmlTooDeep(top) {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	expr, err := xpath.Compile(path)
	if err != nil {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	result, ok := evalXPath(expr, top)
	if !ok {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	switch v := result.(type) {
	case float64:
		return newNumberFormulaArg(v)
	case bool:
		return newBoolFormulaArg(v)
	case string:
		return newStringFormulaArg(v)
	case *xpath.NodeIterator:
		var out [][]formulaArg
		for v.MoveNext() {
			if err := fn.guard().chargeCells(1, 1); err != nil {
				return stopArg(err)
			}
			out = append(out, []formulaArg{xmlValue(v.Current().Value())})
		}
		switch len(out) {
		case 0:
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		case 1:
			return out[0][0]
		}
		return newMatrixFormulaArg(out)
	}
	return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
}
