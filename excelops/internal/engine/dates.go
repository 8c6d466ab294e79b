package engine

import (
	"strconv"

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
			return nil, newError(failure.KindDamaged, "file is damaged: styles: "+err.Error(), err)
		}
	}
	b.dates = ds
	if id, ok := b.lightKey(); ok {
		b.Svc.Light.PutDates(id, ds)
	}
	return ds, nil
}

// dateSerial returns the finished cell's number when it is a number with a
// date style, which openpyxl would turn into a datetime or time.
func (rr *RowReader) dateSerial(text []byte) (float64, bool) {
	if !rr.date || len(rr.typ) != 0 && string(rr.typ) != "n" {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(text), 64)
	return v, err == nil
}

// dateValue returns the ISO text of the finished cell when it is a date.
func (rr *RowReader) dateValue(text []byte) (string, bool) {
	if v, ok := rr.dateSerial(text); ok {
		return dates.SerialISO(v, rr.dates.Date1904)
	}
	return "", false
}

// appendDate appends the finished cell to the row's JSON as a quoted ISO
// text when it is a date (ISO text never needs escaping).
func (rr *RowReader) appendDate(text []byte) bool {
	v, ok := rr.dateSerial(text)
	if !ok {
		return false
	}
	out, ok := dates.AppendSerialISO(append(rr.Enc, '"'), v, rr.dates.Date1904)
	if !ok {
		return false
	}
	rr.Enc = append(out, '"')
	return true
}
