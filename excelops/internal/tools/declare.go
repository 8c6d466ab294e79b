package tools

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// toolSpec is one tool before registration: its declaration, and how it
// binds to a Service. A typed tool (typedTool) keeps its argument struct,
// this declaration and its plan together in its own file; the schema is
// derived from the struct's tags.
type toolSpec struct {
	// name is what the model calls; title a short human name (MCP title).
	name, title, desc string
	// timeout bounds one call.
	timeout time.Duration
	// access declares the workbooks the tool opens and how: it drives
	// Engine.Run and gives the MCP annotations and the docs' Path line.
	access access.Access
	// bind builds a typed tool's registry entry running on s.
	bind func(s *Service, sp toolSpec) (registry.Tool, error)
	// args is the type of a typed tool's argument struct.
	args reflect.Type
}

// typedTool completes sp with its typed plan: the registration derives the
// schema from In, decodes the (schema-checked) arguments into an In keeping
// numbers exact, takes the sheet qualifiers off its ranges (qualifyRanges),
// and plan checks them and returns the call Engine.Run
// carries out; nothing is opened before it returns.
func typedTool[In any](sp toolSpec, plan func(*Service, context.Context, In) (*engine.Call, error)) toolSpec {
	sp.args = reflect.TypeFor[In]()
	sp.bind = func(s *Service, sp toolSpec) (registry.Tool, error) {
		return registry.TypedTool(s.entry(sp), func(ctx context.Context, in In) (any, error) {
			if err := qualifyRanges(&in); err != nil {
				return nil, err
			}
			c, err := plan(s, ctx, in)
			if err != nil {
				return nil, err
			}
			return s.engine.Run(ctx, sp.access, c)
		}, schemaOptions()...)
	}
	return sp
}

// entry is sp's registry tool without its schema and function.
func (s *Service) entry(sp toolSpec) registry.Tool {
	return registry.Tool{
		Name:        sp.name,
		Description: sp.desc,
		Timeout:     sp.timeout,
		Legacy:      legacyForm(sp.name),
		Annotations: sp.access.Annotations(sp.title),
		Path:        sp.access.Describe(),
	}
}

// register turns a spec into the registry's tool.
func (s *Service) register(sp toolSpec) (registry.Tool, error) {
	return sp.bind(s, sp)
}

// schemaOptions are the typed tools' shared schema pieces: the limits and
// vocabularies their tags name as ${name}, and the decoding every tool
// shares (exact numbers; a decoding error is an invalid argument).
func schemaOptions() []registry.TypedOption {
	opts := []registry.TypedOption{
		registry.WithTextVars(schemaVars()),
		registry.WithExactNumbers(),
		registry.WithDecodeError(func(err error) error {
			return failure.New(failure.KindInvalidArgument, "arguments: "+err.Error(), err)
		}),
	}
	for t, schema := range typeSchemas() {
		opts = append(opts, registry.WithTypeSchema(t, schema))
	}
	return opts
}

// typeSchemas are the schemas of the named argument types whose JSON
// takes more than one form.
func typeSchemas() map[reflect.Type]*jsonschema.Schema {
	oneOf := func(types ...string) *jsonschema.Schema {
		s := &jsonschema.Schema{}
		for _, t := range types {
			s.AnyOf = append(s.AnyOf, &jsonschema.Schema{Type: t})
		}
		return s
	}
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[filterValue]():      oneOf("string", "number"),
		reflect.TypeFor[engine.ColumnRef](): oneOf("string", "integer"),
		reflect.TypeFor[engine.CellInput](): oneOf("string", "number", "boolean", "null"),
		reflect.TypeFor[queryValue]():       queryValueSchema(false),
		reflect.TypeFor[condValue]():        queryValueSchema(true),
		reflect.TypeFor[json.Number]():      {Type: "number"},
	}
}

// schemaVars are the ${name} values of the argument structs' tags.
func schemaVars() map[string]string {
	return map[string]string{
		"colorHelp":            `: hex "FF0000" (also "#FF0000", short "F00" or ARGB "FFFF0000") or a name: ` + strings.Join(vocab.ColorNames(), ", "),
		"rangeHelp":            rangeHelp,
		"numberFormatHelp":     `Excel number format code, e.g. "#,##0.00", "0%" or "yyyy-mm-dd"`,
		"tableStyles":          strings.Join(tableStyles(), ","),
		"filterOperators":      strings.Join(filterOperators(), ","),
		"condOperators":        strings.Join(condOperators(), ","),
		"matchModes":           strings.Join(matchModes(), ","),
		"readIncludes":         strings.Join(readIncludes(), ","),
		"maxSearchFiles":       jsonNum(maxSearchFiles),
		"pivotFunctions":       strings.Join(pivotFunctions(), ","),
		"clearWhat":            strings.Join(clearWhat(), ","),
		"shiftDirections":      strings.Join(shiftDirections(), ","),
		"borderStyles":         strings.Join(vocab.BorderStyles(), ","),
		"horizontalAlignments": strings.Join(vocab.HorizontalAlignments(), ","),
		"verticalAlignments":   strings.Join(vocab.VerticalAlignments(), ","),
		"underlineStyles":      strings.Join(vocab.UnderlineStyles(), ","),
		"cellIsOperators":      strings.Join(vocab.CellIsOperators(), ","),
		"iconStyles":           strings.Join(vocab.IconStyles(), ","),
		"maxColumnWidth":       jsonNum(maxColumnWidth),
		"maxImageBytes":        mib(maxImageBytes),
		"minImageScale":        strconv.FormatFloat(minImageScale, 'g', -1, 64),
		"maxImageScale":        jsonNum(maxImageScale),
		"maxImageSidePx":       jsonNum(maxImageSidePx),
		"maxRenderRows":        jsonNum(maxRenderRows),
		"maxRenderCols":        jsonNum(maxRenderCols),
	}
}

// fileArg is the workbook argument of the tools on one workbook.
type fileArg struct {
	FilePath string `json:"file_path" jsonschema:"Workbook path inside the workspace (.xlsx)"`
}

// sheetArg is the optional sheet argument, the active sheet by default.
type sheetArg struct {
	SheetName string `json:"sheet_name,omitempty" jsonschema:"Sheet name; default the active sheet"`
}

// rangeArg is the required cell_range argument, on the sheet sheet_name
// names (see rangeHelp).
type rangeArg struct {
	CellRange string `json:"cell_range" rangeSheet:"sheet_name" jsonschema:"The cells. ${rangeHelp}"`
}

// cellArg is the required single-cell argument named cell.
type cellArg struct {
	Cell string `json:"cell" jsonschema:"One cell, e.g. \"B2\""`
}
