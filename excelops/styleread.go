package excelops

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// styledCell is a cell of the sheet XML that names a style.
type styledCell struct {
	col, row, style int
}

// sheetStyles is what read_cell_styles learns from one pass over a sheet.
type sheetStyles struct {
	cells     []styledCell // styled cells in the range, in file order, at most maxCells
	truncated bool         // more styled cells were in the range
	merges    []string     // merged ranges that meet the range, at most maxCells
	mergesCut bool         // more merged ranges met the range
}

// scanStyles streams sheet's XML once and returns the styled cells (a <c>
// with s > 0) and merged ranges that meet rng, at most maxCells of each. It
// walks only the cells that exist, so its cost is the sheet's size, never
// the size of the range asked for (A1:XFD1048576 costs what A1:B2 does);
// what it holds is bounded by maxCells. Rows or cells out of order are
// read as they come.
func (b *book) scanStyles(sheet string, rng cellRange, maxCells int, cancelled func() error) (sheetStyles, error) {
	var out sheetStyles
	zf, err := b.part(sheet)
	if err != nil || zf == nil {
		return out, err
	}
	rc, err := zf.Open()
	if err != nil {
		return out, newError(KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(b.svc.limits.newRunBound(rc, fmt.Sprintf("sheet %q", sheet)), scanBufferSize)
	row, col, n := 0, 0, 0
	for {
		if _, err := br.ReadSlice('<'); err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			if kindOf(err) != "" {
				return out, err
			}
			return out, newError(KindDamaged, "file is damaged: cannot read the sheet: "+err.Error(), err)
		}
		tag, err := br.ReadSlice('>')
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = br.ReadSlice('>') // an over-long tag: nothing we need
			tag = nil
		}
		if err != nil {
			if kindOf(err) != "" {
				return out, err
			}
			return out, newError(KindDamaged, fmt.Sprintf("file is damaged: the XML of sheet %q is truncated", sheet), nil)
		}
		name, attrs := localName(tag)
		switch string(name) {
		case "row":
			if r := attrInt(attrs, "r"); r > 0 {
				row = r
			} else {
				row++
			}
			col = 0
			if n++; n%streamCheckEvery == 0 {
				if err := cancelled(); err != nil {
					return out, err
				}
			}
		case "c":
			col = nextCol(attrs, col)
			s := attrInt(attrs, "s")
			if s <= 0 || row < rng.r1 || row > rng.r2 || col < rng.c1 || col > rng.c2 {
				continue
			}
			if len(out.cells) == maxCells {
				out.truncated = true
				continue
			}
			out.cells = append(out.cells, styledCell{col: col, row: row, style: s})
		case "mergeCell":
			ref := attrValue(attrs, "ref")
			m, err := parseRange(string(ref))
			if err != nil || m.r2 < rng.r1 || m.r1 > rng.r2 || m.c2 < rng.c1 || m.c1 > rng.c2 {
				continue
			}
			if len(out.merges) == maxCells {
				out.mergesCut = true
				continue
			}
			out.merges = append(out.merges, m.String())
		}
	}
}

// localName splits a tag's bytes into its local name (prefix dropped) and
// its attributes; closing tags and declarations get a name starting with
// '/', '?' or '!', which no caller matches.
func localName(tag []byte) ([]byte, []byte) {
	tag = bytes.TrimSuffix(tag, []byte(">"))
	end := bytes.IndexAny(tag, " \t\r\n/")
	if end == 0 || len(tag) == 0 {
		return nil, nil
	}
	if end < 0 {
		end = len(tag)
	}
	name := tag[:end]
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return name, tag[end:]
}

// nextCol is the column of a <c> whose attributes are attrs, after the
// cell at column prev of the same row.
func nextCol(attrs []byte, prev int) int {
	if ref := attrValue(attrs, "r"); ref != nil {
		if c := columnOfRef(ref); c > 0 {
			return c
		}
	}
	return prev + 1
}
