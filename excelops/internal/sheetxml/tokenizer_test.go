package sheetxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// collect tokenizes data and returns the tokens (copied) and the final error.
func collect(data []byte) ([]Token, error) { return collectFrom(bytes.NewReader(data)) }

// collectFrom tokenizes what r reads (see collect).
func collectFrom(r io.Reader) ([]Token, error) {
	z := New(r)
	var out []Token
	for {
		t, err := z.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		t.Raw = bytes.Clone(t.Raw)
		t.Name = bytes.Clone(t.Name)
		t.attrs = bytes.Clone(t.attrs)
		out = append(out, t)
	}
}

func TestTokenizerKinds(t *testing.T) {
	in := `<?xml version="1.0"?><x:worksheet xmlns:x="u"><!-- a > b <c> --><sheetData>` +
		`<row r="1" spans="1:2"><c r="A1" t="s"><v>0</v></c><c r="B1" a='x>y'/></row>` +
		`<![CDATA[<c r="Z9">]]></sheetData></x:worksheet>`
	toks, err := collect([]byte(in))
	require.NoError(t, err)
	var got []string
	var raw bytes.Buffer
	for _, tk := range toks {
		raw.Write(tk.Raw)
		got = append(got, []string{"T", "S", "E", "M", "X"}[tk.Kind]+":"+string(tk.Name))
	}
	assert.Equal(t, in, raw.String(), "raw bytes reproduce the input")
	assert.Equal(t, []string{"X:", "S:worksheet", "X:", "S:sheetData", "S:row", "S:c", "S:v", "T:", "E:v", "E:c",
		"M:c", "E:row", "X:", "E:sheetData", "E:worksheet"}, got)
	assert.Equal(t, "1:2", string(toks[4].Attr("spans")))
	assert.Equal(t, "x>y", string(toks[10].Attr("a")), "a quoted '>' does not end the tag")
	assert.Nil(t, toks[10].Attr("t"))
}

func TestTokenizerLongTextAndTags(t *testing.T) {
	long := strings.Repeat("x", 3*BufferSize+17)
	attr := strings.Repeat("y", 2*BufferSize)
	in := `<a>` + long + `</a><b k="` + attr + `"/>`
	toks, err := collect([]byte(in))
	require.NoError(t, err)
	var raw bytes.Buffer
	text := 0
	for _, tk := range toks {
		raw.Write(tk.Raw)
		if tk.Kind == Text {
			text += len(tk.Raw)
		}
	}
	assert.Equal(t, in, raw.String())
	assert.Equal(t, len(long), text, "long text comes in pieces, none lost")
	last := toks[len(toks)-1]
	assert.True(t, last.Is(Empty, "b"))
	assert.Equal(t, attr, string(last.Attr("k")))
}

func TestTokenizerErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		want error
	}{
		{`<a><b r="1`, ErrTruncated},
		{`<a>< b>`, ErrMalformed},
		{`<a><!-- never closed`, ErrTruncated},
		{`<a>` + strings.Repeat("<", 1), ErrTruncated},
	} {
		_, err := collect([]byte(c.in))
		assert.ErrorIs(t, err, c.want, c.in)
	}
}

func TestAttrAndRefs(t *testing.T) {
	attrs := []byte(` r="B12" s = '3' x:t="s" t="n"`)
	assert.Equal(t, "B12", string(AttrValue(attrs, "r")))
	assert.Equal(t, "3", string(AttrValue(attrs, "s")))
	assert.Equal(t, "n", string(AttrValue(attrs, "t")), "a prefixed name does not match")
	assert.Equal(t, 3, AttrInt(attrs, "s"))
	for ref, want := range map[string][2]int{"A1": {1, 1}, "$AB$12": {28, 12}, "xfd1048576": {16384, 1048576}, "A": {1, 0}, "12": {0, 12}, "": {0, 0}} {
		c, r := SplitRef([]byte(ref))
		assert.Equal(t, want, [2]int{c, r}, ref)
	}
	assert.Equal(t, `a&amp;b&lt;c&gt;&quot;`, string(AppendEscaped(nil, "a&b<c>\"\x01")))
	assert.Equal(t, `a&b<`, string(Unescape([]byte(`a&amp;b&lt;`))))
}

// FuzzTokenizer: the tokenizer never panics, its tokens' raw bytes always
// reproduce the input they consumed, and on XML that encoding/xml accepts it
// sees the same start and end tags.
func FuzzTokenizer(f *testing.F) {
	f.Add([]byte(`<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData>`))
	f.Add([]byte(`<?xml version="1.0"?><a x='>'><!-- <b> --><![CDATA[<c>]]></a>`))
	f.Add([]byte(`<a/><b`))
	f.Fuzz(func(t *testing.T, data []byte) {
		toks, err := collect(data)
		var raw bytes.Buffer
		for _, tk := range toks {
			raw.Write(tk.Raw)
		}
		if err == nil && !bytes.Equal(raw.Bytes(), data) {
			t.Fatalf("raw bytes differ:\n%q\n%q", raw.Bytes(), data)
		}
		if !bytes.HasPrefix(data, raw.Bytes()) {
			t.Fatalf("raw bytes are not a prefix of the input")
		}
		// Read a byte at a time, every buffer boundary falls somewhere else:
		// the same tokens (adjacent text merged) and the same error.
		slow, slowErr := collectFrom(iotest.OneByteReader(bytes.NewReader(data)))
		if !errors.Is(slowErr, err) && !errors.Is(err, slowErr) {
			t.Fatalf("error %v reading it whole, %v a byte at a time", err, slowErr)
		}
		if a, b := merged(toks), merged(slow); a != b {
			t.Fatalf("tokens differ with one-byte reads:\n%s\n%s", a, b)
		}
		if err != nil {
			return
		}
		theirs, ok := xmlItems(data)
		if !ok {
			return // not XML encoding/xml accepts: nothing to compare
		}
		if ours := tokenItems(t, toks); strings.Join(ours, ",") != strings.Join(theirs, ",") {
			t.Fatalf("tokens differ from encoding/xml:\n%q\n%q", ours, theirs)
		}
	})
}

// items is a token stream in a form both tokenizers give: "<name" and
// ">name" for start and end tags, "#text" for character data (decoded,
// adjacent pieces joined), "!" for comments, declarations and processing
// instructions.
type items []string

// add appends an item, joining adjacent text and dropping empty text.
func (it *items) add(s string) {
	if n := len(*it); n > 0 && s[0] == '#' && (*it)[n-1][0] == '#' {
		(*it)[n-1] += s[1:]
	} else {
		*it = append(*it, s)
	}
}

// done drops the text items that are empty.
func (it items) done() []string {
	var out []string
	for _, s := range it {
		if s != "#" {
			out = append(out, s)
		}
	}
	return out
}

// xmlItems is what encoding/xml's RawToken reads from data; ok is false
// when it rejects data.
func xmlItems(data []byte) (_ []string, ok bool) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var it items
	for {
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			return it.done(), true
		}
		if err != nil {
			return nil, false
		}
		switch tt := tok.(type) {
		case xml.StartElement:
			it.add("<" + tt.Name.Local)
		case xml.EndElement:
			it.add(">" + tt.Name.Local)
		case xml.CharData:
			it.add("#" + string(tt))
		default:
			it.add("!")
		}
	}
}

// tokenItems is what toks say, decoded (see items).
func tokenItems(t *testing.T, toks []Token) []string {
	var it items
	var d TextDecoder
	var text []byte
	for i, tk := range toks {
		if tk.Kind == Text {
			var err error
			text, err = d.Append(text, tk.Raw)
			require.NoError(t, err)
			if i+1 < len(toks) && toks[i+1].Kind == Text {
				continue
			}
			require.NoError(t, d.Finish())
			it.add("#" + string(text))
			text = text[:0]
			continue
		}
		switch tk.Kind {
		case Start, Empty:
			it.add("<" + string(tk.Name))
		case Special:
			if body, ok := bytes.CutPrefix(tk.Raw, []byte("<![CDATA[")); ok {
				it.add("#" + string(AppendCDATA(nil, body[:len(body)-3])))
			} else {
				it.add("!")
			}
		}
		if tk.Kind == End || tk.Kind == Empty {
			it.add(">" + string(tk.Name))
		}
	}
	return it.done()
}

// TestTokenizerSpecials: comments, CDATA sections, processing instructions
// and declarations end where encoding/xml ends them.
func TestTokenizerSpecials(t *testing.T) {
	for in, want := range map[string][]string{
		`<a>x<!-->y-->z</a>`:      {"<a", "#x", "!", "#z", ">a"},
		`<a>x<!--->y-->z</a>`:     {"<a", "#x", "!", "#z", ">a"},
		`<a>x<!---->z</a>`:        {"<a", "#x", "!", "#z", ">a"},
		`<a><![CDATA[]]]]>]></a>`: {"<a", "#]]]>", ">a"},
		`<a><?p ?>?>x</a>`:        {"<a", "!", "#?>x", ">a"},
		`<!DOCTYPE a [<!ENTITY e "x>"> <!-- > --> <!y>]><a/>`: {"!", "<a", ">a"},
		`<!>x><a/>`:            {"!", "<a", ">a"},
		`<!DOCTYPE a '>'><a/>`: {"!", "<a", ">a"},
		"<!0<\"\"00><>>":       {"!"},
	} {
		toks, err := collect([]byte(in))
		require.NoError(t, err, in)
		assert.Equal(t, want, tokenItems(t, toks), in)
		theirs, ok := xmlItems([]byte(in))
		require.True(t, ok, in)
		assert.Equal(t, want, theirs, "encoding/xml on %s", in)
	}
	for _, in := range []string{`<a><!-->`, `<!DOCTYPE a [<b>`, `<!DOCTYPE a "`, `<!DOCTYPE a <!--`} {
		_, err := collect([]byte(in))
		assert.ErrorIs(t, err, ErrTruncated, in)
	}
}

// merged renders tokens with adjacent text runs joined.
func merged(toks []Token) string {
	var b strings.Builder
	prevText := false
	for _, tk := range toks {
		if tk.Kind == Text && prevText {
			b.Write(tk.Raw)
			continue
		}
		prevText = tk.Kind == Text
		fmt.Fprintf(&b, "|%d:%s", tk.Kind, tk.Raw)
	}
	return b.String()
}

// TestPeekThrough: an untouched element is passed on by its bytes, across
// buffer boundaries, and tokenizing goes on right after it; a delimiter
// past the limit or missing is not found and consumes nothing.
func TestPeekThrough(t *testing.T) {
	row := `<row r="2"><c r="A2"><v>` + strings.Repeat("9", 3*BufferSize) + `</v></c></row>`
	in := `<sheetData><row r="1">` + `<c r="A1"/></row>` + row + `</sheetData>`
	for name, r := range map[string]io.Reader{"whole": strings.NewReader(in), "bytewise": iotest.OneByteReader(strings.NewReader(in))} {
		t.Run(name, func(t *testing.T) {
			z := New(r)
			for range 2 {
				_, err := z.Next()
				require.NoError(t, err)
			}
			got, ok := z.PeekThrough([]byte("</row>"), 1<<20)
			require.True(t, ok)
			assert.Equal(t, `<c r="A1"/></row>`, string(got))
			z.Skip(len(got))
			tk, err := z.Next()
			require.NoError(t, err)
			require.True(t, tk.Is(Start, "row"))
			_, ok = z.PeekThrough([]byte("</row>"), BufferSize)
			assert.False(t, ok, "past the limit")
			_, ok = z.PeekThrough([]byte("</nothing>"), 1<<20)
			assert.False(t, ok, "missing")
			got, ok = z.PeekThrough([]byte("</row>"), 1<<20)
			require.True(t, ok)
			assert.Equal(t, row[len(`<row r="2">`):], string(got))
			z.Skip(len(got))
			tk, err = z.Next()
			require.NoError(t, err)
			assert.True(t, tk.Is(End, "sheetData"))
			_, err = z.Next()
			assert.ErrorIs(t, err, io.EOF)
		})
	}
}
