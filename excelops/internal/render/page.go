package render

// The page a range is laid out on.
const (
	// A4PaperSize is Excel's paper size code of A4, whose printable area
	// (less MarginInch on each side) the range is laid out on.
	A4PaperSize           = 9
	a4WidthPt, a4HeightPt = 595.0, 842.0
	// MarginInch is the page margin on each side, in inches.
	MarginInch = 0.2
	// MaxZoom is how far a small range is enlarged (percent), so that its
	// text is comfortably readable in the picture.
	MaxZoom = 200
)

// PageScale decides how a range of w x h points goes on one A4 page: a
// range that fits is enlarged up to MaxZoom percent (the picture is
// LibreOffice's 96 dpi page, so larger text reads better); a range that
// does not fit is shrunk onto the page (fit to one page wide and tall).
func PageScale(w, h float64, landscape bool) (percent uint, fit bool) {
	pw, ph := a4WidthPt, a4HeightPt
	if landscape {
		pw, ph = ph, pw
	}
	pw -= 2 * MarginInch * 72
	ph -= 2 * MarginInch * 72
	if w <= 0 || h <= 0 {
		return 100, false
	}
	room := min(pw/w, ph/h) * 0.95 // what excelize and LibreOffice measure differs a little
	if room < 1 {
		return 100, true
	}
	return uint(min(room*100, MaxZoom)), false
}
