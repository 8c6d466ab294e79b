package splicepath

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// calcChainPart is where Excel lists the formula cells of a workbook in
// the order it last computed them.
const calcChainPart = "xl/calcChain.xml"

// WithoutChainCells returns the calculation chain data without the
// entries of cells (row, col) on the sheet whose sheetId is sheetID, as
// excelize drops the entry of a formula a value replaces. Each entry's i
// (its sheet) defaults to the previous entry's, so the entries kept after
// a dropped one get an explicit i. ok is false when the chain cannot be
// read, or would be left empty (the part would have to go).
func WithoutChainCells(data []byte, sheetID int, cells map[[2]int]bool) (out []byte, ok bool) {
	z := sheetxml.New(bytes.NewReader(data))
	out = make([]byte, 0, len(data))
	cur, kept, dropped, skipping := 0, 0, false, false
	for {
		t, err := z.Next()
		if errors.Is(err, io.EOF) {
			return out, kept > 0
		}
		if err != nil {
			return nil, false
		}
		isC := (t.Kind == sheetxml.Start || t.Kind == sheetxml.Empty) && string(t.Name) == "c"
		switch {
		case skipping:
			skipping = !t.Is(sheetxml.End, "c")
			continue
		case !isC:
			out = append(out, t.Raw...)
			continue
		}
		explicit := t.Attr("i") != nil
		if explicit {
			cur = sheetxml.Uint(t.Attr("i"))
		}
		if cur <= 0 || !bytes.HasPrefix(t.Raw, []byte("<c")) {
			return nil, false // no sheet to tell, or a prefixed chain
		}
		col, row := sheetxml.SplitRef(t.Attr("r"))
		if cur == sheetID && cells[[2]int{row, col}] {
			dropped, skipping = true, t.Kind == sheetxml.Start
			continue
		}
		kept++
		if dropped && !explicit {
			out = append(out, `<c i="`...)
			out = strconv.AppendInt(out, int64(cur), 10)
			out = append(out, '"')
			out = append(out, t.Raw[len("<c"):]...)
			continue
		}
		out = append(out, t.Raw...)
	}
}
