package engine

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// A copied sheet made the copy's own: excelize's CopySheet shares parts
// between the source and the copy, which the book undoes in its package.

// DetachCopiedParts undoes what excelize's CopySheet shares between the
// source and the copy: the copy's relationships keep only its external
// hyperlinks (drawings, tables, notes and background pictures are the
// source's parts), and the source's notes are added to the copy as its own.
func (b *Book) DetachCopiedParts(sheet string, comments []excelize.Comment) error {
	if _, err := b.f.GetCellValue(sheet, "A1"); err != nil {
		return failure.New(failure.KindInvalidArgument, "cannot read the copied sheet: "+err.Error(), err)
	}
	ws, ok := ParsedSheet(b.f, sheet)
	if !ok {
		return ErrUnexpectedShape("copied sheet")
	}
	ws.LegacyDrawing, ws.LegacyDrawingHF, ws.Picture, ws.Drawing, ws.TableParts = nil, nil, nil, nil, nil
	part, ok := b.f.SheetXMLPath(sheet)
	if !ok {
		return ErrUnexpectedShape("copied sheet")
	}
	dir, base := path.Split(part)
	relsPath := dir + "_rels/" + base + ".rels"
	if _, parsed := b.f.Relationships.Load(relsPath); parsed {
		return ErrUnexpectedShape("copied sheet's relationships")
	}
	if raw, ok := b.f.Pkg.Load(relsPath); ok {
		data, _ := raw.([]byte)
		var rels struct {
			Rel []struct {
				ID         string `xml:"Id,attr"`
				Type       string `xml:"Type,attr"`
				Target     string `xml:"Target,attr"`
				TargetMode string `xml:"TargetMode,attr,omitempty"`
			} `xml:"Relationship"`
		}
		_ = xml.Unmarshal(data, &rels)
		var out bytes.Buffer
		out.WriteString(xml.Header + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
		kept := 0
		for _, r := range rels.Rel {
			if !strings.HasSuffix(r.Type, "/hyperlink") {
				continue
			}
			kept++
			fmt.Fprintf(&out, `<Relationship Id="%s" Type="%s" Target="%s"`, xmlAttr(r.ID), xmlAttr(r.Type), xmlAttr(r.Target))
			if r.TargetMode != "" {
				fmt.Fprintf(&out, ` TargetMode="%s"`, xmlAttr(r.TargetMode))
			}
			out.WriteString(`/>`)
		}
		out.WriteString(`</Relationships>`)
		if kept == 0 {
			b.f.Pkg.Delete(relsPath)
		} else {
			b.f.Pkg.Store(relsPath, out.Bytes())
		}
	}
	for _, c := range comments {
		if err := b.f.AddComment(sheet, c); err != nil {
			return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot copy the note of %s: %v", c.Cell, err), err)
		}
	}
	return nil
}

// xmlAttr escapes text for an XML attribute value.
func xmlAttr(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return strings.ReplaceAll(b.String(), `"`, "&#34;")
}
