package excelops

import (
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// maxHeadTokens bounds the tokens read before <sheetData> when looking for
// a sheet's <dimension>: Excel writes it second, after <sheetPr>.
const maxHeadTokens = 4096

// declaredRange is the used range a worksheet's <dimension> declares, as
// Excel saves it and openpyxl reads it, without reading the cells: only
// the XML before <sheetData> is inflated. ok is false when the sheet has
// none, or one that says only "A1" (what some writers put in every sheet),
// or one that does not parse; the cells must then be counted.
func (b *book) declaredRange(sheet string) (r cellRange, ok bool, err error) {
	zf, err := b.part(sheet)
	if err != nil || zf == nil {
		return cellRange{}, false, err
	}
	rc, err := zf.Open()
	if err != nil {
		return cellRange{}, false, newError(KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	z := sheetxml.New(b.svc.limits.newRunBound(rc, fmt.Sprintf("sheet %q", sheet)))
	for range maxHeadTokens {
		t, err := z.Next()
		if err != nil {
			return cellRange{}, false, nil // the cells' scan reports what is wrong
		}
		switch {
		case t.Kind != sheetxml.Start && t.Kind != sheetxml.Empty:
		case string(t.Name) == "sheetData":
			return cellRange{}, false, nil
		case string(t.Name) == "dimension":
			r, err := parseRange(string(sheetxml.Unescape(t.Attr("ref"))))
			if err != nil || r.c1 == r.c2 && r.r1 == r.r2 {
				return cellRange{}, false, nil
			}
			return r, true, nil
		}
	}
	return cellRange{}, false, nil
}
