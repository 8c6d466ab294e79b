package rendersafe

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"
)

// FuzzRenderSanitize feeds Sanitize arbitrary bytes. It must never panic;
// when it succeeds the output is a readable zip whose relationship parts
// all parse and hold no TargetMode at all (every relationship left is
// internal), and sanitising the output again removes nothing (the output
// is a fixed point). Seeds are stored without checksums so that mutations
// inside the XML survive archive/zip's CRC check.
func FuzzRenderSanitize(f *testing.F) {
	drawing := append(basePackage([]string{"rId2|externalLink|externalLinks/externalLink1.xml|", "rId3|connections|connections.xml|"}, `<externalReferences><externalReference r:id="rId2"/></externalReferences>`, "xl/connections.xml"),
		part{"xl/worksheets/sheet1.xml", sheetXML(`<drawing r:id="rId1"/><legacyDrawing r:id="rId2"/><oleObjects><oleObject r:id="rId3"/></oleObjects>`)},
		part{"xl/worksheets/_rels/sheet1.xml.rels", rels("rId1|drawing|../drawings/drawing1.xml|", "rId2|vmlDrawing|../drawings/vmlDrawing1.vml|", "rId3|oleObject|file:///x.xlsx|External", "rId4|queryTable|../queryTables/queryTable1.xml|")},
		part{"xl/drawings/drawing1.xml", drawingXML(`r:link="rId1"`, `r:embed="rId2"`)},
		part{"xl/drawings/_rels/drawing1.xml.rels", rels("rId1|image|http://127.0.0.1:9/a.png|External", "rId2|image|../media/image1.png|")},
		part{"xl/drawings/vmlDrawing1.vml", `<xml xmlns:v="urn:schemas-microsoft-com:vml"><v:shape><v:imagedata src="file:///x.png" o:relid="rId1"/></v:shape></xml>`},
		part{"xl/externalLinks/externalLink1.xml", `<externalLink/>`},
		part{"xl/externalLinks/_rels/externalLink1.xml.rels", rels("rId1|externalLinkPath|other.xlsx|External")},
		part{"xl/connections.xml", `<connections/>`},
		part{"xl/queryTables/queryTable1.xml", `<queryTable/>`},
		part{"xl/media/image1.png", "PNG"},
	)
	f.Add(pkg(f, true, drawing...))
	f.Add(pkg(f, false, drawing...))
	f.Add(pkg(f, true, part{"_rels/.rels", rels("rId1|officeDocument|http://x/|External")}, part{"[Content_Types].xml", contentTypesXML("a")}))
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, _, err := Sanitize(in, testLimits)
		if err != nil {
			return
		}
		zr, err := zip.NewReader(bytes.NewReader(out), int64(len(out)))
		if err != nil {
			t.Fatalf("the output is not a zip: %v", err)
		}
		for _, zf := range zr.File {
			if _, ok := sourceOf(zf.Name); !ok {
				if _, err := zf.OpenRaw(); err != nil {
					t.Fatalf("%q cannot be opened: %v", zf.Name, err)
				}
				continue
			}
			rc, err := zf.Open()
			if err != nil {
				t.Fatalf("%q: %v", zf.Name, err)
			}
			data, err := io.ReadAll(rc)
			if err != nil {
				t.Fatalf("%q: %v", zf.Name, err)
			}
			if bytes.Contains(bytes.ToLower(data), []byte("targetmode")) {
				t.Fatalf("%q keeps a TargetMode: %s", zf.Name, data)
			}
			list, err := parseRels(data)
			if err != nil {
				t.Fatalf("%q does not parse: %v", zf.Name, err)
			}
			for _, r := range list {
				if r.external {
					t.Fatalf("%q keeps an external relationship %+v", zf.Name, r)
				}
			}
		}
		_, left, err := Sanitize(out, testLimits)
		if err != nil {
			t.Fatalf("the output does not sanitise again: %v", err)
		}
		if len(left) != 0 {
			t.Fatalf("the output still had things to remove: %+v", left)
		}
	})
}
