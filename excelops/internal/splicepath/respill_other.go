package splicepath

import (
	"context"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
)

// A dynamic array anchor on another sheet than the written one, that
// reads what the write changed, is computed again on the recalc splice
// when its new result has the shape of its recorded spill range (its
// values change, its range does not) and every cell of that range is a
// <c> element of its sheet (Excel stores each spilled value as one): the
// anchor gets its new cached value as other sheets' formulas do
// (splice.SetCached) and each spilled cell its new value in place, so
// nothing moves on that sheet. Its range is then an edited area: the
// formulas reading it are recomputed, on a calculator that sees the new
// values. An anchor showing #SPILL!, one whose range would grow, shrink
// or be obstructed, or whose range lacks a cell, declines.

// respillElsewhere computes the anchor all[i], on another sheet than the
// written one, again and records its new values in w.elsewhere; it
// returns its spill range (whose values changed).
func (sb *Book) respillElsewhere(ctx context.Context, sheets []calcSheet, all []calcFormula, i int, part string, w *cellWrites, early map[string]*earlyCopy) ([]cellarea.Area, error) {
	f := all[i]
	const who = "a dynamic array to recompute on another sheet"
	old, err := anchorToRecompute(f, who)
	if err != nil {
		return nil, err
	}
	if (old.R2-old.R1+1)*(old.C2-old.C1+1) > maxScratchCells {
		return nil, engine.NoSplice("a dynamic array to recompute on another sheet spills over more cells than the calculator copies")
	}
	if err := sb.spillCellsPresent(ctx, f.part, old); err != nil {
		return nil, err
	}
	vals, err := sb.computeAnchor(ctx, sheets, all, i, f.at.Sheet, part, w, early, who)
	if err != nil {
		return nil, err
	}
	if len(vals) != old.R2-old.R1+1 || len(vals[0]) != old.C2-old.C1+1 {
		return nil, engine.NoSplice("a dynamic array to recompute on another sheet would change its spill range")
	}
	cells := w.elsewhere[f.part]
	if cells == nil {
		cells = map[[2]int]cellContent{}
		if w.elsewhere == nil {
			w.elsewhere = map[string]map[[2]int]cellContent{}
		}
		w.elsewhere[f.part] = cells
	}
	anchor := cellContent{kind: 'f', formula: f.text, array: f.ref}
	anchor.cachedType, anchor.cachedValue = recalc.CachedOf(vals[0][0])
	cells[[2]int{old.R1, old.C1}] = anchor
	for r, row := range vals {
		for c, v := range row {
			if r > 0 || c > 0 {
				cells[[2]int{old.R1 + r, old.C1 + c}] = spilledContent(v)
			}
		}
	}
	all[i].fresh = true
	return []cellarea.Area{{Sheet: f.at.Sheet, C1: old.C1, R1: old.R1, C2: old.C2, R2: old.R2}}, nil
}

// spillCellsPresent declines unless every cell of the spill range rng
// other than its anchor is a <c> element of the worksheet part holding
// no formula (a formula there obstructs the spill).
func (sb *Book) spillCellsPresent(ctx context.Context, part string, rng cellarea.Range) error {
	want := (rng.R2-rng.R1+1)*(rng.C2-rng.C1+1) - 1
	seen, formula := 0, false
	err := sb.walkSpillCells(ctx, part, rng, func(c *sheetxml.Cell) bool {
		formula = c.Formula
		seen++
		return formula
	})
	switch {
	case err != nil:
		return err
	case formula:
		return engine.NoSplice("a formula obstructs the spill range of a dynamic array to recompute on another sheet")
	case seen != want:
		return engine.NoSplice("a cell of the spill range of a dynamic array to recompute on another sheet is missing")
	}
	return nil
}

// withElsewhere returns the scratch cells of a sheet other than the
// written one with the cells dynamic arrays spilled again there (cells,
// by row and column) in place of the copied ones.
func withElsewhere(copied []scratchCell, cells map[[2]int]cellContent) []scratchCell {
	if len(cells) == 0 {
		return copied
	}
	out := withoutWritten(copied, cells)
	for key, cc := range cells {
		if body := cc.scratchBody(); body != nil {
			out = append(out, scratchCell{key[0], key[1], body})
		}
	}
	return out
}

// withRespilled is plan that also rewrites the cells of a sheet other
// than the written one whose dynamic arrays spilled again (cells, by row
// and column): an anchor keeps its element with its new cached value
// (splice.SetCached), a spilled cell keeps its style and takes its new
// value (an empty one stays an empty cell). A cell that is not as
// respillElsewhere found it declines the rewrite.
func withRespilled(plan splice.Plan, cells map[[2]int]cellContent) splice.Plan {
	if len(cells) == 0 {
		return plan
	}
	cell := plan.Cell
	plan.Rows, plan.Cols = withCells(plan, cells)
	plan.Cell = func(dst []byte, row, col int, old *splice.OldCell, inherit int) ([]byte, error) {
		cc, ok := cells[[2]int{row, col}]
		switch {
		case !ok:
			return cell(dst, row, col, old, inherit)
		case old == nil:
			return dst, &splice.UnsupportedError{Reason: "a spilled cell to rewrite is missing", Detail: "cell " + splice.Ref(col, row)}
		case cc.kind == 'f':
			if !old.Formula {
				return dst, &splice.UnsupportedError{Reason: "a dynamic array to rewrite holds no formula", Detail: "cell " + splice.Ref(col, row)}
			}
			return splice.SetCached(dst, old.Raw, cc.cachedType, cc.cachedValue)
		case old.Formula:
			return dst, &splice.UnsupportedError{Reason: "a spilled cell to rewrite holds a formula", Detail: "cell " + splice.Ref(col, row)}
		case cc.kind == 0 && old.Style == 0:
			return append(splice.AppendRef(append(dst, `<c r="`...), col, row), `"/>`...), nil
		}
		return cc.appendXML(dst, col, row, old.Style), nil
	}
	return plan
}
