package splicepath

import (
	"archive/zip"
	"context"
	"errors"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
)

// Value writes into a workbook that holds formulas (whose cached values
// must stay true): the plain splice takes one when it provably changes no
// formula's value, so every cached value stays true without a calculator;
// every other write of write_cells goes through the recalc splice
// (recalc.go), which computes the values that change. The plain
// splice holds when
//   - no written value is a formula and the written sheet holds none
//     (Plan.NoFormulas declines the rewrite otherwise), and
//   - every formula cell of every worksheet has a cached value (the
//     excelize path computes missing ones), is not a data table, and reads
//     nothing of the written block: its references (formuladeps.ScanSheet)
//     are plain cell, range, row or column references that miss the
//     block. A formula that calls a volatile or reference-building function
//     (INDIRECT, OFFSET, NOW...), uses a defined name, a structured,
//     external or 3-D reference, or does not tokenize may read anything:
//     the write leaves the plain splice. A shared formula's references are widened by the
//     size of its group (a superset of what each member reads); a member
//     whose master is not found makes the write leave the plain splice.
// No formula reading a written cell means no formula value changes (values
// change only through what they read), so every cached value Excel saved is
// still true: the workbook is not marked to be recalculated on open, and
// workbook.xml stays byte for byte (the recalc splice and the excelize path,
// which change formula values, mark it).

// othersFormulaFree reports whether a value write of plan into sheet (its
// part) changes no formula's value on the workbook's other worksheets (see
// above). Any error means no.
func (sb *Book) othersFormulaFree(ctx context.Context, part, sheet string, plan splice.Plan) bool {
	edit, ok := planArea(sheet, plan)
	if !ok {
		return true // writes nothing
	}
	for _, ps := range sb.index.Sheets {
		if ps.Part == part || ps.Kind != opc.Worksheet {
			continue
		}
		if free, _ := sb.partFormulaFree(ctx, ps.Part, ps.Name, edit); !free {
			return false
		}
	}
	return true
}

// partFormulaFree runs sheetFormulasMiss over the worksheet part of the
// sheet named host.
func (sb *Book) partFormulaFree(ctx context.Context, part, host string, edit cellarea.Area) (bool, error) {
	zf := opc.FindPart(sb.zr, part)
	if zf == nil {
		return true, nil
	}
	rc, err := zf.Open()
	if err != nil {
		return false, err
	}
	defer rc.Close()
	free, _, err := sheetFormulasMiss(ctx, rc, host, edit)
	return free && err == nil, err
}

// rewriteOnce streams the worksheet entry zf through splice.Rewrite into
// a new body; body is nil on error.
func (sb *Book) rewriteOnce(ctx context.Context, zf *zip.File, plan splice.Plan) ([]byte, *splice.BodyWriter, error) {
	rc, err := zf.Open()
	if err != nil {
		return nil, nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	body := splice.NewBodyWriter(sb.svc.TmpBase) // scratch outside the workspace, unnamed
	head, _, err := splice.Rewrite(readerWithContext(ctx, sheetread.FailingReader{Reader: rc}), plan, body)
	if err == nil {
		err = body.Close()
	}
	if err != nil {
		_ = body.Release()
		return nil, nil, err
	}
	return head, body, nil
}

// planArea is the bounding box of the cells plan rebuilds.
func planArea(sheet string, plan splice.Plan) (cellarea.Area, bool) {
	a := cellarea.Area{Sheet: sheet}
	for _, r := range plan.Rows {
		for _, c := range plan.Cols(r) {
			if a.R1 == 0 {
				a.R1, a.R2, a.C1, a.C2 = r, r, c, c
				continue
			}
			a.R1, a.R2, a.C1, a.C2 = min(a.R1, r), max(a.R2, r), min(a.C1, c), max(a.C2, c)
		}
	}
	return a, a.R1 > 0
}

// sheetFormulasMiss streams one worksheet's XML and reports whether all its
// formulas miss edit (see above), and whether it holds any formula.
func sheetFormulasMiss(ctx context.Context, r io.Reader, host string, edit cellarea.Area) (free, any bool, err error) {
	w := sheetxml.NewWalker(readerWithContext(ctx, sheetread.FailingReader{Reader: r}))
	masters := map[int]bool{}
	members := map[int]bool{}
	for {
		ev, err := w.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return false, true, err
		}
		c := &w.Cell
		if ev != sheetxml.CellDone || !c.Formula {
			continue
		}
		any = true
		if len(c.Value) == 0 || string(c.FormulaType) == "dataTable" {
			return false, true, nil
		}
		if len(c.FormulaText) == 0 {
			if c.SharedIndex < 0 {
				return false, true, nil
			}
			members[c.SharedIndex] = true
			continue
		}
		areas, wide := formuladeps.ScanSheet(string(sheetxml.Unescape(c.FormulaText)), host)
		if wide {
			return false, true, nil
		}
		if string(c.FormulaType) == "shared" && c.SharedIndex >= 0 {
			group, ok := cellarea.ParseArea(string(c.FormulaRef), host)
			if !ok {
				return false, true, nil
			}
			masters[c.SharedIndex] = true
			for i := range areas {
				areas[i] = areas[i].Widen(group.R2-group.R1, group.C2-group.C1)
			}
		}
		for _, a := range areas {
			if a.Overlaps(edit) {
				return false, true, nil
			}
		}
	}
	if !w.Closed {
		return false, any, nil // truncated: the excelize path reports it
	}
	for si := range members {
		if !masters[si] {
			return false, true, nil
		}
	}
	return true, any, nil
}
