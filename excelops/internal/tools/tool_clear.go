package tools

import (
	"context"
	"fmt"
	"slices"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// clearWhat are the things clear_range clears.
func clearWhat() []string { return []string{"values", "formats", "both"} }

// maxClearedCells bounds the cells one clear_range touches (only cells that
// exist are touched, whatever the size of the range).
const maxClearedCells = 1_000_000

// clearRangeTool declares clear_range.
var clearRangeTool = typedTool(toolSpec{
	name: "clear_range", title: "Clear range",
	desc:    "Clear the values and formulas (default), the formats, or both (with notes and links) of a range; cells do not move, and clearing formats also undoes merges touching the range.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Destructive: true, Idempotent: true}),
}, (*Service).clearRange)

// clearRangeArgs are clear_range's arguments.
type clearRangeArgs struct {
	fileArg
	sheetArg
	rangeArg
	What string `json:"what,omitempty" enum:"${clearWhat}" jsonschema:"values (default): values and formulas, styles kept (Excel's Clear Contents); formats: styles back to default and merged ranges touching the range unmerged, values kept (Clear Formats); both: everything, notes and links too (Clear All). Conditional formats and data validations are kept"`
}

// clearRange implements clear_range: the values and formulas (Excel's
// Clear Contents), the formats (Clear Formats: styles back to the default,
// merges inside or across the range undone) or both (Clear All) of a range.
// Cells outside the range keep everything; formulas elsewhere that read the
// cleared cells recompute.
func (s *Service) clearRange(ctx context.Context, a clearRangeArgs) (*engine.Call, error) {
	if a.What == "" {
		a.What = "values"
	}
	if slices.Index(clearWhat(), a.What) < 0 {
		return nil, failure.Invalid("what must be one of values, formats, both; got %q", a.What)
	}
	rng, err := grid.ParseRange(a.CellRange)
	if err != nil {
		return nil, err
	}
	values, formats := a.What != "formats", a.What != "values"
	c := engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet := sh.Name
		cells, err := engine.ExistingCells(b, sheet, rng)
		edits := &recalc.EditSet{Areas: []cellarea.Area{{Sheet: sheet, C1: rng.C1, R1: rng.R1, C2: rng.C2, R2: rng.R2}}}
		if err != nil {
			return nil, err
		}
		if len(cells) > maxClearedCells {
			return nil, budget.TooLarge(fmt.Sprintf("range %s holds %d cells, more than the %d one call clears; clear it in parts", rng, len(cells), maxClearedCells))
		}
		if values {
			// Part of an array formula cannot be cleared (Excel: "You
			// can't change part of an array").
			all, err := b.FormulaCells(sheet)
			if err != nil {
				return nil, err
			}
			for _, fc := range all {
				if fc.ArrayRef == "" || fc.Dynamic {
					continue // a spill is clearSpills'
				}
				arr, err := grid.ParseRange(fc.ArrayRef)
				if err == nil && arr.Overlaps(rng) && !rng.Contains(arr) {
					return nil, failure.Invalid("cannot clear part of the array formula in %s (anchored at %s): clear all of %s or none of it", fc.ArrayRef, fc.Ref, fc.ArrayRef)
				}
			}
			if err := engine.UnshareFormulas(b, sheet); err != nil {
				return nil, err
			}
			if cells, edits, err = engine.ClearSpills(b, sheet, rng, all, cells); err != nil {
				return nil, err
			}
		}
		var unmerged []any
		if formats {
			merged, err := mergedRanges(b, sheet)
			if err != nil {
				return nil, err
			}
			for _, m := range merged {
				if !m.Overlaps(rng) {
					continue
				}
				if err := b.UnmergeCell(sheet, grid.CellName(m.C1, m.R1), grid.CellName(m.C2, m.R2)); err != nil {
					return nil, failure.New(failure.KindInvalidArgument, "cannot unmerge "+m.String()+": "+err.Error(), err)
				}
				unmerged = append(unmerged, m.String())
			}
		}
		valuesCleared, formulasCleared, formatsCleared := 0, 0, 0
		for _, c := range cells {
			if values && c.Value {
				if err := b.SetCellValue(sheet, c.Ref, nil); err != nil {
					return nil, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot clear %s: %v", c.Ref, err), err)
				}
				valuesCleared++
				if c.Formula {
					formulasCleared++
				}
			}
			if formats {
				st, err := b.CellStyle(sheet, c.Ref)
				if err != nil {
					return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
				}
				if st != 0 {
					if err := b.SetCellStyle(sheet, c.Ref, c.Ref, 0); err != nil {
						return nil, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot clear the format of %s: %v", c.Ref, err), err)
					}
					formatsCleared++
				}
			}
		}
		if values {
			b.Edits = edits
		}
		if unmerged == nil {
			unmerged = []any{}
		}
		res := success(b.Name(), sheet,
			field("range", rng.String()),
			field("cleared", a.What),
			field("values_cleared", valuesCleared),
			field("formulas_cleared", formulasCleared),
			field("formats_cleared", formatsCleared),
			field("unmerged", unmerged))
		if values && formats {
			// Clear All also takes the range's notes and links.
			notes, links, err := clearNotesAndLinks(b, sheet, rng)
			if err != nil {
				return nil, err
			}
			res = append(res, field("notes_removed", notes), field("links_removed", links))
		}
		return res, nil
	})
	c.ValuesKept = !values
	return c, nil
}

// clearNotesAndLinks removes the notes and hyperlinks of the cells of rng
// (hyperlinks through the parsed worksheet's exported Hyperlinks list, as
// shiftSheetRefs moves them).
func clearNotesAndLinks(b *engine.Book, sheet string, rng cellarea.Range) (notes, links int, err error) {
	comments, err := b.Comments(sheet)
	if err != nil {
		return 0, 0, failure.New(failure.KindDamaged, "file is damaged: notes of "+sheet+": "+err.Error(), err)
	}
	for _, c := range comments {
		col, row, err := excelize.CellNameToCoordinates(c.Cell)
		if err != nil || !rng.Has(col, row) {
			continue
		}
		if err := b.DeleteComment(sheet, c.Cell); err != nil {
			return 0, 0, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot remove the note of %s: %v", c.Cell, err), err)
		}
		notes++
	}
	ws, ok := b.ParsedWorksheet(sheet)
	if !ok {
		return 0, 0, engine.ErrUnexpectedShape("worksheet")
	}
	if ws.Hyperlinks == nil {
		return notes, 0, nil
	}
	kept := ws.Hyperlinks.Hyperlink[:0]
	for _, item := range ws.Hyperlinks.Hyperlink {
		if at, err := grid.ParseRange(item.Ref); err == nil && rng.Contains(at) {
			links++
			continue
		}
		kept = append(kept, item)
	}
	ws.Hyperlinks.Hyperlink = kept
	if len(kept) == 0 {
		ws.Hyperlinks = nil
	}
	return notes, links, nil
}
