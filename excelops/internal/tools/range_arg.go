package tools

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
)

// The range argument, one shape in every tool that takes a range: "A1",
// "A1:C3", "$A$1:$C$3" and reversed corners (parseRange), optionally
// qualified by its sheet, "Sheet1!A1:C3" or "'My Sheet'!A1:C3". A range
// field says which argument names its sheet with a `rangeSheet` tag, e.g.
// rangeSheet:"sheet_name"; qualifyRanges then takes the qualifier off
// before the tool's plan sees the arguments: it supplies that sheet
// argument when it is left out and must agree with it (ignoring case)
// when it is given.

// rangeHelp is the shared tail of every range argument's description
// (${rangeHelp} in the tags).
const rangeHelp = `Range forms: "A1", "A1:C3", "$A$1:$C$3" (reversed corners are put in order) and, with its sheet, ` +
	`"Sheet1!A1:C3" or "'My Sheet'!A1:C3": that sheet must agree with the sheet argument (ignoring case) and stands in for it when it is left out; ` +
	`whole columns or rows like "A:A" are not accepted`

// errSheetQualifier marks a range whose sheet qualifier names another
// sheet than the tool's sheet argument; the error's Kind is
// KindInvalidArgument.
var errSheetQualifier = errors.New("the range names another sheet")

// splitSheet splits a sheet-qualified range "Sheet1!A1:C3" or
// "'My Sheet'!A1:C3" (a doubled quote inside the quotes is one quote) into the sheet and
// the range; qualified is false, and rest is ref, when ref names no sheet.
func splitSheet(ref string) (sheet, rest string, qualified bool, err error) {
	s := strings.TrimSpace(ref)
	if strings.HasPrefix(s, "'") {
		var name strings.Builder
		for i := 1; i < len(s); i++ {
			if s[i] != '\'' {
				name.WriteByte(s[i])
				continue
			}
			if i+1 < len(s) && s[i+1] == '\'' {
				name.WriteByte('\'')
				i++
				continue
			}
			if i+1 >= len(s) || s[i+1] != '!' || name.Len() == 0 {
				break
			}
			return withSheet(ref, name.String(), s[i+2:])
		}
		return "", "", false, failure.Invalid("invalid cell range %q: a quoted sheet name is written 'My Sheet'!A1:C3", ref)
	}
	i := strings.LastIndex(s, "!")
	if i < 0 {
		return "", ref, false, nil
	}
	if strings.TrimSpace(s[:i]) == "" {
		return "", "", false, failure.Invalid("invalid cell range %q: the sheet name before ! is empty; %s", ref, grid.RangeForms)
	}
	return withSheet(ref, strings.TrimSpace(s[:i]), s[i+1:])
}

// withSheet is splitSheet's answer for a range with a sheet: a sheet
// with no cells after its ! is refused.
func withSheet(ref, sheet, rest string) (string, string, bool, error) {
	if strings.TrimSpace(rest) == "" {
		return "", "", false, failure.Invalid("invalid cell range %q: no cells after the sheet name; %s, e.g. %q", ref, grid.RangeForms, sheet+"!A1:C3")
	}
	return sheet, rest, true, nil
}

// qualifyRanges takes the sheet qualifiers off the range fields of the
// arguments args points to (every field tagged rangeSheet, in nested
// structs and lists too), setting or checking the sheet argument each tag
// names. It panics when a tag names no string field of args, a
// declaration error the tool-list tests catch.
func qualifyRanges(args any) error {
	root := reflect.ValueOf(args)
	if root.Kind() != reflect.Pointer || root.Elem().Kind() != reflect.Struct {
		return nil
	}
	q := qualifier{root: root.Elem(), supplied: map[string]string{}}
	return q.in(root.Elem())
}

// qualifier is one qualifyRanges pass: the arguments, and which range
// argument supplied each sheet argument left out.
type qualifier struct {
	root     reflect.Value
	supplied map[string]string
}

// in qualifies the range fields of v, whose sheet arguments are fields
// of q.root.
func (q qualifier) in(v reflect.Value) error {
	for _, f := range reflect.VisibleFields(v.Type()) {
		if !f.IsExported() {
			continue
		}
		fv := v.FieldByIndex(f.Index)
		if sheetArg, ok := f.Tag.Lookup("rangeSheet"); ok {
			if err := q.field(fv, argName(f), sheetArg); err != nil {
				return err
			}
			continue
		}
		if f.Anonymous {
			continue // VisibleFields lists its fields
		}
		if err := q.nested(fv); err != nil {
			return err
		}
	}
	return nil
}

// nested qualifies the range fields of structs inside v (a struct, a
// pointer to one or a list of them).
func (q qualifier) nested(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			return q.nested(v.Elem())
		}
	case reflect.Struct:
		return q.in(v)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := q.nested(v.Index(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// field takes the qualifier off the range field fv (a string or a
// *string) named name, whose sheet is the argument sheetArg.
func (q qualifier) field(fv reflect.Value, name, sheetArg string) error {
	if fv.Kind() == reflect.Pointer {
		if fv.IsNil() {
			return nil
		}
		fv = fv.Elem()
	}
	sheet, rest, qualified, err := splitSheet(fv.String())
	if err != nil || !qualified {
		return err
	}
	sf := argField(q.root, sheetArg)
	given := strings.TrimSpace(sf.String())
	switch {
	case given == "":
		sf.SetString(sheet)
		q.supplied[sheetArg] = name
	case strings.EqualFold(given, sheet):
	case q.supplied[sheetArg] != "":
		return failure.New(failure.KindInvalidArgument, fmt.Sprintf("%s %q is on sheet %q but %s is on sheet %q: the ranges must be on one sheet",
			name, fv.String(), sheet, q.supplied[sheetArg], given), errSheetQualifier)
	default:
		return failure.New(failure.KindInvalidArgument, fmt.Sprintf("%s %q is on sheet %q but %s is %q: give the range without its sheet, or name the same sheet in both",
			name, fv.String(), sheet, sheetArg, given), errSheetQualifier)
	}
	fv.SetString(rest)
	return nil
}

// argField is the string field of root whose argument name is name.
func argField(root reflect.Value, name string) reflect.Value {
	for _, f := range reflect.VisibleFields(root.Type()) {
		if f.IsExported() && !f.Anonymous && argName(f) == name && f.Type.Kind() == reflect.String {
			return root.FieldByIndex(f.Index)
		}
	}
	panic(fmt.Sprintf("excelops: rangeSheet names %q, no string argument of %s", name, root.Type()))
}

// argName is the argument name of struct field f (its json name).
func argName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}
