package splice

import (
	"bytes"
	"errors"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// SetCached appends the formula cell raw (an OldCell's Raw) to dst with its
// cached result replaced: t is the cell type ("" for a number, "b", "e" or
// "str") and v the value's text (unescaped); t == "str" with v == "" is an
// empty text (<v></v>), any other v == "" drops the cached value and the
// type, so the cell holds its formula alone. Everything else
// (attributes, the <f> element byte for byte, extLst) is kept. A cell that
// is not an unprefixed <c> holding an <f> is ErrUnsupported.
func SetCached(dst, raw []byte, t, v string) ([]byte, error) {
	z := sheetxml.New(bytes.NewReader(raw))
	tok, err := z.Next()
	if err != nil || !tok.Is(sheetxml.Start, "c") || !bytes.HasPrefix(tok.Raw, []byte("<c")) || tok.Attr("r") == nil {
		return dst, unsupported("the cell is not a plain formula cell", "")
	}
	tag := removeAttr(bytes.Clone(tok.Raw), "t")
	tag = bytes.TrimRight(tag[:len(tag)-1], " \t\r\n")
	has := v != "" || t == "str"
	if has && t != "" {
		tag = append(append(append(tag, ` t="`...), t...), '"')
	}
	out := append(append(dst, tag...), '>')
	inV, wrote := false, false
	for {
		tok, err := z.Next()
		if errors.Is(err, io.EOF) {
			return dst, unsupported("the cell element is not closed", "")
		}
		if err != nil {
			return dst, err
		}
		switch {
		case tok.Is(sheetxml.Start, "v"):
			inV = true
			continue
		case tok.Is(sheetxml.End, "v"):
			inV = false
			continue
		case tok.Is(sheetxml.Empty, "v") || inV:
			continue
		case tok.Is(sheetxml.End, "c"):
			if !wrote {
				return dst, unsupported("the cell holds no formula", "")
			}
			return append(out, tok.Raw...), nil
		}
		out = append(out, tok.Raw...)
		if tok.Is(sheetxml.End, "f") || tok.Is(sheetxml.Empty, "f") {
			if has {
				out = append(out, "<v>"...)
				out = sheetxml.AppendEscaped(out, v)
				out = append(out, "</v>"...)
			}
			wrote = true
		}
	}
}
