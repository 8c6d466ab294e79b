package tools

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/render"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needSoffice skips a test where LibreOffice is not installed (`make
// test` installs it through the oracle-deps target).
func needSoffice(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath(render.DefaultSoffice); err != nil {
		t.Skip("LibreOffice (soffice) is not installed: run `make oracle-deps` as root")
	}
}

// TestRenderRangeWritesAPictureOfTheCells renders a range through the real
// LibreOffice: the PNG decodes, has the size of a few cells and shows ink,
// and the workbook is not changed by a byte.
func TestRenderRangeWritesAPictureOfTheCells(t *testing.T) {
	needSoffice(t)
	e := newEnv(t)
	e.workbook("report.xlsx", [][]any{{"item", "qty", "price"}, {"pen", 3, 1.5}, {"ink", 10, 0.25}, {"pad", 7, 2}})
	f := e.open("report.xlsx")
	_, err := f.NewSheet("Notes")
	require.NoError(t, err)
	require.NoError(t, f.SetCellValue("Notes", "A1", "not rendered"))
	require.NoError(t, f.Save())
	before, err := os.ReadFile(e.path("report.xlsx"))
	require.NoError(t, err)

	// Two renders at once: each LibreOffice gets its own profile, so
	// neither waits for nor breaks the other.
	var wg sync.WaitGroup
	var got, other map[string]any
	wg.Add(2)
	go func() {
		defer wg.Done()
		got = e.ok("render_range", map[string]any{"file_path": "report.xlsx", "sheet_name": "Sheet1", "cell_range": "A1:C4"})
	}()
	go func() {
		defer wg.Done()
		other = e.ok("render_range", map[string]any{"file_path": "report.xlsx", "sheet_name": "Notes", "output_path": "notes.png"})
	}()
	wg.Wait()
	require.NotNil(t, got)
	require.NotNil(t, other)
	assert.Equal(t, "A1", other["range"], "the used range of Notes")
	_, err = os.Stat(e.path("notes.png"))
	require.NoError(t, err)
	assert.Equal(t, "report-Sheet1.png", got["output_path"], "default: next to the workbook")
	assert.Equal(t, "A1:C4", got["range"])
	assert.Equal(t, false, got["blank"])
	raw, err := os.ReadFile(e.path("report-Sheet1.png"))
	require.NoError(t, err)
	assert.EqualValues(t, len(raw), got["size_bytes"])
	img, err := png.Decode(bytes.NewReader(raw))
	require.NoError(t, err)
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	assert.EqualValues(t, w, got["width"])
	assert.EqualValues(t, h, got["height"])
	// Three columns by four rows of default-sized cells, cropped: wider
	// than tall, far smaller than the page.
	assert.Greater(t, w, 60)
	assert.Greater(t, h, 30)
	assert.Less(t, w, 800)
	assert.Less(t, h, 600)
	assert.Greater(t, w, h)
	inkedPixels := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if render.Inked(img.At(x, y)) {
				inkedPixels++
			}
		}
	}
	assert.Greater(t, inkedPixels, 100, "the picture shows the cells' text")
	after, err := os.ReadFile(e.path("report.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, before, after, "the workbook is only read")
}

func TestRenderRangeWithoutLibreOffice(t *testing.T) {
	e := newEnv(t, WithSoffice("/nonexistent/bin/soffice"))
	e.workbook("report.xlsx", [][]any{{"item"}, {"pen"}})
	p := e.fail("render_range", map[string]any{"file_path": "report.xlsx"})
	assert.Equal(t, "RuntimeError", p["exception"], p)
	assert.Contains(t, p["message"], "not installed")
	assert.Contains(t, p["message"], "apt-get install libreoffice-calc-nogui")
	_, err := os.Stat(e.path("report-Sheet1.png"))
	assert.True(t, os.IsNotExist(err), "nothing is written")
}

func TestRenderRangeRefusals(t *testing.T) {
	// A binary that is never reached: every refusal comes first.
	e := newEnv(t, WithSoffice("/nonexistent/bin/soffice"))
	e.workbook("report.xlsx", [][]any{{"item"}, {"pen"}})
	f := e.open("report.xlsx")
	_, err := f.NewSheet("Empty")
	require.NoError(t, err)
	require.NoError(t, f.Save())
	cases := []struct {
		name      string
		args      map[string]any
		exception string
		want      string
	}{
		{"output not a png", map[string]any{"output_path": "report.xlsx"}, "ValueError", "must end in .png"},
		{"output outside", map[string]any{"output_path": "../x.png"}, "PermissionError", "outside the workspace"},
		{"output folder missing", map[string]any{"output_path": "no/such/x.png"}, "FileNotFoundError", "does not exist"},
		{"range too big", map[string]any{"cell_range": "A1:A400"}, "ValueError", "at most 300 rows by 60 columns"},
		{"bad range", map[string]any{"cell_range": "A1:B"}, "ValueError", "invalid cell range"},
		{"empty sheet", map[string]any{"sheet_name": "Empty"}, "ValueError", "nothing to render"},
		{"missing sheet", map[string]any{"sheet_name": "Nope"}, "KeyError", "Nope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := map[string]any{"file_path": "report.xlsx"}
			for k, v := range c.args {
				args[k] = v
			}
			p := e.fail("render_range", args)
			assert.Equal(t, c.exception, p["exception"], p)
			assert.Contains(t, p["message"], c.want)
		})
	}
}

// TestPreparePrintSetsUpThePrivateCopy checks what LibreOffice is given,
// without running it: the range as print area (given, else the sheet's
// print area, else its used range), one page, the other sheets hidden.
func TestPreparePrintSetsUpThePrivateCopy(t *testing.T) {
	e := newEnv(t)
	e.workbook("p.xlsx", [][]any{{"a", "b"}, {1, 2}, {3, 4}})
	f := e.open("p.xlsx")
	_, err := f.NewSheet("Second")
	require.NoError(t, err)
	require.NoError(t, f.SetCellValue("Second", "C5", "x"))
	require.NoError(t, f.SetCellValue("Second", "E9", "y"))
	require.NoError(t, f.SetDefinedName(&excelize.DefinedName{Name: printAreaName, RefersTo: "Sheet1!$A$1:$B$2", Scope: "Sheet1"}))
	require.NoError(t, f.Save())
	cases := []struct {
		sheet string
		want  *cellarea.Range
		area  string
		fit   bool // shrunk onto the page; else enlarged to render.MaxZoom
	}{
		{"Sheet1", nil, "A1:B2", false},                                         // the print area
		{"Second", nil, "C5:E9", false},                                         // the used range
		{"Sheet1", &cellarea.Range{C1: 2, R1: 2, C2: 2, R2: 3}, "B2:B3", false}, // given
		{"Second", &cellarea.Range{C1: 1, R1: 1, C2: 60, R2: 300}, "A1:BH300", true},
	}
	for _, c := range cases {
		b, err := e.svc.engine.OpenBook(e.path("p.xlsx"), false, false)
		require.NoError(t, err)
		sheet, area, err := preparePrint(b, c.sheet, c.want)
		require.NoError(t, err)
		assert.Equal(t, c.sheet, sheet)
		assert.Equal(t, c.area, area)
		pa, ok := printArea(b, sheet)
		require.True(t, ok)
		assert.Equal(t, c.area, pa.String())
		list, active := b.SheetList()
		for _, other := range list {
			visible, err := b.SheetVisible(other)
			require.NoError(t, err)
			assert.Equal(t, other == sheet, visible, other)
		}
		assert.Equal(t, sheet, list[active])
		layout, err := b.PageLayout(sheet)
		require.NoError(t, err)
		props, err := b.SheetProps(sheet)
		require.NoError(t, err)
		require.NotNil(t, props.FitToPage)
		assert.Equal(t, c.fit, *props.FitToPage, c.area)
		if c.fit {
			require.NotNil(t, layout.FitToWidth)
			assert.Equal(t, 1, *layout.FitToWidth)
			assert.Equal(t, 1, *layout.FitToHeight)
		} else {
			require.NotNil(t, layout.AdjustTo)
			assert.EqualValues(t, render.MaxZoom, *layout.AdjustTo, c.area)
		}
		require.NoError(t, b.Close())
	}
}
