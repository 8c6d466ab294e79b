package engine

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
)

// The scope a formula's names are checked in, read cheaply once per call:
// sheets and defined names from workbook.xml (the engine's book or the
// splice path's index), tables from their own parts when first needed.

// FormulaScope returns what the formulas written to b may refer to.
func (b *Book) FormulaScope() *FormulaScope {
	sheets, _ := b.SheetList()
	var names []scopedName
	for _, dn := range b.NameDefinitions() {
		names = append(names, scopedName{dn.Name, dn.Sheet})
	}
	return newFormulaScope(sheets, names, func() []tableInfo {
		var out []tableInfo
		if b.f == nil {
			return nil
		}
		b.f.Pkg.Range(func(key, value any) bool {
			name, ok := key.(string)
			raw, isBytes := value.([]byte)
			if ok && isBytes && isTablePart(name) {
				out = append(out, parseTablePart(raw)...)
			}
			return true
		})
		return out
	})
}

// PackageFormulaScope returns what the formulas written to the package zr
// may refer to, from its index (workbook.xml) and its table parts, for an
// edit that does not parse the workbook (the splice path).
func PackageFormulaScope(index *opc.Index, zr *zip.Reader) *FormulaScope {
	sheets := make([]string, len(index.Sheets))
	for i, s := range index.Sheets {
		sheets[i] = s.Name
	}
	names := make([]scopedName, len(index.Names))
	for i, n := range index.Names {
		id := n.Local
		names[i] = scopedName{n.Name, LocalSheet(sheets, &id)}
	}
	return newFormulaScope(sheets, names, func() []tableInfo {
		var out []tableInfo
		for _, zf := range zr.File {
			if !isTablePart(zf.Name) {
				continue
			}
			if raw, err := opc.ReadPart(zr, zf.Name); err == nil {
				out = append(out, parseTablePart(raw)...)
			}
		}
		return out
	})
}

// LocalSheet is the sheet a localSheetId names, "" for the workbook (or an
// index past the sheets).
func LocalSheet(sheets []string, id *int) string {
	if id == nil || *id < 0 || *id >= len(sheets) {
		return ""
	}
	return sheets[*id]
}

// isTablePart reports whether a package part is a table definition.
func isTablePart(name string) bool {
	name = strings.ToLower(name)
	return strings.HasPrefix(name, "xl/tables/") && strings.HasSuffix(name, ".xml") && !strings.Contains(name, "/_rels/")
}

// parseTablePart reads a table part: its name (and display name, when it
// differs) with its columns. A part that does not parse yields nothing.
func parseTablePart(raw []byte) []tableInfo {
	var t struct {
		Name        string `xml:"name,attr"`
		DisplayName string `xml:"displayName,attr"`
		Columns     []struct {
			Name string `xml:"name,attr"`
		} `xml:"tableColumns>tableColumn"`
	}
	if xml.NewDecoder(bytes.NewReader(raw)).Decode(&t) != nil {
		return nil
	}
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = c.Name
	}
	var out []tableInfo
	if t.DisplayName != "" {
		out = append(out, tableInfo{t.DisplayName, cols})
	}
	if t.Name != "" && !strings.EqualFold(t.Name, t.DisplayName) {
		out = append(out, tableInfo{t.Name, cols})
	}
	return out
}

// CheckWriteNames refuses a write whose formulas, on the sheet host, refer
// to a sheet, defined name or table the workbook does not have. The
// references were taken from the tokens when the call was planned; the
// scope is read once for the call, and only when a formula has one.
func CheckWriteNames(plan []CellWrite, host string, scope func() *FormulaScope) error {
	var sc *FormulaScope
	for _, w := range plan {
		if w.refs == nil {
			continue
		}
		if sc == nil {
			sc = scope()
			sc.addSheet(host)
		}
		if err := sc.checkRefs("cell "+grid.CellName(w.Col, w.Row), host, w.Formula, w.refs); err != nil {
			return err
		}
	}
	return nil
}
