package splicepath

import (
	"bytes"
	"encoding/xml"
	"errors"
	"path"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// metadataPart is where excelize keeps the cell metadata part, relative
// to the package root; the workbook relates to it as "metadata.xml".
const metadataPart = "xl/metadata.xml"

// spillMeta is what a splice edit learnt of the workbook's cell
// metadata: the cm value of a dynamic array anchor, or none.
type spillMeta struct {
	cm uint
	ok bool
}

// spillMetadata returns the cm value of a dynamic array anchor, as
// SetDynamicArrayFormula chooses it (excelize.DynamicArrayMetadataPart):
// ok is false when the workbook's metadata part holds other metadata (the
// formula stays an ordinary one, as on the excelize path). A workbook
// without the part gets it, with its content type and the workbook's
// relationship, among the parts the edit rewrites.
func (sb *Book) spillMetadata() (uint, bool, error) {
	if sb.meta != nil {
		return sb.meta.cm, sb.meta.ok, nil
	}
	var raw []byte
	if zf := opc.FindPart(sb.zr, metadataPart); zf != nil {
		data, err := opc.ReadPart(sb.zr, zf.Name)
		if err != nil {
			return 0, false, engine.NoSplice("the cell metadata part cannot be read")
		}
		raw = data
	}
	cm, part, err := excelize.DynamicArrayMetadataPart(raw)
	switch {
	case errors.Is(err, excelize.ErrDynamicArrayMetadata):
		sb.meta = &spillMeta{}
		return 0, false, nil
	case err != nil:
		return 0, false, engine.NoSplice("the cell metadata part cannot be read")
	}
	if part != nil {
		if err := sb.addMetadataPart(part); err != nil {
			return 0, false, err
		}
	}
	sb.meta = &spillMeta{cm: cm, ok: true}
	return cm, true, nil
}

// addMetadataPart puts the new metadata part, its content type and the
// workbook's relationship to it among sb.parts, each list part with its
// record appended before its end tag.
func (sb *Book) addMetadataPart(part []byte) error {
	wb := sb.workbookPart()
	if wb != "xl/workbook.xml" {
		return engine.NoSplice("the workbook part is not where the cell metadata part is related from")
	}
	types := opc.FindPart(sb.zr, "[Content_Types].xml")
	relsName := path.Join(path.Dir(wb), "_rels", path.Base(wb)+".rels")
	rels := opc.FindPart(sb.zr, relsName)
	if types == nil || rels == nil {
		return engine.NoSplice("the package lacks its content types or the workbook's relationships")
	}
	ct, err := opc.ReadPart(sb.zr, types.Name)
	if err != nil {
		return engine.NoSplice("the content types cannot be read")
	}
	if !bytes.Contains(ct, []byte(`"/`+metadataPart+`"`)) {
		rec := `<Override PartName="/` + metadataPart + `" ContentType="` + excelize.ContentTypeSheetMetadata + `"></Override>`
		if ct, err = appendRecord(ct, "</Types>", rec); err != nil {
			return err
		}
		sb.parts[types.Name] = splice.Bytes(ct)
	}
	rl, err := opc.ReadPart(sb.zr, rels.Name)
	if err != nil {
		return engine.NoSplice("the workbook's relationships cannot be read")
	}
	ids := map[string]bool{}
	for _, r := range opc.ParseRels(rl) {
		ids[r.ID] = true
		if r.Type == excelize.SourceRelationshipSheetMetadata {
			return engine.NoSplice("the workbook relates to a cell metadata part the package lacks")
		}
	}
	n := len(ids) + 1
	for ids["rId"+strconv.Itoa(n)] {
		n++
	}
	rec := `<Relationship Id="rId` + strconv.Itoa(n) + `" Target="metadata.xml" Type="` + excelize.SourceRelationshipSheetMetadata + `"></Relationship>`
	if rl, err = appendRecord(rl, "</Relationships>", rec); err != nil {
		return err
	}
	sb.parts[rels.Name] = splice.Bytes(rl)
	sb.parts[metadataPart] = splice.Bytes(append([]byte(xmlHeader), part...))
	return nil
}

// xmlHeader is the declaration excelize writes before a part it adds.
const xmlHeader = xml.Header

// appendRecord inserts rec before the last end tag of data (its root's);
// a root written otherwise (a prefixed name) declines the splice.
func appendRecord(data []byte, end, rec string) ([]byte, error) {
	i := bytes.LastIndex(data, []byte(end))
	if i < 0 || strings.TrimSpace(string(data[i+len(end):])) != "" {
		return nil, engine.NoSplice("a list part does not end as expected")
	}
	out := make([]byte, 0, len(data)+len(rec))
	out = append(append(append(out, data[:i]...), rec...), data[i:]...)
	return out, nil
}
