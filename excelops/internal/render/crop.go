package render

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// padding is the white border, in pixels, kept around the rendered cells
// when the page is cropped to them.
const padding = 12

// CropPage decodes LibreOffice's page, crops it to what is drawn on it
// plus a white border, flattens it onto white and encodes it again. A page
// with nothing drawn is kept whole and reported blank.
func CropPage(path string) (data []byte, w, h int, blank bool, err error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, 0, false, failure.New(failure.KindIO, "cannot read LibreOffice's picture: "+err.Error(), err)
	}
	page, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, 0, 0, false, failure.New(failure.KindIO, "LibreOffice wrote a picture that is not a valid PNG: "+err.Error(), err)
	}
	bounds := page.Bounds()
	box := image.Rectangle{}
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if Inked(page.At(x, y)) {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	blank = box.Empty()
	if blank {
		box = bounds
	} else {
		box = image.Rect(box.Min.X-padding, box.Min.Y-padding, box.Max.X+padding, box.Max.Y+padding).Intersect(bounds)
	}
	out := image.NewRGBA(image.Rect(0, 0, box.Dx(), box.Dy()))
	draw.Draw(out, out.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(out, out.Bounds(), page, box.Min, draw.Over)
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return nil, 0, 0, false, failure.New(failure.KindIO, "cannot encode the picture: "+err.Error(), err)
	}
	return buf.Bytes(), box.Dx(), box.Dy(), blank, nil
}

// Inked reports whether a pixel shows something: visible and not white.
func Inked(c color.Color) bool {
	r, g, b, a := c.RGBA()
	if a < 0x1000 {
		return false
	}
	const light = 0xF000
	return r < light || g < light || b < light
}
