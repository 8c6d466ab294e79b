package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomSheet is a generated sheet: its XML and, per row number, the
// values of its cells by column (nil: no cell).
type randomSheet struct {
	xml  []byte
	rows map[int][]any
	last int
}

// pagingAlphabet mixes ASCII, characters JSON escapes, and code points of
// several UTF-8 lengths, so character-aware sizing is exercised.
var pagingAlphabet = []rune("abcXYZ 019\"\\\n\té中𝄞")

// genSheet builds a random sheet: up to 150 rows with random gaps, up to
// 7 columns, numbers and inline strings.
func genSheet(r *rand.Rand) randomSheet {
	s := randomSheet{rows: map[int][]any{}}
	var b strings.Builder
	row := 0
	for range r.IntN(150) {
		row += 1 + r.IntN(3)*r.IntN(2)*r.IntN(4) // mostly consecutive, some gaps
		width := r.IntN(8)
		vals := make([]any, width)
		var cells strings.Builder
		for c := range width {
			if r.IntN(4) == 0 {
				continue // a hole in the row
			}
			ref := grid.CellName(c+1, row)
			if r.IntN(2) == 0 {
				n := r.IntN(100000) - 500
				vals[c] = float64(n)
				fmt.Fprintf(&cells, `<c r="%s"><v>%d</v></c>`, ref, n)
				continue
			}
			rs := make([]rune, 1+r.IntN(10))
			for i := range rs {
				rs[i] = pagingAlphabet[r.IntN(len(pagingAlphabet))]
			}
			text := string(rs)
			vals[c] = text
			esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(text)
			fmt.Fprintf(&cells, `<c r="%s" t="inlineStr"><is><t xml:space="preserve">%s</t></is></c>`, ref, esc)
		}
		for len(vals) > 0 && vals[len(vals)-1] == nil {
			vals = vals[:len(vals)-1]
		}
		if len(vals) > 0 {
			s.rows[row], s.last = vals, row
		}
		fmt.Fprintf(&b, `<row r="%d">%s</row>`, row, cells.String())
	}
	s.xml = sheetXML("A1", b.String())
	return s
}

// trimNulls drops trailing nulls (pages pad rows to different widths).
func trimNulls(row []any) []any {
	for len(row) > 0 && row[len(row)-1] == nil {
		row = row[:len(row)-1]
	}
	return row
}

// page is one decoded read_excel page and its text.
type page struct {
	m    map[string]any
	text string
}

// readPage calls read_excel through CallTool and checks what every page
// must say about itself: it fits the cap untruncated, rows_returned counts
// the rows present, next_offset is offset+rows_returned exactly when
// has_more.
func readPage(t *testing.T, reg *registry.Registry, capChars int, args map[string]any, key string) page {
	t.Helper()
	raw, err := json.Marshal(args)
	require.NoError(t, err)
	res := reg.CallTool(context.Background(), "read_excel", raw)
	require.False(t, res.IsError, "%v: %s", args, res.Text)
	if capChars > 0 {
		require.LessOrEqual(t, utf8.RuneCountInString(res.Text), capChars)
	}
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(res.Text), &m), res.Text)
	for k := range m {
		require.False(t, strings.HasPrefix(k, "_"), "the page was cut by truncation: %s", res.Text)
	}
	rows := m[key].([]any)
	require.EqualValues(t, len(rows), m["rows_returned"], res.Text)
	next, hasNext := m["next_offset"]
	require.Equal(t, m["has_more"], hasNext, res.Text)
	if hasNext {
		require.EqualValues(t, args["offset"].(int)+len(rows), next, res.Text)
		require.NotEmpty(t, rows, "a page that promises more must make progress: %s", res.Text)
	}
	return page{m: m, text: res.Text}
}

// TestPagingNeverSkips pages through random sheets with random result caps,
// page sizes and cell limits, in summary and range mode, and reassembles
// every row exactly once.
func TestPagingNeverSkips(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	for i := range 30 {
		sh := genSheet(r)
		capChars := 700 + r.IntN(2500)
		lim := limits.Limits{}
		if r.IntN(3) == 0 {
			capChars = -1                     // no result cap: pages are bounded by cells only
			lim.MaxReadCells = 8 + r.IntN(40) // a row holds up to 7 cells
		}
		// read_excel alone, in both registries: the only tool called.
		e := newEnvOf(t, t.TempDir(), []string{"read_excel"}, WithLimits(lim))
		reg := registry.New(registry.WithMaxResultChars(capChars))
		require.NoError(t, e.svc.Register(reg, "read_excel"))
		name := fmt.Sprintf("p%d.xlsx", i)
		e.workbook(name, [][]any{{1}})
		withSheetXML(t, e.path(name), sh.xml)
		maxRows := func(args map[string]any) map[string]any {
			if r.IntN(2) == 0 {
				args["max_rows"] = 1 + r.IntN(60)
			}
			return args
		}

		t.Run(fmt.Sprintf("%d/summary", i), func(t *testing.T) {
			var want [][]any
			for row := 2; row <= sh.last; row++ {
				if v, ok := sh.rows[row]; ok {
					want = append(want, v)
				}
			}
			var got [][]any
			for offset, pages := 0, 0; ; pages++ {
				require.Less(t, pages, 1000, "paging does not end")
				p := readPage(t, reg, capChars, maxRows(map[string]any{"file_path": name, "offset": offset}), "rows")
				assert.Equal(t, toFloat(sh.rows[1]), trimNulls(p.m["columns"].([]any)))
				for _, row := range p.m["rows"].([]any) {
					got = append(got, trimNulls(row.([]any)))
				}
				if p.m["has_more"] == false {
					break
				}
				offset = int(p.m["next_offset"].(float64))
			}
			require.Equal(t, len(want), len(got))
			for k := range want {
				assert.Equal(t, toFloat(want[k]), got[k], "data row %d", k)
			}
		})

		t.Run(fmt.Sprintf("%d/range", i), func(t *testing.T) {
			r1, c1 := 1+r.IntN(5), 1+r.IntN(3)
			r2, c2 := r1+r.IntN(200), c1+r.IntN(6)
			if r.IntN(3) == 0 {
				r2, c2 = grid.LastRow, 16384 // the whole sheet from (r1, c1)
			}
			rng := grid.RangeRef(c1, r1, c2, r2)
			var got [][]any
			for offset, pages := 0, 0; ; pages++ {
				require.Less(t, pages, 1000, "paging does not end")
				p := readPage(t, reg, capChars, maxRows(map[string]any{"file_path": name, "range": rng, "offset": offset}), "values")
				for _, row := range p.m["values"].([]any) {
					got = append(got, trimNulls(row.([]any)))
				}
				if p.m["has_more"] == false {
					break
				}
				offset = int(p.m["next_offset"].(float64))
			}
			// Rows up to the last one holding cells in the range.
			lastInRange := 0
			for row := r1; row <= min(r2, sh.last); row++ {
				if len(window(sh.rows[row], c1, c2)) > 0 {
					lastInRange = row
				}
			}
			require.Equal(t, max(lastInRange-r1+1, 0), len(got), "range %s", rng)
			for k := range got {
				assert.Equal(t, window(sh.rows[r1+k], c1, c2), got[k], "range %s row %d", rng, r1+k)
			}
		})
	}
}

// window returns the values of columns c1..c2 of row, trailing nulls
// dropped, numbers as JSON decodes them.
func window(row []any, c1, c2 int) []any {
	var out []any
	for c := c1; c <= c2 && c <= len(row); c++ {
		out = append(out, row[c-1])
	}
	return trimNulls(toFloat(out))
}

// toFloat returns row as JSON decoding gives it back ([]any{} for none).
func toFloat(row []any) []any {
	out := append([]any{}, row...)
	return trimNulls(out)
}

// TestPagingRowTooLargeForTheCapIsAnError: a row that cannot fit in any
// page gets a clear error instead of an empty page that promises more.
func TestPagingRowTooLargeForTheCapIsAnError(t *testing.T) {
	e := newEnv(t)
	reg := registry.New(registry.WithMaxResultChars(400))
	require.NoError(t, e.svc.Register(reg))
	e.workbook("wide.xlsx", [][]any{{"h"}, {strings.Repeat("x", 500)}, {"short"}})
	for _, args := range []string{`{"file_path": "wide.xlsx"}`, `{"file_path": "wide.xlsx", "range": "A2:A3"}`} {
		res := reg.CallTool(context.Background(), "read_excel", []byte(args))
		require.True(t, res.IsError, res.Text)
		assert.Contains(t, res.Text, `"exception": "MemoryError"`)
		assert.Contains(t, res.Text, "row 2 alone does not fit in one page (the result cap of 400 characters")
	}
	res := reg.CallTool(context.Background(), "read_excel", []byte(`{"file_path": "wide.xlsx", "range": "A3:A3"}`))
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, `"values": [["short"]]`)
}
