package excelops

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"path"
	"slices"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// copySheetName is Excel's name for a copy of sheet: "Data (2)", "Data
// (3)", ... the first one free, shortened to fit 31 characters.
func (b *book) copySheetName(sheet string) string {
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
			name = b.copySheetName(src)
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
		tables, err := b.f.GetTables(src)
		if err != nil {
			return nil, newError(KindDamaged, "file is damaged: tables of "+src+": "+err.Error(), err)
		}
		charts, images := b.drawingAnchors(zf)
		comments, err := b.f.GetComments(src)
		if err != nil {
			return nil, newError(KindDamaged, "file is damaged: comments of "+src+": "+err.Error(), err)
		}
		// excelize's CopySheet ((*File).copySheet) dereferences the source's
		// <sheetViews> without a nil check: a source without one gets the
		// default view first, which it and the copy then keep (it means
		// what the missing element meant). An empty <sheetViews>, the
		// error, CopySheet handles.
		_ = b.addMissingSheetView(src)
		idx, err := b.newSheet(name)
		if err != nil {
			return nil, err
		}
		if err := b.f.CopySheet(srcIndex, idx); err != nil {
			return nil, newError(KindInvalidArgument, "cannot copy sheet: "+err.Error(), err)
		}
		if err := b.detachCopiedParts(name, comments); err != nil {
			return nil, err
		}
		if err := b.pointCopyAtItself(src, name); err != nil {
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
		res := success(b.name(), "",
			field("source_sheet", src),
			field("new_sheet", name),
			field("position", slices.Index(b.f.GetSheetList(), name)),
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

// detachCopiedParts undoes what excelize's CopySheet shares between the
// source and the copy: the copy's relationships keep only its external
// hyperlinks (drawings, tables, notes and background pictures are the
// source's parts), and the source's notes are added to the copy as its own.
func (b *book) detachCopiedParts(sheet string, comments []excelize.Comment) error {
	if _, err := b.f.GetCellValue(sheet, "A1"); err != nil {
		return newError(KindInvalidArgument, "cannot read the copied sheet: "+err.Error(), err)
	}
	ws, ok := parsedSheet(b.f, sheet)
	if !ok {
		return errUnexpectedShape("copied sheet")
	}
	ws.LegacyDrawing, ws.LegacyDrawingHF, ws.Picture, ws.Drawing, ws.TableParts = nil, nil, nil, nil, nil
	part, ok := b.f.SheetXMLPath(sheet)
	if !ok {
		return errUnexpectedShape("copied sheet")
	}
	dir, base := path.Split(part)
	relsPath := dir + "_rels/" + base + ".rels"
	if _, parsed := b.f.Relationships.Load(relsPath); parsed {
		return errUnexpectedShape("copied sheet's relationships")
	}
	if raw, ok := b.f.Pkg.Load(relsPath); ok {
		data, _ := raw.([]byte)
		var rels struct {
			Rel []struct {
				ID         string `xml:"Id,attr"`
				Type       string `xml:"Type,attr"`
				Target     string `xml:"Target,attr"`
				TargetMode string `xml:"TargetMode,attr,omitempty"`
			} `xml:"Relationship"`
		}
		_ = xml.Unmarshal(data, &rels)
		var out bytes.Buffer
		out.WriteString(xml.Header + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
		kept := 0
		for _, r := range rels.Rel {
			if !strings.HasSuffix(r.Type, "/hyperlink") {
				continue
			}
			kept++
			fmt.Fprintf(&out, `<Relationship Id="%s" Type="%s" Target="%s"`, xmlAttr(r.ID), xmlAttr(r.Type), xmlAttr(r.Target))
			if r.TargetMode != "" {
				fmt.Fprintf(&out, ` TargetMode="%s"`, xmlAttr(r.TargetMode))
			}
			out.WriteString(`/>`)
		}
		out.WriteString(`</Relationships>`)
		if kept == 0 {
			b.f.Pkg.Delete(relsPath)
		} else {
			b.f.Pkg.Store(relsPath, out.Bytes())
		}
	}
	for _, c := range comments {
		if err := b.f.AddComment(sheet, c); err != nil {
			return newError(KindInvalidArgument, fmt.Sprintf("cannot copy the note of %s: %v", c.Cell, err), err)
		}
	}
	return nil
}

// xmlAttr escapes text for an XML attribute value.
func xmlAttr(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return strings.ReplaceAll(b.String(), `"`, "&#34;")
}

// pointCopyAtItself rewrites, on the copy, the references that name the
// source sheet to name the copy (formulas, rules, validations), and copies
// the source's sheet-scoped names to the copy with the same rewrite.
func (b *book) pointCopyAtItself(src, dst string) error {
	rw := refRewrite{formula: func(f, _ string) (string, bool) { return formularef.RenameSheet(f, src, dst) }}
	refs, err := b.formulaCells(dst)
	if err != nil {
		return err
	}
	plan := &refPlan{}
	for _, fc := range refs {
		text, err := b.f.GetCellFormula(dst, fc.ref)
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
	for _, dn := range b.f.GetDefinedName() {
		if dn.Scope != src {
			continue
		}
		out, _ := rw.formula(dn.RefersTo, dst)
		if err := b.f.SetDefinedName(&excelize.DefinedName{Name: dn.Name, RefersTo: out, Scope: dst, Comment: dn.Comment}); err != nil {
			return newError(KindInvalidArgument, fmt.Sprintf("cannot copy the name %q to the new sheet: %v", dn.Name, err), err)
		}
	}
	return nil
}
