package excelops

import (
	"archive/zip"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

// TestSpliceWritesIntoMergedRanges: excelize writes a value aimed at a
// hidden cell of a merged range into the range's top-left cell, so the
// splice path declines such a write (Plan.OutsideMerges) and both paths
// agree; the top-left cell itself, and cells beside the range, splice.
func TestSpliceWritesIntoMergedRanges(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "F1", "merged"))
	require.NoError(t, f.SetCellFormula("Sheet1", "A1", "F1&\"!\""))
	require.NoError(t, f.MergeCell("Sheet1", "F1", "G2"))
	require.NoError(t, f.SaveAs(seed))
	require.NoError(t, f.Close())
	for _, c := range []struct {
		args   map[string]any
		splice bool
	}{
		{map[string]any{"cell": "G2", "value": 5}, false},
		{map[string]any{"cell_range": "E2", "values": [][]any{{1, 2}}}, false},
		{map[string]any{"cell": "F1", "value": "=1+2"}, true},
		{map[string]any{"cell_range": "H1", "values": [][]any{{1}, {2}}}, true},
	} {
		assert.Equal(t, c.splice, writeBothWays(t, seed, c.args, []string{"Sheet1"}), "%v took the splice path", c.args)
	}
}

// TestSpliceKeepsTheCalcChainTrue: a workbook saved by Excel lists its
// formula cells in xl/calcChain.xml. A formula written over a formula, or
// beside, keeps that list true and splices; a value written over a
// formula would leave the list naming a cell without one (Excel then
// offers to repair the file), so that write takes the excelize path,
// which removes the entry.
func TestSpliceKeepsTheCalcChainTrue(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	formulaBook(t, seed, "")
	rewriteZip(t, seed, func(zw *zip.Writer, name string) (bool, error) {
		var body string
		switch name {
		case "[Content_Types].xml":
			body = strings.Replace(string(readZipEntry(t, seed, name)), "</Types>",
				`<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/></Types>`, 1)
		case "xl/_rels/workbook.xml.rels":
			body = strings.Replace(string(readZipEntry(t, seed, name)), "</Relationships>",
				`<Relationship Id="rIdCalc" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain" Target="calcChain.xml"/></Relationships>`, 1)
		case "xl/workbook.xml":
			w, err := zw.Create("xl/calcChain.xml")
			if err != nil {
				return true, err
			}
			if _, err := w.Write([]byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><c r="B1" i="1"/><c r="E1"/><c r="E2"/><c r="E3"/><c r="A1" i="2"/></calcChain>`)); err != nil {
				return true, err
			}
			return false, nil
		default:
			return false, nil
		}
		w, err := zw.Create(name)
		if err != nil {
			return true, err
		}
		_, err = w.Write([]byte(body))
		return true, err
	})
	sheets := []string{"Sheet1", "Other"}
	assert.True(t, writeBothWays(t, seed, map[string]any{"cell": "B1", "value": "=A1*10"}, sheets), "a formula over a formula splices")
	assert.True(t, writeBothWays(t, seed, map[string]any{"cell": "A2", "value": 9}, sheets), "a value a formula reads splices")
	assert.False(t, writeBothWays(t, seed, map[string]any{"cell": "B1", "value": 0}, sheets), "a value over a listed formula takes the excelize path")
}

// readZipEntry returns the content of the entry name of the package at path.
func readZipEntry(t *testing.T, path, name string) []byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	data, err := readPart(&zr.Reader, name)
	require.NoError(t, err)
	return data
}
