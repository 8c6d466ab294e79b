// registry-sidecar: a formula reading a cell of a legacy array formula over
// several cells is not computed (see PATCHES.md).

package excelize

import (
	"errors"
	"strings"
)

// ErrLegacyArrayRead is the failure of a calculation that reads a cell of a
// legacy (Ctrl+Shift+Enter) array formula over several cells. The
// calculator rewrites such a formula into one formula per cell, each range
// reduced to the cell at that offset, which is not Excel's value wherever
// the array has another shape than the range or a function takes a range
// whole (SUM(A1:A3) over N1:O2 is the sum in every cell in Excel); rather
// than compute from such a value, the calculation stops without a result.
var ErrLegacyArrayRead = errors.New("not supported: reading a legacy array formula over several cells")

// legacyArrayCell reports whether sheet!cell lies in the range of a legacy
// array formula the calculator rewrites per cell (a ref with a colon):
// its first cell (<f t="array"
// ref="I1:J3">, not a dynamic array anchor) or another cell of the range,
// which holds the per-cell rewrite setArrayFormulaCells stored.
func (f *File) legacyArrayCell(sheet, cell string) bool {
	var in bool
	_, _ = f.getCellStringFunc(sheet, cell, func(_ *xlsxWorksheet, c *xlsxC) (string, bool, error) {
		in = isLegacyArrayPart(c)
		return "", true, nil
	})
	return in
}

// isLegacyArrayPart is legacyArrayCell for the parsed cell c.
func isLegacyArrayPart(c *xlsxC) bool {
	if c.F == nil {
		return c.f != "" // only setArrayFormulaCells sets f on a cell without <f>
	}
	if c.F.T != STCellFormulaTypeArray || isDynamicArrayAnchor(c) {
		return false
	}
	// A range, even of one cell (R1:R1, as LibreOffice may write it):
	// setArrayFormulaCells rewrites its formula too (SUM(A1:A3) read as
	// SUM(A1)).
	return strings.Contains(c.F.Ref, ":")
}
