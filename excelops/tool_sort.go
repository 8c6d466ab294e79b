package excelops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
)

// sort_range sorts rows as Excel's Data > Sort does: values, formulas,
// styles, notes and links move with their row; a formula's relative
// references move with it as a copy of the row would (Excel, LibreOffice),
// absolute ones stay; references from outside into the range keep pointing
// at the same cells. Ascending order is numbers, text (ignoring case, in
// the Unicode collation order Excel and LibreOffice use),
// FALSE before TRUE, errors; descending reverses it; blanks are always last.

// sortClass orders the kinds of value in an ascending sort.
type sortClass int

const (
	classNumber sortClass = iota
	classText
	classBool
	classError
	classBlank
)

// sortValue is one cell as the sort compares it.
type sortValue struct {
	class sortClass
	num   float64
	text  []byte // collation key: case-insensitive, accents after base letters, as Excel
}

// sortKey is one checked sort_by entry.
type sortKey struct {
	col  int
	desc bool
}

// sortCell is one cell of the block being sorted.
type sortCell struct {
	value   any
	formula string
	rich    []excelize.RichTextRun
	style   int
}

// newSortCollator is the text order of a sort: Unicode's (root locale),
// ignoring case, as Excel and LibreOffice sort.
func newSortCollator() *collate.Collator { return collate.New(language.Und, collate.IgnoreCase) }

// compareSort orders a and b for one key: blanks last in either order.
func compareSort(a, b sortValue, desc bool) int {
	if a.class == classBlank || b.class == classBlank {
		return int(boolInt(a.class == classBlank) - boolInt(b.class == classBlank))
	}
	c := 0
	switch {
	case a.class != b.class:
		c = int(a.class) - int(b.class)
	case a.class == classNumber || a.class == classBool:
		c = cmpFloat(a.num, b.num)
	case a.class == classText:
		c = bytes.Compare(a.text, b.text)
	}
	if desc {
		return -c
	}
	return c
}

// boolInt is 1 for true.
func boolInt(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

// cmpFloat compares two numbers.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sortRange implements sort_range.
func (s *Service) sortRange(ctx context.Context, raw json.RawMessage) (*call, error) {
	var a struct {
		FilePath  string `json:"file_path"`
		SheetName string `json:"sheet_name"`
		CellRange string `json:"cell_range"`
		SortBy    []struct {
			Column string `json:"column"`
			Order  string `json:"order"`
		} `json:"sort_by"`
		Header bool `json:"header"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	rng, err := parseRange(a.CellRange)
	if err != nil {
		return nil, err
	}
	if len(a.SortBy) == 0 {
		return nil, invalid("sort_by needs at least one key, e.g. [{\"column\": \"B\", \"order\": \"descending\"}]")
	}
	if a.Header && rng.r1 == rng.r2 {
		return nil, invalid("range %s is only its header row: nothing to sort", rng)
	}
	for i, k := range a.SortBy {
		if k.Order != "" && k.Order != "ascending" && k.Order != "descending" {
			return nil, invalid("sort_by %d: order must be ascending or descending, got %q", i+1, k.Order)
		}
	}
	return onBook(a.FilePath, a.SheetName, func(b *book, sh sheetRef) (any, error) {
		sheet, ext := sh.name, sh.ext
		keys := make([]sortKey, len(a.SortBy))
		shown := make([]any, len(a.SortBy))
		for i, k := range a.SortBy {
			col, err := b.sortColumn(sheet, rng, k.Column, a.Header)
			if err != nil {
				return nil, fmt.Errorf("sort_by %d: %w", i+1, err)
			}
			order := "ascending"
			if k.Order == "descending" {
				order = "descending"
			}
			keys[i] = sortKey{col, order == "descending"}
			shown[i] = errorsjson.Object{{Key: "column", Value: columnName(col)}, {Key: "order", Value: order}}
		}
		top := rng.r1
		if a.Header {
			top++
		}
		block := cellRange{rng.c1, top, rng.c2, min(rng.r2, ext.maxRow)}
		res := success(b.name(), sheet, field("range", rng.String()), field("header", a.Header), field("sort_by", shown))
		if block.r2 < block.r1 {
			return append(res, errorsjson.Field{Key: "rows_sorted", Value: 0}, errorsjson.Field{Key: "rows_moved", Value: 0}), nil
		}
		if block.cells() > int64(s.limits.MaxWriteCells) {
			return nil, limitErr(fmt.Sprintf("sorting %s moves %d cells, more than the limit of %d", block, block.cells(), s.limits.MaxWriteCells))
		}
		if err := b.checkSortable(sheet, rng, block); err != nil {
			return nil, err
		}
		moved, err := b.sortBlock(sheet, block, keys)
		if err != nil {
			return nil, err
		}
		b.edits = &editSet{areas: []sheetArea{{sheet, block.c1, block.r1, block.c2, block.r2}}}
		return append(res, errorsjson.Field{Key: "rows_sorted", Value: block.r2 - block.r1 + 1}, errorsjson.Field{Key: "rows_moved", Value: moved}), nil
	}), nil
}

// sortColumn resolves a sort_by column: a header's text (with header) or a
// column letter inside rng.
func (b *book) sortColumn(sheet string, rng cellRange, column string, header bool) (int, error) {
	if header {
		var headers []string
		for c := rng.c1; c <= rng.c2; c++ {
			v, _ := b.f.GetCellValue(sheet, cellName(c, rng.r1))
			if strings.EqualFold(strings.TrimSpace(v), strings.TrimSpace(column)) && v != "" {
				return c, nil
			}
			headers = append(headers, v)
		}
		col, err := parseColumn(column)
		if err != nil || col < rng.c1 || col > rng.c2 {
			return 0, invalid("%s", sentences(fmt.Sprintf("column %q is neither a header of %s (%s) nor a column letter inside it", column, rng, strings.Join(headers, ", ")),
				didYouMean(closeMatches(column, headers))))
		}
		return col, nil
	}
	col, err := parseColumn(column)
	if err != nil {
		return 0, err
	}
	if col < rng.c1 || col > rng.c2 {
		return 0, invalid("column %s is outside %s (columns %s to %s)", columnName(col), rng, columnName(rng.c1), columnName(rng.c2))
	}
	return col, nil
}

// checkSortable refuses what a sort would break: merged cells, array
// formulas and tables the range covers only in part.
func (b *book) checkSortable(sheet string, rng, block cellRange) error {
	if err := b.refuseMerged(sheet, rng, "range"); err != nil {
		return err
	}
	tables, err := b.tablesOn(sheet)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if !rangesOverlap(t.rng, block) {
			continue
		}
		body := cellRange{t.rng.c1, t.rng.r1 + 1, t.rng.c2, t.rng.r2}
		// The block may stop short of the table's last rows when those are empty.
		if block.c1 != body.c1 || block.c2 != body.c2 || block.r1 != body.r1 || rng.r2 != body.r2 {
			return invalid("range %s covers only part of the table %q (%s); sort the whole table: cell_range %s with header: true", rng, t.name, t.rng, t.rng)
		}
	}
	formulas, err := b.formulaCells(sheet)
	if err != nil {
		return err
	}
	for _, fc := range formulas {
		if fc.arrayRef == "" {
			continue
		}
		if ar, err := parseRange(fc.arrayRef); err == nil && rangesOverlap(ar, block) {
			return invalid("range %s holds the array formula at %s (%s), which a sort would break; convert it to ordinary formulas first", rng, fc.ref, fc.arrayRef)
		}
	}
	return nil
}

// readSortCell reads one cell of the block: what to write back and how it
// sorts (text by coll's key).
func (b *book) readSortCell(sheet, ref string, coll *collate.Collator) (sortCell, sortValue, error) {
	var c sortCell
	var err error
	if c.style, err = b.f.GetCellStyle(sheet, ref); err != nil {
		return c, sortValue{}, newError(KindDamaged, "file is damaged: "+err.Error(), err)
	}
	if c.formula, err = b.f.GetCellFormula(sheet, ref); err != nil {
		return c, sortValue{}, newError(KindDamaged, "file is damaged: "+err.Error(), err)
	}
	raw, err := b.f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
	if err != nil {
		return c, sortValue{}, newError(KindDamaged, "file is damaged: "+err.Error(), err)
	}
	t, _ := b.f.GetCellType(sheet, ref)
	if c.formula != "" && raw == "" {
		raw, _ = b.f.CalcCellValue(sheet, ref, excelize.Options{RawCellValue: true})
		t = excelize.CellTypeUnset
	}
	switch {
	case raw == "" && c.formula == "":
		return c, sortValue{class: classBlank}, nil
	case t == excelize.CellTypeError:
		if c.formula == "" {
			return c, sortValue{}, invalid("cell %s holds the error value %s as a constant, which sort_range cannot move; clear it or replace it by a formula", ref, raw)
		}
		return c, sortValue{class: classError}, nil
	case t == excelize.CellTypeDate:
		return c, sortValue{}, invalid("cell %s holds an ISO date stored as text-typed date (t=\"d\"), which sort_range cannot move; rewrite it with write_cells first", ref)
	case t == excelize.CellTypeBool:
		c.value = raw == "1" || strings.EqualFold(raw, "true")
		return c, sortValue{class: classBool, num: float64(boolInt(c.value.(bool)))}, nil
	}
	if c.formula == "" {
		c.value = typedValue(raw, t)
		if t == excelize.CellTypeSharedString || t == excelize.CellTypeInlineString {
			if runs, err := b.f.GetCellRichText(sheet, ref); err == nil && (len(runs) > 1 || (len(runs) == 1 && runs[0].Font != nil)) {
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
func (b *book) sortBlock(sheet string, block cellRange, keys []sortKey) (int, error) {
	n := block.r2 - block.r1 + 1
	width := block.c2 - block.c1 + 1
	cells := make([][]sortCell, n)
	vals := make([][]sortValue, n)
	coll := newSortCollator()
	for i := 0; i < n; i++ {
		cells[i] = make([]sortCell, width)
		vals[i] = make([]sortValue, len(keys))
		for j := 0; j < width; j++ {
			c, v, err := b.readSortCell(sheet, cellName(block.c1+j, block.r1+i), coll)
			if err != nil {
				return 0, err
			}
			cells[i][j] = c
			for k, key := range keys {
				if key.col == block.c1+j {
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
	plan, err := b.sortPlan(sheet, block, cells, dest)
	if err != nil {
		return 0, err
	}
	for i, src := range perm {
		if src == i {
			continue
		}
		for j, c := range cells[src] {
			ref := cellName(block.c1+j, block.r1+i)
			var err error
			switch {
			case c.rich != nil:
				err = b.f.SetCellRichText(sheet, ref, c.rich)
			default:
				err = b.f.SetCellValue(sheet, ref, c.value)
			}
			if err == nil {
				err = b.f.SetCellStyle(sheet, ref, ref, c.style)
			}
			if err != nil {
				return 0, newError(KindInvalidArgument, fmt.Sprintf("cannot write %s: %v", ref, err), err)
			}
		}
	}
	if err := b.applyRefs(plan); err != nil {
		return 0, err
	}
	if err := b.moveNotes(sheet, block, dest); err != nil {
		return 0, err
	}
	b.moveLinks(sheet, block, dest)
	return moved, nil
}

// sortPlan is every formula of the sheet as it must read after the sort:
// the block's formulas at their new rows with their relative references
// moved by the same number of rows, every other formula unchanged (writing
// the block may drop shared formulas the plan then restores).
func (b *book) sortPlan(sheet string, block cellRange, cells [][]sortCell, dest []int) (*refPlan, error) {
	p := &refPlan{}
	all, err := b.formulaCells(sheet)
	if err != nil {
		return nil, err
	}
	for _, fc := range all {
		col, row, err := excelize.CellNameToCoordinates(fc.ref)
		if err != nil || (col >= block.c1 && col <= block.c2 && row >= block.r1 && row <= block.r2) {
			continue
		}
		text, err := b.f.GetCellFormula(sheet, fc.ref)
		if err != nil {
			return nil, newError(KindDamaged, "file is damaged: "+err.Error(), err)
		}
		p.cells = append(p.cells, plannedFormula{sheet: sheet, cell: fc.ref, formula: text, arrayRef: fc.arrayRef})
	}
	for src, row := range cells {
		shift := dest[src] - src
		for j, c := range row {
			if c.formula == "" {
				continue
			}
			ref := cellName(block.c1+j, block.r1+dest[src])
			text, _ := formularef.Translate(c.formula, shift, 0)
			if err := checkFormula(ref, text); err != nil {
				return nil, err
			}
			p.cells = append(p.cells, plannedFormula{sheet: sheet, cell: ref, formula: text, changed: shift != 0})
		}
	}
	return p, nil
}

// moveNotes moves the notes of the block's cells with their rows.
func (b *book) moveNotes(sheet string, block cellRange, dest []int) error {
	comments, err := b.f.GetComments(sheet)
	if err != nil {
		return newError(KindDamaged, fmt.Sprintf("file is damaged: cannot read the notes of sheet %q: %v", sheet, err), err)
	}
	var move []excelize.Comment
	for _, c := range comments {
		col, row, err := excelize.CellNameToCoordinates(c.Cell)
		if err != nil || col < block.c1 || col > block.c2 || row < block.r1 || row > block.r2 || dest[row-block.r1] == row-block.r1 {
			continue
		}
		if err := b.f.DeleteComment(sheet, c.Cell); err != nil {
			return newError(KindInvalidArgument, "cannot move the note of "+c.Cell+": "+err.Error(), err)
		}
		c.Cell = cellName(col, block.r1+dest[row-block.r1])
		move = append(move, c)
	}
	for _, c := range move {
		if c.Text == "" && len(c.Paragraph) > 0 {
			c.Text, c.Paragraph = commentText(c), nil
		}
		c.AuthorID = 0
		if err := b.f.AddComment(sheet, c); err != nil {
			return newError(KindInvalidArgument, "cannot move the note to "+c.Cell+": "+err.Error(), err)
		}
	}
	return nil
}

// moveLinks moves the single-cell hyperlinks of the block with their rows
// (excelize has no API to read a link's display text and tooltip, so the
// parsed <hyperlink> elements are re-pointed in place).
func (b *book) moveLinks(sheet string, block cellRange, dest []int) {
	ws, ok := b.worksheet(sheet)
	if !ok {
		return
	}
	hl := ws.FieldByName("Hyperlinks")
	if !hl.IsValid() || hl.Kind() != reflect.Pointer || hl.IsNil() {
		return
	}
	list := hl.Elem().FieldByName("Hyperlink")
	if !list.IsValid() || list.Kind() != reflect.Slice {
		return
	}
	for i := 0; i < list.Len(); i++ {
		ref := list.Index(i).FieldByName("Ref")
		if ref.Kind() != reflect.String || !ref.CanSet() {
			continue
		}
		col, row, err := excelize.CellNameToCoordinates(ref.String())
		if err != nil || col < block.c1 || col > block.c2 || row < block.r1 || row > block.r2 {
			continue
		}
		ref.SetString(cellName(col, block.r1+dest[row-block.r1]))
	}
}
