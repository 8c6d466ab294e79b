package engine

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// styledCell is a cell of the sheet XML that names a style.
type styledCell struct {
	Col, Row, Style int
}

// sheetStyles is what read_cell_styles learns from one pass over a sheet.
type sheetStyles struct {
	Cells     []styledCell // styled cells in the range, in file order, at most maxCells
	Truncated bool         // more styled cells were in the range
	Merges    []string     // merged ranges that meet the range, at most maxCells
	MergesCut bool         // more merged ranges met the range
}

// ScanStyles streams sheet's XML once and returns the styled cells (a <c>
// with s > 0) and merged ranges that meet rng, at most maxCells of each. It
// walks only the cells that exist, so its cost is the sheet's size, never
// the size of the range asked for (A1:XFD1048576 costs what A1:B2 does);
// what it holds is bounded by maxCells. Rows or cells out of order are
// read as they come.
func (b *Book) ScanStyles(sheet string, rng cellarea.Range, maxCells int, cancelled func() error) (sheetStyles, error) {
	var out sheetStyles
	zf, err := b.Part(sheet)
	if err != nil || zf == nil {
		return out, err
	}
	rc, err := zf.Open()
	if err != nil {
		return out, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	return scanStylesIn(b.Svc.Limits.NewRunBound(rc, fmt.Sprintf("sheet %q", sheet)), sheet, rng, maxCells, cancelled)
}

// scanStylesIn is scanStyles over the worksheet XML in r.
func scanStylesIn(r io.Reader, sheet string, rng cellarea.Range, maxCells int, cancelled func() error) (sheetStyles, error) {
	var out sheetStyles
	z := sheetxml.New(sheetread.FailingReader{Reader: r})
	row, col, n := 0, 0, 0
	for {
		t, err := z.Next()
		switch {
		case err == nil:
		case errors.Is(err, io.EOF):
			return out, nil
		case failure.KindOf(err) != "":
			return out, err // a bound (see runBound)
		case errors.Is(err, sheetxml.ErrTruncated):
			return out, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: the XML of sheet %q is truncated", sheet), err)
		case err != nil:
			return out, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: sheet %q: %v", sheet, err), err)
		}
		if t.Kind != sheetxml.Start && t.Kind != sheetxml.Empty {
			continue
		}
		switch string(t.Name) {
		case "row":
			if r := sheetxml.AttrInt(t.Attrs(), "r"); r > 0 {
				row = r
			} else {
				row++
			}
			col = 0
			if n++; n%sheetread.StreamCheckEvery == 0 {
				if err := cancelled(); err != nil {
					return out, err
				}
			}
		case "c":
			if c, _ := sheetxml.SplitRef(t.Attr("r")); c > 0 {
				col = c
			} else {
				col++
			}
			s := sheetxml.AttrInt(t.Attrs(), "s")
			if s <= 0 || row < rng.R1 || row > rng.R2 || col < rng.C1 || col > rng.C2 {
				continue
			}
			if len(out.Cells) == maxCells {
				out.Truncated = true
				continue
			}
			out.Cells = append(out.Cells, styledCell{Col: col, Row: row, Style: s})
		case "mergeCell":
			m, err := grid.ParseRange(string(t.Attr("ref")))
			if err != nil || m.R2 < rng.R1 || m.R1 > rng.R2 || m.C2 < rng.C1 || m.C1 > rng.C2 {
				continue
			}
			if len(out.Merges) == maxCells {
				out.MergesCut = true
				continue
			}
			out.Merges = append(out.Merges, m.String())
		}
	}
}

// styleBook opens, with excelize, only the parts of b's package that style
// lookups need: every part but the worksheets and the shared strings, copied
// without inflating them. Its cost is the size of the styles, never of the
// sheets, so read_cell_styles stays bounded by what it returns. The caller
// closes the returned file; it is never saved nor cached.
func (b *Book) styleBook() (*excelize.File, error) {
	buf, err := b.styleParts()
	if err != nil {
		return nil, err
	}
	return b.Svc.openStyleParts(buf, b.Name())
}

// StylesByID reads from styleBook the style of each index of ids; an index
// past the style table is left out, as excelize's reader ignores it.
func (b *Book) StylesByID(ids []int) (map[int]*excelize.Style, error) {
	styles, err := b.styleBook()
	if err != nil {
		return nil, err
	}
	defer styles.Close()
	out := make(map[int]*excelize.Style, len(ids))
	for _, id := range ids {
		if _, done := out[id]; done {
			continue
		}
		if st, err := styles.GetStyle(id); err == nil {
			out[id] = st
		}
	}
	return out, nil
}

// styleParts is the package styleBook opens: b's parts but the worksheets
// and the shared strings, copied without inflating them.
func (b *Book) styleParts() ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, zf := range b.Zr.File {
		name := strings.ToLower(zf.Name)
		if strings.HasPrefix(name, "xl/worksheets/") || name == "xl/sharedstrings.xml" {
			continue
		}
		if zf.UncompressedSize64 > uint64(b.Svc.Limits.UnzipXMLSizeLimit) {
			continue // not a style part anyone writes that big; excelize would spill it
		}
		if err := zw.Copy(zf); err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, failure.New(failure.KindIO, err.Error(), err)
	}
	return buf.Bytes(), nil
}

// openStyleParts opens with excelize the package styleParts made of the
// workbook named name.
func (s *Engine) openStyleParts(parts []byte, name string) (*excelize.File, error) {
	f, err := excelize.OpenReader(bytes.NewReader(parts), s.openOptions())
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		return nil, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: cannot read the styles of %s: %v", name, err), err)
	}
	return f, nil
}
