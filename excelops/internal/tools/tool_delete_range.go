package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// shiftDirections are the ways delete_range moves the cells beside the
// deleted range into it.
func shiftDirections() []string { return []string{"up", "left"} }

// bandRewrite is the refRewrite of a delete_range.
func bandRewrite(b formularef.Band) engine.RefRewrite {
	return engine.RefRewrite{
		Formula: b.Formula,
		Cell: func(sheet, ref string) (string, bool) {
			if !strings.EqualFold(sheet, b.Sheet) {
				return ref, true
			}
			return b.Area(ref)
		},
		Sqref: func(sheet, sqref string) string {
			if !strings.EqualFold(sheet, b.Sheet) {
				return sqref
			}
			return b.Sqref(sqref)
		},
		Anchor: func(sheet, sqref string) (int, int) {
			if !strings.EqualFold(sheet, b.Sheet) {
				return 0, 0
			}
			first, _, _ := strings.Cut(strings.TrimSpace(sqref), " ")
			rng, err := grid.ParseRange(first)
			if err != nil {
				return 0, 0
			}
			// A rule whose first cells are deleted is read from its first
			// surviving cell, as with deleted rows.
			switch {
			case b.Up && rng.C1 >= b.C1 && rng.C2 <= b.C2 && rng.R1 >= b.R1 && rng.R1 <= b.R2 && rng.R2 > b.R2:
				return b.R2 + 1 - rng.R1, 0
			case !b.Up && rng.R1 >= b.R1 && rng.R2 <= b.R2 && rng.C1 >= b.C1 && rng.C1 <= b.C2 && rng.C2 > b.C2:
				return 0, b.C2 + 1 - rng.C1
			}
			return 0, 0
		},
	}
}

// deleteRangeTool declares delete_range.
var deleteRangeTool = typedTool(toolSpec{
	name: "delete_range", title: "Delete range",
	desc:    "Delete a range's cells and shift the cells below it up or the cells right of it left; references to deleted cells become #REF!, references to moved cells follow them.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Guard: access.GuardEverySheet, Destructive: true}),
}, (*Service).deleteRange)

// deleteRangeArgs are delete_range's arguments.
type deleteRangeArgs struct {
	fileArg
	sheetArg
	rangeArg
	Shift string `json:"shift" enum:"${shiftDirections}" jsonschema:"up: cells below the range, in its columns, move up; left: cells right of the range, in its rows, move left. Refused when it would split a merged range, a table or a legacy (Ctrl+Shift+Enter) array formula; a dynamic array moves with its anchor and spills again"`
}

// deleteRange implements delete_range: the cells of a range are deleted
// and the cells below it (shift up) or right of it (shift left) move in,
// with Excel's reference semantics on every sheet (see formularef.Band).
func (s *Service) deleteRange(ctx context.Context, a deleteRangeArgs) (*engine.Call, error) {
	if slices.Index(shiftDirections(), a.Shift) < 0 {
		return nil, failure.Invalid("shift must be up or left, got %q", a.Shift)
	}
	rng, err := grid.ParseRange(a.CellRange)
	if err != nil {
		return nil, err
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet, ext := sh.Name, sh.Ext
		band := formularef.Band{Sheet: sheet, Up: a.Shift == "up", C1: rng.C1, R1: rng.R1, C2: rng.C2, R2: rng.R2}
		merges, tables, err := checkBandShift(b, sheet, band)
		if err != nil {
			return nil, err
		}
		spills, err := engine.BandSpills(b, sheet, band, shiftWords(band))
		if err != nil {
			return nil, err
		}
		comments, err := b.Comments(sheet)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: notes of "+sheet+": "+err.Error(), err)
		}
		if err := engine.UnshareFormulas(b, sheet); err != nil {
			return nil, err
		}
		if err := b.UndoAnchors(sheet, spills, nil); err != nil {
			return nil, err
		}
		var movedCells, deletedCells int
		err = b.EditRefs(bandRewrite(band), "", func() error {
			var err error
			if movedCells, deletedCells, err = engine.ShiftCells(b, sheet, band); err != nil {
				return err
			}
			if err := shiftMerges(b, sheet, band, merges); err != nil {
				return err
			}
			engine.MoveTables(b, band, tables)
			if err := shiftComments(b, sheet, band, comments); err != nil {
				return err
			}
			return shiftSheetRefs(b, sheet, band)
		})
		if err != nil {
			return nil, err
		}
		// Cells moved under excelize's calculator: forget what it cached
		// (DeleteDefinedName clears that cache before it fails on a name
		// that does not exist).
		_ = b.DeleteDefinedName(&excelize.DefinedName{Name: "\x00"})
		if b.Edits, err = engine.RespillBand(b, sheet, band, spills); err != nil {
			return nil, err
		}
		if err := engine.RefreshExtent(b, sheet, ext); err != nil {
			return nil, err
		}
		return success(b.Name(), sheet,
			field("deleted_range", rng.String()),
			field("shift", a.Shift),
			field("cells_deleted", deletedCells),
			field("cells_moved", movedCells)), nil
	}), nil
}

// shiftWords names the shift of band in a message.
func shiftWords(band formularef.Band) string {
	if band.Up {
		return "shifting cells up"
	}
	return "shifting cells left"
}

// checkBandShift refuses a delete_range that would split a merged range,
// an array formula or a table, or delete part of a table, naming it; it
// returns the merged ranges the shift moves or deletes and the tables it
// moves whole.
func checkBandShift(b *engine.Book, sheet string, band formularef.Band) ([]cellarea.Range, []engine.TableMove, error) {
	zone := engine.BandZone(band)
	how := shiftWords(band)
	deleted := cellarea.Range{C1: band.C1, R1: band.R1, C2: band.C2, R2: band.R2}
	merged, err := mergedRanges(b, sheet)
	if err != nil {
		return nil, nil, err
	}
	var touched []cellarea.Range
	for _, m := range merged {
		if !m.Overlaps(zone) {
			continue
		}
		if !engine.BandKeepsWhole(band, m) {
			return nil, nil, failure.Invalid("cannot delete %s %s: it would split the merged range %s; unmerge it first or delete a range that covers all of it", deleted, how, m)
		}
		touched = append(touched, m)
	}
	tables, err := engine.BandTables(b, sheet, band, func(t excelize.Table, tr cellarea.Range) error {
		return failure.Invalid("cannot delete %s %s: it would delete part of the table %q (%s) or split it; delete whole rows or columns of the table with delete_rows or delete_columns instead", deleted, how, t.Name, tr)
	})
	if err != nil {
		return nil, nil, err
	}
	formulas, err := b.FormulaCells(sheet)
	if err != nil {
		return nil, nil, err
	}
	for _, fc := range formulas {
		if fc.ArrayRef == "" || fc.Dynamic {
			continue // a spill is bandSpills' to check
		}
		ar, err := grid.ParseRange(fc.ArrayRef)
		if err == nil && !engine.BandKeepsWhole(band, ar) {
			return nil, nil, failure.Invalid("cannot delete %s %s: it would split the array formula in %s (anchored at %s)", deleted, how, ar, fc.Ref)
		}
	}
	return touched, tables, nil
}

// shiftMerges moves the merged ranges the shift moves and drops the ones
// it deletes (checkBandShift refused the ones it would split).
func shiftMerges(b *engine.Book, sheet string, band formularef.Band, merges []cellarea.Range) error {
	for _, m := range merges {
		if err := b.UnmergeCell(sheet, grid.CellName(m.C1, m.R1), grid.CellName(m.C2, m.R2)); err != nil {
			return failure.New(failure.KindInvalidArgument, "cannot move the merged range "+m.String()+": "+err.Error(), err)
		}
	}
	for _, m := range merges {
		moved, ok := band.Area(grid.RangeRef(m.C1, m.R1, m.C2, m.R2))
		if !ok {
			continue
		}
		to, err := grid.ParseRange(moved)
		if err != nil {
			return err
		}
		if err := b.MergeCell(sheet, grid.CellName(to.C1, to.R1), grid.CellName(to.C2, to.R2)); err != nil {
			return failure.New(failure.KindInvalidArgument, "cannot move the merged range "+m.String()+": "+err.Error(), err)
		}
	}
	return nil
}

// shiftComments moves the notes of the zone with their cells and drops the
// notes of deleted cells.
func shiftComments(b *engine.Book, sheet string, band formularef.Band, comments []excelize.Comment) error {
	zone := engine.BandZone(band)
	var moved []excelize.Comment
	for _, c := range comments {
		col, row, err := excelize.CellNameToCoordinates(c.Cell)
		if err != nil || !zone.Has(col, row) {
			continue
		}
		if err := b.DeleteComment(sheet, c.Cell); err != nil {
			return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot move the note of %s: %v", c.Cell, err), err)
		}
		if col, row, ok := engine.BandTarget(band, col, row); ok {
			c.Cell = grid.CellName(col, row)
			moved = append(moved, c)
		}
	}
	for _, c := range moved {
		if err := b.AddComment(sheet, c); err != nil {
			return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot move the note to %s: %v", c.Cell, err), err)
		}
	}
	return nil
}

// shiftSheetRefs moves the hyperlinks and the autofilter of the sheet
// with their cells (through the parsed worksheet's exported Hyperlinks and
// AutoFilter fields): a hyperlink of a deleted cell goes, an autofilter
// whose cells are all deleted goes.
func shiftSheetRefs(b *engine.Book, sheet string, band formularef.Band) error {
	ws, ok := b.ParsedWorksheet(sheet)
	if !ok {
		return engine.ErrUnexpectedShape("worksheet")
	}
	if ws.Hyperlinks != nil {
		kept := ws.Hyperlinks.Hyperlink[:0]
		for _, item := range ws.Hyperlinks.Hyperlink {
			moved, ok := band.Area(item.Ref)
			if !ok {
				continue
			}
			item.Ref = moved
			kept = append(kept, item)
		}
		ws.Hyperlinks.Hyperlink = kept
		if len(kept) == 0 {
			ws.Hyperlinks = nil
		}
	}
	if ws.AutoFilter != nil {
		if moved, ok := band.Area(ws.AutoFilter.Ref); ok {
			ws.AutoFilter.Ref = moved
		} else {
			ws.AutoFilter = nil
		}
	}
	return nil
}
