package tools

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/stretchr/testify/require"
)

// writeFlatBook writes the workbook of tests/bench/bench_excel.py's
// generate: one sheet "Data", a header row of inline strings, then rows x
// cols numbers, straight as XML (excelize would take longer than the
// benchmark).
func writeFlatBook(tb testing.TB, path string, rows, cols int) {
	tb.Helper()
	fh, err := os.Create(path)
	require.NoError(tb, err)
	defer func() { require.NoError(tb, fh.Close()) }()
	zw := zip.NewWriter(fh)
	put := func(name, body string) {
		w, err := zw.Create(name)
		require.NoError(tb, err)
		_, err = w.Write([]byte(body))
		require.NoError(tb, err)
	}
	const decl = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`
	put("[Content_Types].xml", decl+`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`+
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>`+
		`<Default Extension="xml" ContentType="application/xml"/>`+
		`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>`+
		`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`+
		`<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`)
	put("_rels/.rels", decl+`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	put("xl/workbook.xml", decl+`<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" `+
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`)
	put("xl/_rels/workbook.xml.rels", decl+`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`+
		`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`)
	put("xl/styles.xml", decl+`<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`+
		`<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>`+
		`<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>`+
		`<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>`+
		`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>`+
		`<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>`)
	w, err := zw.Create("xl/worksheets/sheet1.xml")
	require.NoError(tb, err)
	buf := []byte(decl + `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:` + grid.CellName(cols, rows+1) + `"/><sheetData><row r="1">`)
	for c := 1; c <= cols; c++ {
		buf = fmt.Appendf(buf, `<c r="%s" t="inlineStr"><is><t>col%s</t></is></c>`, grid.CellName(c, 1), colName(c))
	}
	buf = append(buf, "</row>"...)
	for r := 2; r <= rows+1; r++ {
		buf = fmt.Appendf(buf, `<row r="%d">`, r)
		for c := 1; c <= cols; c++ {
			v := float64((r*31+(c-1)*17)%1000) + float64(c-1)/8
			buf = fmt.Appendf(buf, `<c r="%s"><v>%s</v></c>`, grid.CellName(c, r), strconv.FormatFloat(v, 'f', -1, 64))
		}
		buf = append(buf, "</row>"...)
		if len(buf) > 1<<20 {
			_, err = w.Write(buf)
			require.NoError(tb, err)
			buf = buf[:0]
		}
	}
	buf = append(buf, "</sheetData></worksheet>"...)
	_, err = w.Write(buf)
	require.NoError(tb, err)
	require.NoError(tb, zw.Close())
}

// colName is the letters of column c.
func colName(c int) string {
	n := grid.CellName(c, 1)
	return n[:len(n)-1]
}

// BenchmarkSpliceEdit is the repeated 100 x 10 write and 100 x 10
// bold on the 50,000 x 10 workbook, and a 100 x 2 block of formulas reading
// their rows (the recalc splice), through the splice path and, in the same
// run, the excelize path (the peer; a cached parsed workbook keeps it at
// its best), each through the registry as a client calls it.
// tests/bench/bench_splice.py has the end-to-end figures beside openpyxl.
func BenchmarkSpliceEdit(b *testing.B) {
	rows := 50_000
	if s := os.Getenv("SPLICE_BENCH_ROWS"); s != "" {
		rows, _ = strconv.Atoi(s)
	}
	src := filepath.Join(b.TempDir(), "src.xlsx")
	writeFlatBook(b, src, rows, 10)
	block := make([][]float64, 100)
	for r := range block {
		block[r] = make([]float64, 10)
		for c := range block[r] {
			block[r][c] = float64(r*10+c) + 0.5
		}
	}
	for _, path := range []string{"splice", "excelize"} {
		dir := b.TempDir()
		data, err := os.ReadFile(src)
		require.NoError(b, err)
		require.NoError(b, os.WriteFile(filepath.Join(dir, "book.xlsx"), data, 0o600))
		svc, err := New(dir, WithSplice(path == "splice"))
		require.NoError(b, err)
		b.Cleanup(func() { _ = svc.Close() })
		reg := registry.New()
		require.NoError(b, svc.Register(reg))
		call := func(b *testing.B, tool string, args map[string]any) {
			raw, _ := json.Marshal(args)
			res := reg.CallTool(context.Background(), tool, raw)
			require.False(b, res.IsError, res.Text)
		}
		i := 0
		next := func() int { i = (i + 1) % (rows / 100); return 2 + 100*i }
		b.Run("write/"+path, func(b *testing.B) {
			for b.Loop() {
				call(b, "write_cells", map[string]any{"file_path": "book.xlsx", "cell_range": "L" + strconv.Itoa(next()), "values": block})
			}
		})
		b.Run("bold/"+path, func(b *testing.B) {
			for b.Loop() {
				r := next()
				call(b, "format_cells", map[string]any{"file_path": "book.xlsx", "cell_range": fmt.Sprintf("A%d:J%d", r, r+99), "font": map[string]any{"bold": true}})
			}
		})
		b.Run("formulas/"+path, func(b *testing.B) {
			for b.Loop() {
				r := next()
				formulas := make([][]any, 100)
				for k := range formulas {
					formulas[k] = []any{fmt.Sprintf("=A%d*2+B%d", r+k, r+k), fmt.Sprintf("=SUM(C%d:J%d)", r+k, r+k)}
				}
				call(b, "write_cells", map[string]any{"file_path": "book.xlsx", "cell_range": "N" + strconv.Itoa(r), "values": formulas})
			}
		})
	}
}
