package sheetread

import (
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
)

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
