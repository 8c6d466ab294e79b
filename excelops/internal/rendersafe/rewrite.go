package rendersafe

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// dropElements are the elements (by local name) a rewritten part loses
// whole: they only make sense with relationships Sanitize removes (a
// sheet's OLE objects and ActiveX controls, the workbook's external
// references), and a reader may choke on them without their targets.
var dropElements = map[string]bool{
	"oleObjects":         true,
	"controls":           true,
	"externalReferences": true,
}

// vmlLinkAttrs are the VML attributes (by local name, lower case) that
// name a file or URL directly, without a relationship: v:imagedata src,
// v:fill src, o:href and the like. A VML part loses all of them.
var vmlLinkAttrs = map[string]bool{
	"src":     true,
	"href":    true,
	"althref": true,
}

// rewriteBufSize is the output buffer of a rewritten part.
const rewriteBufSize = 64 << 10

// rewritePart copies the XML of src to dst token by token, byte for byte,
// except that attributes with a prefix (r:link, r:embed, r:id, o:relid)
// whose value is one of ids go, the elements in dropElements go whole, and
// in a VML part the attributes in vmlLinkAttrs go; linked is told the
// scheme of every non-empty VML src removed. The tokenizer keeps memory
// flat in the part's size.
func rewritePart(dst io.Writer, src io.Reader, ids map[string]bool, vml bool, linked func(scheme string)) error {
	w := bufio.NewWriterSize(dst, rewriteBufSize)
	z := sheetxml.New(src)
	skip := 0 // depth inside a dropped element
	for {
		t, err := z.Next()
		if errors.Is(err, io.EOF) {
			return w.Flush()
		}
		if err != nil {
			return err
		}
		if skip > 0 {
			switch t.Kind {
			case sheetxml.Start:
				skip++
			case sheetxml.End:
				skip--
			}
			continue
		}
		if t.Kind == sheetxml.Start || t.Kind == sheetxml.Empty {
			if dropElements[string(t.Name)] {
				if t.Kind == sheetxml.Start {
					skip = 1
				}
				continue
			}
			if tag, ok := cleanTag(&t, ids, vml, linked); ok {
				if _, err := w.Write(tag); err != nil {
					return err
				}
				continue
			}
		}
		if _, err := w.Write(t.Raw); err != nil {
			return err
		}
	}
}

// cleanTag returns the tag t without the attributes rewritePart removes,
// and false when it keeps them all (or cannot read them: a tag it cannot
// split into attributes is left as it is, its relationships being gone
// anyway).
func cleanTag(t *sheetxml.Token, ids map[string]bool, vml bool, linked func(string)) ([]byte, bool) {
	attrs := t.Attrs()
	spans, ok := scanAttrs(attrs)
	if !ok {
		return nil, false
	}
	var cut [][2]int
	for _, a := range spans {
		name := attrs[a.name:a.nameEnd]
		prefix, local := []byte(nil), name
		if i := bytes.IndexByte(name, ':'); i >= 0 {
			prefix, local = name[:i], name[i+1:]
		}
		if string(prefix) == "xmlns" || string(name) == "xmlns" {
			continue
		}
		switch {
		case prefix != nil && len(ids) > 0 && namesID(ids, attrs[a.value:a.valueEnd]):
			cut = append(cut, [2]int{a.start, a.end})
		case vml && vmlLinkAttrs[strings.ToLower(string(local))]:
			v := strings.TrimSpace(string(sheetxml.Unescape(attrs[a.value:a.valueEnd])))
			if strings.EqualFold(string(local), "src") && v != "" {
				linked(schemeOf(v))
			}
			cut = append(cut, [2]int{a.start, a.end})
		}
	}
	if len(cut) == 0 {
		return nil, false
	}
	tail := 1 // ">"
	if t.Kind == sheetxml.Empty {
		tail = 2 // "/>"
	}
	head := len(t.Raw) - tail - len(attrs)
	out := append(make([]byte, 0, len(t.Raw)), t.Raw[:head]...)
	prev := 0
	for _, c := range cut {
		out = append(out, attrs[prev:c[0]]...)
		prev = c[1]
	}
	out = append(out, attrs[prev:]...)
	return append(out, t.Raw[len(t.Raw)-tail:]...), true
}

// namesID reports whether a raw attribute value, entities decoded and
// with or without surrounding white space, is one of ids.
func namesID(ids map[string]bool, raw []byte) bool {
	v := string(sheetxml.Unescape(raw))
	return ids[v] || ids[strings.TrimSpace(v)]
}

// attrSpan is where one attribute lies in a tag's attribute section:
// start..end covers it with the white space before it, name..nameEnd its
// name and value..valueEnd its raw value between the quotes.
type attrSpan struct {
	start, name, nameEnd, value, valueEnd, end int
}

// scanAttrs splits an attribute section into attributes; false when it is
// not a plain sequence of name="value" pairs.
func scanAttrs(a []byte) ([]attrSpan, bool) {
	var out []attrSpan
	i := 0
	for {
		start := i
		for i < len(a) && isSpace(a[i]) {
			i++
		}
		if i == len(a) {
			return out, true
		}
		if i == start && start > 0 {
			return nil, false // attributes run together
		}
		name := i
		for i < len(a) && a[i] != '=' && !isSpace(a[i]) {
			i++
		}
		nameEnd := i
		for i < len(a) && isSpace(a[i]) {
			i++
		}
		if nameEnd == name || i == len(a) || a[i] != '=' {
			return nil, false
		}
		i++
		for i < len(a) && isSpace(a[i]) {
			i++
		}
		if i == len(a) || a[i] != '"' && a[i] != '\'' {
			return nil, false
		}
		q := a[i]
		i++
		n := bytes.IndexByte(a[i:], q)
		if n < 0 {
			return nil, false
		}
		out = append(out, attrSpan{start: start, name: name, nameEnd: nameEnd, value: i, valueEnd: i + n, end: i + n + 1})
		i += n + 1
	}
}

// isSpace reports XML white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
