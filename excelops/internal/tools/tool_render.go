package tools

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/render"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/rendersafe"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// render_range limits.
const (
	// maxRenderRows and maxRenderCols cap what one picture shows: the
	// range is fitted onto one page, so more would be unreadably small.
	maxRenderRows = 300
	maxRenderCols = 60
	// printAreaName is Excel's defined name for a sheet's print area.
	printAreaName = "_xlnm.Print_Area"
)

// renderRangeTool declares render_range.
var renderRangeTool = typedTool(toolSpec{
	name: "render_range", title: "Render range as image",
	desc:    "Render a sheet range (default: the print area or used range) to a PNG image through LibreOffice so you can look at it; returns the image's path, size and pixel dimensions, and in not_rendered what the picture leaves out: links to pictures, files, workbooks or data outside the workbook are never followed.",
	timeout: render.Timeout + limits.ReadTimeout,
	access:  renderAccess(),
}, (*Service).renderRange)

// renderArgs are render_range's arguments.
type renderArgs struct {
	fileArg
	sheetArg
	CellRange  string `json:"cell_range,omitempty" rangeSheet:"sheet_name" jsonschema:"Cells to render, e.g. \"A1:F20\"; default the sheet's print area, else its used range; at most ${maxRenderRows} rows and ${maxRenderCols} columns. ${rangeHelp}"`
	OutputPath string `json:"output_path,omitempty" jsonschema:"Where to write the PNG inside the workspace (.png); default next to the workbook as <workbook>-<sheet>.png. An existing file is replaced"`
}

// renderRange implements render_range. The user's workbook is only read:
// a private copy gets the print area and page setup, LibreOffice renders
// the copy's first page, and the page is cropped to the cells.
func (s *Service) renderRange(ctx context.Context, a renderArgs) (*engine.Call, error) {
	var want *cellarea.Range
	if a.CellRange != "" {
		r, err := grid.ParseRange(a.CellRange)
		if err != nil {
			return nil, err
		}
		want = &r
	}
	// Resolved here only to check the output against it; Engine.Run
	// resolves it again for the read.
	path, err := s.engine.Box.Resolve(a.FilePath)
	if err != nil {
		return nil, err
	}
	if err := engine.CheckExtension(path); err != nil {
		return nil, err
	}
	var out string
	if a.OutputPath != "" {
		if out, err = s.renderOutput(a.OutputPath, path); err != nil {
			return nil, err
		}
	}
	// The copy is taken under the shared lock Engine.Run holds (a
	// consistent version); the (slow) rendering, in after, holds no lock.
	c := engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		rawBook, _, err := s.engine.ReadRegular(b.Path)
		if err != nil {
			if failure.KindOf(err) == "" {
				return nil, engine.FileNotFound(s.engine.Box, b.Path)
			}
			return nil, err
		}
		return rawBook, nil
	})
	c.After = func(res any) (any, error) {
		return s.renderCopy(ctx, res.([]byte), path, out, a.SheetName, want)
	}
	return c, nil
}

// renderCopy renders the workbook whose bytes are rawBook (the file at
// path) from a private copy to the PNG out (default next to the workbook).
func (s *Service) renderCopy(ctx context.Context, rawBook []byte, path, out, sheetName string, want *cellarea.Range) (any, error) {
	work, err := os.MkdirTemp(s.engine.TmpBase, "excelops-render-")
	if err != nil {
		return nil, failure.New(failure.KindIO, "cannot create a private temporary folder: "+err.Error(), err)
	}
	defer os.RemoveAll(work)
	// The copy is opened from memory: nothing of the render but the PNG
	// touches the workspace.
	b, err := s.engine.OpenCopy(rawBook, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	defer b.Close()
	sheet, area, err := preparePrint(b, sheetName, want)
	if err != nil {
		return nil, err
	}
	if out == "" {
		if out, err = s.renderOutput(defaultRenderName(path, sheet), path); err != nil {
			return nil, err
		}
	}
	// Only now, with every argument checked, is LibreOffice needed.
	soffice, err := s.render.Path()
	if err != nil {
		return nil, err
	}
	var prepared bytes.Buffer
	if _, err := b.WriteTo(&prepared); err != nil {
		return nil, failure.New(failure.KindIO, "cannot save the copy to render: "+err.Error(), err)
	}
	// LibreOffice gets the copy without links to anything outside it,
	// sanitised in memory and written once to the private folder.
	safe, left, err := s.sanitizeRenderCopy(prepared.Bytes())
	if err != nil {
		return nil, err
	}
	renderIn := filepath.Join(work, "render.xlsx")
	if err := os.WriteFile(renderIn, safe, 0o600); err != nil {
		return nil, failure.New(failure.KindIO, "cannot write the copy to render: "+err.Error(), err)
	}
	pngPath, isolation, err := s.render.ConvertToPNG(ctx, soffice, renderIn, filepath.Join(work, "out"), work)
	if err != nil {
		return nil, err
	}
	pic, w, h, blank, err := render.CropPage(pngPath)
	if err != nil {
		return nil, err
	}
	if err := s.engine.WriteAtomic(ctx, out, engine.NewFileMode, nil, nil, func(w io.Writer) error {
		_, err := w.Write(pic)
		return err
	}); err != nil {
		return nil, err
	}
	return success(filepath.Base(path), sheet,
		field("range", area),
		field("output_path", s.engine.Box.Show(out)),
		field("size_bytes", len(pic)),
		field("width", w),
		field("height", h),
		field("blank", blank),
		field("not_rendered", left),
		field("network_isolation", isolation)), nil
}

// renderOutput resolves where the PNG goes: inside the workspace, a .png
// name, never the workbook itself.
func (s *Service) renderOutput(p, workbook string) (string, error) {
	if !strings.EqualFold(filepath.Ext(p), ".png") {
		return "", failure.Invalid("output_path %q must end in .png", p)
	}
	out, err := s.engine.Box.Resolve(p)
	if err != nil {
		return "", err
	}
	if out == workbook {
		return "", failure.Invalid("output_path %q is the workbook itself", p)
	}
	return out, nil
}

// defaultRenderName is "<folder>/<workbook>-<sheet>.png" relative to the
// workspace, the sheet name reduced to characters safe in a file name.
func defaultRenderName(workbook, sheet string) string {
	safe := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, sheet)
	return strings.TrimSuffix(workbook, filepath.Ext(workbook)) + "-" + safe + ".png"
}

// preparePrint readies the private copy: the range (given, else the print
// area, else the used range) becomes the sheet's print area, fitted on one
// page with small margins and no header or footer, and every other sheet
// is hidden so the sheet's first page is the document's first page.
func preparePrint(b *engine.Book, name string, want *cellarea.Range) (sheet, area string, err error) {
	sheet, ext, err := b.Edit(name)
	if err != nil {
		return "", "", err
	}
	var r cellarea.Range
	switch {
	case want != nil:
		r = *want
	default:
		if pa, ok := printArea(b, sheet); ok {
			r = pa
		} else if ext.Empty() {
			return "", "", failure.Invalid("sheet %q is empty: there is nothing to render", sheet)
		} else {
			r = cellarea.Range{C1: ext.MinCol, R1: ext.MinRow, C2: ext.MaxCol, R2: ext.MaxRow}
		}
	}
	if rows, cols := r.R2-r.R1+1, r.C2-r.C1+1; rows > maxRenderRows || cols > maxRenderCols {
		return "", "", failure.Invalid("range %s is %d rows by %d columns; render_range shows at most %d rows by %d columns in one picture: give a smaller cell_range", r, rows, cols, maxRenderRows, maxRenderCols)
	}
	for _, d := range b.DefinedNames() {
		if d.Name == printAreaName && d.Scope == sheet {
			_ = b.DeleteDefinedName(&excelize.DefinedName{Name: printAreaName, Scope: sheet})
		}
	}
	if err := b.SetDefinedName(&excelize.DefinedName{Name: printAreaName, RefersTo: quoteSheet(sheet) + "!" + absRange(r), Scope: sheet}); err != nil {
		return "", "", failure.New(failure.KindInvalidArgument, "cannot set the print area: "+err.Error(), err)
	}
	w, h := extentPoints(b, sheet, r)
	orientation := "portrait"
	if w > h {
		orientation = "landscape"
	}
	scale, fit := render.PageScale(w, h, orientation == "landscape")
	one, a4 := 1, render.A4PaperSize
	layout := &excelize.PageLayoutOptions{Size: &a4, Orientation: &orientation, AdjustTo: &scale}
	if fit {
		layout = &excelize.PageLayoutOptions{Size: &a4, Orientation: &orientation, FitToWidth: &one, FitToHeight: &one}
	}
	margin, none := render.MarginInch, 0.0
	steps := []error{
		b.SetPageLayout(sheet, layout),
		b.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}),
		b.SetPageMargins(sheet, &excelize.PageLayoutMarginsOptions{Left: &margin, Right: &margin, Top: &margin, Bottom: &margin, Header: &none, Footer: &none}),
		b.SetHeaderFooter(sheet, nil),
	}
	for _, e := range steps {
		if e != nil {
			return "", "", failure.New(failure.KindInvalidArgument, "cannot set up the page: "+e.Error(), e)
		}
	}
	list, _ := b.SheetList()
	for i, other := range list {
		if other == sheet {
			b.SetActiveSheet(i)
			if err := b.SetSheetVisible(sheet, true); err != nil {
				return "", "", failure.New(failure.KindInvalidArgument, "cannot show the sheet: "+err.Error(), err)
			}
		}
	}
	for _, other := range list {
		if other != sheet {
			if err := b.SetSheetVisible(other, false); err != nil {
				return "", "", failure.New(failure.KindInvalidArgument, "cannot hide the other sheets: "+err.Error(), err)
			}
		}
	}
	return sheet, r.String(), nil
}

// printArea returns the sheet's print area when it is one rectangle.
func printArea(b *engine.Book, sheet string) (cellarea.Range, bool) {
	for _, d := range b.DefinedNames() {
		if d.Name != printAreaName || d.Scope != sheet {
			continue
		}
		ref := d.RefersTo[strings.LastIndex(d.RefersTo, "!")+1:]
		if r, err := grid.ParseRange(strings.ReplaceAll(ref, "$", "")); err == nil {
			return r, true
		}
	}
	return cellarea.Range{}, false
}

// extentPoints estimates the width and height of r in points.
func extentPoints(b *engine.Book, sheet string, r cellarea.Range) (w, h float64) {
	for c := r.C1; c <= r.C2; c++ {
		cw, err := b.ColWidth(sheet, grid.ColumnName(c))
		if err != nil {
			cw = 9.140625
		}
		w += cw * 7 * 0.75 // characters to pixels to points
	}
	for row := r.R1; row <= r.R2; row++ {
		rh, err := b.RowHeight(sheet, row)
		if err != nil {
			rh = 15
		}
		h += rh
	}
	return w, h
}

// sanitizeRenderCopy returns the package raw, which LibreOffice is about to
// open, without anything that reaches outside the workbook, and what it
// left out (render.Sanitize within the unzip limits).
func (s *Service) sanitizeRenderCopy(raw []byte) ([]byte, []rendersafe.Omitted, error) {
	if err := s.engine.Limits.Within("sanitising the copy to render", 2*int64(len(raw))); err != nil {
		return nil, nil, err
	}
	return render.Sanitize(raw, rendersafe.Limits{MaxUnzipped: s.engine.Limits.UnzipSizeLimit, MaxPart: s.engine.Limits.UnzipXMLSizeLimit})
}
