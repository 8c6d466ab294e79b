package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// ruleArgs is one conditional-formatting rule of add_conditional_rule:
// its cells and a rule whose type is required (the field shadows
// ruleBody's optional one).
type ruleArgs struct {
	CellRange string `json:"cell_range,omitempty" rangeSheet:"sheet_name" jsonschema:"Cells of this rule, e.g. \"A1:C3\"; default the top-level cell_range. ${rangeHelp}"`
	RuleType  string `json:"rule_type" enum:"cell_is,formula,icon_set,color_scale,data_bar" jsonschema:"cell_is: compare each value (operator, values); formula: format where a formula is true (formula); icon_set: icons by value (icon_style); color_scale: colours from min_color over mid_color to max_color; data_bar: bars (bar_color)"`
	ruleBody
}

// ruleBody is one conditional rule, wherever it is given: the top-level
// fields of add_conditional_rule or one item of its rules.
type ruleBody struct {
	RuleType   string            `json:"rule_type,omitempty" enum:"cell_is,formula,icon_set,color_scale,data_bar" jsonschema:"cell_is: compare each value (operator, values); formula: format where a formula is true (formula); icon_set: icons by value (icon_style); color_scale: colours from min_color over mid_color to max_color; data_bar: bars (bar_color)"`
	Operator   string            `json:"operator,omitempty" enum:"${cellIsOperators}" jsonschema:"cell_is: how each cell is compared with values"`
	Values     []json.Number     `json:"values,omitempty" maxItems:"2" jsonschema:"cell_is: the number to compare with (two for between and notBetween)"`
	Formula    string            `json:"formula,omitempty" jsonschema:"formula rule: a formula written for the range's top-left cell, true where cells are formatted; relative references move with each cell, e.g. \"$A1>10\""`
	Format     *vocab.RuleFormat `json:"format,omitempty" jsonschema:"cell_is and formula rules: how matching cells look (default: light red fill, dark red text)"`
	IconStyle  string            `json:"icon_style,omitempty" enum:"${iconStyles}" jsonschema:"icon_set: the set of icons"`
	MinColor   vocab.ColorValue  `json:"min_color,omitempty" jsonschema:"color_scale: colour of the lowest value (default F8696B, red)${colorHelp}"`
	MidColor   vocab.ColorValue  `json:"mid_color,omitempty" jsonschema:"color_scale: colour of the median; makes a three-colour scale (default: two colours)${colorHelp}"`
	MaxColor   vocab.ColorValue  `json:"max_color,omitempty" jsonschema:"color_scale: colour of the highest value (default 63BE7B, green)${colorHelp}"`
	BarColor   vocab.ColorValue  `json:"bar_color,omitempty" jsonschema:"data_bar: bar colour (default 638EC6, blue)${colorHelp}"`
	StopIfTrue bool              `json:"stop_if_true,omitempty" jsonschema:"Stop evaluating lower-priority rules for a cell this rule matches"`
}

// cellIsCriteria maps cell_is operators (openpyxl's names) to excelize criteria.
func cellIsCriteria(op string) (string, bool) {
	switch op {
	case "equal":
		return "==", true
	case "notEqual":
		return "!=", true
	case "greaterThan":
		return ">", true
	case "greaterThanOrEqual":
		return ">=", true
	case "lessThan":
		return "<", true
	case "lessThanOrEqual":
		return "<=", true
	case "between":
		return "between", true
	case "notBetween":
		return "not between", true
	}
	return "", false
}

// validIconStyle reports whether name is an icon set Excel knows.
func validIconStyle(name string) bool {
	return vocab.OneOf(name, vocab.IconStyles()...)
}

// addConditionalRuleTool declares add_conditional_rule.
var addConditionalRuleTool = typedTool(toolSpec{
	name: "add_conditional_rule", title: "Add conditional formatting",
	desc:    "Add conditional formatting (cell_is, formula, icon_set, color_scale, data_bar) to a range; several rules apply all-or-nothing.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: true}),
}, (*Service).addConditionalRule)

// addConditionalRuleArgs are add_conditional_rule's arguments: one rule
// in the top-level fields, several in rules.
type addConditionalRuleArgs struct {
	fileArg
	sheetArg
	CellRange string `json:"cell_range,omitempty" rangeSheet:"sheet_name" jsonschema:"Cells of the rule given by the top-level fields, and the default of each rule in rules. ${rangeHelp}"`
	ruleBody
	Rules []ruleArgs `json:"rules,omitempty" minItems:"1" itemDescription:"One rule" jsonschema:"Several rules, applied all or none, instead of (or after) the one given by the top-level fields"`
}

// addConditionalRule implements add_conditional_rule: one rule from the
// top-level fields, or several from "rules"; all are applied or none.
func (s *Service) addConditionalRule(_ context.Context, a addConditionalRuleArgs) (*engine.Call, error) {
	rules := a.Rules
	if a.RuleType != "" {
		rules = append([]ruleArgs{{CellRange: a.CellRange, RuleType: a.RuleType, ruleBody: a.ruleBody}}, rules...)
	}
	if len(rules) == 0 {
		return nil, failure.Invalid("give rule_type (one rule) or rules (several)")
	}
	icon := false
	for i := range rules {
		if rules[i].CellRange == "" {
			rules[i].CellRange = a.CellRange
		}
		icon = icon || rules[i].RuleType == "icon_set"
	}
	c := engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet := sh.Name
		applied := make([]any, 0, len(rules))
		names := b.FormulaScope()
		for i, r := range rules {
			opt, err := conditionalOption(b, r)
			if err != nil {
				return nil, fmt.Errorf("rule %d: %w", i+1, err)
			}
			if r.RuleType == "formula" {
				if err := names.Check(r.CellRange+" rule", sheet, opt.Criteria); err != nil {
					return nil, fmt.Errorf("rule %d: %w", i+1, err)
				}
			}
			rng, err := grid.ParseRange(r.CellRange)
			if err != nil {
				return nil, fmt.Errorf("rule %d: %w", i+1, err)
			}
			if err := b.SetConditionalFormat(sheet, rng.String(), []excelize.ConditionalFormatOptions{opt}); err != nil {
				return nil, failure.New(failure.KindInvalidArgument, fmt.Sprintf("rule %d: invalid %s rule: %v", i+1, r.RuleType, err), err)
			}
			applied = append(applied, pyjson.Object{{Key: "rule_type", Value: r.RuleType}, {Key: "range", Value: rng.String()}})
		}
		return success(b.Name(), sheet,
			field("rules_added", len(applied)),
			field("rules", applied)), nil
	})
	c.Icon = icon
	return c, nil
}

// conditionalOption turns one rule into excelize options, validating it.
func conditionalOption(b *engine.Book, r ruleArgs) (excelize.ConditionalFormatOptions, error) {
	opt := excelize.ConditionalFormatOptions{StopIfTrue: r.StopIfTrue}
	if r.CellRange == "" {
		return opt, failure.Invalid("cell_range is required")
	}
	switch r.RuleType {
	case "cell_is":
		crit, ok := cellIsCriteria(r.Operator)
		if !ok {
			return opt, failure.Invalid("invalid operator %q for cell_is: one of equal, notEqual, greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual, between, notBetween", r.Operator)
		}
		opt.Type, opt.Criteria = "cell", crit
		if crit == "between" || crit == "not between" {
			if len(r.Values) != 2 {
				return opt, failure.Invalid("%s needs exactly two values", r.Operator)
			}
			opt.MinValue, opt.MaxValue = r.Values[0].String(), r.Values[1].String()
		} else {
			if len(r.Values) != 1 {
				return opt, failure.Invalid("%s needs exactly one value", r.Operator)
			}
			opt.Value = r.Values[0].String()
		}
		return opt, b.RuleFormat(&opt, r.Format)
	case "formula":
		f := strings.TrimPrefix(strings.TrimSpace(r.Formula), "=")
		if f == "" {
			return opt, failure.Invalid("formula rules need a formula")
		}
		if err := grid.CheckFormula(r.CellRange+" rule", f); err != nil {
			return opt, err
		}
		opt.Type, opt.Criteria = "formula", f // excelize takes the expression from Criteria
		return opt, b.RuleFormat(&opt, r.Format)
	case "icon_set":
		if !validIconStyle(r.IconStyle) {
			return opt, failure.Invalid("invalid icon_style %q (e.g. 3TrafficLights1, 3Arrows, 5Rating)", r.IconStyle)
		}
		opt.Type, opt.IconStyle = "icon_set", r.IconStyle
		return opt, nil
	case "color_scale":
		minC, err := colorOr(r.MinColor, "F8696B")
		if err != nil {
			return opt, err
		}
		maxC, err := colorOr(r.MaxColor, "63BE7B")
		if err != nil {
			return opt, err
		}
		opt.Type, opt.Criteria = "2_color_scale", "="
		opt.MinType, opt.MaxType, opt.MinColor, opt.MaxColor = "min", "max", "#"+minC, "#"+maxC
		if r.MidColor != "" {
			midC, err := r.MidColor.Hex()
			if err != nil {
				return opt, err
			}
			opt.Type, opt.MidType, opt.MidValue, opt.MidColor = "3_color_scale", "percentile", "50", "#"+midC
		}
		return opt, nil
	case "data_bar":
		c, err := colorOr(r.BarColor, "638EC6")
		if err != nil {
			return opt, err
		}
		opt.Type, opt.Criteria, opt.MinType, opt.MaxType, opt.BarColor = "data_bar", "=", "min", "max", "#"+c
		return opt, nil
	}
	return opt, failure.Invalid("invalid rule_type %q: one of cell_is, formula, icon_set, color_scale, data_bar", r.RuleType)
}

// colorOr parses c, or returns def when c is empty.
func colorOr(c vocab.ColorValue, def string) (string, error) {
	if c == "" {
		return def, nil
	}
	return c.Hex()
}

// dvTypes maps validation_type names to excelize's.
func dvType(name string) (excelize.DataValidationType, bool) {
	switch name {
	case "whole":
		return excelize.DataValidationTypeWhole, true
	case "decimal":
		return excelize.DataValidationTypeDecimal, true
	case "date":
		return excelize.DataValidationTypeDate, true
	case "time":
		return excelize.DataValidationTypeTime, true
	case "textLength":
		return excelize.DataValidationTypeTextLength, true
	}
	return 0, false
}

// dvOperator maps operator names to excelize's.
func dvOperator(name string) (excelize.DataValidationOperator, bool) {
	switch name {
	case "", "between":
		return excelize.DataValidationOperatorBetween, true
	case "notBetween":
		return excelize.DataValidationOperatorNotBetween, true
	case "equal":
		return excelize.DataValidationOperatorEqual, true
	case "notEqual":
		return excelize.DataValidationOperatorNotEqual, true
	case "greaterThan":
		return excelize.DataValidationOperatorGreaterThan, true
	case "greaterThanOrEqual":
		return excelize.DataValidationOperatorGreaterThanOrEqual, true
	case "lessThan":
		return excelize.DataValidationOperatorLessThan, true
	case "lessThanOrEqual":
		return excelize.DataValidationOperatorLessThanOrEqual, true
	}
	return 0, false
}

// addDataValidationTool declares add_data_validation.
var addDataValidationTool = typedTool(toolSpec{
	name: "add_data_validation", title: "Add data validation",
	desc:    "Add data validation (list, whole, decimal, date, time, textLength, custom) to a range.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: true}),
}, (*Service).addDataValidation)

// addDataValidationArgs are add_data_validation's arguments.
type addDataValidationArgs struct {
	fileArg
	sheetArg
	rangeArg
	ValidationType string   `json:"validation_type" enum:"list,whole,decimal,date,time,textLength,custom" jsonschema:"list: a drop-down (values or formula1); whole, decimal, date, time, textLength: the value (or its length) compared by operator with formula1 (and formula2); custom: formula1 must be true"`
	Operator       string   `json:"operator,omitempty" enum:"between,notBetween,equal,notEqual,greaterThan,greaterThanOrEqual,lessThan,lessThanOrEqual" jsonschema:"How whole, decimal, date, time and textLength compare with formula1 (and formula2 for between, notBetween); default between"`
	Formula1       string   `json:"formula1,omitempty" jsonschema:"First bound (a number, a date like \"2024-01-31\" or a formula like \"=A1\"), the list's source range (\"$A$1:$A$5\") or the custom formula (\"=A1>0\")"`
	Formula2       string   `json:"formula2,omitempty" jsonschema:"Second bound, for between and notBetween"`
	Values         []string `json:"values,omitempty" jsonschema:"list: the allowed values, e.g. [\"yes\", \"no\"]"`
	AllowBlank     *bool    `json:"allow_blank,omitempty" jsonschema:"Whether an empty cell is valid (default true)"`
	ErrorTitle     string   `json:"error_title,omitempty" jsonschema:"Title of the error box shown on invalid input"`
	ErrorMessage   string   `json:"error_message,omitempty" jsonschema:"Text of the error box shown on invalid input"`
	PromptTitle    string   `json:"prompt_title,omitempty" jsonschema:"Title of the input message shown when a cell is selected"`
	Prompt         string   `json:"prompt,omitempty" jsonschema:"Text of the input message shown when a cell is selected"`
}

// addDataValidation implements add_data_validation.
func (s *Service) addDataValidation(_ context.Context, a addDataValidationArgs) (*engine.Call, error) {
	rng, err := grid.ParseRange(a.CellRange)
	if err != nil {
		return nil, err
	}
	for i, f := range []string{a.Formula1, a.Formula2} {
		if err := grid.CheckFormula(fmt.Sprintf("%s formula%d", rng, i+1), strings.TrimPrefix(f, "=")); err != nil {
			return nil, err
		}
	}
	dv := excelize.NewDataValidation(a.AllowBlank == nil || *a.AllowBlank)
	dv.Sqref = rng.String()
	switch a.ValidationType {
	case "list":
		switch {
		case len(a.Values) > 0:
			if err := dv.SetDropList(a.Values); err != nil {
				return nil, failure.New(failure.KindInvalidArgument, "invalid list: "+err.Error(), err)
			}
		case a.Formula1 != "":
			dv.SetSqrefDropList(strings.TrimPrefix(a.Formula1, "="))
		default:
			return nil, failure.Invalid("list validation needs values or formula1 (a range like $A$1:$A$5)")
		}
	case "custom":
		if a.Formula1 == "" {
			return nil, failure.Invalid("custom validation needs formula1")
		}
		dv.Type = "custom"
		dv.Formula1 = strings.TrimPrefix(a.Formula1, "=")
	default:
		t, ok := dvType(a.ValidationType)
		if !ok {
			return nil, failure.Invalid("invalid validation_type %q: one of list, whole, decimal, date, time, textLength, custom", a.ValidationType)
		}
		op, ok := dvOperator(a.Operator)
		if !ok {
			return nil, failure.Invalid("invalid operator %q", a.Operator)
		}
		if a.Formula1 == "" {
			return nil, failure.Invalid("%s validation needs formula1", a.ValidationType)
		}
		needsTwo := op == excelize.DataValidationOperatorBetween || op == excelize.DataValidationOperatorNotBetween
		if needsTwo && a.Formula2 == "" {
			return nil, failure.Invalid("operator %s needs formula2", a.Operator)
		}
		f2 := any(a.Formula2)
		if !needsTwo {
			f2 = a.Formula1
		}
		if err := dv.SetRange(a.Formula1, f2, t, op); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "invalid validation: "+err.Error(), err)
		}
		if !needsTwo {
			dv.Formula2 = ""
		}
	}
	if a.ErrorMessage != "" || a.ErrorTitle != "" {
		dv.SetError(excelize.DataValidationErrorStyleStop, a.ErrorTitle, a.ErrorMessage)
	}
	if a.Prompt != "" || a.PromptTitle != "" {
		dv.SetInput(a.PromptTitle, a.Prompt)
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet := sh.Name
		names := b.FormulaScope()
		for i, f := range []string{a.Formula1, a.Formula2} {
			isFormula := strings.HasPrefix(f, "=") || (i == 0 && (a.ValidationType == "custom" || a.ValidationType == "list"))
			if f == "" || len(a.Values) > 0 || !isFormula {
				continue
			}
			if err := names.Check(fmt.Sprintf("%s formula%d", rng, i+1), sheet, strings.TrimPrefix(f, "=")); err != nil {
				return nil, err
			}
		}
		if err := b.AddDataValidation(sheet, dv); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "cannot add validation: "+err.Error(), err)
		}
		return success(b.Name(), sheet,
			field("range", rng.String()),
			field("validation_type", a.ValidationType)), nil
	}), nil
}
