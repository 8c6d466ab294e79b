package dates

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSerialISO checks the serial → ISO text conversion against what
// openpyxl 3.1's from_excel(v, epoch).isoformat() gives (the want column
// was produced by running openpyxl on each serial).
func TestSerialISO(t *testing.T) {
	cases := []struct {
		name     string
		v        float64
		date1904 bool
		want     string // "" means the serial stays a number
	}{
		{"zero is midnight", 0, false, "00:00:00"},
		{"zero is midnight 1904", 0, true, "00:00:00"},
		{"half day is noon", 0.5, false, "12:00:00"},
		{"time with milliseconds", 0.999999, false, "23:59:59.914000"},
		{"time rounds to ms", 0.99999999, true, "23:59:59.999000"},
		{"time rounding into the next day", 0.9999999999, false, "1900-01-01T00:00:00"},
		{"time rounding into the next day 1904", 0.9999999999, true, "1904-01-02T00:00:00"},
		{"50 ms", 0.0000005787, false, "00:00:00.050000"},
		{"half a second", 0.0000057870, false, "00:00:00.500000"},
		{"fraction of a second", 0.001, false, "00:01:26.400000"},
		{"below a millisecond", 1e-9, false, "00:00:00"},
		{"serial 1", 1, false, "1900-01-01T00:00:00"},
		{"serial 1 in 1904", 1, true, "1904-01-02T00:00:00"},
		{"serial 1.5", 1.5, false, "1900-01-01T12:00:00"},
		{"serial 59", 59, false, "1900-02-28T00:00:00"},
		{"serial 59.75", 59.75, false, "1900-02-28T18:00:00"},
		{"serial 60 is the fictitious 1900-02-29", 60, false, "1900-02-28T00:00:00"},
		{"serial 60.5", 60.5, false, "1900-02-28T12:00:00"},
		{"serial 61", 61, false, "1900-03-01T00:00:00"},
		{"serial 59 in 1904 is a real leap day", 59, true, "1904-02-29T00:00:00"},
		{"serial 60 in 1904", 60, true, "1904-03-01T00:00:00"},
		{"date", 45322, false, "2024-01-31T00:00:00"},
		{"date 1904", 45322, true, "2028-02-01T00:00:00"},
		{"datetime", 45322.5729166667, false, "2024-01-31T13:45:00"},
		{"datetime one second", 45322.000011574, false, "2024-01-31T00:00:01"},
		{"datetime with ms", 45322.1234567, true, "2028-02-01T02:57:46.659000"},
		{"last day", 2958465, false, "9999-12-31T00:00:00"},
		{"last millisecond", 2958465.99999999, false, "9999-12-31T23:59:59.999000"},
		{"last day 1904", 2957003, true, "9999-12-31T00:00:00"},
		{"past year 9999", 2958466, false, ""},
		{"past year 9999 in 1904", 2957004, true, ""},
		{"huge", 1e300, false, ""},
		{"negative", -1, false, ""},
		{"negative fraction", -0.5, true, ""},
		{"NaN", math.NaN(), false, ""},
		{"infinity", math.Inf(1), false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := SerialISO(c.v, c.date1904)
			assert.Equal(t, c.want != "", ok)
			assert.Equal(t, c.want, got)
		})
	}
}

// TestIsDateFormat checks the format classifier against openpyxl's
// is_date_format and is_timedelta_format (outputs taken from openpyxl).
func TestIsDateFormat(t *testing.T) {
	cases := []struct {
		code           string
		date, duration bool
	}{
		{"General", false, false},
		{"0.00", false, false},
		{"0%", false, false},
		{"0.00E+00", false, false},
		{"@", false, false},
		{"yyyy/mm/dd hh:mm", true, false},
		{"mm-dd-yy", true, false},
		{"h:mm AM/PM", true, false},
		{"mm:ss.0", true, false},
		{"yyyy年m月d日", true, false},
		{`"Date: "0`, false, false},
		{`#,##0 "days"`, false, false},
		{`0"d"`, false, false},
		{`"a"d`, true, false},
		{`"unterminated d`, true, false},
		{"[Red]0.00", false, false},
		{"[DBNum1]0", false, false},
		{"[$-409]yyyy-mm-dd", true, false},
		{"[$-F800]dddd, mmmm dd, yyyy", true, false},
		{"[h]:mm:ss", true, true},
		{"[mm]:ss", true, true},
		{"[H]:MM", true, true},
		{"[ss].00", true, true},
		{"[h]", true, true},
		{`\d0`, false, false},
		{"_d0", false, false},
		{`_-* #,##0_-;-* #,##0_-;_-* "-"_-;_-@_-`, false, false},
		{"0.0;[Red]yyyy", false, false},
	}
	for _, c := range cases {
		t.Run(c.code, func(t *testing.T) {
			assert.Equal(t, c.date, isDateFormat(c.code), "date")
			assert.Equal(t, c.duration, isDurationFormat(c.code), "duration")
		})
	}
}

// TestParseDateStyles classifies cellXfs entries by builtin and custom
// number formats the way openpyxl indexes its date styles.
func TestParseDateStyles(t *testing.T) {
	cases := []struct {
		name string
		xml  string
		want []bool
	}{
		{"builtins", `<styleSheet><cellXfs>` +
			`<xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="22"/><xf numFmtId="9"/>` +
			`<xf numFmtId="45"/><xf numFmtId="46"/><xf numFmtId="47"/><xf numFmtId="31"/><xf numFmtId="57"/><xf/>` +
			`</cellXfs></styleSheet>`,
			[]bool{false, true, true, false, true, false, true, false, false, false}},
		{"custom formats win over builtin ids", `<styleSheet><numFmts count="3">` +
			`<numFmt numFmtId="164" formatCode="yyyy/mm/dd hh:mm"/><numFmt numFmtId="165" formatCode="0.000"/>` +
			`<numFmt numFmtId="14" formatCode="0.0"/></numFmts>` +
			`<cellXfs><xf numFmtId="165"/><xf numFmtId="164"/><xf numFmtId="14"/></cellXfs></styleSheet>`,
			[]bool{false, true, false}},
		{"no date style", `<styleSheet><cellXfs><xf numFmtId="0"/><xf numFmtId="10"/></cellXfs></styleSheet>`, nil},
		{"no cellXfs", `<styleSheet/>`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseStyles([]byte(c.xml))
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
	_, err := ParseStyles([]byte(`<styleSheet><cellXfs><xf numFmtId="x"/>`))
	assert.Error(t, err)
}

// FuzzDateStyles: styles.xml decoding and the number format classifier
// never panic, and only the first section of a format code counts.
func FuzzDateStyles(f *testing.F) {
	f.Add([]byte(`<styleSheet><numFmts><numFmt numFmtId="164" formatCode="yyyy/mm/dd"/></numFmts><cellXfs><xf numFmtId="164"/><xf/></cellXfs></styleSheet>`))
	f.Add([]byte(`[h]:mm:ss;"a"[Red]d\y_m`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseStyles(data)
		code := string(data)
		for _, tail := range []string{";yyyy", ";[h]", ";0"} {
			if isDateFormat(code) != isDateFormat(code+tail) || isDurationFormat(code) != isDurationFormat(code+tail) {
				t.Fatalf("%q: a later section %q changed the class", code, tail)
			}
		}
	})
}
