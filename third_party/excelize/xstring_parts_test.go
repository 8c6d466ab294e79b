package excelize

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// xstringPartTexts are texts whose file form (an ST_Xstring) differs from
// them: a control character, a literal text that reads as an escape, both.
var xstringPartTexts = []struct{ text, xml string }{
	{"\x04abc", "_x0004_abc"},
	{"_x0041_", "_x005F_x0041_"},
	{"&C_x0041_\x04", "&amp;C_x005F_x0041__x0004_"},
}

// savedPart saves f and returns the part at name of the saved package, after
// checking that it is well-formed XML 1.0 (encoding/xml refuses a raw
// control character) and holds no U+FFFD.
func savedPart(t *testing.T, f *File, name string) (string, *File) {
	t.Helper()
	buf, err := f.WriteToBuffer()
	require.NoError(t, err)
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	rc, err := zr.Open(name)
	require.NoError(t, err)
	part, err := io.ReadAll(rc)
	require.NoError(t, err)
	dec := xml.NewDecoder(bytes.NewReader(part))
	for {
		if _, err = dec.Token(); err != nil {
			break
		}
	}
	assert.True(t, errors.Is(err, io.EOF), "well-formed: %v", err)
	assert.NotContains(t, string(part), "\uFFFD")
	g, err := OpenReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	return string(part), g
}

// TestXstringComments checks that a note's text, its rich text runs and its
// author are written as ST_Xstring and read back as given, after a reopen
// and after a read and rewrite (as sorting or copying a sheet does).
func TestXstringComments(t *testing.T) {
	for _, c := range []struct {
		name    string
		comment func(text string) Comment
		xml     func(file string) string
	}{
		{"text", func(text string) Comment { return Comment{Cell: "A1", Author: "me", Text: text} },
			func(file string) string { return "<t>" + file + "</t>" }},
		{"rich text run", func(text string) Comment {
			return Comment{Cell: "A1", Author: "me", Paragraph: []RichTextRun{{Text: "x"}, {Text: text}}}
		}, func(file string) string { return `<t xml:space="preserve">` + file + "</t>" }},
		{"author", func(text string) Comment { return Comment{Cell: "A1", Author: text, Text: "x"} },
			func(file string) string { return "<author>" + file + "</author>" }},
	} {
		for _, x := range xstringPartTexts {
			t.Run(c.name+" "+x.xml, func(t *testing.T) {
				f := NewFile()
				want := c.comment(x.text)
				require.NoError(t, f.AddComment("Sheet1", want))
				part, g := savedPart(t, f, "xl/comments1.xml")
				assert.Contains(t, part, c.xml(x.xml))
				got, err := g.GetComments("Sheet1")
				require.NoError(t, err)
				require.Len(t, got, 1)
				assert.Equal(t, want.Author, got[0].Author)
				assert.Equal(t, want.Text, got[0].Text)
				for i, run := range want.Paragraph {
					assert.Equal(t, run.Text, got[0].Paragraph[i].Text)
				}

				require.NoError(t, g.DeleteComment("Sheet1", "A1"))
				require.NoError(t, g.AddComment("Sheet1", got[0]))
				again, _ := savedPart(t, g, "xl/comments1.xml")
				assert.Contains(t, again, c.xml(x.xml), "rewritten once, not escaped twice")
			})
		}
	}
}

// TestXstringCommentsAsExcelWrites checks what a note stored by another
// writer reads as: each _xHHHH_ is the character it names, so an unescaped
// _x0041_ is "A", as Excel shows it.
func TestXstringCommentsAsExcelWrites(t *testing.T) {
	for _, c := range []struct{ file, text string }{
		{"_x0004_abc", "\x04abc"},
		{"_x005F_x0041_", "_x0041_"},
		{"_x0041_", "A"},
		{"a_x000D__x000A_b", "a\r\nb"},
	} {
		f := NewFile()
		require.NoError(t, f.AddComment("Sheet1", Comment{Cell: "A1", Author: "me", Text: "x"}))
		f.Comments["xl/comments1.xml"].CommentList.Comment[0].Text.T = stringPtr(c.file)
		f.Comments["xl/comments1.xml"].Authors.Author[0] = c.file
		got, err := f.GetComments("Sheet1")
		require.NoError(t, err)
		assert.Equal(t, c.text, got[0].Text, c.file)
		assert.Equal(t, c.text, got[0].Author, c.file)
	}
}

// TestXstringHeaderFooter checks that the six header and footer texts are
// written as ST_Xstring and read back as given.
func TestXstringHeaderFooter(t *testing.T) {
	for _, x := range xstringPartTexts {
		t.Run(x.xml, func(t *testing.T) {
			f := NewFile()
			want := &HeaderFooterOptions{
				DifferentFirst: true, DifferentOddEven: true,
				OddHeader: x.text, OddFooter: "1" + x.text, EvenHeader: "2" + x.text,
				EvenFooter: "3" + x.text, FirstHeader: "4" + x.text, FirstFooter: "5" + x.text,
			}
			require.NoError(t, f.SetHeaderFooter("Sheet1", want))
			part, g := savedPart(t, f, "xl/worksheets/sheet1.xml")
			for _, el := range []struct{ name, prefix string }{
				{"oddHeader", ""}, {"oddFooter", "1"}, {"evenHeader", "2"},
				{"evenFooter", "3"}, {"firstHeader", "4"}, {"firstFooter", "5"},
			} {
				assert.Contains(t, part, "<"+el.name+">"+el.prefix+x.xml+"</"+el.name+">")
			}
			got, err := g.GetHeaderFooter("Sheet1")
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}
