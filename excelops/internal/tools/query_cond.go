package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// The row conditions of filter_data. A sheet's cells arrive as the
// streaming reader boxes them: int64 or float64 numbers, strings (text,
// dates as ISO-8601 text, error values like "#N/A"), booleans, and nil for a
// blank. A condition compares one column of a row with the value the caller
// gave, with the meanings pandas gives the same comparison on a typed column:
// a number matches numbers, a string matches text, a boolean matches
// booleans; a blank matches only isnull, ne and not_in.

// queryValue is a condition's value as an argument: a string, a number, a
// boolean, a list of them (in, not_in, between) or null (schema in
// typeSchemas).
type queryValue any

// condValue is queryValue inside a conditions item, where null is also
// accepted (excelmanus's schema requires value there, null for isnull).
type condValue any

// condOp is a condition operator.
type condOp string

// The condition operators, as excelmanus names them.
const (
	opEq         condOp = "eq"
	opNe         condOp = "ne"
	opGt         condOp = "gt"
	opGe         condOp = "ge"
	opLt         condOp = "lt"
	opLe         condOp = "le"
	opContains   condOp = "contains"
	opIn         condOp = "in"
	opNotIn      condOp = "not_in"
	opBetween    condOp = "between"
	opIsNull     condOp = "isnull"
	opNotNull    condOp = "notnull"
	opStartsWith condOp = "startswith"
	opEndsWith   condOp = "endswith"
)

// condOperators lists the operators in the order the schema shows them.
func condOperators() []string {
	ops := []condOp{opEq, opNe, opGt, opGe, opLt, opLe, opContains, opIn, opNotIn, opBetween, opIsNull, opNotNull, opStartsWith, opEndsWith}
	out := make([]string, len(ops))
	for i, o := range ops {
		out[i] = string(o)
	}
	return out
}

// condArg is one condition as an argument.
type condArg struct {
	Column   string    `json:"column" minLength:"1" jsonschema:"Column name, as in the header row"`
	Operator string    `json:"operator" enum:"${condOperators}" jsonschema:"Comparison operator"`
	Value    condValue `json:"value,omitempty" jsonschema:"Value to compare with: a list for in/not_in, [min, max] for between, omitted for isnull/notnull"`
}

// scalar is a condition value: a number, a text or a boolean.
type scalar struct {
	kind scalarKind
	num  float64
	text string
	flag bool
}

// scalarKind says which field of a scalar holds the value.
type scalarKind int

const (
	scalarNone scalarKind = iota // a blank cell
	scalarNum
	scalarText
	scalarBool
)

// cellScalar boxes a cell value as the reader gives it.
func cellScalar(v any) scalar {
	switch t := v.(type) {
	case int64:
		return scalar{kind: scalarNum, num: float64(t)}
	case float64:
		return scalar{kind: scalarNum, num: t}
	case string:
		return scalar{kind: scalarText, text: t}
	case bool:
		return scalar{kind: scalarBool, flag: t}
	}
	return scalar{}
}

// argScalar converts one JSON value of an argument.
func argScalar(v any) (scalar, error) {
	switch t := v.(type) {
	case json.Number:
		f, err := t.Float64()
		if err != nil || math.IsInf(f, 0) {
			return scalar{}, failure.Invalid("value %s is not a usable number", t.String())
		}
		return scalar{kind: scalarNum, num: f}, nil
	case float64:
		return scalar{kind: scalarNum, num: t}, nil
	case int:
		return scalar{kind: scalarNum, num: float64(t)}, nil
	case string:
		return scalar{kind: scalarText, text: t}, nil
	case bool:
		return scalar{kind: scalarBool, flag: t}, nil
	}
	return scalar{}, failure.Invalid("value must be a string, a number or a boolean, not %s", jsonKind(v))
}

// jsonKind names the JSON type of a decoded value for messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// same reports whether a and b are the same kind and value.
func (a scalar) same(b scalar) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case scalarNum:
		return a.num == b.num
	case scalarText:
		return a.text == b.text
	case scalarBool:
		return a.flag == b.flag
	}
	return true
}

// order compares a with b when both are numbers or both are text; ok is
// false otherwise (pandas refuses to order a number against a text).
func (a scalar) order(b scalar) (c int, ok bool) {
	switch {
	case a.kind == scalarNum && b.kind == scalarNum:
		switch {
		case a.num < b.num:
			return -1, true
		case a.num > b.num:
			return 1, true
		}
		return 0, true
	case a.kind == scalarText && b.kind == scalarText:
		return strings.Compare(a.text, b.text), true
	}
	return 0, false
}

// condition is one compiled condition.
type condition struct {
	col  int // 0-based column in the row
	op   condOp
	vals []scalar // one for comparisons, the list for in/not_in, two for between
}

// compileCond checks one condition against the header's column names.
func compileCond(a condArg, cols map[string]int) (condition, error) {
	col, ok := cols[a.Column]
	if !ok {
		return condition{}, unknownColumn(a.Column, cols)
	}
	c := condition{col: col, op: condOp(a.Operator)}
	switch c.op {
	case opIsNull, opNotNull:
		return c, nil
	case opIn, opNotIn, opBetween:
		list, ok := a.Value.([]any)
		if !ok {
			return c, failure.Invalid("operator %s takes a list as value, got %s", c.op, jsonKind(a.Value))
		}
		if c.op == opBetween && len(list) != 2 {
			return c, failure.Invalid("operator between takes [min, max], got %d values", len(list))
		}
		for _, v := range list {
			s, err := argScalar(v)
			if err != nil {
				return c, err
			}
			c.vals = append(c.vals, s)
		}
		return c, nil
	case opEq, opNe, opGt, opGe, opLt, opLe, opContains, opStartsWith, opEndsWith:
		s, err := argScalar(a.Value)
		if err != nil {
			return c, err
		}
		if (c.op == opContains || c.op == opStartsWith || c.op == opEndsWith) && s.kind != scalarText {
			return c, failure.Invalid("operator %s takes a text value", c.op)
		}
		c.vals = []scalar{s}
		return c, nil
	}
	return c, failure.Invalid("unknown operator %q; use one of %s", a.Operator, strings.Join(condOperators(), ", "))
}

// match reports whether the row satisfies the condition.
func (c condition) match(row []any) bool {
	var v any
	if c.col < len(row) {
		v = row[c.col]
	}
	cell := cellScalar(v)
	switch c.op {
	case opIsNull:
		return cell.kind == scalarNone
	case opNotNull:
		return cell.kind != scalarNone
	case opEq:
		return cell.same(c.vals[0])
	case opNe:
		return !cell.same(c.vals[0])
	case opIn, opNotIn:
		found := false
		for _, s := range c.vals {
			if cell.same(s) {
				found = true
				break
			}
		}
		return found == (c.op == opIn)
	case opContains, opStartsWith, opEndsWith:
		if cell.kind != scalarText {
			return false
		}
		switch c.op {
		case opContains:
			return strings.Contains(cell.text, c.vals[0].text)
		case opStartsWith:
			return strings.HasPrefix(cell.text, c.vals[0].text)
		}
		return strings.HasSuffix(cell.text, c.vals[0].text)
	case opBetween:
		lo, ok1 := cell.order(c.vals[0])
		hi, ok2 := cell.order(c.vals[1])
		return ok1 && ok2 && lo >= 0 && hi <= 0
	}
	cmp, ok := cell.order(c.vals[0])
	if !ok {
		return false
	}
	switch c.op {
	case opGt:
		return cmp > 0
	case opGe:
		return cmp >= 0
	case opLt:
		return cmp < 0
	}
	return cmp <= 0 // opLe
}

// rowQuery is a compiled set of conditions joined by and or or.
type rowQuery struct {
	conds []condition
	any   bool // "or": one condition suffices
}

// match reports whether the row passes the query (no condition: every row).
func (q rowQuery) match(row []any) bool {
	if len(q.conds) == 0 {
		return true
	}
	for _, c := range q.conds {
		if c.match(row) == q.any {
			return q.any
		}
	}
	return !q.any
}

// unknownColumn is the error of a column name the header does not hold.
func unknownColumn(name string, cols map[string]int) error {
	names := make([]string, len(cols))
	for n, i := range cols {
		names[i] = n
	}
	const show = 30
	if len(names) > show {
		names = append(names[:show], "...")
	}
	return failure.Invalid("column %q is not in the header row; columns: %s", name, strings.Join(names, ", "))
}
