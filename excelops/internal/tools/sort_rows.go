package tools

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"golang.org/x/text/collate"
)

// How sort_range moves rows: each cell of the block is read with how it
// sorts, the rows are ordered (stable), and every row that moves takes its
// values, styles, formulas (relative references moved by as many rows),
// notes and links along.

// readSortCell reads one cell of the block: what to write back and how it
// sorts (text by coll's key).
func readSortCell(b *engine.Book, sheet, ref string, coll *collate.Collator) (sortCell, sortValue, error) {
	var c sortCell
	var err error
	if c.style, err = b.CellStyle(sheet, ref); err != nil {
		return c, sortValue{}, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	if c.formula, err = b.CellFormula(sheet, ref); err != nil {
		return c, sortValue{}, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	raw, err := b.CellValue(sheet, ref, excelize.Options{RawCellValue: true})
	if err != nil {
		return c, sortValue{}, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	t, _ := b.CellType(sheet, ref)
	if c.formula != "" && raw == "" {
		if raw, err = b.CalcValue(sheet, ref); err != nil && b.CallContext().Err() != nil {
			return c, sortValue{}, err
		}
		t = excelize.CellTypeUnset
	}
	switch {
	case raw == "" && c.formula == "":
		return c, sortValue{class: classBlank}, nil
	case t == excelize.CellTypeError:
		if c.formula == "" {
			return c, sortValue{}, failure.Invalid("cell %s holds the error value %s as a constant, which sort_range cannot move; clear it or replace it by a formula", ref, raw)
		}
		return c, sortValue{class: classError}, nil
	case t == excelize.CellTypeDate:
		return c, sortValue{}, failure.Invalid("cell %s holds an ISO date stored as text-typed date (t=\"d\"), which sort_range cannot move; rewrite it with write_cells first", ref)
	case t == excelize.CellTypeBool:
		c.value = raw == "1" || strings.EqualFold(raw, "true")
		return c, sortValue{class: classBool, num: float64(boolInt(c.value.(bool)))}, nil
	}
	if c.formula == "" {
		c.value = typedValue(raw, t)
		if t == excelize.CellTypeSharedString || t == excelize.CellTypeInlineString {
			if runs, err := b.CellRichText(sheet, ref); err == nil && (len(runs) > 1 || (len(runs) == 1 && runs[0].Font != nil)) {
				c.rich = runs
			}
		}
	}
	switch v := typedValue(raw, t).(type) {
	case int64:
		return c, sortValue{class: classNumber, num: float64(v)}, nil
	case float64:
		if !math.IsNaN(v) {
			return c, sortValue{class: classNumber, num: v}, nil
		}
	}
	var buf collate.Buffer
	return c, sortValue{class: classText, text: bytes.Clone(coll.KeyFromString(&buf, raw))}, nil
}

// sortBlock sorts the rows of block by keys (stable, as Excel) and moves
// each row's cells, styles, notes and links; it returns how many rows moved.
func sortBlock(b *engine.Book, sheet string, block cellarea.Range, keys []sortKey) (int, error) {
	n := block.R2 - block.R1 + 1
	width := block.C2 - block.C1 + 1
	cells := make([][]sortCell, n)
	vals := make([][]sortValue, n)
	coll := newSortCollator()
	for i := 0; i < n; i++ {
		cells[i] = make([]sortCell, width)
		vals[i] = make([]sortValue, len(keys))
		for j := 0; j < width; j++ {
			c, v, err := readSortCell(b, sheet, grid.CellName(block.C1+j, block.R1+i), coll)
			if err != nil {
				return 0, err
			}
			cells[i][j] = c
			for k, key := range keys {
				if key.col == block.C1+j {
					vals[i][k] = v
				}
			}
		}
	}
	perm := make([]int, n) // perm[i]: the row (0-based in block) that lands at i
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(x, y int) bool {
		for k, key := range keys {
			if c := compareSort(vals[perm[x]][k], vals[perm[y]][k], key.desc); c != 0 {
				return c < 0
			}
		}
		return false
	})
	moved := 0
	dest := make([]int, n) // dest[src]: where the source row lands
	for i, src := range perm {
		dest[src] = i
		if src != i {
			moved++
		}
	}
	if moved == 0 {
		return 0, nil
	}
	plan, err := sortPlan(b, sheet, block, cells, dest)
	if err != nil {
		return 0, err
	}
	for i, src := range perm {
		if src == i {
			continue
		}
		for j, c := range cells[src] {
			ref := grid.CellName(block.C1+j, block.R1+i)
			var err error
			switch s, text := c.value.(string); {
			case c.rich != nil:
				err = b.SetCellRichText(sheet, ref, c.rich)
			case text && grid.CheckText(ref, s) != nil:
				return 0, grid.CheckText(ref, s) // excelize would cut it short
			default:
				err = b.SetCellValue(sheet, ref, c.value)
			}
			if err == nil {
				err = b.SetCellStyle(sheet, ref, ref, c.style)
			}
			if err != nil {
				return 0, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot write %s: %v", ref, err), err)
			}
		}
	}
	if err := b.ApplyRefs(plan); err != nil {
		return 0, err
	}
	if err := moveNotes(b, sheet, block, dest); err != nil {
		return 0, err
	}
	moveLinks(b, sheet, block, dest)
	return moved, nil
}

// sortPlan is every formula of the sheet as it must read after the sort:
// the block's formulas at their new rows with their relative references
// moved by the same number of rows, every other formula unchanged (writing
// the block may drop shared formulas the plan then restores).
func sortPlan(b *engine.Book, sheet string, block cellarea.Range, cells [][]sortCell, dest []int) (*engine.RefPlan, error) {
	p := &engine.RefPlan{}
	all, err := b.FormulaCells(sheet)
	if err != nil {
		return nil, err
	}
	for _, fc := range all {
		col, row, err := excelize.CellNameToCoordinates(fc.Ref)
		if err != nil || (col >= block.C1 && col <= block.C2 && row >= block.R1 && row <= block.R2) {
			continue
		}
		text, err := b.CellFormula(sheet, fc.Ref)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
		p.Cells = append(p.Cells, engine.PlannedFormula{Sheet: sheet, Cell: fc.Ref, Formula: text, ArrayRef: fc.ArrayRef})
	}
	for src, row := range cells {
		shift := dest[src] - src
		for j, c := range row {
			if c.formula == "" {
				continue
			}
			ref := grid.CellName(block.C1+j, block.R1+dest[src])
			text, _ := formularef.Translate(c.formula, shift, 0)
			if err := grid.CheckFormula(ref, text); err != nil {
				return nil, err
			}
			p.Cells = append(p.Cells, engine.PlannedFormula{Sheet: sheet, Cell: ref, Formula: text, Changed: shift != 0})
		}
	}
	return p, nil
}

// moveNotes moves the notes of the block's cells with their rows.
func moveNotes(b *engine.Book, sheet string, block cellarea.Range, dest []int) error {
	comments, err := b.Comments(sheet)
	if err != nil {
		return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: cannot read the notes of sheet %q: %v", sheet, err), err)
	}
	var move []excelize.Comment
	for _, c := range comments {
		col, row, err := excelize.CellNameToCoordinates(c.Cell)
		if err != nil || col < block.C1 || col > block.C2 || row < block.R1 || row > block.R2 || dest[row-block.R1] == row-block.R1 {
			continue
		}
		if err := b.DeleteComment(sheet, c.Cell); err != nil {
			return failure.New(failure.KindInvalidArgument, "cannot move the note of "+c.Cell+": "+err.Error(), err)
		}
		c.Cell = grid.CellName(col, block.R1+dest[row-block.R1])
		move = append(move, c)
	}
	for _, c := range move {
		if c.Text == "" && len(c.Paragraph) > 0 {
			c.Text, c.Paragraph = commentText(c), nil
		}
		c.AuthorID = 0
		if err := b.AddComment(sheet, c); err != nil {
			return failure.New(failure.KindInvalidArgument, "cannot move the note to "+c.Cell+": "+err.Error(), err)
		}
	}
	return nil
}

// moveLinks moves the single-cell hyperlinks of the block with their rows
// (excelize has no API to read a link's display text and tooltip, so the
// parsed <hyperlink> elements are re-pointed in place).
func moveLinks(b *engine.Book, sheet string, block cellarea.Range, dest []int) {
	ws, ok := b.Worksheet(sheet)
	if !ok {
		return
	}
	if ws.Hyperlinks == nil {
		return
	}
	for i := range ws.Hyperlinks.Hyperlink {
		link := &ws.Hyperlinks.Hyperlink[i]
		col, row, err := excelize.CellNameToCoordinates(link.Ref)
		if err != nil || col < block.C1 || col > block.C2 || row < block.R1 || row > block.R2 {
			continue
		}
		link.Ref = grid.CellName(col, block.R1+dest[row-block.R1])
	}
}
