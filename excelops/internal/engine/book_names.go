package engine

import (
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// The book's defined names: read, set and deleted through the engine, or
// redefined in place in the workbook part.

// DefinedNames are the defined names of the workbook, every scope.
func (b *Book) DefinedNames() []excelize.DefinedName {
	return b.f.GetDefinedName()
}

// SetDefinedName adds the defined name dn.
func (b *Book) SetDefinedName(dn *excelize.DefinedName) error {
	return b.f.SetDefinedName(dn)
}

// DeleteDefinedName deletes the defined name dn.
func (b *Book) DeleteDefinedName(dn *excelize.DefinedName) error {
	return b.f.DeleteDefinedName(dn)
}

// DefinedNameAt finds the first name of the workbook part spelled name in
// any case in the scope scopeID (a sheet's index, -1 for the workbook):
// its own spelling and what it refers to; ok is false when there is none.
func (b *Book) DefinedNameAt(scopeID int, name string) (spelled, refersTo string, ok bool) {
	if i := b.definedNameIndex(scopeID, name); i >= 0 {
		dn := b.f.WorkBook.DefinedNames.DefinedName[i]
		return dn.Name, dn.Data, true
	}
	return "", "", false
}

// RedefineName gives the name definedNameAt finds the spelling name, the
// body refersTo and comment, in place; it does nothing when there is none.
func (b *Book) RedefineName(scopeID int, name, refersTo, comment string) {
	if i := b.definedNameIndex(scopeID, name); i >= 0 {
		dn := &b.f.WorkBook.DefinedNames.DefinedName[i]
		dn.Name, dn.Data, dn.Comment = name, refersTo, comment
	}
}

// definedNameIndex is the position of the name definedNameAt finds in the
// workbook part's list, or -1.
func (b *Book) definedNameIndex(scopeID int, name string) int {
	wb := b.f.WorkBook
	if wb == nil || wb.DefinedNames == nil {
		return -1
	}
	for i, dn := range wb.DefinedNames.DefinedName {
		id := -1
		if dn.LocalSheetID != nil {
			id = *dn.LocalSheetID
		}
		if id == scopeID && strings.EqualFold(dn.Name, name) {
			return i
		}
	}
	return -1
}

// NameDefinition is a defined name as the workbook part stores it.
type NameDefinition struct {
	// Name is the name as spelled.
	Name string
	// Sheet is the sheet the name is local to, "" for a name of the whole
	// workbook (or one whose sheet index is out of range).
	Sheet string
	// RefersTo is the formula the name stands for.
	RefersTo string
}

// NameDefinitions lists the workbook's defined names as stored, in order.
func (b *Book) NameDefinitions() []NameDefinition {
	if b.f == nil || b.f.WorkBook == nil || b.f.WorkBook.DefinedNames == nil {
		return nil
	}
	sheets, _ := b.SheetList()
	out := make([]NameDefinition, 0, len(b.f.WorkBook.DefinedNames.DefinedName))
	for _, dn := range b.f.WorkBook.DefinedNames.DefinedName {
		out = append(out, NameDefinition{Name: dn.Name, Sheet: recalc.LocalSheet(sheets, dn.LocalSheetID), RefersTo: dn.Data})
	}
	return out
}

// DropSheetName removes the defined name local to sheet spelled exactly
// name (Excel's hidden _xlnm names), if there is one.
func (b *Book) DropSheetName(sheet, name string) {
	idx, err := b.f.GetSheetIndex(sheet)
	if err != nil || b.f.WorkBook == nil || b.f.WorkBook.DefinedNames == nil {
		return
	}
	names := b.f.WorkBook.DefinedNames.DefinedName
	kept := names[:0]
	for _, dn := range names {
		if dn.Name == name && dn.LocalSheetID != nil && *dn.LocalSheetID == idx {
			continue
		}
		kept = append(kept, dn)
	}
	b.f.WorkBook.DefinedNames.DefinedName = kept
}
