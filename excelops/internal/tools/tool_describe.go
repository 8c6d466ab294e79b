package tools

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

const (
	// maxDescribedItems caps each list describe_workbook returns per sheet
	// (merged ranges, rules, validations, tables, charts) and the defined
	// names; the full count is always given.
	maxDescribedItems = 50
	// maxDescribedSheets caps the sheets described in one call.
	maxDescribedSheets = 100
)

// describeWorkbookTool declares describe_workbook.
var describeWorkbookTool = typedTool(toolSpec{
	name: "describe_workbook", title: "Describe workbook",
	desc:    "Describe a workbook before editing it: per sheet the used range, tables, merged ranges, charts, conditional formats, data validations, freeze panes and autofilter, and the defined names.",
	timeout: limits.ReadTimeout,
	access:  access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStructure}}},
}, (*Service).describeWorkbook)

// describeWorkbookArgs are describe_workbook's arguments.
type describeWorkbookArgs struct {
	fileArg
	SheetName string `json:"sheet_name,omitempty" jsonschema:"Describe only this sheet; default every sheet (at most 100)"`
}

// describeWorkbook implements describe_workbook: per sheet what an agent
// needs to know before it edits (used range, tables, merged ranges, charts,
// conditional formats, validations, freeze panes, autofilter) and the
// defined names.
func (s *Service) describeWorkbook(ctx context.Context, a describeWorkbookArgs) (*engine.Call, error) {
	return engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		list, active := b.SheetList()
		wanted := list
		if a.SheetName != "" {
			sheet, err := b.Sheet(a.SheetName)
			if err != nil {
				return nil, err
			}
			wanted = []string{sheet}
		}
		sheets := make([]any, 0, min(len(wanted), maxDescribedSheets))
		for _, name := range wanted[:min(len(wanted), maxDescribedSheets)] {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			d, err := describeSheet(b, name, slices.Index(list, name), slices.Index(list, name) == active)
			if err != nil {
				return nil, err
			}
			sheets = append(sheets, d)
		}
		res := success(b.Name(), "",
			field("sheet_count", len(list)),
			field("active_sheet", list[active]))
		if len(wanted) > maxDescribedSheets {
			res = append(res, pyjson.Field{Key: "sheets_truncated", Value: true})
		}
		return append(res,
			pyjson.Field{Key: "sheets", Value: sheets},
			pyjson.Field{Key: "defined_names", Value: describeNames(b)},
		), nil
	}), nil
}

// capped renders items as a list of at most maxDescribedItems and the
// total count.
func capped(items []any) (any, int) {
	if len(items) > maxDescribedItems {
		return items[:maxDescribedItems], len(items)
	}
	if items == nil {
		items = []any{}
	}
	return items, len(items)
}

// listField adds key (the capped list) and key_count to o.
func listField(o pyjson.Object, key string, items []any) pyjson.Object {
	list, n := capped(items)
	return append(o, pyjson.Field{Key: key + "_count", Value: n}, pyjson.Field{Key: key, Value: list})
}

// describeSheet is one sheet of describe_workbook.
func describeSheet(b *engine.Book, name string, index int, active bool) (pyjson.Object, error) {
	visible, _ := b.SheetVisible(name)
	o := pyjson.Object{
		{Key: "name", Value: name},
		{Key: "index", Value: index},
		{Key: "is_active", Value: active},
		{Key: "visible", Value: visible},
	}
	zf, err := b.Part(name)
	if err != nil {
		return nil, err
	}
	kind, err := b.SheetKindOf(name)
	if err != nil {
		return nil, err
	}
	o = append(o, pyjson.Field{Key: "kind", Value: kind})
	if kind != opc.Worksheet {
		return o, nil // no cells: listed, not described
	}
	_, ext, err := b.Edit(name)
	if err != nil {
		return nil, err
	}
	if ext.Empty() {
		o = append(o, pyjson.Field{Key: "used_range", Value: nil}, pyjson.Field{Key: "rows", Value: 0}, pyjson.Field{Key: "columns", Value: 0})
	} else {
		o = append(o,
			pyjson.Field{Key: "used_range", Value: grid.RangeRef(ext.MinCol, ext.MinRow, ext.MaxCol, ext.MaxRow)},
			pyjson.Field{Key: "rows", Value: ext.MaxRow - ext.MinRow + 1},
			pyjson.Field{Key: "columns", Value: ext.MaxCol - ext.MinCol + 1})
	}
	var freeze any
	if p, err := b.Panes(name); err == nil && p.Freeze && (p.XSplit > 0 || p.YSplit > 0) {
		freeze = pyjson.Object{
			{Key: "top_left_cell", Value: grid.CellName(p.XSplit+1, p.YSplit+1)},
			{Key: "frozen_rows", Value: p.YSplit},
			{Key: "frozen_columns", Value: p.XSplit},
		}
	}
	o = append(o, pyjson.Field{Key: "freeze_panes", Value: freeze})
	tables, err := b.Tables(name)
	if err != nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: tables of "+name+": "+err.Error(), err)
	}
	var items []any
	for _, t := range tables {
		items = append(items, pyjson.Object{{Key: "name", Value: t.Name}, {Key: "range", Value: strings.ReplaceAll(t.Range, "$", "")}, {Key: "style", Value: t.StyleName}})
	}
	o = listField(o, "tables", items)
	merged, err := mergedRanges(b, name)
	if err != nil {
		return nil, err
	}
	items = nil
	for _, m := range merged {
		items = append(items, m.String())
	}
	o = listField(o, "merged_ranges", items)
	charts, images := drawingAnchors(b, zf)
	o = listField(o, "charts", charts)
	o = append(o, pyjson.Field{Key: "images_count", Value: len(images)})
	o = listField(o, "conditional_formats", describeRules(b, name))
	o = listField(o, "data_validations", describeValidations(b, name))
	var filter any
	if af, ok := sheetAutofilter(b, name); ok {
		filter = af.String()
	}
	o = append(o, pyjson.Field{Key: "autofilter", Value: filter})
	return o, nil
}

// describeRules lists the conditional formats of sheet, by range.
func describeRules(b *engine.Book, sheet string) []any {
	rules, err := b.ConditionalFormats(sheet)
	if err != nil {
		return nil
	}
	ranges := make([]string, 0, len(rules))
	for r := range rules {
		ranges = append(ranges, r)
	}
	sort.Strings(ranges)
	var out []any
	for _, r := range ranges {
		for _, c := range rules[r] {
			o := pyjson.Object{{Key: "range", Value: r}, {Key: "type", Value: c.Type}}
			for _, kv := range [][2]string{{"criteria", c.Criteria}, {"value", c.Value}, {"min_value", c.MinValue}, {"max_value", c.MaxValue}, {"icon_style", c.IconStyle}} {
				if kv[1] != "" {
					o = append(o, pyjson.Field{Key: kv[0], Value: kv[1]})
				}
			}
			out = append(out, o)
		}
	}
	return out
}

// describeValidations lists the data validations of sheet.
func describeValidations(b *engine.Book, sheet string) []any {
	dvs, err := b.DataValidations(sheet)
	if err != nil {
		return nil
	}
	var out []any
	for _, dv := range dvs {
		o := pyjson.Object{{Key: "range", Value: dv.Sqref}, {Key: "type", Value: dv.Type}}
		for _, kv := range [][2]string{{"operator", dv.Operator}, {"formula1", dv.Formula1}, {"formula2", dv.Formula2}} {
			if kv[1] != "" {
				o = append(o, pyjson.Field{Key: kv[0], Value: kv[1]})
			}
		}
		out = append(out, o)
	}
	return out
}

// describeNames lists the workbook's defined names with their scope
// ("workbook" or the sheet's name) and what they refer to.
func describeNames(b *engine.Book) any {
	var items []any
	for _, dn := range b.DefinedNames() {
		scope := dn.Scope
		if scope == "Workbook" {
			scope = "workbook"
		}
		o := pyjson.Object{{Key: "name", Value: dn.Name}, {Key: "scope", Value: scope}, {Key: "refers_to", Value: dn.RefersTo}}
		if dn.Comment != "" {
			o = append(o, pyjson.Field{Key: "comment", Value: dn.Comment})
		}
		items = append(items, o)
	}
	list, n := capped(items)
	if n > maxDescribedItems {
		return pyjson.Object{{Key: "count", Value: n}, {Key: "first", Value: list}}
	}
	return list
}

// drawingAnchor is one anchored object of a drawing part.
type drawingAnchor struct {
	From *struct {
		Col int `xml:"col"`
		Row int `xml:"row"`
	} `xml:"from"`
	To *struct {
		Col int `xml:"col"`
		Row int `xml:"row"`
	} `xml:"to"`
	Frame *struct {
		Data struct {
			URI string `xml:"uri,attr"`
		} `xml:"graphic>graphicData"`
	} `xml:"graphicFrame"`
	Pic *struct{} `xml:"pic"`
}

// drawingAnchors reads the drawing of the worksheet part zf as it is on
// disk: its charts and its pictures, each as the cells it is anchored from
// and to. A drawing that cannot be read counts as none.
func drawingAnchors(b *engine.Book, zf *zip.File) (charts, images []any) {
	if zf == nil || b.Zr == nil {
		return nil, nil
	}
	dir, base := path.Split(zf.Name)
	rels, err := opc.ReadPart(b.Zr, dir+"_rels/"+base+".rels")
	if err != nil {
		return nil, nil
	}
	for _, rel := range opc.ParseRels(rels) {
		if !strings.HasSuffix(rel.Type, "/drawing") {
			continue
		}
		target := strings.TrimPrefix(rel.Target, "/")
		if !strings.HasPrefix(rel.Target, "/") {
			target = path.Join(dir, rel.Target)
		}
		data, err := opc.ReadPart(b.Zr, target)
		if err != nil {
			continue
		}
		var dr struct {
			Two []drawingAnchor `xml:"twoCellAnchor"`
			One []drawingAnchor `xml:"oneCellAnchor"`
			Abs []drawingAnchor `xml:"absoluteAnchor"`
		}
		if xml.Unmarshal(data, &dr) != nil {
			continue
		}
		for _, group := range [][]drawingAnchor{dr.Two, dr.One, dr.Abs} {
			for _, an := range group {
				switch {
				case an.Pic != nil:
					images = append(images, an.cells())
				case an.Frame != nil && strings.HasSuffix(an.Frame.Data.URI, "/chart"):
					charts = append(charts, an.cells())
				}
			}
		}
	}
	return charts, images
}

// cells is where an is anchored: from_cell and to_cell, those it has.
func (an drawingAnchor) cells() pyjson.Object {
	o := pyjson.Object{}
	if an.From != nil {
		o = append(o, pyjson.Field{Key: "from_cell", Value: grid.CellName(an.From.Col+1, an.From.Row+1)})
	}
	if an.To != nil {
		o = append(o, pyjson.Field{Key: "to_cell", Value: grid.CellName(an.To.Col+1, an.To.Row+1)})
	}
	return o
}
