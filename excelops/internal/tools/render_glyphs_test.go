package tools

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/render"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// glyphScripts are the texts TestRenderRangeDrawsCJKAndEmojiGlyphs renders,
// one row each. The emoji are ones the DejaVu fonts lack (DejaVu Sans has
// a few smileys), so only an emoji font draws them.
var glyphScripts = []struct {
	script, text string
}{
	{"Chinese", "中文汉字测试书写"},
	{"Japanese", "日本語のひらがな"},
	{"Korean", "한국어글자시험"},
	{"emoji", "🦊🥑🧩🚀🍎"},
}

// TestRenderRangeDrawsCJKAndEmojiGlyphs renders Chinese, Japanese, Korean
// and emoji text and checks each row shows glyphs, not boxes: a font that
// lacks a character draws the same empty box for every one, so a row of
// boxes has one shape repeated, while a row of glyphs has as many shapes as
// distinct characters. `make test` installs the fonts (fonts-noto-cjk,
// fonts-noto-color-emoji; see scripts/oracle_deps.sh). The control renders
// the same cells with fontconfig limited to the DejaVu fonts and must see
// boxes, which proves the check tells the two apart.
func TestRenderRangeDrawsCJKAndEmojiGlyphs(t *testing.T) {
	needSoffice(t)
	rows := make([][]any, len(glyphScripts))
	for i, s := range glyphScripts {
		rows[i] = []any{s.text}
	}
	render := func(t *testing.T) [][]image.Image {
		e := newEnv(t)
		e.workbook("scripts.xlsx", rows)
		got := e.ok("render_range", map[string]any{"file_path": "scripts.xlsx", "cell_range": "A1:A4", "output_path": "scripts.png"})
		require.Equal(t, false, got["blank"])
		fh, err := os.Open(e.path("scripts.png"))
		require.NoError(t, err)
		defer fh.Close()
		img, err := png.Decode(fh)
		require.NoError(t, err)
		bands := inkBands(img)
		require.Len(t, bands, len(glyphScripts), "one band of ink per row")
		return bands
	}

	t.Run("installed fonts draw glyphs", func(t *testing.T) {
		bands := render(t)
		for i, s := range glyphScripts {
			shapes := distinctShapes(bands[i])
			t.Logf("%s: %d distinct shapes in %d", s.script, shapes, len(bands[i]))
			assert.GreaterOrEqual(t, len(bands[i]), 4, "%s: the row shows its characters", s.script)
			assert.GreaterOrEqual(t, shapes, 4, "%s: %d distinct shapes in %d: boxes, not glyphs (is the font installed?)", s.script, shapes, len(bands[i]))
		}
	})

	t.Run("without the fonts the check sees boxes", func(t *testing.T) {
		dejavu := "/usr/share/fonts/truetype/dejavu"
		if _, err := os.Stat(dejavu); err != nil {
			t.Skip("the control needs the DejaVu fonts at " + dejavu)
		}
		dir := t.TempDir()
		conf := filepath.Join(dir, "fonts.conf")
		require.NoError(t, os.WriteFile(conf, []byte(`<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><dir>`+dejavu+`</dir><cachedir>`+filepath.Join(dir, "cache")+`</cachedir></fontconfig>
`), 0o600))
		t.Setenv("FONTCONFIG_FILE", conf)
		bands := render(t)
		for i, s := range glyphScripts {
			shapes := distinctShapes(bands[i])
			t.Logf("%s: %d distinct shapes in %d", s.script, shapes, len(bands[i]))
			assert.LessOrEqual(t, shapes, 2, "%s: DejaVu alone draws boxes", s.script)
		}
	})
}

// inkBands cuts img into its bands of rows holding ink, top to bottom, and
// each band into its shapes: runs of columns holding ink, each cropped to
// its own ink.
func inkBands(img image.Image) [][]image.Image {
	b := img.Bounds()
	rowInk := func(y int) bool {
		for x := b.Min.X; x < b.Max.X; x++ {
			if render.Inked(img.At(x, y)) {
				return true
			}
		}
		return false
	}
	var bands [][]image.Image
	for y := b.Min.Y; y < b.Max.Y; {
		if !rowInk(y) {
			y++
			continue
		}
		y0 := y
		for y < b.Max.Y && rowInk(y) {
			y++
		}
		bands = append(bands, inkShapes(img, y0, y))
	}
	return bands
}

// inkShapes cuts the rows y0..y1 of img into runs of columns with ink.
func inkShapes(img image.Image, y0, y1 int) []image.Image {
	b := img.Bounds()
	colInk := func(x int) bool {
		for y := y0; y < y1; y++ {
			if render.Inked(img.At(x, y)) {
				return true
			}
		}
		return false
	}
	var out []image.Image
	for x := b.Min.X; x < b.Max.X; {
		if !colInk(x) {
			x++
			continue
		}
		x0 := x
		for x < b.Max.X && colInk(x) {
			x++
		}
		top, bottom := y1, y0
		for yy := y0; yy < y1; yy++ {
			for xx := x0; xx < x; xx++ {
				if render.Inked(img.At(xx, yy)) {
					top, bottom = min(top, yy), max(bottom, yy+1)
				}
			}
		}
		out = append(out, img.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(x0, top, x, bottom)))
	}
	return out
}

// shapeGrid is the side of the grid a shape is sampled on to compare it.
const shapeGrid = 8

// signature lays a shapeGrid x shapeGrid grid over a shape: which cells
// hold ink. The coarse grid hides the one-pixel differences of
// anti-aliasing at different sub-pixel positions, so equal boxes get equal
// signatures.
func signature(img image.Image) [shapeGrid * shapeGrid]bool {
	var sig [shapeGrid * shapeGrid]bool
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if render.Inked(img.At(x, y)) {
				gx, gy := (x-b.Min.X)*shapeGrid/b.Dx(), (y-b.Min.Y)*shapeGrid/b.Dy()
				sig[gy*shapeGrid+gx] = true
			}
		}
	}
	return sig
}

// distinctShapes counts the shapes that differ from every earlier one in
// more than a few grid cells (or in size by more than a quarter).
func distinctShapes(shapes []image.Image) int {
	type seen struct {
		sig  [shapeGrid * shapeGrid]bool
		w, h int
	}
	var kinds []seen
	for _, s := range shapes {
		cur := seen{signature(s), s.Bounds().Dx(), s.Bounds().Dy()}
		same := false
		for _, k := range kinds {
			diff := 0
			for i := range cur.sig {
				if cur.sig[i] != k.sig[i] {
					diff++
				}
			}
			if diff <= 4 && 4*abs(cur.w-k.w) <= k.w && 4*abs(cur.h-k.h) <= k.h {
				same = true
				break
			}
		}
		if !same {
			kinds = append(kinds, cur)
		}
	}
	return len(kinds)
}

// abs is |n|.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
