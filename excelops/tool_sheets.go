package excelops

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// createSheetTool declares create_sheet.
var createSheetTool = typedTool(toolSpec{
	name: "create_sheet", title: "Create sheet",
	desc:    "Create an empty sheet, optionally at a position (0 = first).",
	timeout: writeTimeout,
	access:  editStructure("", sheetNone, access{guard: guardEverySheet, keepsValues: true, idempotent: true}),
}, (*Service).createSheet)

// createSheetArgs are create_sheet's arguments.
type createSheetArgs struct {
	fileArg
	SheetName string `json:"sheet_name" jsonschema:"New sheet name"`
	Position  *int   `json:"position,omitempty" minimum:"0" jsonschema:"Index to insert at; default last"`
}

// createSheet implements create_sheet.
func (s *Service) createSheet(_ context.Context, a createSheetArgs) (*call, error) {
	if err := checkSheetName(a.SheetName); err != nil {
		return nil, err
	}
	return onBook(a.FilePath, "", func(b *book, _ sheetRef) (any, error) {
		if b.hasSheet(a.SheetName) {
			return nil, invalid("sheet %q already exists", a.SheetName)
		}
		list, _ := b.sheetList()
		count := len(list)
		pos := count
		if a.Position != nil {
			if *a.Position < 0 || *a.Position > count {
				return nil, invalid("position must be between 0 and %d, got %d", count, *a.Position)
			}
			pos = *a.Position
		}
		if _, err := b.newSheet(a.SheetName); err != nil {
			return nil, err
		}
		if pos < count {
			if err := b.moveSheet(a.SheetName, pos); err != nil {
				return nil, err
			}
		}
		b.track(a.SheetName)
		return success(b.name(), a.SheetName,
			field("position", pos),
			field("sheets", b.sheetNames())), nil
	}), nil
}

// renameSheetTool declares rename_sheet.
var renameSheetTool = typedTool(toolSpec{
	name: "rename_sheet", title: "Rename sheet",
	desc:    "Rename a sheet.",
	timeout: writeTimeout,
	access:  editStructure("sheet_name", sheetRead, access{guard: guardEverySheet, idempotent: true}),
}, (*Service).renameSheet)

// renameSheetArgs are rename_sheet's arguments.
type renameSheetArgs struct {
	fileArg
	SheetName string `json:"sheet_name,omitempty" jsonschema:"Current sheet name (matched ignoring case); required unless old_name gives it"`
	OldName   string `json:"old_name,omitempty" jsonschema:"Alias of sheet_name (the shipped name); both may be given only if equal, ignoring case"`
	NewName   string `json:"new_name" jsonschema:"New sheet name: at most 31 characters, none of : \\ / ? * [ ], not starting or ending with '"`
}

// renameSheet implements rename_sheet.
func (s *Service) renameSheet(_ context.Context, a renameSheetArgs) (*call, error) {
	sheet, err := foldAlias("sheet_name", a.SheetName, "old_name", a.OldName, sameSheet)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(sheet) == "" {
		return nil, invalid("sheet_name is required: the sheet to rename")
	}
	if err := checkSheetName(a.NewName); err != nil {
		return nil, err
	}
	return onBook(a.FilePath, sheet, func(b *book, sh sheetRef) (any, error) {
		old := sh.name
		if !strings.EqualFold(old, a.NewName) && b.hasSheet(a.NewName) {
			return nil, invalid("sheet %q already exists", a.NewName)
		}
		if err := b.renameRefs(old, a.NewName, func() error {
			if err := b.setSheetName(old, a.NewName); err != nil {
				return newError(KindInvalidArgument, "cannot rename sheet: "+err.Error(), err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		b.edits = renamedSheet()
		if ext, ok := b.extents[old]; ok && old != a.NewName {
			delete(b.extents, old)
			b.extents[a.NewName] = ext
		}
		if was, ok := b.scanned[old]; ok && old != a.NewName {
			delete(b.scanned, old)
			b.scanned[a.NewName] = was
		}
		return success(b.name(), "",
			field("old_name", old),
			field("new_name", a.NewName),
			field("sheets", b.sheetNames())), nil
	}), nil
}

// deleteSheetTool declares delete_sheet.
var deleteSheetTool = typedTool(toolSpec{
	name: "delete_sheet", title: "Delete sheet",
	desc:    "Delete a sheet (needs confirm=true).",
	timeout: writeTimeout,
	access:  editStructure("sheet_name", sheetDrop, access{guard: guardEverySheet, destructive: true, idempotent: true}),
}, (*Service).deleteSheet)

// deleteSheetArgs are delete_sheet's arguments.
type deleteSheetArgs struct {
	fileArg
	SheetName string `json:"sheet_name" jsonschema:"Sheet to delete"`
	Confirm   bool   `json:"confirm,omitempty" jsonschema:"Must be true"`
}

// deleteSheet implements delete_sheet (confirm=true required, as excelmanus).
func (s *Service) deleteSheet(_ context.Context, a deleteSheetArgs) (*call, error) {
	if !a.Confirm {
		return nil, invalid("deleting sheet %q needs confirm=true", a.SheetName)
	}
	return onBook(a.FilePath, a.SheetName, func(b *book, sh sheetRef) (any, error) {
		sheet := sh.name
		if list, _ := b.sheetList(); len(list) == 1 {
			return nil, invalid("cannot delete %q: a workbook needs at least one sheet", sheet)
		}
		if err := b.deleteSheetRefs(sheet, func() error {
			if err := b.deleteSheet(sheet); err != nil {
				return newError(KindInvalidArgument, "cannot delete sheet: "+err.Error(), err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		delete(b.extents, sheet)
		b.edits = deletedSheet()
		return success(b.name(), "",
			field("deleted_sheet", sheet),
			field("remaining_sheets", b.sheetNames())), nil
	}), nil
}

// copiedCell is one source cell of copy_range_between_sheets.
type copiedCell struct {
	value   any
	formula string
}

// copyRangeTool declares copy_range_between_sheets.
var copyRangeTool = typedTool(toolSpec{
	name: "copy_range_between_sheets", title: "Copy range",
	desc:    "Copy the values and formulas of a range to another sheet, in the same or another workbook; relative references in copied formulas move with the copy, absolute ones stay (values_only pastes results instead).",
	timeout: writeTimeout,
	access:  copyRangeAccess(),
}, (*Service).copyRange)

// copyRangeArgs are copy_range_between_sheets' arguments.
type copyRangeArgs struct {
	SourceFile  string `json:"source_file" jsonschema:"Source workbook path"`
	SourceSheet string `json:"source_sheet,omitempty" jsonschema:"Sheet to copy from; required unless source_range names it"`
	SourceRange string `json:"source_range" rangeSheet:"source_sheet" jsonschema:"Cells to copy, e.g. \"A1:D10\". ${rangeHelp}"`
	TargetFile  string `json:"target_file,omitempty" jsonschema:"Target workbook; default the source"`
	TargetSheet string `json:"target_sheet,omitempty" jsonschema:"Sheet to copy into, default Sheet1; must exist unless create is true"`
	TargetStart string `json:"target_start,omitempty" jsonschema:"Top-left target cell, default A1"`
	Create      bool   `json:"create,omitempty" jsonschema:"Create target_sheet when it does not exist (default false: a missing sheet is an error naming the sheets that exist)"`
	ValuesOnly  bool   `json:"values_only,omitempty" jsonschema:"Paste values only: each formula cell is copied as its computed result (default false: formulas are copied with relative references moved by the copy's offset and absolute ($) ones kept, as Excel's paste does)"`
}

// copyRange implements copy_range_between_sheets (values and formulas, not
// styles), within one workbook or across two.
func (s *Service) copyRange(_ context.Context, a copyRangeArgs) (*call, error) {
	if strings.TrimSpace(a.SourceSheet) == "" {
		return nil, invalid("source_sheet is required unless source_range names its sheet, e.g. \"Data!A1:D10\"")
	}
	if a.TargetFile == "" {
		a.TargetFile = a.SourceFile
	}
	if a.TargetSheet == "" {
		a.TargetSheet = "Sheet1"
	}
	if a.TargetStart == "" {
		a.TargetStart = "A1"
	}
	src, err := parseRange(a.SourceRange)
	if err != nil {
		return nil, err
	}
	if src.Cells() > int64(s.engine.limits.MaxWriteCells) {
		return nil, limitErr(fmt.Sprintf("range %s has more than %d cells", src, s.engine.limits.MaxWriteCells))
	}
	tc, tr, err := parseCell(a.TargetStart)
	if err != nil {
		return nil, err
	}
	if err := checkBlockFits("the copy", tc, tr, src.R2-src.R1+1, src.C2-src.C1+1); err != nil {
		return nil, err
	}
	dst := cellRange{C1: tc, R1: tr, C2: tc + src.C2 - src.C1, R2: tr + src.R2 - src.R1}
	if err := checkSheetName(a.TargetSheet); err != nil {
		return nil, err
	}
	var cells [][]copiedCell
	var spills sourceSpills
	var srcSheet, srcName string
	// The source is read first (parsed by excelize, from the cache when
	// it is there); a copy within one workbook reads it from the workbook
	// the copy edits. Service.run holds both files' locks, taken in sorted
	// order, for the whole call.
	load := func(b *book, sh sheetRef) (any, error) {
		srcSheet, srcName = sh.name, b.name()
		var err error
		if cells, err = copiedCells(b, sh.name, src, a.ValuesOnly); err == nil && !a.ValuesOnly {
			spills, err = pasteSpills(b, sh.name, src, cells)
		}
		return nil, err
	}
	copyTo := func(b *book, sh sheetRef) (any, error) {
		sheet, ext := sh.name, sh.ext
		var err error
		var names *formulaScope // read when the first formula is copied
		plan, anchors := spills.copyPlan(src, dst)
		old, err := b.anchorsUnder(sheet, plan)
		if err != nil {
			return nil, err
		}
		written := 0
		for i, row := range cells {
			for j, c := range row {
				ref := cellName(dst.C1+j, dst.R1+i)
				if c.formula != "" {
					// Relative references move by the copy's offset, as a
					// paste in Excel does; absolute ones stay.
					text, _ := formularef.Translate(c.formula, dst.R1-src.R1, dst.C1-src.C1)
					if err := checkFormula(ref, text); err != nil {
						return nil, err // moved references made it too long
					}
					if names == nil {
						names = b.formulaScope()
					}
					if err := names.check(sheet+"!"+ref, sheet, text); err != nil {
						// Another workbook may lack the sheets and names
						// the formula reads.
						var e *Error
						if errors.As(err, &e) {
							return nil, newError(e.Kind, e.Msg+" To copy what the cells show, pass values_only=true.", e.Err)
						}
						return nil, err
					}
					if err = b.setCellValue(sheet, ref, nil); err == nil {
						err = b.setCellFormula(sheet, ref, text)
					}
				} else {
					if s, ok := c.value.(string); ok {
						if err := checkText(ref, s); err != nil {
							return nil, err // excelize would cut it short
						}
					}
					err = b.setCellValue(sheet, ref, c.value)
				}
				if err != nil {
					return nil, newError(KindInvalidArgument, fmt.Sprintf("cannot write %s: %v", ref, err), err)
				}
				written++
			}
		}
		if err := spillCopy(b, sh, dst, plan, anchors, old); err != nil {
			return nil, err
		}
		ext.widen(dst.R1, dst.C1)
		ext.widen(dst.R2, dst.C2)
		target := pyjson.Object{{Key: "file", Value: b.name()}, {Key: "sheet", Value: sheet}, {Key: "start_cell", Value: cellName(dst.C1, dst.R1)}}
		if sh.created {
			target = append(target, field("sheet_created", true))
		}
		return success("", "",
			field("source", pyjson.Object{{Key: "file", Value: srcName}, {Key: "sheet", Value: srcSheet}, {Key: "range", Value: src.String()}}),
			field("target", target),
			field("rows_copied", len(cells)),
			field("cells_written", written)), nil
	}
	return &call{
		paths:    []string{a.SourceFile, a.TargetFile},
		sheets:   []string{a.SourceSheet, a.TargetSheet},
		bodies:   []body{load, copyTo},
		newSheet: a.Create,
	}, nil
}

// copyRangeAccess is copy_range_between_sheets' declaration: the source
// read through excelize (formulas, computed values), the target edited.
func copyRangeAccess() access {
	return access{
		files: []fileUse{
			{arg: "source_file", sheetArg: "source_sheet", touch: touchStructure, sheet: sheetEdit},
			{arg: "target_file", sheetArg: "target_sheet", touch: touchStructure, sheet: sheetTarget, edit: true},
		},
		destructive: true,
	}
}

// copiedCells reads the values and formulas of rng with their types; with
// valuesOnly a formula cell gives its value instead (see formulaValue).
func copiedCells(b *book, sheet string, rng cellRange, valuesOnly bool) ([][]copiedCell, error) {
	out := make([][]copiedCell, 0, rng.R2-rng.R1+1)
	for r := rng.R1; r <= rng.R2; r++ {
		row := make([]copiedCell, 0, rng.C2-rng.C1+1)
		for c := rng.C1; c <= rng.C2; c++ {
			ref := cellName(c, r)
			formula, err := b.cellFormula(sheet, ref)
			if err != nil {
				return nil, newError(KindDamaged, "file is damaged: "+err.Error(), err)
			}
			if formula != "" && !valuesOnly {
				row = append(row, copiedCell{formula: formula})
				continue
			}
			v, err := b.cellValue(sheet, ref, excelize.Options{RawCellValue: true})
			if err != nil {
				return nil, newError(KindDamaged, "file is damaged: "+err.Error(), err)
			}
			t, _ := b.cellType(sheet, ref)
			if formula != "" && v == "" {
				// No cached result: compute it, as a paste of values would.
				if v, err = b.calcValue(sheet, ref); err != nil {
					if cerr := b.callContext().Err(); cerr != nil {
						return nil, cerr
					}
					return nil, invalid("cannot copy the value of %s!%s: its formula =%s has no cached result and cannot be computed here (%v)", sheet, ref, formula, err)
				}
				t = excelize.CellTypeUnset
			}
			row = append(row, copiedCell{value: typedValue(v, t)})
		}
		out = append(out, row)
	}
	return out, nil
}

// typedValue converts a raw cell text to the Go value excelize writes back
// with the same type.
func typedValue(v string, t excelize.CellType) any {
	switch {
	case v == "":
		return nil
	case t == excelize.CellTypeBool:
		return v == "1" || strings.EqualFold(v, "true")
	case t == excelize.CellTypeNumber || t == excelize.CellTypeUnset:
		if n := jsonCell(v); n != nil {
			if _, isText := n.(string); !isText || t == excelize.CellTypeNumber {
				return n
			}
		}
	}
	return v
}
