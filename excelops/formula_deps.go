package excelops

import (
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/xuri/efp"
)

// sheetArea is a rectangle of cells on one sheet (1-based, inclusive).
type sheetArea struct {
	Sheet          string
	C1, R1, C2, R2 int
}

// Overlaps reports whether a and o share a cell (sheet names compare as
// Excel compares them, case-insensitively).
func (a sheetArea) Overlaps(o sheetArea) bool {
	return a.C1 <= o.C2 && o.C1 <= a.C2 && a.R1 <= o.R2 && o.R1 <= a.R2 && strings.EqualFold(a.Sheet, o.Sheet)
}

// editSet is what one call changed, when the tool can say exactly (a block
// of written cells, rows inserted or deleted). A nil *editSet means
// anything may have changed (sheets deleted, copies).
type editSet struct {
	areas []sheetArea
	// moved says cells changed place (rows or columns inserted or
	// deleted): a formula reading a position rather than a value (ROW,
	// COLUMN, ADDRESS, CELL, ...) may change without reading a changed cell.
	moved bool
	// cut says references may have been cut (rows or columns deleted): a
	// formula holding #REF! may have a new value.
	cut bool
	// fresh are cells whose dynamic array formulas the call spilled
	// itself (write_cells' block): the refresh does not spill them again.
	fresh []sheetArea
}

// written returns the areas whose cells the edit wrote: its areas, unless
// cells moved (then the areas are where they moved, not new content).
func (e *editSet) written() []sheetArea {
	if e.moved {
		return nil
	}
	return e.areas
}

// volatileFunctions read cells their arguments do not name (INDIRECT,
// OFFSET), or change without any edit: a formula calling one depends on
// every edit. A spill reference (ANCHORARRAY) is not among them: the
// range it reads is its anchor's spill (see depScope.spillRead).
var volatileFunctions = map[string]bool{
	"INDIRECT": true, "OFFSET": true, "NOW": true, "TODAY": true, "RAND": true, "RANDBETWEEN": true,
	"RANDARRAY": true, "CELL": true, "INFO": true,
	"GETPIVOTDATA": true, // reads its pivot table's source range, which no argument names
}

// formulaDeps returns the areas formula (on sheet host) reads; wide is true
// when it may read anything: a defined name, a structured or external or
// 3-D reference, a spill reference, a volatile function, or text that does
// not tokenize. The names a LET or LAMBDA binds read nothing.
func formulaDeps(formula, host string) (areas []sheetArea, wide bool) {
	return formulaDepsIn(formula, sheetArea{Sheet: host}, nil)
}

// formulaDepsIn is formulaDeps for the formula of cell at, with tables,
// defined names and spill references resolved through scope to the areas
// they cover (nil resolves none: every one is wide).
func formulaDepsIn(formula string, at sheetArea, scope *depScope) (areas []sheetArea, wide bool) {
	host := at.Sheet
	toks := formulaTokensOf(formula)
	local := localNames(toks)
	for i, tk := range toks {
		name, isFunction := functionName(tk)
		switch {
		case isFunction && name == "ANCHORARRAY":
			spill, ok := scope.spillRead(toks, i, host)
			if !ok {
				return nil, true
			}
			areas = append(areas, spill) // its argument, the anchor, follows
		case isFunction:
			if volatileFunctions[name] {
				return nil, true
			}
		case local != nil && local[i]:
			continue // a name of LET or LAMBDA
		case tk.TType == efp.TokenTypeOperand && tk.TSubType == efp.TokenSubTypeRange:
			if a, ok := parseArea(tk.TValue, host); ok {
				areas = append(areas, a)
				continue
			}
			named, ok := scope.resolve(tk.TValue, at, formula)
			if !ok {
				return nil, true
			}
			areas = append(areas, named...)
		case tk.TType == efp.TokenTypeUnknown:
			return nil, true
		}
	}
	return areas, false
}

// parseArea reads a reference operand: [sheet!]cell, cell:cell, col:col or
// row:row, with or without $. ok is false for anything else (names,
// structured, external and 3-D references).
func parseArea(ref, host string) (sheetArea, bool) {
	a := sheetArea{Sheet: host}
	if i := strings.LastIndex(ref, "!"); i >= 0 {
		sheet := ref[:i]
		if strings.HasPrefix(sheet, "'") && strings.HasSuffix(sheet, "'") && len(sheet) >= 2 {
			sheet = strings.ReplaceAll(sheet[1:len(sheet)-1], "''", "'")
		}
		if sheet == "" || strings.ContainsAny(sheet, "[]:") {
			return a, false
		}
		a.Sheet, ref = sheet, ref[i+1:]
	}
	ref = strings.ReplaceAll(ref, "$", "")
	lo, hi, isRange := strings.Cut(ref, ":")
	if !isRange {
		hi = lo
	}
	c1, r1, ok1 := parseEnd(lo)
	c2, r2, ok2 := parseEnd(hi)
	if !ok1 || !ok2 || (c1 == 0) != (c2 == 0) || (r1 == 0) != (r2 == 0) || (!isRange && (c1 == 0 || r1 == 0)) {
		return a, false
	}
	if c1 == 0 { // whole rows
		c1, c2 = 1, excelize.MaxColumns
	}
	if r1 == 0 { // whole columns
		r1, r2 = 1, excelize.TotalRows
	}
	a.C1, a.C2 = min(c1, c2), max(c1, c2)
	a.R1, a.R2 = min(r1, r2), max(r1, r2)
	return a, true
}

// parseEnd reads one end of a reference: a cell (col, row), a column
// (col, 0) or a row (0, row).
func parseEnd(s string) (col, row int, ok bool) {
	i := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
		i++
	}
	letters, digits := s[:i], s[i:]
	if letters == "" && digits == "" || len(letters) > 3 {
		return 0, 0, false
	}
	if letters != "" {
		c, err := excelize.ColumnNameToNumber(letters)
		if err != nil {
			return 0, 0, false
		}
		col = c
	}
	if digits != "" {
		r, err := strconv.Atoi(digits)
		if err != nil || r < 1 || r > excelize.TotalRows {
			return 0, 0, false
		}
		row = r
	}
	return col, row, true
}

// maxDepChecks bounds the overlap checks dirtyFormulas makes; past it (a
// long chain of formulas) every formula counts as dirty, which is never
// wrong, only slower.
const maxDepChecks = 4_000_000

// depCell is one formula cell as dirtyFormulas sees it.
type depCell struct {
	at   sheetArea   // the cell itself
	deps []sheetArea // what it reads
	wide bool        // it may read anything
	// fills, when set, is every cell its value fills (a legacy array
	// formula's range): a formula reading any of them reads it.
	fills *sheetArea
}

// filled is the area whose formulas read c's value: its fills, else itself.
func (c depCell) filled() sheetArea {
	if c.fills != nil {
		return *c.fills
	}
	return c.at
}

// dirtyFormulas marks the formula cells whose value an edit may have
// changed: those written by the edit (when wrote: the areas are cells the
// edit wrote, not cells that moved), those reading an edited cell, and, in
// turn, those reading a dirty formula cell, on every sheet.
func dirtyFormulas(cells []depCell, edits []sheetArea, wrote bool) []bool {
	dirty := make([]bool, len(cells))
	frontier := edits
	checks := 0
	for first := true; len(frontier) > 0; first = false {
		var next []sheetArea
		for i, c := range cells {
			if dirty[i] {
				continue
			}
			hit := c.wide
			if first && wrote {
				for _, e := range edits {
					hit = hit || e.Overlaps(c.at)
				}
			}
			for _, d := range c.deps {
				if hit {
					break
				}
				for _, f := range frontier {
					if checks++; d.Overlaps(f) {
						hit = true
						break
					}
				}
			}
			if hit {
				dirty[i] = true
				next = append(next, c.filled())
			}
		}
		if checks > maxDepChecks {
			for i := range dirty {
				dirty[i] = true
			}
			return dirty
		}
		frontier = next
	}
	return dirty
}
