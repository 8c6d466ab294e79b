package tools

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testImage is a w x h picture with a diagonal gradient (not blank).
func testImage(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255})
		}
	}
	return img
}

// writeImage encodes a w x h picture as format ("png", "jpeg" or "gif")
// into the workspace file name.
func (e *env) writeImage(name, format string, w, h int) {
	e.t.Helper()
	var buf bytes.Buffer
	img := testImage(w, h)
	switch format {
	case "png":
		require.NoError(e.t, png.Encode(&buf, img))
	case "jpeg":
		require.NoError(e.t, jpeg.Encode(&buf, img, nil))
	case "gif":
		require.NoError(e.t, gif.Encode(&buf, img, nil))
	}
	require.NoError(e.t, os.WriteFile(e.path(name), buf.Bytes(), 0o644))
}

// pngHeader is a PNG signature and an IHDR chunk declaring w x h pixels,
// with nothing after it: enough for DecodeConfig.
func pngHeader(w, h uint32) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	_ = binary.Write(&out, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	out.Write(chunk)
	_ = binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return out.Bytes()
}

func TestInsertImagePNGAndJPEG(t *testing.T) {
	e := newEnv(t)
	dataBook(e)
	e.writeImage("logo.png", "png", 40, 20)
	e.writeImage("photo.png", "jpeg", 30, 30) // a JPEG under a .png name
	got := e.ok("insert_image", map[string]any{"file_path": "data.xlsx", "image_path": "logo.png", "cell": "d2", "width": 80, "alt_text": "Company logo"})
	assert.Equal(t, "D2", got["anchor"])
	assert.Equal(t, "png", got["format"])
	assert.EqualValues(t, 40, got["image_width"])
	assert.EqualValues(t, 80, got["width"])
	assert.EqualValues(t, 40, got["height"], "width alone keeps the aspect ratio")
	got = e.ok("insert_image", map[string]any{"file_path": "data.xlsx", "sheet_name": "Other", "image_path": "photo.png", "cell": "A1", "scale": 0.5})
	assert.Equal(t, "jpeg", got["format"])
	assert.EqualValues(t, 15, got["width"])

	f := e.open("data.xlsx")
	pics, err := f.GetPictures("Sheet1", "D2")
	require.NoError(t, err)
	require.Len(t, pics, 1)
	assert.Equal(t, ".png", pics[0].Extension)
	assert.Equal(t, "Company logo", pics[0].Format.AltText)
	raw, err := os.ReadFile(e.path("logo.png"))
	require.NoError(t, err)
	assert.Equal(t, raw, pics[0].File, "the image is stored byte for byte")
	pics, err = f.GetPictures("Other", "A1")
	require.NoError(t, err)
	require.Len(t, pics, 1)
	assert.Equal(t, ".jpeg", pics[0].Extension, "the format comes from the content, not the name")
	assert.Equal(t, "a", e.value("data.xlsx", "Sheet1", "A2"), "cells are kept")
}

func TestInsertImageRefusals(t *testing.T) {
	e := newEnv(t)
	dataBook(e)
	e.writeImage("anim.png", "gif", 10, 10)
	require.NoError(t, writeFile(e.path("notes.jpg"), "just some text"))
	require.NoError(t, os.WriteFile(e.path("cut.png"), []byte("\x89PNG\r\n\x1a\nrest is missing"), 0o644))
	require.NoError(t, os.WriteFile(e.path("huge.png"), pngHeader(20000, 20000), 0o644))
	big, err := os.Create(e.path("big.png"))
	require.NoError(t, err)
	require.NoError(t, big.Truncate(maxImageBytes+1))
	require.NoError(t, big.Close())
	e.writeImage("ok.png", "png", 10, 10)
	require.NoError(t, os.WriteFile(e.path("wide.png"), pngHeader(300, 10), 0o644))
	mkfifo(t, e.path("pipe.png"))
	cases := []struct {
		name      string
		args      map[string]any
		exception string
		want      string
	}{
		{"GIF under a .png name", map[string]any{"image_path": "anim.png"}, "ValueError", "its content is GIF"},
		{"text under a .jpg name", map[string]any{"image_path": "notes.jpg"}, "ValueError", "not a PNG or JPEG"},
		{"truncated PNG", map[string]any{"image_path": "cut.png"}, "ValueError", "cannot be decoded"},
		{"too many pixels", map[string]any{"image_path": "huge.png"}, "MemoryError", "pixels"},
		{"too many bytes", map[string]any{"image_path": "big.png"}, "MemoryError", "10 MiB"},
		{"missing image", map[string]any{"image_path": "nope.png"}, "FileNotFoundError", "image not found"},
		{"image outside the workspace", map[string]any{"image_path": "../ok.png"}, "PermissionError", "outside the workspace"},
		{"scale and width", map[string]any{"image_path": "ok.png", "scale": 2, "width": 5}, "ValueError", "not both"},
		{"bad cell", map[string]any{"image_path": "ok.png", "cell": "ZZZZ1"}, "ValueError", "ZZZZ1"},
		{"a FIFO", map[string]any{"image_path": "pipe.png"}, "ValueError", "not a regular file"},
		{"too wide", map[string]any{"image_path": "wide.png", "scale": 99}, "ValueError", "more than 20000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := map[string]any{"file_path": "data.xlsx", "cell": "B2"}
			for k, v := range c.args {
				args[k] = v
			}
			p := e.fail("insert_image", args)
			assert.Equal(t, c.exception, p["exception"], p)
			assert.Contains(t, p["message"], c.want)
		})
	}
	pics, err := e.open("data.xlsx").GetPictureCells("Sheet1")
	require.NoError(t, err)
	assert.Empty(t, pics, "a refused image leaves the workbook alone")
}
