package excelops

import (
	"context"
	"fmt"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"slices"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// copySheetName is Excel's name for a copy of sheet: "Data (2)", "Data
// (3)", ... the first one free, shortened to fit 31 characters.
func copySheetName(b *book, sheet string) string {
	for n := 2; ; n++ {
		suffix := fmt.Sprintf(" (%d)", n)
		base := []rune(sheet)
		if len(base)+len([]rune(suffix)) > maxSheetName {
			base = base[:maxSheetName-len([]rune(suffix))]
		}
		name := strings.TrimRight(string(base), "'") + suffix
		if !b.hasSheet(name) {
			return name
		}
	}
}

// copySheetTool declares copy_sheet.
var copySheetTool = typedTool(toolSpec{
	name: "copy_sheet", title: "Copy sheet",
	desc:    "Copy a worksheet within its workbook (values, formulas, styles, merges, rules, validations, notes); the copy's references to its source sheet point at the copy.",
	timeout: writeTimeout,
	access:  editStructure("sheet_name", sheetRead, access{guard: guardEverySheet}),
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
func (s *Service) copySheet(ctx context.Context, a copySheetArgs) (*call, error) {
	if a.NewName != "" {
		if err := checkSheetName(a.NewName); err != nil {
			return nil, err
		}
	}
	return onBook(a.FilePath, a.SheetName, func(b *book, sh sheetRef) (any, error) {
		src := sh.name
		zf, err := b.part(src)
		if err != nil {
			return nil, err
		}
		kind, err := b.sheetKindOf(src)
		if err != nil {
			return nil, err
		}
		if kind != opc.Worksheet {
			return nil, invalid("%q is %s; only worksheets can be copied", src, kindDescription(kind))
		}
		name := a.NewName
		if name == "" {
			name = copySheetName(b, src)
		} else if b.hasSheet(name) {
			return nil, invalid("sheet %q already exists", name)
		}
		list, _ := b.sheetList()
		srcIndex := slices.Index(list, src)
		pos := srcIndex + 1 // Excel's and LibreOffice's place for a copy: right after its source
		if a.Position != nil {
			if *a.Position < 0 || *a.Position > len(list) {
				return nil, invalid("position must be between 0 and %d, got %d", len(list), *a.Position)
			}
			pos = *a.Position
		}
		if _, _, err := b.edit(src); err != nil {
			return nil, err
		}
		tables, err := b.tables(src)
		if err != nil {
			return nil, newError(KindDamaged, "file is damaged: tables of "+src+": "+err.Error(), err)
		}
		charts, images := drawingAnchors(b, zf)
		comments, err := b.comments(src)
		if err != nil {
			return nil, newError(KindDamaged, "file is damaged: comments of "+src+": "+err.Error(), err)
		}
		// excelize's CopySheet ((*File).copySheet) dereferences the source's
		// <sheetViews> without a nil check: a source without one gets the
		// default view first, which it and the copy then keep (it means
		// what the missing element meant). An empty <sheetViews>, the
		// error, CopySheet handles.
		_ = addMissingSheetView(b, src)
		idx, err := b.newSheet(name)
		if err != nil {
			return nil, err
		}
		if err := b.copySheet(srcIndex, idx); err != nil {
			return nil, newError(KindInvalidArgument, "cannot copy sheet: "+err.Error(), err)
		}
		if err := b.detachCopiedParts(name, comments); err != nil {
			return nil, err
		}
		if err := pointCopyAtItself(b, src, name); err != nil {
			return nil, err
		}
		if ext, ok := b.extents[src]; ok {
			copied := *ext
			b.extents[name] = &copied
		}
		b.edits = copiedSheet()
		if pos != len(list) {
			if err := b.moveSheet(name, pos); err != nil {
				return nil, err
			}
		}
		after, _ := b.sheetList()
		res := success(b.name(), "",
			field("source_sheet", src),
			field("new_sheet", name),
			field("position", slices.Index(after, name)),
			field("sheets", b.sheetNames()))
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
func pointCopyAtItself(b *book, src, dst string) error {
	rw := refRewrite{formula: func(f, _ string) (string, bool) { return formularef.RenameSheet(f, src, dst) }}
	refs, err := b.formulaCells(dst)
	if err != nil {
		return err
	}
	plan := &refPlan{}
	for _, fc := range refs {
		text, err := b.cellFormula(dst, fc.ref)
		if err != nil {
			return newError(KindDamaged, "file is damaged: "+err.Error(), err)
		}
		if out, changed := rw.formula(text, dst); changed {
			plan.cells = append(plan.cells, plannedFormula{sheet: dst, cell: fc.ref, formula: out, arrayRef: fc.arrayRef, changed: true})
		}
	}
	d, err := b.detachRules(dst, rw)
	if err != nil {
		return err
	}
	d.reattach()
	if err := b.applyRefs(plan); err != nil {
		return err
	}
	for _, dn := range b.definedNames() {
		if dn.Scope != src {
			continue
		}
		out, _ := rw.formula(dn.RefersTo, dst)
		if err := b.setDefinedName(&excelize.DefinedName{Name: dn.Name, RefersTo: out, Scope: dst, Comment: dn.Comment}); err != nil {
			return newError(KindInvalidArgument, fmt.Sprintf("cannot copy the name %q to the new sheet: %v", dn.Name, err), err)
		}
	}
	return nil
}
