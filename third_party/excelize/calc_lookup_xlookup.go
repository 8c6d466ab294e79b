// registry-sidecar: XLOOKUP searches as XMATCH does (PATCHES.md).

package excelize

// xlookupIndex is the 0-based position XLOOKUP finds lookupValue at in
// lookupArray (one row, or one column when vertical), searched as XMATCH
// searches: -1 when nothing matches.
func xlookupIndex(lookupValue, lookupArray formulaArg, vertical bool, matchMode int, searchMode float64) int {
	if lookupValue.Type == ArgEmpty || xmatchClass(lookupValue) == 0 {
		return -1
	}
	var cells []formulaArg
	if vertical {
		for _, row := range lookupArray.Matrix {
			cells = append(cells, row[0])
		}
	} else if len(lookupArray.Matrix) > 0 {
		cells = lookupArray.Matrix[0]
	}
	if searchMode == searchModeAscBinary || searchMode == searchModeDescBinary {
		return xmatchBinary(lookupValue, cells, matchMode, searchMode == searchModeDescBinary)
	}
	return xmatchLinear(lookupValue, cells, matchMode, searchMode == searchModeReverseLinear)
}
