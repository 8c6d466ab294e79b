package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// createSheetTool declares create_sheet.
var createSheetTool = typedTool(toolSpec{
	name: "create_sheet", title: "Create sheet",
	desc:    "Create an empty sheet, optionally at a position (0 = first).",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("", access.SheetNone, access.Access{Guard: access.GuardEverySheet, KeepsValues: true, Idempotent: true}),
}, (*Service).createSheet)

// createSheetArgs are create_sheet's arguments.
type createSheetArgs struct {
	fileArg
	SheetName string `json:"sheet_name" jsonschema:"New sheet name"`
	Position  *int   `json:"position,omitempty" minimum:"0" jsonschema:"Index to insert at; default last"`
}

// createSheet implements create_sheet.
func (s *Service) createSheet(_ context.Context, a createSheetArgs) (*engine.Call, error) {
	if err := engine.CheckSheetName(a.SheetName); err != nil {
		return nil, err
	}
	return engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		if b.HasSheet(a.SheetName) {
			return nil, failure.Invalid("sheet %q already exists", a.SheetName)
		}
		list, _ := b.SheetList()
		count := len(list)
		pos := count
		if a.Position != nil {
			if *a.Position < 0 || *a.Position > count {
				return nil, failure.Invalid("position must be between 0 and %d, got %d", count, *a.Position)
			}
			pos = *a.Position
		}
		if _, err := b.NewSheet(a.SheetName); err != nil {
			return nil, err
		}
		if pos < count {
			if err := b.MoveSheet(a.SheetName, pos); err != nil {
				return nil, err
			}
		}
		b.Track(a.SheetName)
		return success(b.Name(), a.SheetName,
			field("position", pos),
			field("sheets", b.SheetNames())), nil
	}), nil
}

// renameSheetTool declares rename_sheet.
var renameSheetTool = typedTool(toolSpec{
	name: "rename_sheet", title: "Rename sheet",
	desc:    "Rename a sheet.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetRead, access.Access{Guard: access.GuardEverySheet, Idempotent: true}),
}, (*Service).renameSheet)

// renameSheetArgs are rename_sheet's arguments.
type renameSheetArgs struct {
	fileArg
	SheetName string `json:"sheet_name,omitempty" jsonschema:"Current sheet name (matched ignoring case); required unless old_name gives it"`
	OldName   string `json:"old_name,omitempty" jsonschema:"Alias of sheet_name (the shipped name); both may be given only if equal, ignoring case"`
	NewName   string `json:"new_name" jsonschema:"New sheet name: at most 31 characters, none of : \\ / ? * [ ], not starting or ending with '"`
}

// renameSheet implements rename_sheet.
func (s *Service) renameSheet(_ context.Context, a renameSheetArgs) (*engine.Call, error) {
	sheet, err := foldAlias("sheet_name", a.SheetName, "old_name", a.OldName, sameSheet)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(sheet) == "" {
		return nil, failure.Invalid("sheet_name is required: the sheet to rename")
	}
	if err := engine.CheckSheetName(a.NewName); err != nil {
		return nil, err
	}
	return engine.OnBook(a.FilePath, sheet, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		old := sh.Name
		if !strings.EqualFold(old, a.NewName) && b.HasSheet(a.NewName) {
			return nil, failure.Invalid("sheet %q already exists", a.NewName)
		}
		if err := b.RenameRefs(old, a.NewName, func() error {
			if err := b.SetSheetName(old, a.NewName); err != nil {
				return failure.New(failure.KindInvalidArgument, "cannot rename sheet: "+err.Error(), err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		b.Edits = recalc.RenamedSheet()
		if ext, ok := b.Extents[old]; ok && old != a.NewName {
			delete(b.Extents, old)
			b.Extents[a.NewName] = ext
		}
		if was, ok := b.Scanned[old]; ok && old != a.NewName {
			delete(b.Scanned, old)
			b.Scanned[a.NewName] = was
		}
		return success(b.Name(), "",
			field("old_name", old),
			field("new_name", a.NewName),
			field("sheets", b.SheetNames())), nil
	}), nil
}

// deleteSheetTool declares delete_sheet.
var deleteSheetTool = typedTool(toolSpec{
	name: "delete_sheet", title: "Delete sheet",
	desc:    "Delete a sheet (needs confirm=true).",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetDrop, access.Access{Guard: access.GuardEverySheet, Destructive: true, Idempotent: true}),
}, (*Service).deleteSheet)

// deleteSheetArgs are delete_sheet's arguments.
type deleteSheetArgs struct {
	fileArg
	SheetName string `json:"sheet_name" jsonschema:"Sheet to delete"`
	Confirm   bool   `json:"confirm,omitempty" jsonschema:"Must be true"`
}

// deleteSheet implements delete_sheet (confirm=true required, as excelmanus).
func (s *Service) deleteSheet(_ context.Context, a deleteSheetArgs) (*engine.Call, error) {
	if !a.Confirm {
		return nil, failure.Invalid("deleting sheet %q needs confirm=true", a.SheetName)
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet := sh.Name
		if list, _ := b.SheetList(); len(list) == 1 {
			return nil, failure.Invalid("cannot delete %q: a workbook needs at least one sheet", sheet)
		}
		if err := b.DeleteSheetRefs(sheet, func() error {
			if err := b.DeleteSheet(sheet); err != nil {
				return failure.New(failure.KindInvalidArgument, "cannot delete sheet: "+err.Error(), err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		delete(b.Extents, sheet)
		b.Edits = recalc.DeletedSheet()
		return success(b.Name(), "",
			field("deleted_sheet", sheet),
			field("remaining_sheets", b.SheetNames())), nil
	}), nil
}

// copyRangeTool declares copy_range_between_sheets.
var copyRangeTool = typedTool(toolSpec{
	name: "copy_range_between_sheets", title: "Copy range",
	desc:    "Copy the values and formulas of a range to another sheet, in the same or another workbook; relative references in copied formulas move with the copy, absolute ones stay (values_only pastes results instead).",
	timeout: limits.WriteTimeout,
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
func (s *Service) copyRange(_ context.Context, a copyRangeArgs) (*engine.Call, error) {
	if strings.TrimSpace(a.SourceSheet) == "" {
		return nil, failure.Invalid("source_sheet is required unless source_range names its sheet, e.g. \"Data!A1:D10\"")
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
	src, err := grid.ParseRange(a.SourceRange)
	if err != nil {
		return nil, err
	}
	if src.Cells() > int64(s.engine.Limits.MaxWriteCells) {
		return nil, budget.TooLarge(fmt.Sprintf("range %s has more than %d cells", src, s.engine.Limits.MaxWriteCells))
	}
	tc, tr, err := grid.ParseCell(a.TargetStart)
	if err != nil {
		return nil, err
	}
	if err := grid.CheckBlockFits("the copy", tc, tr, src.R2-src.R1+1, src.C2-src.C1+1); err != nil {
		return nil, err
	}
	dst := cellarea.Range{C1: tc, R1: tr, C2: tc + src.C2 - src.C1, R2: tr + src.R2 - src.R1}
	if err := engine.CheckSheetName(a.TargetSheet); err != nil {
		return nil, err
	}
	var cells [][]engine.CopiedCell
	var spills engine.SourceSpills
	var srcSheet, srcName string
	// The source is read first (parsed by excelize, from the cache when
	// it is there); a copy within one workbook reads it from the workbook
	// the copy edits. Engine.Run holds both files' locks, taken in sorted
	// order, for the whole call.
	load := func(b *engine.Book, sh engine.SheetRef) (any, error) {
		srcSheet, srcName = sh.Name, b.Name()
		var err error
		if cells, err = copiedCells(b, sh.Name, src, a.ValuesOnly); err == nil && !a.ValuesOnly {
			spills, err = engine.PasteSpills(b, sh.Name, src, cells)
		}
		return nil, err
	}
	copyTo := func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet, ext := sh.Name, sh.Ext
		var err error
		var names *recalc.FormulaScope // read when the first formula is copied
		plan, anchors := spills.CopyPlan(src, dst)
		old, err := b.AnchorsUnder(sheet, plan)
		if err != nil {
			return nil, err
		}
		written := 0
		for i, row := range cells {
			for j, c := range row {
				ref := grid.CellName(dst.C1+j, dst.R1+i)
				if c.Formula != "" {
					// Relative references move by the copy's offset, as a
					// paste in Excel does; absolute ones stay.
					text, _ := formularef.Translate(c.Formula, dst.R1-src.R1, dst.C1-src.C1)
					if err := grid.CheckFormula(ref, text); err != nil {
						return nil, err // moved references made it too long
					}
					if names == nil {
						names = b.FormulaScope()
					}
					if err := names.Check(sheet+"!"+ref, sheet, text); err != nil {
						// Another workbook may lack the sheets and names
						// the formula reads.
						var e *failure.Error
						if errors.As(err, &e) {
							return nil, failure.New(e.Kind, e.Msg+" To copy what the cells show, pass values_only=true.", e.Err)
						}
						return nil, err
					}
					if err = b.SetCellValue(sheet, ref, nil); err == nil {
						err = b.SetCellFormula(sheet, ref, text)
					}
				} else {
					if s, ok := c.Value.(string); ok {
						if err := grid.CheckText(ref, s); err != nil {
							return nil, err // excelize would cut it short
						}
					}
					err = b.SetCellValue(sheet, ref, c.Value)
				}
				if err != nil {
					return nil, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot write %s: %v", ref, err), err)
				}
				written++
			}
		}
		if err := engine.SpillCopy(b, sh, dst, plan, anchors, old); err != nil {
			return nil, err
		}
		ext.Widen(dst.R1, dst.C1)
		ext.Widen(dst.R2, dst.C2)
		target := pyjson.Object{{Key: "file", Value: b.Name()}, {Key: "sheet", Value: sheet}, {Key: "start_cell", Value: grid.CellName(dst.C1, dst.R1)}}
		if sh.Created {
			target = append(target, field("sheet_created", true))
		}
		return success("", "",
			field("source", pyjson.Object{{Key: "file", Value: srcName}, {Key: "sheet", Value: srcSheet}, {Key: "range", Value: src.String()}}),
			field("target", target),
			field("rows_copied", len(cells)),
			field("cells_written", written)), nil
	}
	return &engine.Call{
		Paths:    []string{a.SourceFile, a.TargetFile},
		Sheets:   []string{a.SourceSheet, a.TargetSheet},
		Bodies:   []engine.Body{load, copyTo},
		NewSheet: a.Create,
	}, nil
}

// copyRangeAccess is copy_range_between_sheets' declaration: the source
// read through excelize (formulas, computed values), the target edited.
func copyRangeAccess() access.Access {
	return access.Access{
		Files: []access.FileUse{
			{Arg: "source_file", SheetArg: "source_sheet", Touch: access.TouchStructure, Sheet: access.SheetEdit},
			{Arg: "target_file", SheetArg: "target_sheet", Touch: access.TouchStructure, Sheet: access.SheetTarget, Edit: true},
		},
		Destructive: true,
	}
}

// copiedCells reads the values and formulas of rng with their types; with
// valuesOnly a formula cell gives its value instead (see formulaValue).
func copiedCells(b *engine.Book, sheet string, rng cellarea.Range, valuesOnly bool) ([][]engine.CopiedCell, error) {
	out := make([][]engine.CopiedCell, 0, rng.R2-rng.R1+1)
	for r := rng.R1; r <= rng.R2; r++ {
		row := make([]engine.CopiedCell, 0, rng.C2-rng.C1+1)
		for c := rng.C1; c <= rng.C2; c++ {
			ref := grid.CellName(c, r)
			formula, err := b.CellFormula(sheet, ref)
			if err != nil {
				return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
			}
			if formula != "" && !valuesOnly {
				row = append(row, engine.CopiedCell{Formula: formula})
				continue
			}
			v, err := b.CellValue(sheet, ref, excelize.Options{RawCellValue: true})
			if err != nil {
				return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
			}
			t, _ := b.CellType(sheet, ref)
			if formula != "" && v == "" {
				// No cached result: compute it, as a paste of values would.
				if v, err = b.CalcValue(sheet, ref); err != nil {
					if cerr := b.CallContext().Err(); cerr != nil {
						return nil, cerr
					}
					return nil, failure.Invalid("cannot copy the value of %s!%s: its formula =%s has no cached result and cannot be computed here (%v)", sheet, ref, formula, err)
				}
				t = excelize.CellTypeUnset
			}
			row = append(row, engine.CopiedCell{Value: typedValue(v, t)})
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
		if n := engine.JsonCell(v); n != nil {
			if _, isText := n.(string); !isText || t == excelize.CellTypeNumber {
				return n
			}
		}
	}
	return v
}
