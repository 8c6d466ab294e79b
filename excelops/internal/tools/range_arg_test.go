package tools

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitSheet(t *testing.T) {
	for _, tc := range []struct {
		ref, sheet, rest string
		qualified, bad   bool
	}{
		{ref: "A1:C3", rest: "A1:C3"},
		{ref: "$A$1", rest: "$A$1"},
		{ref: "Sheet1!A1:C3", sheet: "Sheet1", rest: "A1:C3", qualified: true},
		{ref: " Data!B2 ", sheet: "Data", rest: "B2", qualified: true},
		{ref: "'My Sheet'!A1:C3", sheet: "My Sheet", rest: "A1:C3", qualified: true},
		{ref: "'It''s'!$A$1", sheet: "It's", rest: "$A$1", qualified: true},
		{ref: "'a!b'!C3:A1", sheet: "a!b", rest: "C3:A1", qualified: true},
		{ref: "!A1", bad: true},
		{ref: "'My Sheet'A1", bad: true},
		{ref: "'My Sheet", bad: true},
		{ref: "''!A1", bad: true},
		{ref: "Sheet1!", bad: true},
		{ref: "'My Sheet'! ", bad: true},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			sheet, rest, qualified, err := splitSheet(tc.ref)
			if tc.bad {
				require.ErrorIs(t, err, failure.KindInvalidArgument)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []any{tc.sheet, tc.rest, tc.qualified}, []any{sheet, rest, qualified})
		})
	}
}

// rangeFields are the range arguments of an argument struct: its fields
// tagged rangeSheet (nested ones as "list.field"), each with the sheet
// argument it names.
func rangeFields(t *testing.T, rt reflect.Type, prefix string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range reflect.VisibleFields(rt) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name := argName(f)
		if sheet, ok := f.Tag.Lookup("rangeSheet"); ok {
			out[prefix+name] = sheet
			continue
		}
		assert.False(t, name == "range" || strings.HasSuffix(name, "_range") && f.Type.Kind() == reflect.String,
			"%s%s of %s looks like a range argument but has no rangeSheet tag", prefix, name, rt)
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			for k, v := range rangeFields(t, ft, name+".") {
				out[k] = v
			}
		}
	}
	return out
}

// rangeCases are valid arguments (against dataBook) giving the range
// arguments minimalArgs leaves out.
func rangeCases() map[string][]map[string]any {
	return map[string][]map[string]any{
		"read_excel":           {{"range": "A1:B3"}, {"cell_range": "A1:B3"}},
		"write_cells":          {{"cell_range": "D1:E1", "values": []any{[]any{1, 2}}}},
		"find_replace":         {{"find": "a", "replace": "z", "cell_range": "A1:B3"}},
		"add_conditional_rule": {{"rules": []any{map[string]any{"cell_range": "B2:B3", "rule_type": "data_bar"}}}},
	}
}

// rangeCall is one call of a range-taking tool: its arguments and the
// range argument under test (a field of args, or "list.field" of the
// first item of args[list]), whose sheet is the argument sheetArg.
type rangeCall struct {
	tool, arg, sheetArg string
	args                map[string]any
}

// holder is the object of args holding the range, and the range's key.
func (c rangeCall) holder(args map[string]any) (map[string]any, string) {
	if list, field, nested := strings.Cut(c.arg, "."); nested {
		return args[list].([]any)[0].(map[string]any), field
	}
	return args, c.arg
}

// value is the range as minimalArgs or rangeCases give it.
func (c rangeCall) value() string {
	h, k := c.holder(c.args)
	return h[k].(string)
}

// with is the call's arguments (with the file) with the range set to
// value and the sheet argument set to *sheet, or left out when nil.
func (c rangeCall) with(t *testing.T, value string, sheet *string) map[string]any {
	raw, err := json.Marshal(c.args)
	require.NoError(t, err)
	var args map[string]any
	require.NoError(t, json.Unmarshal(raw, &args))
	h, k := c.holder(args)
	h[k] = value
	if sheet != nil {
		args[c.sheetArg] = *sheet
	} else {
		delete(args, c.sheetArg)
	}
	return withFile(c.tool, "data.xlsx", args)
}

// rangeCalls lists, from the tool list, one call per range argument of
// every tool; a range argument without arguments to call it with fails.
func rangeCalls(t *testing.T) []rangeCall {
	t.Helper()
	minimal, extra := minimalArgs(), rangeCases()
	var calls []rangeCall
	for _, sp := range newEnv(t).svc.tools() {
		require.NotNil(t, sp.args, sp.name)
		for arg, sheetArg := range rangeFields(t, sp.args, "") {
			found := false
			for _, args := range append([]map[string]any{minimal[sp.name]}, extra[sp.name]...) {
				c := rangeCall{tool: sp.name, arg: arg, sheetArg: sheetArg, args: args}
				if list, _, nested := strings.Cut(arg, "."); nested && args[list] == nil || !nested && args[arg] == nil {
					continue
				}
				calls = append(calls, c)
				found = true
				break
			}
			assert.True(t, found, "%s: no arguments giving %s: add them to rangeCases", sp.name, arg)
		}
	}
	require.NotEmpty(t, calls)
	return calls
}

// swapCorners writes "A1:B3" as "B3:A1".
func swapCorners(ref string) string {
	a, b, ok := strings.Cut(ref, ":")
	if !ok {
		return ref
	}
	return b + ":" + a
}

// dollars writes "A1:B3" as "$A$1:$B$3".
func dollars(ref string) string {
	var out []string
	for _, p := range strings.Split(ref, ":") {
		i := strings.IndexAny(p, "0123456789")
		out = append(out, "$"+p[:i]+"$"+p[i:])
	}
	return strings.Join(out, ":")
}

func TestEveryRangeArgumentTakesTheSharedForms(t *testing.T) {
	skipUnderRace(t)
	sheet1, lower := "Sheet1", "sheet1"
	for _, c := range rangeCalls(t) {
		t.Run(c.tool+"/"+c.arg, func(t *testing.T) {
			if c.tool == "render_range" {
				needSoffice(t)
			}
			ref := c.value()
			given := (*string)(nil)
			if c.sheetArg != "sheet_name" {
				given = &sheet1 // a required role-named sheet
			}
			run := func(value string, sheet *string) string {
				e := newEnv(t)
				dataBook(e)
				res := e.call(c.tool, c.with(t, value, sheet))
				require.False(t, res.IsError, "%s %q: %s", c.arg, value, res.Text)
				return res.Text
			}
			want := run(ref, given)
			for _, form := range []struct {
				name, value string
				sheet       *string
			}{
				{"absolute", dollars(ref), given},
				{"qualified", "Sheet1!" + ref, nil},
				{"quoted", "'Sheet1'!" + ref, nil},
				{"qualified agreeing", "Sheet1!" + ref, &sheet1},
				{"qualified ignoring case", "SHEET1!" + dollars(ref), &lower},
			} {
				assert.Equal(t, want, run(form.value, form.sheet), form.name)
			}
			if swapped := swapCorners(ref); swapped != ref {
				assert.Equal(t, strings.ReplaceAll(want, swapped, ref), strings.ReplaceAll(run(swapped, given), swapped, ref), "reversed corners")
			}
		})
	}
}

func TestEveryRangeArgumentRefusesTheSameWay(t *testing.T) {
	e := newEnv(t)
	dataBook(e)
	sheet1 := "Sheet1"
	for _, c := range rangeCalls(t) {
		t.Run(c.tool+"/"+c.arg, func(t *testing.T) {
			fn := toolFunc(e.svc, c.tool)
			call := func(value string) error {
				raw, err := json.Marshal(c.with(t, value, &sheet1))
				require.NoError(t, err)
				_, err = fn(context.Background(), raw)
				return err
			}
			err := call("Other!" + c.value())
			require.ErrorIs(t, err, errSheetQualifier)
			require.ErrorIs(t, err, failure.KindInvalidArgument)
			assert.Contains(t, err.Error(), `"Other"`)

			for _, whole := range []string{"A:C", "2:5"} {
				err = call(whole)
				require.ErrorIs(t, err, failure.KindInvalidArgument, whole)
				assert.False(t, errors.Is(err, errSheetQualifier))
				assert.Contains(t, err.Error(), "whole columns or rows are not accepted", whole)
			}
		})
	}
}
