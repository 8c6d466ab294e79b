package splicepath

import (
	"archive/zip"
	"bytes"
	"io"
	"path"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/xmlappend"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// styleBook edits a workbook's style table for the splice path with
// excelize's own style code (GetStyle, NewStyle, which reuses an identical
// cell format), on a small package holding only the workbook-level parts:
// the sheets are never loaded.
type styleBook struct {
	f      *excelize.File
	svc    *engine.Engine
	small  []byte // the small package f was opened from
	part   string // the styles part's name
	before int    // cell formats before the edit
	after  int
}

// stylesPart is the name of the styles part.
func (sb *Book) stylesPart() string {
	if sb.index.Styles != "" {
		return sb.index.Styles
	}
	return "xl/styles.xml"
}

// workbookPart is the name of the workbook part.
func (sb *Book) workbookPart() string {
	if sb.index.Workbook != "" {
		return sb.index.Workbook
	}
	return "xl/workbook.xml"
}

// styleTable loads the style table (once per call).
func (sb *Book) styleTable() (*styleBook, error) {
	if sb.styles != nil {
		return sb.styles, nil
	}
	keep := map[string]bool{
		"[content_types].xml": true, "_rels/.rels": true,
		strings.ToLower(sb.workbookPart()): true,
		strings.ToLower(path.Join(path.Dir(sb.workbookPart()), "_rels", path.Base(sb.workbookPart())+".rels")): true,
		strings.ToLower(sb.stylesPart()): true,
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, zf := range sb.zr.File {
		name := strings.ToLower(zf.Name)
		if keep[name] || strings.Contains(name, "/theme/") {
			if err := zw.Copy(zf); err != nil {
				return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
			}
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()), excelize.Options{TmpDir: sb.svc.TmpBase})
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		return nil, failure.New(failure.KindDamaged, "file is damaged: styles: "+err.Error(), err)
	}
	sb.styles = &styleBook{f: f, svc: sb.svc, small: buf.Bytes(), part: sb.stylesPart()}
	sb.styles.before = sb.styles.count()
	sb.styles.after = sb.styles.before
	return sb.styles, nil
}

// count is the number of cell formats (cellXfs) in the table.
func (st *styleBook) count() int {
	n := 0
	for {
		if _, err := st.f.GetStyle(n); err != nil {
			return n
		}
		n++
	}
}

// derive returns the cell format of base with sc laid over it: an existing
// identical one or a new one.
func (st *styleBook) derive(base int, sc *vocab.StyleChange) (int, error) {
	bs, err := st.f.GetStyle(base)
	if err != nil {
		if base == 0 {
			bs = &excelize.Style{}
		} else {
			return 0, failure.New(failure.KindDamaged, "file is damaged: style table: "+err.Error(), err)
		}
	}
	id, err := st.f.NewStyle(sc.Apply(bs))
	if err != nil {
		return 0, failure.New(failure.KindInvalidArgument, "invalid style: "+err.Error(), err)
	}
	st.after = max(st.after, id+1)
	return id, nil
}

// changed reports whether a cell format was added.
func (st *styleBook) changed() bool { return st.after > st.before }

// bytes returns the styles part to save: the original bytes with the
// records the edit added appended when that is all it did (the part as
// excelize re-serialises it, unchanged, shows which bytes are new), else
// the part as excelize writes it.
func (st *styleBook) bytes() ([]byte, error) {
	edited, err := stylesPartOf(st.f, st.part)
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(st.small), int64(len(st.small)))
	if err != nil {
		return edited, nil
	}
	orig, err := opc.ReadPart(zr, st.part)
	if err != nil {
		return edited, nil
	}
	fresh, err := excelize.OpenReader(bytes.NewReader(st.small), excelize.Options{TmpDir: st.svc.TmpBase})
	if err != nil {
		if fresh != nil {
			_ = fresh.Close()
		}
		return edited, nil
	}
	defer fresh.Close()
	if _, err := fresh.GetStyle(0); err != nil { // parsed, as the edit's table was
		return edited, nil
	}
	baseline, err := stylesPartOf(fresh, st.part)
	if err != nil {
		return edited, nil
	}
	merged, err := xmlappend.Merge(orig, baseline, edited)
	if err == nil {
		return merged, nil
	}
	return edited, nil
}

// stylesPartOf returns the styles part named part as saving f writes it.
func stylesPartOf(f *excelize.File, part string) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		return nil, err
	}
	zf := opc.FindPart(zr, part)
	if zf == nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: no styles part", nil)
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// close releases the style workbook.
func (st *styleBook) close() { _ = st.f.Close() }

// setFullCalcOnLoad returns workbook.xml with <calcPr fullCalcOnLoad="1">
// (added when missing), so Excel and LibreOffice recalculate every formula
// when they open the file; changed is false when it was already set.
func setFullCalcOnLoad(data []byte) ([]byte, bool) {
	z := sheetxml.New(bytes.NewReader(data))
	out := make([]byte, 0, len(data)+40)
	depth := 0
	pfx := ""
	done := false
	// calcPr follows these in CT_Workbook; anything else at depth 1 after
	// them comes after calcPr.
	before := map[string]bool{"fileVersion": true, "fileSharing": true, "workbookPr": true,
		"workbookProtection": true, "bookViews": true, "sheets": true, "functionGroups": true,
		"externalReferences": true, "definedNames": true}
	for {
		t, err := z.Next()
		if err != nil {
			if err != io.EOF {
				return data, false
			}
			break
		}
		if !done && depth == 1 && (t.Kind == sheetxml.Start || t.Kind == sheetxml.Empty || t.Kind == sheetxml.End) {
			name := string(t.Name)
			switch {
			case name == "calcPr" && t.Kind != sheetxml.End:
				if string(t.Attr("fullCalcOnLoad")) == "1" {
					return data, false
				}
				tag := removeXMLAttr(t.Raw, "fullCalcOnLoad")
				cut := len(tag) - 1
				if t.Kind == sheetxml.Empty {
					cut--
				}
				out = append(out, tag[:cut]...)
				out = append(out, ` fullCalcOnLoad="1"`...)
				out = append(out, tag[cut:]...)
				done = true
				continue
			case t.Kind != sheetxml.End && !before[name]:
				out = append(append(append(out, '<'), pfx...), `calcPr fullCalcOnLoad="1"/>`...)
				done = true
			}
		}
		if !done && depth == 1 && t.Is(sheetxml.End, "workbook") {
			out = append(append(append(out, '<'), pfx...), `calcPr fullCalcOnLoad="1"/>`...)
			done = true
		}
		if depth == 0 && t.Kind == sheetxml.Start {
			if i := bytes.IndexByte(t.Raw[:len(t.Raw)-len(t.Attrs())-1], ':'); i > 0 {
				pfx = string(t.Raw[1 : i+1])
			}
		}
		out = append(out, t.Raw...)
		switch t.Kind {
		case sheetxml.Start:
			depth++
		case sheetxml.End:
			depth--
		}
	}
	return out, done
}

// removeXMLAttr removes attribute key from a tag's raw bytes.
func removeXMLAttr(tag []byte, key string) []byte {
	v := sheetxml.AttrValue(tag, key)
	if v == nil {
		return bytes.Clone(tag)
	}
	i := bytes.Index(tag, []byte(" "+key+"="))
	if i < 0 {
		return bytes.Clone(tag)
	}
	end := i + len(key) + 2 + 1 + len(v) + 1
	if end > len(tag) {
		return bytes.Clone(tag)
	}
	return append(bytes.Clone(tag[:i]), tag[end:]...)
}
