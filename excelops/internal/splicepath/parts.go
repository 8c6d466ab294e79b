package splicepath

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
)

// editParts rewrites the worksheet part of sheet with plan and returns the
// rewritten parts: that sheet alone, or, when the write goes through the
// recalc splice (recalc.go), every sheet whose cached formula
// values change too. engine.ErrNoSplice when the excelize path must do the edit.
func (sb *Book) editParts(ctx context.Context, part, sheet string, plan splice.Plan) (map[string]splice.Part, error) {
	zf := opc.FindPart(sb.zr, part)
	if zf == nil {
		return nil, engine.NoSplice("the worksheet part is missing")
	}
	part = zf.Name
	if sb.writes != nil && !plan.NoFormulas {
		return sb.recalcParts(ctx, part, sheet, plan)
	}
	if plan.NoFormulas && !sb.othersFormulaFree(ctx, part, sheet, plan) {
		return sb.recalcParts(ctx, part, sheet, plan) // a formula reads the write
	}
	head, body, err := sb.rewriteOnce(ctx, zf, plan)
	if errors.Is(err, splice.ErrFormulas) && sb.writes != nil {
		// The written sheet holds formulas: the recalc splice's one scan
		// tells whether they read the write.
		return sb.recalcParts(ctx, part, sheet, plan)
	}
	if err != nil {
		return nil, sb.partErr(ctx, err, sheet)
	}
	return map[string]splice.Part{part: splice.Segments{Head: head, Body: body}}, nil
}

// recalcParts is editParts through the recalc splice.
func (sb *Book) recalcParts(ctx context.Context, part, sheet string, plan splice.Plan) (_ map[string]splice.Part, err error) {
	if sb.writes == nil {
		return nil, engine.NoSplice("formulas read the edited cells")
	}
	rc, err := sb.recalcPlan(ctx, sheet, part, sb.writes)
	if err != nil {
		return nil, err
	}
	if err := sb.trimCalcChain(sheet, rc.removed); err != nil {
		return nil, err
	}
	sb.calc = rc.computed
	plan.NoFormulas = false
	parts := map[string]splice.Part{}
	defer func() {
		if err != nil {
			releaseParts(parts)
		}
	}()
	if err := sb.rewritePart(ctx, part, sheet, withCached(withSpills(plan, sb.writes), rc.results[part]), parts); err != nil {
		return nil, err
	}
	others := map[string]bool{}
	for p := range rc.results {
		others[p] = true
	}
	for p := range sb.writes.elsewhere {
		others[p] = true
	}
	for p := range others {
		if p == part {
			continue
		}
		plan := withRespilled(withCached(splice.Plan{Cols: func(int) []int { return nil }}, rc.results[p]), sb.writes.elsewhere[p])
		if err := sb.rewritePart(ctx, p, rc.sheetOf[p], plan, parts); err != nil {
			return nil, err
		}
	}
	return parts, nil
}

// trimCalcChain drops from Excel's calculation chain the cells of sheet
// (by row and column) whose formula a value replaced, which would
// otherwise list cells without a formula (Excel then offers to repair the
// file); engine.ErrNoSplice when the chain cannot be trimmed (see
// withoutChainCells).
func (sb *Book) trimCalcChain(sheet string, removed map[[2]int]bool) error {
	zf := opc.FindPart(sb.zr, calcChainPart)
	if len(removed) == 0 || zf == nil {
		return nil
	}
	id := 0
	for _, ps := range sb.index.Sheets {
		if ps.Name == sheet {
			id = ps.ID
		}
	}
	data, err := opc.ReadPart(sb.zr, zf.Name)
	if err != nil || id <= 0 {
		return engine.NoSplice("the calculation chain cannot be read")
	}
	out, ok := WithoutChainCells(data, id, removed)
	if !ok {
		return engine.NoSplice("the calculation chain cannot be trimmed")
	}
	sb.parts[zf.Name] = splice.Bytes(out)
	return nil
}

// rewritePart rewrites the worksheet part (of the sheet named sheet) with
// plan into parts.
func (sb *Book) rewritePart(ctx context.Context, part, sheet string, plan splice.Plan, parts map[string]splice.Part) error {
	zf := opc.FindPart(sb.zr, part)
	if zf == nil {
		return engine.NoSplice("the worksheet part is missing")
	}
	plan.MaxRow = min(sb.svc.Limits.MaxRows, grid.LastRow)
	plan.MaxCellText = sb.svc.Limits.MaxCellTextBytes
	head, body, err := sb.rewriteOnce(ctx, zf, plan)
	if err != nil {
		return sb.partErr(ctx, err, sheet)
	}
	parts[zf.Name] = splice.Segments{Head: head, Body: body}
	return nil
}

// partErr turns an error of a sheet's rewrite into the call's error: a
// conflict when the file changed meanwhile, Excel's limits, damage, or
// engine.ErrNoSplice for an edit the splicer declines.
func (sb *Book) partErr(ctx context.Context, err error, sheet string) error {
	if cerr := sb.unchangedOnDisk(); cerr != nil {
		// Read through the open file: another program rewrote it in place
		// while it was read. Not damage: a conflict, done again.
		return cerr
	}
	var rowErr *splice.RowLimitError
	var textErr *splice.CellTextError
	var refErr *splice.SharedRefError
	var rerr sheetread.ReadError
	var unsup *splice.UnsupportedError
	switch {
	case errors.Is(err, engine.ErrNoSplice):
		return err
	case errors.As(err, &rowErr):
		return budget.TooLarge(rowErr.Error())
	case errors.As(err, &textErr):
		return sb.svc.Limits.CellTextErr(fmt.Sprintf("cell %s of sheet %q", grid.CellName(textErr.Col, textErr.Row), sheet))
	case errors.As(err, &refErr):
		return engine.MissingSharedString(refErr.Col, refErr.Row, refErr.Value)
	case errors.As(err, &unsup):
		return engine.NoSplice(unsup.Reason)
	case errors.Is(err, splice.ErrUnsupported):
		return engine.NoSplice("the splicer declines the sheet")
	case errors.Is(err, splice.ErrDamaged):
		return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: sheet %q: %v", sheet, err), err)
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &rerr):
		return failure.New(failure.KindDamaged, "file is damaged: cannot read the sheet: "+err.Error(), err)
	}
	return err
}

// releaseParts frees the rewritten sheet bodies of parts.
func releaseParts(parts map[string]splice.Part) {
	for _, p := range parts {
		if seg, ok := p.(splice.Segments); ok {
			_ = seg.Body.Release()
		}
	}
}

// withCells returns the rows plan rewrites and, for each, its columns,
// with the cells keyed (row, column) in extra added: sorted, each once.
func withCells[V any](plan splice.Plan, extra map[[2]int]V) ([]int, func(int) []int) {
	cols := map[int][]int{}
	for _, r := range plan.Rows {
		cols[r] = append(cols[r], plan.Cols(r)...)
	}
	for k := range extra {
		cols[k[0]] = append(cols[k[0]], k[1])
	}
	rows := make([]int, 0, len(cols))
	for r, cs := range cols {
		slices.Sort(cs)
		cols[r] = slices.Compact(cs)
		rows = append(rows, r)
	}
	slices.Sort(rows)
	return rows, func(r int) []int { return cols[r] }
}

// withCached is plan that also stores the cached values res (by row and
// column) into the formula cells it finds there; a cell of res that holds
// no formula declines the rewrite.
func withCached(plan splice.Plan, res map[[2]int]cachedResult) splice.Plan {
	if len(res) == 0 {
		return plan
	}
	cell := plan.Cell
	plan.Rows, plan.Cols = withCells(plan, res)
	plan.Cell = func(dst []byte, row, col int, old *splice.OldCell, inherit int) ([]byte, error) {
		r, ok := res[[2]int{row, col}]
		if !ok {
			return cell(dst, row, col, old, inherit)
		}
		if old == nil || !old.Formula {
			return dst, &splice.UnsupportedError{Reason: "a cell to recompute holds no formula", Detail: "cell " + splice.Ref(col, row)}
		}
		return splice.SetCached(dst, old.Raw, r.t, r.v)
	}
	return plan
}
