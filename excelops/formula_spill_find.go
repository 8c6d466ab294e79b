package excelops

// spilledBy returns a test of whether the cell (col, row) is a spilled
// cell of one of the dynamic array anchors among formulas (a cell of its
// spill range other than the anchor). Such a cell shows the anchor's
// result and holds nothing of its own: Excel's Replace leaves it alone (it
// replaces in what cells hold, and the anchor's result follows), so
// find_replace skips it.
func spilledBy(formulas []formulaAt) func(col, row int) bool {
	var spills []cellRange
	for _, fc := range formulas {
		if !fc.dynamic {
			continue
		}
		if r, err := parseRange(fc.arrayRef); err == nil && r.Cells() > 1 {
			spills = append(spills, r)
		}
	}
	return func(col, row int) bool {
		for _, r := range spills {
			if r.Has(col, row) && (col != r.C1 || row != r.R1) {
				return true
			}
		}
		return false
	}
}
