package excelize

import "container/list"

// ANCHORARRAY function returns the spill range of a dynamic array formula,
// as a reference: what Excel 365 shows as a spill reference (C3#) and a
// file stores as _xlfn.ANCHORARRAY(C3). The argument must name one cell
// that anchors a dynamic array; any other cell, and an anchor whose spill
// is blocked (#SPILL!), give #REF!, as in Excel. The syntax of the function
// is:
//
//	ANCHORARRAY(reference)
func (fn *formulaFuncs) ANCHORARRAY(argsList *list.List) formulaArg {
	if argsList.Len() != 1 {
		return newErrorFormulaArg(formulaErrorVALUE, "ANCHORARRAY requires 1 argument")
	}
	ref := argsList.Front().Value.(formulaArg)
	sheet, from, to, ok := fn.refArea(ref)
	if !ok || from != to {
		if ref.Type == ArgError {
			return ref
		}
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	cell, err := CoordinatesToCellName(from.Col, from.Row)
	if err != nil {
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	spill, err := fn.f.spillRangeOf(sheet, cell)
	if err != nil || spill == "" {
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	arg, err := fn.f.parseReference(fn.ctx, sheet, spill)
	if err != nil {
		if stop := fn.guard().failed(); stop != nil {
			return stopArg(stop)
		}
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	return arg
}

// spillRangeOf returns the range sheet!cell spills over when it anchors a
// dynamic array formula that spilled (its ref, "C3:C5"; "C3" for one value),
// or "" when the cell is no anchor or its spill is blocked.
func (f *File) spillRangeOf(sheet, cell string) (string, error) {
	ws, err := f.workSheetReader(sheet)
	if err != nil {
		return "", err
	}
	col, row, err := CellNameToCoordinates(cell)
	if err != nil {
		return "", err
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for i := range ws.SheetData.Row {
		r := &ws.SheetData.Row[i]
		if r.R != row {
			continue
		}
		for j := range r.C {
			c := &r.C[j]
			cc, cr, err := CellNameToCoordinates(c.R)
			if err != nil || cc != col || cr != row {
				continue
			}
			if !isDynamicArrayAnchor(c) || (c.T == "e" && c.V == formulaErrorSPILL) {
				return "", nil
			}
			if c.F.Ref == "" {
				return cell, nil
			}
			return c.F.Ref, nil
		}
	}
	return "", nil
}
