package sheetxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// xmlText is the oracle: the character data encoding/xml decodes from raw
// text (no '<') as the one child of an element, or its error.
func xmlText(raw []byte) ([]byte, error) {
	dec := xml.NewDecoder(bytes.NewReader(append(append([]byte("<a>"), raw...), "</a>"...)))
	var out []byte
	for {
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if cd, ok := tok.(xml.CharData); ok {
			out = append(out, cd...)
		}
	}
}

// decodeText decodes raw with a TextDecoder, fed in pieces cut at the
// given offsets, and checks the characters as a whole run.
func decodeText(raw []byte, cuts ...int) ([]byte, error) {
	var d TextDecoder
	var out []byte
	var err error
	from := 0
	for _, at := range append(cuts, len(raw)) {
		if out, err = d.Append(out, raw[from:at]); err != nil {
			return nil, err
		}
		from = at
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	if err := CheckChars(out); err != nil {
		return nil, err
	}
	return out, nil
}

// TestTextDecoder: references, line ends and bad text decode as
// encoding/xml decodes them, whole and cut into two pieces anywhere.
func TestTextDecoder(t *testing.T) {
	for _, c := range []struct {
		raw, want string
		err       error
	}{
		{"plain text", "plain text", nil},
		{"&lt;&gt;&amp;&apos;&quot;", `<>&'"`, nil},
		{"&#65;&#x42;&#x4a;&#0067;&#x1F600;&#x10FFFF;", "ABJC😀\U0010FFFF", nil},
		{"&#128;&#159;", "\u0080\u009f", nil},
		{"&#xD800;", "\uFFFD", nil},
		{"a\r\nb\rc\r\r\nd", "a\nb\nc\n\nd", nil},
		{"&#13;\n&#xD;&#10;\r&#10;", "\r\n\r\n\n\n", nil},
		{"]]&amp;>]>] ]>", "]]&>]>] ]>", nil},
		{"é\u00a0日本", "é\u00a0日本", nil},
		{"&nbsp;", "", ErrReference},
		{"&quote;", "", ErrReference},
		{"&amp", "", ErrReference},
		{"&amp x", "", ErrReference},
		{"& ", "", ErrReference},
		{"&;", "", ErrReference},
		{"&#;", "", ErrReference},
		{"&#x;", "", ErrReference},
		{"&#X41;", "", ErrReference},
		{"&#12a;", "", ErrReference},
		{"&#x110000;", "", ErrReference},
		{"&#99999999999999999999999;", "", ErrReference},
		{"&#0;", "", ErrChar},
		{"&#xFFFF;", "", ErrChar},
		{"a\x01", "", ErrChar},
		{"a\xff", "", ErrChar},
		{"a\xef\xbf\xbe", "", ErrChar},
		{"a]]>", "", ErrCDATAClose},
	} {
		want, oerr := xmlText([]byte(c.raw))
		if c.err != nil {
			assert.Error(t, oerr, "encoding/xml rejects %q", c.raw)
		} else {
			require.NoError(t, oerr, c.raw)
			assert.Equal(t, c.want, string(want), "encoding/xml on %q", c.raw)
		}
		for cut := 0; cut <= len(c.raw); cut++ {
			got, err := decodeText([]byte(c.raw), cut)
			if c.err != nil {
				assert.ErrorIs(t, err, c.err, "%q cut at %d", c.raw, cut)
				continue
			}
			require.NoError(t, err, "%q cut at %d", c.raw, cut)
			assert.Equal(t, c.want, string(got), "%q cut at %d", c.raw, cut)
		}
	}
}

// TestAppendCDATA: CDATA content is verbatim but for line ends, as
// encoding/xml gives it.
func TestAppendCDATA(t *testing.T) {
	for content, want := range map[string]string{
		"a<b>&amp;]": "a<b>&amp;]", "a\r\nb\rc\r\r\n\r": "a\nb\nc\n\n\n", "": "",
	} {
		assert.Equal(t, want, string(AppendCDATA(nil, []byte(content))), "%q", content)
		got, err := xmlText([]byte("<![CDATA[" + content + "]]>"))
		require.NoError(t, err)
		assert.Equal(t, want, string(got), "encoding/xml on %q", content)
	}
}

// FuzzTextDecoder: on any text without '<', the decoder agrees with
// encoding/xml (the same text, or an error when it fails), read whole or
// cut in two.
func FuzzTextDecoder(f *testing.F) {
	for _, s := range []string{"a&amp;b", "&#x1F600;\r\n", "&#128;]]>", "&nbsp;", "\r&#10;"} {
		f.Add([]byte(s), 2)
	}
	f.Fuzz(func(t *testing.T, raw []byte, cut int) {
		if bytes.IndexByte(raw, '<') >= 0 {
			return
		}
		want, oerr := xmlText(raw)
		got, err := decodeText(raw, min(max(cut, 0), len(raw)))
		if (err == nil) != (oerr == nil) {
			t.Fatalf("%q: ours %v, encoding/xml %v", raw, err, oerr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("%q: ours %q, encoding/xml %q", raw, got, want)
		}
	})
}
