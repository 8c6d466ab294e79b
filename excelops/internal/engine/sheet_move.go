package engine

import (
	"fmt"
	"slices"
)

// MoveSheet puts the sheet name at index pos of the workbook's sheet list
// (create_sheet and copy_sheet place the sheet they add), keeping what
// points at sheets by position on the same sheets: each sheet-scoped defined
// name's scope, each workbook view's active and first tab.
//
// It does not call excelize's MoveSheet: that calls UngroupSheets, which
// dereferences the sheet views of every sheet but the active one without a
// nil check, so it panics on a chart sheet (workSheetReader returns no
// worksheet for it) and on a worksheet without <sheetViews>; and it parses
// every sheet of the workbook, which then is re-serialised. Reordering the
// workbook's sheet list parses no sheet.
func (b *Book) MoveSheet(name string, pos int) error {
	list := b.f.GetSheetList() // also loads b.F.WorkBook
	from := slices.Index(list, name)
	wb := b.f.WorkBook
	if from < 0 || pos < 0 || pos >= len(list) || wb == nil || len(wb.Sheets.Sheet) != len(list) {
		return fmt.Errorf("excelops: cannot move sheet %q to %d of %d sheets", name, pos, len(list))
	}
	if from == pos {
		return nil
	}
	restoreNames := b.nameScopes()
	restoreViews := b.viewTabs(list)
	moved := wb.Sheets.Sheet[from]
	wb.Sheets.Sheet = slices.Insert(slices.Delete(wb.Sheets.Sheet, from, from+1), pos, moved)
	restoreNames()
	restoreViews()
	return nil
}

// viewTabs records which sheet each workbook view shows as active and as
// the first tab of its tab bar (both are positions in list, the current
// sheet order); the function it returns points them at those sheets again
// after sheets moved. A workbook without views shows its first sheet: when
// that sheet moved, the returned function makes it active again through
// excelize's SetActiveSheet (nil-safe for views; it stops at a chart sheet
// after setting the active tab).
func (b *Book) viewTabs(list []string) func() {
	wb := b.f.WorkBook
	at := func(i int) string {
		if i >= 0 && i < len(list) {
			return list[i]
		}
		return ""
	}
	if wb.BookViews == nil || len(wb.BookViews.WorkBookView) == 0 {
		first := at(0)
		return func() {
			if now := slices.Index(b.f.GetSheetList(), first); now > 0 {
				b.f.SetActiveSheet(now)
			}
		}
	}
	views := wb.BookViews.WorkBookView
	active := make([]string, len(views))
	firstTab := make([]string, len(views))
	for i, v := range views {
		active[i], firstTab[i] = at(v.ActiveTab), at(v.FirstSheet)
	}
	return func() {
		now := b.f.GetSheetList()
		for i := range views {
			if idx := slices.Index(now, active[i]); idx >= 0 {
				views[i].ActiveTab = idx
			}
			if idx := slices.Index(now, firstTab[i]); idx >= 0 {
				views[i].FirstSheet = idx
			}
		}
	}
}

// nameScopes records which sheet each sheet-scoped defined name belongs
// to; the function it returns points them at those sheets again after
// sheets moved (a name's scope is a sheet position).
func (b *Book) nameScopes() func() {
	wb := b.f.WorkBook
	if wb == nil || wb.DefinedNames == nil {
		return func() {}
	}
	list := b.f.GetSheetList()
	scopes := make([]string, len(wb.DefinedNames.DefinedName))
	for i, dn := range wb.DefinedNames.DefinedName {
		if id := dn.LocalSheetID; id != nil && *id >= 0 && *id < len(list) {
			scopes[i] = list[*id]
		}
	}
	return func() {
		now := b.f.GetSheetList()
		for i := range wb.DefinedNames.DefinedName {
			if i >= len(scopes) || scopes[i] == "" {
				continue
			}
			if idx := slices.Index(now, scopes[i]); idx >= 0 {
				wb.DefinedNames.DefinedName[i].LocalSheetID = &idx
			}
		}
	}
}
