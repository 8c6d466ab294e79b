package excelize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestXstring(t *testing.T) {
	for _, c := range []struct{ text, xml string }{
		{"plain", "plain"},
		{"\x04", "_x0004_"},
		{"a\x00b\x1Fc", "a_x0000_b_x001F_c"},
		{"tab\tline\nret\r", "tab\tline\nret\r"},
		{"\uFFFE\uFFFF", "_xFFFE__xFFFF_"},
		{"_x0041_", "_x005F_x0041_"},
		{"_x005F_", "_x005F_x005F_"},
		{"_x0041_x0042_", "_x005F_x0041_x005F_x0042_"},
		{"\x04x0041_", "_x0004_x0041_"},
		{"_x0041\x01", "_x005F_x0041_x0001_"},
		{"_x0041\uFFFF", "_x005F_x0041_xFFFF_"},
		{"_x0041x", "_x0041x"},
		{"_X0041_", "_X0041_"},
		{"_x00e9_", "_x005F_x00e9_"},
		{"__x0041_", "__x005F_x0041_"},
		{"_x12_ _xGHIJ_ _x", "_x12_ _xGHIJ_ _x"},
		{"é\x07€", "é_x0007_€"},
	} {
		assert.Equal(t, c.xml, EscapeXstring(c.text), c.text)
		assert.Equal(t, c.text, UnescapeXstring(c.xml), c.xml)
		assert.Equal(t, c.xml, bstrMarshal(c.text), c.text)
	}
	assert.Equal(t, "A", UnescapeXstring("_x0041_"), "Excel's escape of any character")
	assert.Equal(t, "a_b", UnescapeXstring("a_x005f_b"), "hex digits of either case")
}

// TestXstringCells checks that a text set through the cell setters is
// written escaped, read back as set, and survives a save and reopen.
func TestXstringCells(t *testing.T) {
	texts := []string{"\x04abc", "_x0041_", "a\x1Fb_x005F_"}
	for _, c := range []struct {
		name string
		set  func(f *File, cell, text string) error
	}{
		{"shared string", func(f *File, cell, text string) error { return f.SetCellStr("Sheet1", cell, text) }},
		{"formula text", func(f *File, cell, text string) error {
			if err := f.SetCellFormula("Sheet1", cell, `"x"`); err != nil {
				return err
			}
			ws, err := f.workSheetReader("Sheet1")
			if err != nil {
				return err
			}
			c, _, _, err := ws.prepareCell(cell)
			if err == nil {
				c.setStr(text)
			}
			return err
		}},
		{"rich text", func(f *File, cell, text string) error {
			return f.SetCellRichText("Sheet1", cell, []RichTextRun{{Text: text}})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := NewFile()
			for i, text := range texts {
				assert.NoError(t, c.set(f, "A"+string(rune('1'+i)), text))
			}
			buf, err := f.WriteToBuffer()
			assert.NoError(t, err)
			assert.NotContains(t, buf.String(), "\uFFFD")
			g, err := OpenReader(buf)
			assert.NoError(t, err)
			for i, text := range texts {
				cell := "A" + string(rune('1'+i))
				got, err := g.GetCellValue("Sheet1", cell)
				assert.NoError(t, err)
				assert.Equal(t, text, got, cell)
				runs, err := g.GetCellRichText("Sheet1", cell)
				assert.NoError(t, err)
				if c.name != "formula text" {
					assert.Equal(t, text, runs[0].Text, cell)
				}
			}
		})
	}
}
