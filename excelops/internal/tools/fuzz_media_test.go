package tools

import (
	"bytes"
	"encoding/json"
	"image/jpeg"
	"image/png"
	"os"
	"testing"
)

// FuzzInsertImage feeds arbitrary bytes to insert_image as the image file:
// every answer is a success or a clear ValueError/MemoryError, never a
// crash, and a refused image leaves the workbook as it was.
func FuzzInsertImage(f *testing.F) {
	var p, j bytes.Buffer
	_ = png.Encode(&p, testImage(3, 2))
	_ = jpeg.Encode(&j, testImage(3, 2), nil)
	f.Add(p.Bytes())
	f.Add(j.Bytes())
	f.Add(pngHeader(1, 1))
	f.Add([]byte("GIF89a"))
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xE0})
	f.Fuzz(func(t *testing.T, data []byte) {
		e := newEnv(t)
		e.workbook("f.xlsx", [][]any{{"a"}})
		before, err := os.ReadFile(e.path("f.xlsx"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(e.path("x.png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		res := e.call("insert_image", map[string]any{"file_path": "f.xlsx", "image_path": "x.png", "cell": "B2"})
		var payload map[string]any
		if err := json.Unmarshal([]byte(res.Text), &payload); err != nil {
			t.Fatalf("not JSON: %q", res.Text)
		}
		if !res.IsError {
			if payload["format"] != "png" && payload["format"] != "jpeg" {
				t.Fatalf("accepted as %v", payload["format"])
			}
			return
		}
		if ex := payload["exception"]; ex != "ValueError" && ex != "MemoryError" {
			t.Fatalf("unexpected failure: %s", res.Text)
		}
		after, err := os.ReadFile(e.path("f.xlsx"))
		if err != nil || !bytes.Equal(before, after) {
			t.Fatal("a refused image changed the workbook")
		}
	})
}
