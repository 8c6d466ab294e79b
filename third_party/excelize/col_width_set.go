package excelize

// ColWidthSet reports whether a <col> element of the worksheet gives the
// column col (1-based) a width of its own (registry-sidecar): GetColWidth
// answers the sheet's default for a column without one, which cannot be
// told from a width set to the same value.
func (f *File) ColWidthSet(sheet string, col int) (bool, error) {
	f.mu.Lock()
	ws, err := f.workSheetReader(sheet)
	f.mu.Unlock()
	if err != nil {
		return false, err
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.Cols == nil {
		return false, nil
	}
	for _, c := range ws.Cols.Col {
		if c.Min <= col && col <= c.Max && c.Width != nil {
			return true, nil
		}
	}
	return false, nil
}
