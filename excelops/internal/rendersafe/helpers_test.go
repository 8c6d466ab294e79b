package rendersafe

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Namespaces and relationship types the test packages use.
const (
	relNS    = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	typeBase = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	mainNS   = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
)

// part is one entry of a test package.
type part struct{ name, body string }

// testLimits are generous limits for the tests.
var testLimits = Limits{MaxUnzipped: 64 << 20, MaxPart: 1 << 20}

// pkg zips parts in order, deflated (stored with no CRC when raw, which
// lets a fuzzer change the bytes without breaking the checksum).
func pkg(t testing.TB, raw bool, parts ...part) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		if raw {
			w, err := zw.CreateRaw(&zip.FileHeader{Name: p.name, Method: zip.Store, CompressedSize64: uint64(len(p.body)), UncompressedSize64: uint64(len(p.body))})
			require.NoError(t, err)
			_, err = w.Write([]byte(p.body))
			require.NoError(t, err)
			continue
		}
		w, err := zw.Create(p.name)
		require.NoError(t, err)
		_, err = io.WriteString(w, p.body)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// entries reads every entry of a package by name.
func entries(t testing.TB, data []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err, f.Name)
		require.NoError(t, rc.Close())
		out[f.Name] = string(b)
	}
	return out
}

// rels is a relationship part; each item is `Id|type|target|mode`, mode
// empty for an internal relationship.
func rels(items ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="` + relsNS + `">`)
	for _, it := range items {
		f := strings.SplitN(it, "|", 4)
		b.WriteString(`<Relationship Id="` + f[0] + `" Type="` + typeBase + f[1] + `" Target="` + f[2] + `"`)
		if len(f) == 4 && f[3] != "" {
			b.WriteString(` TargetMode="` + f[3] + `"`)
		}
		b.WriteString(`/>`)
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}

// contentTypesXML lists the overrides of parts (and the usual defaults).
func contentTypesXML(parts ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><Types xmlns="` + typesNS + `"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>`)
	for _, p := range parts {
		b.WriteString(`<Override PartName="/` + p + `" ContentType="application/vnd.test+xml"/>`)
	}
	b.WriteString(`</Types>`)
	return b.String()
}

// basePackage is a minimal workbook: content types (with the overrides of
// extra), package and workbook relationships (plus workbookRels), a
// workbook.xml (with extraWorkbook inside) and one sheet.
func basePackage(workbookRels []string, extraWorkbook string, extra ...string) []part {
	wbRels := append([]string{"rId1|worksheet|worksheets/sheet1.xml|"}, workbookRels...)
	return []part{
		{"[Content_Types].xml", contentTypesXML(append([]string{"xl/workbook.xml", "xl/worksheets/sheet1.xml"}, extra...)...)},
		{"_rels/.rels", rels("rId1|officeDocument|xl/workbook.xml|")},
		{"xl/workbook.xml", `<workbook xmlns="` + mainNS + `" xmlns:r="` + relNS + `"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets>` + extraWorkbook + `</workbook>`},
		{"xl/_rels/workbook.xml.rels", rels(wbRels...)},
	}
}

// sheetXML is a worksheet with extra after its sheetData.
func sheetXML(extra string) string {
	return `<worksheet xmlns="` + mainNS + `" xmlns:r="` + relNS + `" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>hello</t></is></c></row></sheetData>` + extra + `</worksheet>`
}
