package grid

import (
	"strings"
	"testing"
)

// FuzzParseRange: any text is a range, or an error saying which forms are
// accepted or which edge of the grid it is past; a range renders back to
// itself.
func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"A1", "A1:C3", "$B$7", "A:A", "1:3", "XFD1048576", "XFE1", "A1048577", "a1:b2", "A0", "ZZZZ9", "A1:B2:C3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRange(s)
		if err != nil {
			msg := err.Error()
			if !strings.Contains(msg, "invalid cell range") {
				t.Fatalf("%q: %s", s, msg)
			}
			return
		}
		if r.C1 < 1 || r.R1 < 1 || r.C2 > LastCol || r.R2 > LastRow || r.C1 > r.C2 || r.R1 > r.R2 {
			t.Fatalf("%q parsed to %+v", s, r)
		}
		back, err := ParseRange(r.String())
		if err != nil || back != r {
			t.Fatalf("%q -> %s -> %+v, %v", s, r, back, err)
		}
	})
}
