package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Image limits.
const (
	// maxImageBytes caps the file insert_image reads: a picture bigger than
	// this bloats every later open of the workbook.
	maxImageBytes = 10 << 20
	// maxImagePixels caps width*height of an inserted image (a small file
	// can declare a huge canvas).
	maxImagePixels = 50_000_000
	// maxImageSidePx caps a displayed side in pixels.
	maxImageSidePx = 20000
	// maxImageScale caps the scale factor.
	maxImageScale = 100
	// minImageScale is the smallest scale factor (the schema's minimum:
	// an exclusive bound of 0 is a keyword some models refuse).
	minImageScale = 0.01
)

// mib renders a byte count in MiB for descriptions and messages.
func mib(n int64) string { return strconv.FormatInt(n>>20, 10) + " MiB" }

// jsonNum renders an integer for a schema.
func jsonNum(n int64) string { return strconv.FormatInt(n, 10) }

// imageKind names the format of an image by its first bytes: "png",
// "jpeg", or a description of what it is instead.
func imageKind(head []byte) (kind string, ok bool) {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "png", true
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return "jpeg", true
	case bytes.HasPrefix(head, []byte("GIF8")):
		return "GIF", false
	case bytes.HasPrefix(head, []byte("BM")):
		return "BMP", false
	case bytes.HasPrefix(head, []byte("RIFF")) && len(head) >= 12 && string(head[8:12]) == "WEBP":
		return "WebP", false
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")):
		return "TIFF", false
	case bytes.HasPrefix(head, []byte("%PDF")):
		return "PDF", false
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return "a zip package (a workbook?)", false
	case bytes.Contains(head, []byte("<svg")):
		return "SVG", false
	}
	return "not a recognised image", false
}

// loadImage reads the workspace image at p, checks it is a PNG or JPEG by
// its content, within the size limits, and decodes its header.
func (s *Service) loadImage(p string) (data []byte, kind string, cfg image.Config, err error) {
	path, err := s.engine.Box.Resolve(p)
	if err != nil {
		return nil, "", cfg, err
	}
	p = s.engine.Box.Show(path) // messages name it relative to the workspace
	// Non-blocking and through the workspace handle: a FIFO or a link
	// out swapped in after resolve can neither hang nor lead the call out.
	f, _, err := s.engine.Box.OpenRegular(path)
	if err != nil {
		if failure.KindOf(err) != "" {
			if failure.KindOf(err) == failure.KindInvalidArgument {
				return nil, "", cfg, failure.Invalid("image %q is not a regular file", p)
			}
			return nil, "", cfg, err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", cfg, failure.New(failure.KindNotFound, fmt.Sprintf("image not found: %s", p), err)
		}
		return nil, "", cfg, failure.New(failure.KindIO, "cannot open the image: "+err.Error(), err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, "", cfg, failure.New(failure.KindIO, "cannot stat the image: "+err.Error(), err)
	}
	if !st.Mode().IsRegular() {
		return nil, "", cfg, failure.Invalid("image %q is not a regular file", p)
	}
	if st.Size() > maxImageBytes {
		return nil, "", cfg, failure.New(failure.KindLimit, fmt.Sprintf("image %q is %d bytes, more than the %s insert_image accepts", p, st.Size(), mib(maxImageBytes)), nil)
	}
	data, err = io.ReadAll(io.LimitReader(f, maxImageBytes+1))
	if err != nil {
		return nil, "", cfg, failure.New(failure.KindIO, "cannot read the image: "+err.Error(), err)
	}
	if len(data) > maxImageBytes {
		return nil, "", cfg, failure.New(failure.KindLimit, fmt.Sprintf("image %q is more than the %s insert_image accepts", p, mib(maxImageBytes)), nil)
	}
	kind, ok := imageKind(data[:min(len(data), 512)])
	if !ok {
		return nil, "", cfg, failure.Invalid("image %q is not a PNG or JPEG file: its content is %s (only PNG and JPEG are accepted; the file name does not matter)", p, kind)
	}
	if kind == "png" {
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	} else {
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	}
	if err != nil {
		return nil, "", cfg, failure.Invalid("image %q starts like a %s but cannot be decoded: %v", p, strings.ToUpper(kind), err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, "", cfg, failure.Invalid("image %q has no pixels", p)
	}
	if int64(cfg.Width)*int64(cfg.Height) > maxImagePixels {
		return nil, "", cfg, failure.New(failure.KindLimit, fmt.Sprintf("image %q is %dx%d pixels, more than the %d pixels insert_image accepts", p, cfg.Width, cfg.Height, maxImagePixels), nil)
	}
	return data, kind, cfg, nil
}

// imageScale works out the horizontal and vertical scale factors from
// scale or width/height (pixels) for an image of w x h pixels.
func imageScale(w, h int, scale *float64, width, height *int) (sx, sy float64, err error) {
	if scale != nil && (width != nil || height != nil) {
		return 0, 0, failure.Invalid("give scale or width/height, not both")
	}
	switch {
	case scale != nil:
		if !(*scale >= minImageScale) || *scale > maxImageScale || math.IsInf(*scale, 0) {
			return 0, 0, failure.Invalid("scale must be at least %g and at most %d", minImageScale, maxImageScale)
		}
		sx, sy = *scale, *scale
	case width != nil && height != nil:
		sx, sy = float64(*width)/float64(w), float64(*height)/float64(h)
	case width != nil:
		sx = float64(*width) / float64(w)
		sy = sx
	case height != nil:
		sy = float64(*height) / float64(h)
		sx = sy
	default:
		sx, sy = 1, 1
	}
	for _, v := range []*int{width, height} {
		if v != nil && (*v < 1 || *v > maxImageSidePx) {
			return 0, 0, failure.Invalid("width and height must be between 1 and %d pixels", maxImageSidePx)
		}
	}
	if float64(w)*sx > maxImageSidePx || float64(h)*sy > maxImageSidePx {
		return 0, 0, failure.Invalid("the image would be %.0fx%.0f pixels, more than %d on a side", float64(w)*sx, float64(h)*sy, maxImageSidePx)
	}
	return sx, sy, nil
}

// insertImageTool declares insert_image.
var insertImageTool = typedTool(toolSpec{
	name: "insert_image", title: "Insert image",
	desc:    "Insert a PNG or JPEG image from the workspace into a sheet, anchored at a cell, optionally scaled or sized, with alt text.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: true}),
}, (*Service).insertImage)

// insertImageArgs are insert_image's arguments.
type insertImageArgs struct {
	fileArg
	sheetArg
	ImagePath string   `json:"image_path" jsonschema:"Image file inside the workspace: PNG or JPEG (recognised by its content, not its name), at most ${maxImageBytes}"`
	Cell      string   `json:"cell" jsonschema:"Cell the image's top-left corner is anchored at, e.g. \"B2\""`
	Scale     *float64 `json:"scale,omitempty" minimum:"${minImageScale}" maximum:"${maxImageScale}" jsonschema:"Scale both sides by this factor (1 = the image's own pixel size); cannot be combined with width or height"`
	Width     *int     `json:"width,omitempty" minimum:"1" maximum:"${maxImageSidePx}" jsonschema:"Displayed width in pixels; with height left out the aspect ratio is kept"`
	Height    *int     `json:"height,omitempty" minimum:"1" maximum:"${maxImageSidePx}" jsonschema:"Displayed height in pixels; with width left out the aspect ratio is kept"`
	AltText   string   `json:"alt_text,omitempty" maxLength:"2000" jsonschema:"Alternative text describing the image for screen readers"`
}

// insertImage implements insert_image.
func (s *Service) insertImage(_ context.Context, a insertImageArgs) (*engine.Call, error) {
	if _, _, err := grid.ParseCell(a.Cell); err != nil {
		return nil, err
	}
	anchor := strings.ToUpper(strings.ReplaceAll(a.Cell, "$", ""))
	if a.ImagePath == "" {
		return nil, failure.Invalid("image_path is empty")
	}
	if err := engine.CheckExtension(a.FilePath); err != nil {
		return nil, err
	}
	data, kind, cfg, err := s.loadImage(a.ImagePath)
	if err != nil {
		return nil, err
	}
	sx, sy, err := imageScale(cfg.Width, cfg.Height, a.Scale, a.Width, a.Height)
	if err != nil {
		return nil, err
	}
	ext := ".png"
	if kind == "jpeg" {
		ext = ".jpg"
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet := sh.Name
		pic := &excelize.Picture{Extension: ext, File: data, Format: &excelize.GraphicOptions{
			AltText: a.AltText, Name: filepath.Base(a.ImagePath), ScaleX: sx, ScaleY: sy,
			LockAspectRatio: a.Width == nil || a.Height == nil,
		}}
		if err := b.AddPicture(sheet, anchor, pic); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "cannot insert the image: "+err.Error(), err)
		}
		return success(b.Name(), sheet,
			field("anchor", anchor),
			field("image", filepath.Base(a.ImagePath)),
			field("format", kind),
			field("image_width", cfg.Width),
			field("image_height", cfg.Height),
			field("width", int(math.Round(float64(cfg.Width)*sx))),
			field("height", int(math.Round(float64(cfg.Height)*sy)))), nil
	}), nil
}
