package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// copySheetName is Excel's name for a copy of sheet: "Data (2)", "Data
// (3)", ... the first one free, shortened to fit 31 characters.
func copySheetName(b *engine.Book, sheet string) string {
	for n := 2; ; n++ {
		suffix := fmt.Sprintf(" (%d)", n)
		base := []rune(sheet)
		if len(base)+len([]rune(suffix)) > engine.MaxSheetName {
			base = base[:engine.MaxSheetName-len([]rune(suffix))]
		}
		name := strings.TrimRight(string(base), "'") + suffix
		if !b.HasSheet(name) {
			return name
		}
	}
}

// copySheetTool declares copy_sheet.
var copySheetTool = typedTool(toolSpec{
	name: "copy_sheet", title: "Copy sheet",
	desc:    "Copy a worksheet within its workbook (values, formulas, styles, merges, rules, validations, notes); the copy's references to its source sheet point at the copy.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetRead, access.Access{Guard: access.GuardEverySheet}),
}, (*Service).copySheet)

// copySheetArgs are copy_sheet's arguments.
type copySheetArgs struct {
	fileArg
	SheetName string `json:"sheet_name,omitempty" jsonschema:"Sheet to copy; default the active sheet"`
	NewName   string `json:"new_name,omitempty" jsonschema:"Name of the copy: at most 31 characters, none of : \\ / ? * [ ]; default as Excel names it, e.g. \"Data (2)\""`
	Position  *int   `json:"position,omitempty" minimum:"0" jsonschema:"Index the copy goes to (0 = first); default right after the source sheet"`
}

// copySheet implements copy_sheet: a copy of a worksheet within its
// workbook, values, formulas, styles, merges, rules and validations kept;
// references the copy makes to its source sheet point at the copy, as in
// Excel, and the source's sheet-scoped names are copied to the new sheet.
func (s *Service) copySheet(ctx context.Context, a copySheetArgs) (*engine.Call, error) {
	if a.NewName != "" {
		if err := engine.CheckSheetName(a.NewName); err != nil {
			return nil, err
		}
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		src := sh.Name
		zf, err := b.Part(src)
		if err != nil {
			return nil, err
		}
		kind, err := b.SheetKindOf(src)
		if err != nil {
			return nil, err
		}
		if kind != opc.Worksheet {
			return nil, failure.Invalid("%q is %s; only worksheets can be copied", src, engine.KindDescription(kind))
		}
		name := a.NewName
		if name == "" {
			name = copySheetName(b, src)
		} else if b.HasSheet(name) {
			return nil, failure.Invalid("sheet %q already exists", name)
		}
		list, _ := b.SheetList()
		srcIndex := slices.Index(list, src)
		pos := srcIndex + 1 // Excel's and LibreOffice's place for a copy: right after its source
		if a.Position != nil {
			if *a.Position < 0 || *a.Position > len(list) {
				return nil, failure.Invalid("position must be between 0 and %d, got %d", len(list), *a.Position)
			}
			pos = *a.Position
		}
		if _, _, err := b.Edit(src); err != nil {
			return nil, err
		}
		tables, err := b.Tables(src)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: tables of "+src+": "+err.Error(), err)
		}
		charts, images := drawingAnchors(b, zf)
		comments, err := b.Comments(src)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: comments of "+src+": "+err.Error(), err)
		}
		// excelize's CopySheet ((*File).copySheet) dereferences the source's
		// <sheetViews> without a nil check: a source without one gets the
		// default view first, which it and the copy then keep (it means
		// what the missing element meant). An empty <sheetViews>, the
		// error, CopySheet handles.
		_ = addMissingSheetView(b, src)
		idx, err := b.NewSheet(name)
		if err != nil {
			return nil, err
		}
		if err := b.CopySheet(srcIndex, idx); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "cannot copy sheet: "+err.Error(), err)
		}
		if err := b.DetachCopiedParts(name, comments); err != nil {
			return nil, err
		}
		if err := pointCopyAtItself(b, src, name); err != nil {
			return nil, err
		}
		if ext, ok := b.Extents[src]; ok {
			copied := *ext
			b.Extents[name] = &copied
		}
		b.Edits = recalc.CopiedSheet()
		if pos != len(list) {
			if err := b.MoveSheet(name, pos); err != nil {
				return nil, err
			}
		}
		after, _ := b.SheetList()
		res := success(b.Name(), "",
			field("source_sheet", src),
			field("new_sheet", name),
			field("position", slices.Index(after, name)),
			field("sheets", b.SheetNames()))
		var left []any
		if len(tables) > 0 {
			left = append(left, fmt.Sprintf("%d table(s): an Excel table name is unique in a workbook, the copy holds their cells as a plain range", len(tables)))
		}
		if len(charts) > 0 {
			left = append(left, fmt.Sprintf("%d chart(s)", len(charts)))
		}
		if len(images) > 0 {
			left = append(left, fmt.Sprintf("%d image(s)", len(images)))
		}
		if left != nil {
			res = append(res, pyjson.Field{Key: "not_copied", Value: left})
		}
		return res, nil
	}), nil
}

// pointCopyAtItself rewrites, on the copy, the references that name the
// source sheet to name the copy (formulas, rules, validations), and copies
// the source's sheet-scoped names to the copy with the same rewrite.
func pointCopyAtItself(b *engine.Book, src, dst string) error {
	rw := engine.RefRewrite{Formula: func(f, _ string) (string, bool) { return formularef.RenameSheet(f, src, dst) }}
	refs, err := b.FormulaCells(dst)
	if err != nil {
		return err
	}
	plan := &engine.RefPlan{}
	for _, fc := range refs {
		text, err := b.CellFormula(dst, fc.Ref)
		if err != nil {
			return failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
		if out, changed := rw.Formula(text, dst); changed {
			plan.Cells = append(plan.Cells, engine.PlannedFormula{Sheet: dst, Cell: fc.Ref, Formula: out, ArrayRef: fc.ArrayRef, Changed: true})
		}
	}
	d, err := b.DetachRules(dst, rw)
	if err != nil {
		return err
	}
	d.Reattach()
	if err := b.ApplyRefs(plan); err != nil {
		return err
	}
	for _, dn := range b.DefinedNames() {
		if dn.Scope != src {
			continue
		}
		out, _ := rw.Formula(dn.RefersTo, dst)
		if err := b.SetDefinedName(&excelize.DefinedName{Name: dn.Name, RefersTo: out, Scope: dst, Comment: dn.Comment}); err != nil {
			return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot copy the name %q to the new sheet: %v", dn.Name, err), err)
		}
	}
	return nil
}
