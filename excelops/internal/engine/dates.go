package engine

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
)

// Dates: a numeric cell whose style has a date/time number format holds a
// serial day count, which reads return as openpyxl would (internal/dates).

// dateStyles loads the book's date styles from styles.xml and workbook.xml
// (the sheet index, which the caller has loaded through part).
func (b *Book) dateStyles() (*dates.Styles, error) {
	if b.dates != nil || b.Zr == nil || b.Index == nil {
		return b.dates, nil
	}
	ds := &dates.Styles{Date1904: b.Index.Date1904}
	name := b.Index.Styles
	if name == "" {
		name = "xl/styles.xml"
	}
	if opc.FindPart(b.Zr, name) != nil {
		data, err := opc.ReadPart(b.Zr, name)
		if err != nil {
			return nil, err
		}
		if ds.IsDate, err = dates.ParseStyles(data); err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: styles: "+err.Error(), err)
		}
	}
	b.dates = ds
	if id, ok := b.lightKey(); ok {
		b.Svc.Light.PutDates(id, ds)
	}
	return ds, nil
}
