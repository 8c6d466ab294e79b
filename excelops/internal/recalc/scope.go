package recalc

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
)

// The scope a formula's names are checked in, read cheaply once per call:
// sheets and defined names from workbook.xml (the engine's book or the
// splice path's index), tables from their own parts when first needed.

// PackageFormulaScope returns what the formulas written to the package zr
// may refer to, from its index (workbook.xml) and its table parts, for an
// edit that does not parse the workbook (the splice path).
func PackageFormulaScope(index *opc.Index, zr *zip.Reader) *FormulaScope {
	sheets := make([]string, len(index.Sheets))
	for i, s := range index.Sheets {
		sheets[i] = s.Name
	}
	names := make([]ScopedName, len(index.Names))
	for i, n := range index.Names {
		id := n.Local
		names[i] = ScopedName{n.Name, LocalSheet(sheets, &id)}
	}
	return NewFormulaScope(sheets, names, func() []TableInfo {
		var out []TableInfo
		for _, zf := range zr.File {
			if !IsTablePart(zf.Name) {
				continue
			}
			if raw, err := opc.ReadPart(zr, zf.Name); err == nil {
				out = append(out, ParseTablePart(raw)...)
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

// IsTablePart reports whether a package part is a table definition.
func IsTablePart(name string) bool {
	name = strings.ToLower(name)
	return strings.HasPrefix(name, "xl/tables/") && strings.HasSuffix(name, ".xml") && !strings.Contains(name, "/_rels/")
}

// ParseTablePart reads a table part: its name (and display name, when it
// differs) with its columns. A part that does not parse yields nothing.
func ParseTablePart(raw []byte) []TableInfo {
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
	var out []TableInfo
	if t.DisplayName != "" {
		out = append(out, TableInfo{t.DisplayName, cols})
	}
	if t.Name != "" && !strings.EqualFold(t.Name, t.DisplayName) {
		out = append(out, TableInfo{t.Name, cols})
	}
	return out
}
