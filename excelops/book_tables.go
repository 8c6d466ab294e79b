package excelops

import (
	"bytes"
	"encoding/xml"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// The book's tables (ListObjects) and pivot tables.

// tables are the tables of sheet.
func (b *book) tables(sheet string) ([]excelize.Table, error) {
	return b.f.GetTables(sheet)
}

// addTable adds the table t to sheet.
func (b *book) addTable(sheet string, t *excelize.Table) error {
	return b.f.AddTable(sheet, t)
}

// pivotTables are the pivot tables of sheet.
func (b *book) pivotTables(sheet string) ([]excelize.PivotTableOptions, error) {
	return b.f.GetPivotTables(sheet)
}

// addPivotTable adds the pivot table opts describes.
func (b *book) addPivotTable(opts *excelize.PivotTableOptions) error {
	return b.f.AddPivotTable(opts)
}

// tableNames lists the names of every table of the workbook, read from the
// table parts themselves (no sheet is parsed).
func (b *book) tableNames() []string {
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
