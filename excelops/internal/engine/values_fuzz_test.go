package engine

import (
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
)

// FuzzISODate: a string write_cells takes for a date comes back, through
// the serial it stores and the reader's conversion, as the same instant
// (to the millisecond openpyxl keeps).
func FuzzISODate(f *testing.F) {
	for _, s := range []string{"2024-01-31", "13:45:00", "2024-01-31T13:45:30.5", "2024-01-31 08:00", "9:05", "1900-02-28", "1900-03-01", "9999-12-31T23:59:59.999", "24:00", "2024-02-30"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, date1904 bool) {
		tm, kind := ParseISODate(s)
		if kind == NotDate {
			return
		}
		serial, ok := ExcelSerial(tm, kind, date1904)
		if !ok {
			return // before the epoch: stored as text
		}
		if !date1904 && kind != KindTime && tm.Before(time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC)) {
			return // the 1900 leap-year bug's first two months read one day off, as in openpyxl
		}
		iso, ok := dates.SerialISO(serial, date1904)
		if !ok {
			t.Fatalf("%q: serial %v does not read back", s, serial)
		}
		back, _ := ParseISODate(iso)
		// Within the millisecond openpyxl rounds to (and one more for a
		// time of day rounded up to midnight, which reads as a date).
		if d := back.Sub(tm.Truncate(time.Microsecond)); d > time.Millisecond || d < -time.Millisecond {
			if kind == KindTime && tm.Round(time.Millisecond).Day() != tm.Day() {
				return
			}
			t.Fatalf("%q -> %v -> %q -> %v", s, serial, iso, back)
		}
	})
}
