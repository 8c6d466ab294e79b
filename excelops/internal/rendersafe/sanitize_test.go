package rendersafe

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// drawingXML holds one picture per blip attribute given (`r:link="rId1"`).
func drawingXML(blips ...string) string {
	var b strings.Builder
	b.WriteString(`<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">`)
	for _, bl := range blips {
		b.WriteString(`<xdr:oneCellAnchor><xdr:pic><xdr:blipFill><a:blip xmlns:r="` + relNS + `" ` + bl + `></a:blip><a:stretch/></xdr:blipFill></xdr:pic></xdr:oneCellAnchor>`)
	}
	b.WriteString(`</xdr:wsDr>`)
	return b.String()
}

// TestSanitizeEachKind removes each kind of outside reference and keeps
// the part that referred to it readable.
func TestSanitizeEachKind(t *testing.T) {
	cases := []struct {
		name  string
		parts []part
		left  []Omitted
		gone  []string          // entries no longer in the package
		has   map[string]string // entry -> text it still holds
		lacks map[string]string // entry -> text it no longer holds
	}{
		{
			name: "linked images",
			parts: append(basePackage(nil, "", "xl/drawings/drawing1.xml"),
				part{"xl/worksheets/sheet1.xml", sheetXML(`<drawing r:id="rId1"/>`)},
				part{"xl/worksheets/_rels/sheet1.xml.rels", rels("rId1|drawing|../drawings/drawing1.xml|")},
				part{"xl/drawings/drawing1.xml", drawingXML(`r:link="rId1"`, `r:link="rId2"`, `r:embed="rId3"`)},
				part{"xl/drawings/_rels/drawing1.xml.rels", rels("rId1|image|file:///outside/red.png|External", "rId2|image|http://127.0.0.1:9/blue.png|External", "rId3|image|../media/image1.png|")},
				part{"xl/media/image1.png", "PNG"}),
			left: []Omitted{
				{Part: "xl/drawings/drawing1.xml", What: "linked image", Target: "file", Count: 1},
				{Part: "xl/drawings/drawing1.xml", What: "linked image", Target: "http", Count: 1},
			},
			has:   map[string]string{"xl/drawings/drawing1.xml": `<a:blip xmlns:r="` + relNS + `" r:embed="rId3">`, "xl/drawings/_rels/drawing1.xml.rels": `Id="rId3"`, "xl/media/image1.png": "PNG"},
			lacks: map[string]string{"xl/drawings/drawing1.xml": "r:link", "xl/drawings/_rels/drawing1.xml.rels": "outside"},
		},
		{
			name: "OLE objects, embedded and linked",
			parts: append(basePackage(nil, "", "xl/embeddings/oleObject1.bin"),
				part{"xl/worksheets/sheet1.xml", sheetXML(`<legacyDrawing r:id="rId3"/><oleObjects><mc:AlternateContent><mc:Choice Requires="x14"><oleObject progId="Package" shapeId="1025" r:id="rId1"><objectPr r:id="rId4"/></oleObject></mc:Choice><mc:Fallback><oleObject progId="Package" shapeId="1025" r:id="rId1"/></mc:Fallback></mc:AlternateContent><oleObject progId="Excel.Sheet.12" shapeId="1026" r:id="rId2" oleUpdate="OLEUPDATE_ALWAYS"/></oleObjects>`)},
				part{"xl/worksheets/_rels/sheet1.xml.rels", rels("rId1|oleObject|../embeddings/oleObject1.bin|", "rId2|oleObject|file:///C:/outside/book.xlsx|External", "rId3|vmlDrawing|../drawings/vmlDrawing1.vml|", "rId4|image|../media/image1.emf|")},
				part{"xl/embeddings/oleObject1.bin", "OLE"},
				part{"xl/drawings/vmlDrawing1.vml", `<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"><v:shape id="_x0000_s1025"><v:imagedata o:relid="rId1" o:title=""/></v:shape></xml>`},
				part{"xl/drawings/_rels/vmlDrawing1.vml.rels", rels("rId1|image|../media/image1.emf|")},
				part{"xl/media/image1.emf", "EMF"}),
			left: []Omitted{
				{Part: "xl/worksheets/sheet1.xml", What: "embedded OLE object", Count: 1},
				{Part: "xl/worksheets/sheet1.xml", What: "linked OLE object", Target: "file", Count: 1},
			},
			gone:  []string{"xl/embeddings/oleObject1.bin"},
			has:   map[string]string{"xl/worksheets/sheet1.xml": `<legacyDrawing r:id="rId3"/></worksheet>`, "xl/drawings/vmlDrawing1.vml": `o:relid="rId1"`, "xl/worksheets/_rels/sheet1.xml.rels": `Id="rId4"`},
			lacks: map[string]string{"xl/worksheets/sheet1.xml": "oleObject", "[Content_Types].xml": "oleObject1.bin"},
		},
		{
			name: "external workbook link",
			parts: append(basePackage([]string{"rId2|externalLink|externalLinks/externalLink1.xml|"}, `<externalReferences><externalReference r:id="rId2"/></externalReferences><definedNames/>`, "xl/externalLinks/externalLink1.xml"),
				part{"xl/worksheets/sheet1.xml", sheetXML("")},
				part{"xl/externalLinks/externalLink1.xml", `<externalLink xmlns="` + mainNS + `" xmlns:r="` + relNS + `"><externalBook r:id="rId1"/></externalLink>`},
				part{"xl/externalLinks/_rels/externalLink1.xml.rels", rels("rId1|externalLinkPath|file:///outside/secret.xlsx|External")}),
			left:  []Omitted{{Part: "xl/workbook.xml", What: "external workbook link", Target: "file", Count: 1}},
			gone:  []string{"xl/externalLinks/externalLink1.xml", "xl/externalLinks/_rels/externalLink1.xml.rels"},
			has:   map[string]string{"xl/workbook.xml": `</sheets><definedNames/></workbook>`},
			lacks: map[string]string{"xl/workbook.xml": "externalReference", "[Content_Types].xml": "externalLink1", "xl/_rels/workbook.xml.rels": "externalLink"},
		},
		{
			name: "data connections",
			parts: append(basePackage([]string{"rId2|connections|connections.xml|"}, "", "xl/connections.xml"),
				part{"xl/worksheets/sheet1.xml", sheetXML("")},
				part{"xl/connections.xml", `<connections xmlns="` + mainNS + `"><connection id="1" name="web" type="4"><webPr url="http://127.0.0.1:9/data"/></connection></connections>`}),
			left:  []Omitted{{Part: "xl/workbook.xml", What: "data connections", Count: 1}},
			gone:  []string{"xl/connections.xml"},
			lacks: map[string]string{"[Content_Types].xml": "connections.xml", "xl/_rels/workbook.xml.rels": "connections"},
		},
		{
			name: "query table",
			parts: append(basePackage(nil, "", "xl/queryTables/queryTable1.xml"),
				part{"xl/worksheets/sheet1.xml", sheetXML("")},
				part{"xl/worksheets/_rels/sheet1.xml.rels", rels("rId1|queryTable|../queryTables/queryTable1.xml|")},
				part{"xl/queryTables/queryTable1.xml", `<queryTable xmlns="` + mainNS + `" name="web" connectionId="1"/>`}),
			left:  []Omitted{{Part: "xl/worksheets/sheet1.xml", What: "query table", Count: 1}},
			gone:  []string{"xl/queryTables/queryTable1.xml"},
			lacks: map[string]string{"xl/worksheets/_rels/sheet1.xml.rels": "queryTable"},
		},
		{
			name: "VML image named without a relationship",
			parts: append(basePackage(nil, ""),
				part{"xl/worksheets/sheet1.xml", sheetXML(`<legacyDrawing r:id="rId1"/>`)},
				part{"xl/worksheets/_rels/sheet1.xml.rels", rels("rId1|vmlDrawing|../drawings/vmlDrawing1.vml|")},
				part{"xl/drawings/vmlDrawing1.vml", `<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"><v:shape id="s1" o:href="http://127.0.0.1:9/x"><v:imagedata src="\\server\share\red.png" o:title="t"/><v:fill SRC='http://127.0.0.1:9/blue.png'/><br></v:shape></xml>`}),
			left: []Omitted{
				{Part: "xl/drawings/vmlDrawing1.vml", What: "linked image", Target: "http", Count: 1},
				{Part: "xl/drawings/vmlDrawing1.vml", What: "linked image", Target: "network path", Count: 1},
			},
			has:   map[string]string{"xl/drawings/vmlDrawing1.vml": `<v:shape id="s1"><v:imagedata o:title="t"/><v:fill/><br></v:shape>`},
			lacks: map[string]string{"xl/drawings/vmlDrawing1.vml": "127.0.0.1"},
		},
		{
			name: "hyperlinks go without a report",
			parts: append(basePackage(nil, ""),
				part{"xl/worksheets/sheet1.xml", sheetXML(`<hyperlinks><hyperlink ref="A1" r:id="rId1"/></hyperlinks>`)},
				part{"xl/worksheets/_rels/sheet1.xml.rels", rels("rId1|hyperlink|https://example.com/|External")}),
			has:   map[string]string{"xl/worksheets/sheet1.xml": `<hyperlink ref="A1"/>`},
			lacks: map[string]string{"xl/worksheets/_rels/sheet1.xml.rels": "example.com"},
		},
		{
			name: "macros",
			parts: append(basePackage([]string{"rId2|../../office/2006/relationships/vbaProject|vbaProject.bin|"}, "", "xl/vbaProject.bin"),
				part{"xl/worksheets/sheet1.xml", sheetXML("")},
				part{"xl/vbaProject.bin", "VBA"}),
			left: []Omitted{{Part: "xl/workbook.xml", What: "macros", Count: 1}},
			gone: []string{"xl/vbaProject.bin"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, left, err := Sanitize(pkg(t, false, c.parts...), testLimits)
			require.NoError(t, err)
			assert.Equal(t, c.left, left)
			got := entries(t, out)
			for _, g := range c.gone {
				assert.NotContains(t, got, g)
			}
			for name, text := range c.has {
				assert.Contains(t, got[name], text, name)
			}
			for name, text := range c.lacks {
				assert.NotContains(t, got[name], text, name)
			}
			for name, body := range got {
				assert.NotContains(t, body, "TargetMode", name)
			}
			assert.Contains(t, got["xl/worksheets/sheet1.xml"], "hello", "the cells stay")
			again, left2, err := Sanitize(out, testLimits)
			require.NoError(t, err)
			assert.Empty(t, left2, "a sanitised package has nothing left to remove")
			assert.Equal(t, got, entries(t, again))
		})
	}
}

// TestSanitizeSeesThroughDisguises: relationships that name the outside in
// ways a simple reader might miss are still removed.
func TestSanitizeSeesThroughDisguises(t *testing.T) {
	drawingRels := `<Relationships xmlns="` + relsNS + `">` +
		`<Relationship Id="rId1" Type="` + typeBase + `image" Target="http://127.0.0.1:9/a.png" TargetMode="external"/>` + // letter case
		`<Relationship Id="rId2" Type="` + typeBase + `image" Target="file:///outside/b.png"/>` + // a URL marked internal
		`<Relationship xmlns:x="urn:x" Id="rId3" Type="` + typeBase + `image" Target="../media/c.png" x:TargetMode="External"/>` + // another namespace
		`<Relationship Id="rId4" Type="` + typeBase + `image" Target="..\..\outside\d.png"/>` + // backslashes
		`<Relationship Id="rId5" Type="` + typeBase + `image" Target="//server/share/e.png"/>` + // network path
		`<Relationship Id="rId6" Type="` + typeBase + `image" Target="../media/f.png" Target="http://127.0.0.1:9/f.png"/>` + // given twice
		`<Relationship Id="rId7" Type="` + typeBase + `image" Target="../media/ok.png" TargetMode="Internal"/>` +
		`<Relationship Id="rId7" Type="` + typeBase + `image" Target="../media/dup.png"/>` + // Id repeated
		`</Relationships>`
	parts := append(basePackage(nil, ""),
		part{"xl/worksheets/sheet1.xml", sheetXML("")},
		part{"xl/drawings/drawing1.xml", drawingXML(`r:link="rId1"`, `r:embed="rId&#50;"`, `r:embed="rId7"`)},
		part{"xl/drawings/_RELS/drawing1.xml.RELS", drawingRels}, // letter case of the folder and extension
		part{"xl/drawings/_rels/drawing1.xml.rels", rels("rId1|image|http://127.0.0.1:9/dup.png|External")},
		part{"xl/../../outside.xml", "x"},
		part{"/abs.xml", "x"},
		part{"xl/media/", ""},
	)
	out, left, err := Sanitize(pkg(t, false, parts...), testLimits)
	require.NoError(t, err)
	got := entries(t, out)
	r := got["xl/drawings/_RELS/drawing1.xml.RELS"]
	assert.Equal(t, 1, strings.Count(r, "<Relationship "), r)
	assert.Contains(t, r, `Id="rId7" Type="`+typeBase+`image" Target="../media/ok.png"/>`)
	assert.NotContains(t, got, "xl/drawings/_rels/drawing1.xml.rels", "a second copy under another letter case is left out")
	assert.NotContains(t, got, "xl/../../outside.xml")
	assert.NotContains(t, got, "/abs.xml")
	assert.NotContains(t, got, "xl/media/")
	d := got["xl/drawings/drawing1.xml"]
	assert.NotContains(t, d, "rId1")
	assert.NotContains(t, d, "rId&#50;", "an id written with a character reference is still found")
	assert.Contains(t, d, `r:embed="rId7"`)
	assert.Equal(t, []Omitted{
		{Part: packagePart, What: "entries with unusual or repeated names", Count: 3},
		{Part: "xl/drawings/drawing1.xml", What: "linked image", Target: "file", Count: 1},
		{Part: "xl/drawings/drawing1.xml", What: "linked image", Target: "http", Count: 2},
		{Part: "xl/drawings/drawing1.xml", What: "linked image", Target: "network path", Count: 1},
		{Part: "xl/drawings/drawing1.xml", What: "linked image", Target: "path", Count: 2},
	}, left)
}

// TestSanitizeCopiesUntouchedEntriesRaw: parts that lose nothing keep
// their compressed bytes.
func TestSanitizeCopiesUntouchedEntriesRaw(t *testing.T) {
	in := pkg(t, false, append(basePackage(nil, ""), part{"xl/worksheets/sheet1.xml", sheetXML(strings.Repeat("<!-- pad -->", 100))})...)
	out, left, err := Sanitize(in, testLimits)
	require.NoError(t, err)
	assert.Empty(t, left)
	raw := func(data []byte, name string) []byte {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		require.NoError(t, err)
		for _, f := range zr.File {
			if f.Name == name {
				rc, err := f.OpenRaw()
				require.NoError(t, err)
				b, err := io.ReadAll(rc)
				require.NoError(t, err)
				return b
			}
		}
		t.Fatalf("%s missing", name)
		return nil
	}
	assert.Equal(t, raw(in, "xl/worksheets/sheet1.xml"), raw(out, "xl/worksheets/sheet1.xml"))
	assert.Equal(t, raw(in, "xl/workbook.xml"), raw(out, "xl/workbook.xml"))
}

// TestSanitizeRefuses: bytes that are not a package, a declared zip bomb, a
// relationship part beyond MaxPart, a damaged part it must read.
func TestSanitizeRefuses(t *testing.T) {
	good := pkg(t, false, append(basePackage(nil, ""), part{"xl/worksheets/sheet1.xml", sheetXML("")})...)
	_, _, err := Sanitize([]byte("not a zip"), testLimits)
	assert.ErrorIs(t, err, ErrDamaged)

	_, _, err = Sanitize(good, Limits{MaxUnzipped: 100, MaxPart: 100})
	assert.ErrorIs(t, err, ErrTooBig)
	assert.Contains(t, err.Error(), "zip bomb")

	_, _, err = Sanitize(good, Limits{MaxUnzipped: 1 << 20, MaxPart: 50})
	assert.ErrorIs(t, err, ErrTooBig)

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "_rels/.rels", Method: zip.Store, CRC32: 1, CompressedSize64: 3, UncompressedSize64: 3})
	require.NoError(t, err)
	_, err = w.Write([]byte("<a>"))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	_, _, err = Sanitize(buf.Bytes(), testLimits)
	assert.ErrorIs(t, err, ErrDamaged, "a checksum error")
}

// TestSanitizeUnreadableRelationships: a relationship part encoding/xml
// refuses is left out (its part then has no relationships) and reported.
func TestSanitizeUnreadableRelationships(t *testing.T) {
	parts := append(basePackage(nil, ""),
		part{"xl/worksheets/sheet1.xml", sheetXML("")},
		part{"xl/worksheets/_rels/sheet1.xml.rels", `<Relationships><Relationship Id="rId1" Target="http://x" TargetMode="External"`})
	out, left, err := Sanitize(pkg(t, false, parts...), testLimits)
	require.NoError(t, err)
	assert.NotContains(t, entries(t, out), "xl/worksheets/_rels/sheet1.xml.rels")
	assert.Equal(t, []Omitted{{Part: "xl/worksheets/sheet1.xml", What: "unreadable relationships", Count: 1}}, left)
}

func TestSchemeOf(t *testing.T) {
	for target, want := range map[string]string{
		"http://127.0.0.1/x": "http", "HTTPS://a": "https", "file:///etc/passwd": "file",
		`\\server\share`: "network path", "//server/share": "network path", `C:\secret.xlsx`: "drive path",
		"../book.xlsx": "path", "": "", "a b:c": "other", strings.Repeat("x", 40) + ":y": "other",
	} {
		assert.Equal(t, want, schemeOf(target), target)
	}
}

// TestSanitizePartNamesAreDecoded: entry names are OPC part names, percent
// escapes decoded, so an escaped relationship part is still one, and two
// spellings of one part are one part; a part that is not XML keeps its
// bytes when its relationships lose an entry.
func TestSanitizePartNamesAreDecoded(t *testing.T) {
	binary := "\x89PNG<\x00<>not xml"
	parts := append(basePackage(nil, ""),
		part{"xl/worksheets/sheet1.xml", sheetXML("")},
		part{"xl/drawings/_rels/drawing1.xml%2Erels", rels("rId1|image|http://127.0.0.1:9/a.png|External")},
		part{"xl/drawings/%5Frels/drawing1.xml.rels", rels("rId1|image|http://127.0.0.1:9/b.png|External")},
		part{"xl/drawings/drawing1.xml", drawingXML(`r:link="rId1"`)},
		part{"xl/media/image%31.png", binary},
		part{"xl/media/_rels/image1.png.rels", rels("rId1|image|file:///outside/x.png|External")},
	)
	out, left, err := Sanitize(pkg(t, false, parts...), testLimits)
	require.NoError(t, err)
	got := entries(t, out)
	assert.NotContains(t, got["xl/drawings/_rels/drawing1.xml%2Erels"], "127.0.0.1")
	assert.NotContains(t, got, "xl/drawings/%5Frels/drawing1.xml.rels", "the same part under a second spelling")
	assert.NotContains(t, got["xl/drawings/drawing1.xml"], "r:link")
	assert.Equal(t, binary, got["xl/media/image%31.png"])
	assert.Equal(t, []Omitted{
		{Part: packagePart, What: "entries with unusual or repeated names", Count: 1},
		{Part: "xl/drawings/drawing1.xml", What: "linked image", Target: "http", Count: 1},
		{Part: "xl/media/image1.png", What: "linked image", Target: "file", Count: 1},
	}, left)
}
