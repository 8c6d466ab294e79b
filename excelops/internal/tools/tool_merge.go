package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Merges never eat data silently: merging keeps only the top-left value
// (as Excel does), so merge_cells refuses a range whose other cells hold
// values or formulas unless discard_values is true, and then lists what it
// discarded. A merge that would overlap an existing one only partly is
// refused (excelize would silently widen both into their bounding box);
// existing merges wholly inside the range are replaced, and the payload
// says so. The range reported is the one the sheet holds afterwards.

const (
	// maxListedCells caps the cells an error message names.
	maxListedCells = 20
	// maxDiscardedListed caps the discarded cells a payload lists.
	maxDiscardedListed = 200
)

// mergeCellsTool declares merge_cells.
var mergeCellsTool = typedTool(toolSpec{
	name: "merge_cells", title: "Merge cells",
	desc:    "Merge a range of cells into one that keeps the top-left value; refused when other cells hold data unless discard_values is true.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Destructive: true, Idempotent: true}),
}, (*Service).merge)

// unmergeCellsTool declares unmerge_cells.
var unmergeCellsTool = typedTool(toolSpec{
	name: "unmerge_cells", title: "Unmerge cells",
	desc:    "Unmerge a merged range.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Idempotent: true}),
}, (*Service).unmerge)

// unmergeArgs are unmerge_cells' arguments.
type unmergeArgs struct {
	fileArg
	sheetArg
	rangeArg
}

// mergeArgs are merge_cells' arguments: unmerge_cells' and discard_values.
type mergeArgs struct {
	unmergeArgs
	DiscardValues bool `json:"discard_values,omitempty" jsonschema:"Merge even when cells other than the top-left hold values or formulas; they are cleared and listed in the result (default false: such a merge is refused, naming the cells)"`
}

// merge implements merge_cells.
func (s *Service) merge(ctx context.Context, a mergeArgs) (*engine.Call, error) {
	return s.mergeCells(true)(ctx, a)
}

// unmerge implements unmerge_cells.
func (s *Service) unmerge(ctx context.Context, a unmergeArgs) (*engine.Call, error) {
	return s.mergeCells(false)(ctx, mergeArgs{unmergeArgs: a})
}

// mergeCells implements merge_cells (merge true) and unmerge_cells.
func (s *Service) mergeCells(merge bool) func(context.Context, mergeArgs) (*engine.Call, error) {
	return func(_ context.Context, a mergeArgs) (*engine.Call, error) {
		rng, err := grid.ParseRange(a.CellRange)
		if err != nil {
			return nil, err
		}
		if rng.Cells() < 2 {
			return nil, failure.Invalid("cell_range %q must span at least two cells, e.g. \"A1:C1\"", a.CellRange)
		}
		if merge && rng.Cells() > int64(s.engine.Limits.MaxWriteCells) {
			return nil, budget.TooLarge(fmt.Sprintf("merging %s touches %d cells, more than the limit of %d", rng, rng.Cells(), s.engine.Limits.MaxWriteCells))
		}
		return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
			sheet, ext := sh.Name, sh.Ext
			res := success(b.Name(), sheet)
			if !merge {
				ref := rng.String()
				if err := requireMerged(b, sheet, ref); err != nil {
					return nil, err
				}
				if err := b.UnmergeCell(sheet, grid.CellName(rng.C1, rng.R1), grid.CellName(rng.C2, rng.R2)); err != nil {
					return nil, failure.New(failure.KindInvalidArgument, err.Error(), err)
				}
				return append(res, field("unmerged_range", ref)), nil
			}
			fields, err := mergeRange(b, sheet, ext, rng, a.DiscardValues)
			if err != nil {
				return nil, err
			}
			return append(res, fields...), nil
		}), nil
	}
}

// mergedRanges returns the merged ranges of sheet.
func mergedRanges(b *engine.Book, sheet string) ([]cellarea.Range, error) {
	merged, err := b.MergeCells(sheet, true)
	if err != nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: merged cells: "+err.Error(), err)
	}
	out := make([]cellarea.Range, 0, len(merged))
	for _, m := range merged {
		r, err := grid.ParseRange(m.GetStartAxis() + ":" + m.GetEndAxis())
		if err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: merged range "+m.GetStartAxis()+":"+m.GetEndAxis(), err)
		}
		out = append(out, r)
	}
	return out, nil
}

// lostCell is a cell whose content a merge discards.
type lostCell struct {
	cell  string
	value any // the value, or "=FORMULA"
}

// mergeRange merges rng on sheet after the checks described at the top of this
// file, and returns the result fields.
func mergeRange(b *engine.Book, sheet string, ext *sheetread.SheetExtent, rng cellarea.Range, discard bool) (pyjson.Object, error) {
	existing, err := mergedRanges(b, sheet)
	if err != nil {
		return nil, err
	}
	var absorbed, partial []cellarea.Range
	for _, m := range existing {
		switch {
		case m == rng:
			return pyjson.Object{{Key: "merged_range", Value: rng.String()}, {Key: "already_merged", Value: true}}, nil
		case rng.Contains(m):
			absorbed = append(absorbed, m)
		case rng.Overlaps(m):
			partial = append(partial, m)
		}
	}
	if len(partial) > 0 {
		return nil, failure.Invalid("cannot merge %s: it partly overlaps the merged range(s) %s. Unmerge them first with unmerge_cells, or merge a range that contains them whole",
			rng, joinRanges(partial))
	}
	lost, err := contentBesidesTopLeft(b, sheet, ext, rng, absorbed)
	if err != nil {
		return nil, err
	}
	if len(lost) > 0 && !discard {
		return nil, failure.Invalid("merging %s would discard the contents of %d cell(s) besides the top-left cell %s: %s. Move them first, or pass discard_values: true to merge and discard them",
			rng, len(lost), grid.CellName(rng.C1, rng.R1), describeLost(lost))
	}
	for _, m := range absorbed {
		if err := b.UnmergeCell(sheet, grid.CellName(m.C1, m.R1), grid.CellName(m.C2, m.R2)); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "cannot replace the merged range "+m.String()+": "+err.Error(), err)
		}
	}
	// excelize clears every cell but the top-left one (value and formula).
	if err := b.MergeCell(sheet, grid.CellName(rng.C1, rng.R1), grid.CellName(rng.C2, rng.R2)); err != nil {
		return nil, failure.New(failure.KindInvalidArgument, err.Error(), err)
	}
	// The used range stays what the cells make it: a merge writes no cell,
	// and a fresh open (scanSheet) and the splice path count cells only.
	now, err := mergedRanges(b, sheet)
	if err != nil {
		return nil, err
	}
	held := rng
	for _, m := range now {
		if m.Has(rng.C1, rng.R1) {
			held = m
		}
	}
	out := pyjson.Object{{Key: "merged_range", Value: held.String()}}
	if held != rng {
		out = append(out, pyjson.Field{Key: "requested_range", Value: rng.String()})
	}
	if len(absorbed) > 0 {
		refs := make([]any, len(absorbed))
		for i, m := range absorbed {
			refs[i] = m.String()
		}
		out = append(out, pyjson.Field{Key: "replaced_merges", Value: refs})
	}
	if len(lost) > 0 {
		listed := make([]any, 0, min(len(lost), maxDiscardedListed))
		for _, l := range lost[:min(len(lost), maxDiscardedListed)] {
			listed = append(listed, pyjson.Object{{Key: "cell", Value: l.cell}, {Key: "value", Value: l.value}})
		}
		out = append(out,
			pyjson.Field{Key: "discarded_count", Value: len(lost)},
			pyjson.Field{Key: "discarded", Value: listed})
	}
	return out, nil
}

// contentBesidesTopLeft lists the cells of rng, other than its top-left
// one, that hold a value or a formula. Only the part of rng inside the
// sheet's used range is visited; cells hidden under an absorbed merge
// (all but its top-left) are skipped, as Excel keeps nothing there.
func contentBesidesTopLeft(b *engine.Book, sheet string, ext *sheetread.SheetExtent, rng cellarea.Range, absorbed []cellarea.Range) ([]lostCell, error) {
	if ext.Empty() {
		return nil, nil
	}
	var lost []lostCell
	for r := max(rng.R1, ext.MinRow); r <= min(rng.R2, ext.MaxRow); r++ {
	cells:
		for c := max(rng.C1, ext.MinCol); c <= min(rng.C2, ext.MaxCol); c++ {
			if c == rng.C1 && r == rng.R1 {
				continue
			}
			for _, m := range absorbed {
				if m.Has(c, r) && (c != m.C1 || r != m.R1) {
					continue cells
				}
			}
			ref := grid.CellName(c, r)
			formula, err := b.CellFormula(sheet, ref)
			if err != nil {
				return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
			}
			if formula != "" {
				lost = append(lost, lostCell{ref, "=" + formula})
				continue
			}
			v, err := b.CellValue(sheet, ref, excelize.Options{RawCellValue: true})
			if err != nil {
				return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
			}
			if v != "" {
				t, _ := b.CellType(sheet, ref)
				lost = append(lost, lostCell{ref, typedValue(v, t)})
			}
		}
	}
	return lost, nil
}

// describeLost names up to maxListedCells cells with their contents.
func describeLost(lost []lostCell) string {
	parts := make([]string, 0, min(len(lost), maxListedCells))
	for _, l := range lost[:min(len(lost), maxListedCells)] {
		text, err := pyjson.MarshalString(l.value)
		if err != nil {
			text = fmt.Sprint(l.value)
		}
		parts = append(parts, l.cell+"="+text)
	}
	out := strings.Join(parts, ", ")
	if len(lost) > maxListedCells {
		out += fmt.Sprintf(", ... (%d more)", len(lost)-maxListedCells)
	}
	return out
}

// joinRanges renders ranges as "A1:B2, C3:D4".
func joinRanges(rs []cellarea.Range) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ", ")
}

// requireMerged fails unless ref is exactly one merged range, as openpyxl does.
func requireMerged(b *engine.Book, sheet, ref string) error {
	merged, err := b.MergeCells(sheet, true)
	if err != nil {
		return err
	}
	for _, m := range merged {
		if m.GetStartAxis()+":"+m.GetEndAxis() == ref {
			return nil
		}
	}
	return failure.Invalid("Cell range %s is not merged", ref)
}
