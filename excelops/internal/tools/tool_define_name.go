package tools

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// maxDefinedName is the longest defined name Excel accepts.
const maxDefinedName = 255

var (
	// cellLikeName matches names Excel reads as an A1 cell reference.
	cellLikeName = regexp.MustCompile(`^\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$`)
	// r1c1LikeName matches names Excel reads as an R1C1 reference (R, C,
	// R1, C2, RC, R1C1).
	r1c1LikeName = regexp.MustCompile(`^(?i:r[0-9]*c[0-9]*|r[0-9]*|c[0-9]*)$`)
)

// checkDefinedName refuses a name Excel would not accept: empty or longer
// than 255 characters; not starting with a letter, "_" or "\"; holding
// anything but letters, digits, "_", ".", "\" and "?"; a cell reference
// in A1 or R1C1 form; TRUE or FALSE; a reserved "_xlnm." name.
func checkDefinedName(name string) error {
	switch {
	case name == "":
		return failure.Invalid("name is empty")
	case len([]rune(name)) > maxDefinedName:
		return failure.Invalid("name %q is longer than %d characters", name, maxDefinedName)
	case strings.HasPrefix(strings.ToLower(name), "_xlnm."):
		return failure.Invalid("name %q is reserved: _xlnm. names are Excel's built-in names (print area, print titles)", name)
	case strings.EqualFold(name, "TRUE") || strings.EqualFold(name, "FALSE"):
		return failure.Invalid("name %q is a boolean to Excel; choose another name", name)
	}
	for i, r := range name {
		ok := unicode.IsLetter(r) || r == '_' || r == '\\'
		if i > 0 {
			ok = ok || unicode.IsDigit(r) || r == '.' || r == '?'
		}
		if !ok {
			what := "start with a letter, _ or \\"
			if i > 0 {
				what = "hold only letters, digits, _, ., \\ and ? (no spaces)"
			}
			return failure.Invalid("name %q is not valid: a name must %s (found %q)", name, what, r)
		}
	}
	if m := cellLikeName.FindStringSubmatch(name); m != nil {
		if _, _, err := excelize.CellNameToCoordinates(strings.ToUpper(m[1] + m[2])); err == nil {
			return failure.Invalid("name %q is not valid: it is a cell reference", name)
		}
	}
	if r1c1LikeName.MatchString(name) {
		return failure.Invalid("name %q is not valid: Excel reads it as an R1C1 reference", name)
	}
	return nil
}

// defineNameTool declares define_name.
var defineNameTool = typedTool(toolSpec{
	name: "define_name", title: "Define name",
	desc:    "Define a workbook- or sheet-scoped name for a reference, constant or formula; an existing name is replaced only with overwrite=true.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("", access.SheetNone, access.Access{Destructive: true, Idempotent: true}),
}, (*Service).defineName)

// defineNameArgs are define_name's arguments.
type defineNameArgs struct {
	fileArg
	Name      string `json:"name" jsonschema:"The name: starts with a letter, _ or \\, then letters, digits, _, ., \\ or ?; no spaces, not a cell reference like \"A1\" or \"R1C1\", at most 255 characters"`
	RefersTo  string `json:"refers_to" jsonschema:"What the name stands for, with or without a leading =: a reference (\"Sheet1!$A$1:$B$10\", \"'My Sheet'!$C$2\"), a constant (\"0.19\") or a formula (\"SUM(Sheet1!$B:$B)\")"`
	Scope     string `json:"scope,omitempty" jsonschema:"Sheet the name is local to; default (or \"workbook\") the whole workbook"`
	Comment   string `json:"comment,omitempty" jsonschema:"Comment shown with the name in Excel's Name Manager"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"Replace a name that already exists in the same scope (default false: it is refused, saying what it refers to)"`
}

// defineName implements define_name: a workbook- or sheet-scoped name for a
// reference, constant or formula; an existing name in the same scope is
// replaced only with overwrite=true.
func (s *Service) defineName(ctx context.Context, a defineNameArgs) (*engine.Call, error) {
	if err := checkDefinedName(a.Name); err != nil {
		return nil, err
	}
	body := strings.TrimPrefix(strings.TrimSpace(a.RefersTo), "=")
	if body == "" {
		return nil, failure.Invalid("refers_to is empty: give a reference such as \"Sheet1!$A$1:$B$10\", a constant or a formula")
	}
	if i := strings.IndexFunc(a.RefersTo+a.Comment, isControl); i >= 0 {
		return nil, failure.Invalid("refers_to and comment may not hold control characters (found %q)", []rune((a.RefersTo + a.Comment)[i:])[0])
	}
	if err := grid.CheckFormula("refers_to of "+a.Name, body); err != nil {
		return nil, err
	}
	if err := recalc.ParseFormula(body); err != nil {
		return nil, failure.New(failure.KindInvalidArgument, fmt.Sprintf("refers_to %q is not a valid formula: %s; nothing was written", a.RefersTo, err.Error()), err)
	}
	return engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		list, _ := b.SheetList()
		scope, scopeID := "", -1
		if a.Scope != "" && !strings.EqualFold(a.Scope, "workbook") {
			sheet, err := b.Sheet(a.Scope)
			if err != nil {
				return nil, err
			}
			scope, scopeID = sheet, slices.Index(list, sheet)
		}
		if err := b.FormulaScope().Check("refers_to of "+a.Name, scope, body); err != nil {
			return nil, err
		}
		var previous any
		if spelled, refersTo, ok := b.DefinedNameAt(scopeID, a.Name); ok {
			if !a.Overwrite {
				return nil, failure.Invalid("name %q already exists in %s and refers to %s; pass overwrite: true to replace it", spelled, scopeText(scope), refersTo)
			}
			previous = refersTo
			b.RedefineName(scopeID, a.Name, body, a.Comment)
		}
		if previous == nil {
			if err := b.SetDefinedName(&excelize.DefinedName{Name: a.Name, RefersTo: body, Scope: scope, Comment: a.Comment}); err != nil {
				return nil, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot define name %q: %v", a.Name, err), err)
			}
		}
		res := success(b.Name(), "",
			field("name", a.Name),
			field("scope", scopeName(scope)),
			field("refers_to", body))
		if previous != nil {
			res = append(res, pyjson.Field{Key: "replaced", Value: previous})
		}
		return res, nil
	}), nil
}

// scopeName is a name's scope as results show it.
func scopeName(sheet string) string {
	if sheet == "" {
		return "workbook"
	}
	return sheet
}

// scopeText is a name's scope in a sentence.
func scopeText(sheet string) string {
	if sheet == "" {
		return "the workbook scope"
	}
	return fmt.Sprintf("the scope of sheet %q", sheet)
}

// isControl reports a control character, which an XML workbook part
// cannot hold (tabs and line breaks aside, they have no place in a name's
// formula or comment either).
func isControl(r rune) bool {
	return unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r'
}
