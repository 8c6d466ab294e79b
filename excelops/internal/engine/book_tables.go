package engine

import (
	"bytes"
	"encoding/xml"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// The book's tables (ListObjects) and pivot tables.

// Tables are the tables of sheet.
func (b *Book) Tables(sheet string) ([]excelize.Table, error) {
	return b.f.GetTables(sheet)
}

// AddTable adds the table t to sheet.
func (b *Book) AddTable(sheet string, t *excelize.Table) error {
	return b.f.AddTable(sheet, t)
}

// PivotTables are the pivot tables of sheet.
func (b *Book) PivotTables(sheet string) ([]excelize.PivotTableOptions, error) {
	return b.f.GetPivotTables(sheet)
}

// AddPivotTable adds the pivot table opts describes.
func (b *Book) AddPivotTable(opts *excelize.PivotTableOptions) error {
	return b.f.AddPivotTable(opts)
}

// TableNames lists the names of every table of the workbook, read from the
// table parts themselves (no sheet is parsed).
func (b *Book) TableNames() []string {
	var names []string
	b.f.Pkg.Range(func(key, value any) bool {
		name, ok := key.(string)
		raw, isBytes := value.([]byte)
		if !ok || !isBytes || !strings.HasPrefix(name, "xl/tables/table") || !strings.HasSuffix(name, ".xml") {
			return true
		}
		var t struct {
			Name        string `xml:"name,attr"`
			DisplayName string `xml:"displayName,attr"`
		}
		if xml.NewDecoder(bytes.NewReader(raw)).Decode(&t) == nil {
			names = append(names, t.Name)
			if t.DisplayName != "" && !strings.EqualFold(t.DisplayName, t.Name) {
				names = append(names, t.DisplayName)
			}
		}
		return true
	})
	return names
}
