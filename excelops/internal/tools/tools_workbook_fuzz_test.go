package tools

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzDefineName: any name and refers_to text is either defined (and read
// back as given) or refused as a ValueError or KeyError that leaves the
// file as it was; never a crash.
func FuzzDefineName(f *testing.F) {
	for _, s := range [][2]string{{"Qty", "Sheet1!$B$2:$B$3"}, {"A1", "1"}, {"_x.y?", "=SUM(Other!A:A)"}, {"r1c1", "1"},
		{"Ümsatz", "'No such'!A1"}, {"n", "SUM("}, {"\\p", `"text"`}, {"", ""}, {"a b", "1+"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, name, refersTo string) {
		if len(name) > 300 || len(refersTo) > 500 {
			return
		}
		// The arguments travel as JSON, which carries invalid UTF-8 as U+FFFD.
		name, refersTo = viaJSON(name), viaJSON(refersTo)
		e := newEnv(t)
		dataBook(e)
		before, err := os.ReadFile(e.path("data.xlsx"))
		require.NoError(t, err)
		res := e.call("define_name", map[string]any{"file_path": "data.xlsx", "name": name, "refers_to": refersTo})
		if res.IsError {
			p := e.fail("define_name", map[string]any{"file_path": "data.xlsx", "name": name, "refers_to": refersTo})
			assert.Contains(t, []any{"ValueError", "KeyError", nil}, p["exception"], p)
			after, err := os.ReadFile(e.path("data.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, before, after, "a refused name changed the file")
			return
		}
		names := e.open("data.xlsx").GetDefinedName()
		require.Len(t, names, 1)
		assert.Equal(t, name, names[0].Name)
		assert.Equal(t, strings.TrimPrefix(strings.TrimSpace(refersTo), "="), names[0].RefersTo)
	})
}

// viaJSON is s as a JSON round trip delivers it.
func viaJSON(s string) string {
	raw, _ := json.Marshal(s)
	var out string
	_ = json.Unmarshal(raw, &out)
	return out
}

// FuzzDeleteRange: deleting any range of a workbook with formulas, merges
// and rules, shifting either way, succeeds or is refused as a ValueError
// leaving the file as it was; a success leaves a workbook every formula of
// which still parses.
func FuzzDeleteRange(f *testing.F) {
	f.Add(uint8(1), uint8(3), uint8(1), uint8(4), true)
	f.Add(uint8(5), uint8(5), uint8(5), uint8(6), false)
	f.Add(uint8(1), uint8(1), uint8(9), uint8(2), true)
	f.Fuzz(func(t *testing.T, c1, r1, w, h uint8, up bool) {
		col, row := 1+int(c1)%8, 1+int(r1)%8
		rng := grid.RangeRef(col, row, col+int(w)%4, row+int(h)%4)
		shift := "left"
		if up {
			shift = "up"
		}
		e := newEnv(t)
		rangeBook(e)
		before, err := os.ReadFile(e.path("r.xlsx"))
		require.NoError(t, err)
		res := e.call("delete_range", map[string]any{"file_path": "r.xlsx", "cell_range": rng, "shift": shift})
		if res.IsError {
			p := e.fail("delete_range", map[string]any{"file_path": "r.xlsx", "cell_range": rng, "shift": shift})
			assert.Equal(t, "ValueError", p["exception"], p)
			after, err := os.ReadFile(e.path("r.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, before, after, "a refused delete changed the file")
			return
		}
		fb := e.open("r.xlsx")
		b := e.book("r.xlsx")
		for _, sheet := range fb.GetSheetList() {
			cells, err := b.FormulaCells(sheet)
			require.NoError(t, err)
			for _, c := range cells {
				text := mustFormula(t, fb, sheet, c.Ref)
				assert.NoError(t, recalc.ParseFormula(text), "%s!%s = %s after deleting %s %s", sheet, c.Ref, text, rng, shift)
			}
		}
	})
}
