package xmlappend

import (
	"bytes"
	"fmt"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// qualifiedName returns a tag's name as written, prefix included.
func qualifiedName(tag []byte) string {
	inner := bytes.TrimLeft(tag[1:], "/")
	end := 0
	for end < len(inner) && !isSpace(inner[end]) && inner[end] != '/' && inner[end] != '>' {
		end++
	}
	return string(inner[:end])
}

// attrsOf returns a start tag's attribute section.
func attrsOf(tag []byte) []byte {
	name := qualifiedName(tag)
	rest := tag[1+len(name):]
	rest = bytes.TrimSuffix(rest, []byte(">"))
	return bytes.TrimSuffix(rest, []byte("/"))
}

// attrSpan finds attribute key in tag: the span of the whole attribute,
// leading space included, or ok false.
func attrSpan(tag []byte, key string) (from, to int, ok bool) {
	i := 0
	for {
		j := bytes.Index(tag[i:], []byte(key+"="))
		if j < 0 {
			return 0, 0, false
		}
		j += i
		end := j + len(key) + 1
		if j > 0 && isSpace(tag[j-1]) && end < len(tag) && (tag[end] == '"' || tag[end] == '\'') {
			q := bytes.IndexByte(tag[end+1:], tag[end])
			if q < 0 {
				return 0, 0, false
			}
			return j - 1, end + 1 + q + 1, true
		}
		i = j + 1
	}
}

// removeAttr returns tag without attribute key.
func removeAttr(tag []byte, key string) []byte {
	from, to, ok := attrSpan(tag, key)
	if !ok {
		return tag
	}
	return append(bytes.Clone(tag[:from]), tag[to:]...)
}

// setAttr returns tag with attribute key set to the raw value v, in place
// when present, else added after the last attribute.
func setAttr(tag []byte, key string, v []byte) []byte {
	attr := append(append([]byte(" "+key+`="`), v...), '"')
	if from, to, ok := attrSpan(tag, key); ok {
		return append(append(bytes.Clone(tag[:from]), attr...), tag[to:]...)
	}
	cut := len(tag) - 1
	if bytes.HasSuffix(tag, []byte("/>")) {
		cut--
	}
	for cut > 0 && isSpace(tag[cut-1]) {
		cut--
	}
	return append(append(bytes.Clone(tag[:cut]), attr...), tag[cut:]...)
}

// namespaces returns the declarations on a start tag: prefix ("" for the
// default namespace) to URI.
func namespaces(tag []byte) map[string]string {
	out := map[string]string{}
	attrs := attrsOf(tag)
	for i := 0; i < len(attrs); {
		j := bytes.Index(attrs[i:], []byte("xmlns"))
		if j < 0 {
			break
		}
		j += i
		k := j + len("xmlns")
		prefix := ""
		if k < len(attrs) && attrs[k] == ':' {
			e := bytes.IndexByte(attrs[k:], '=')
			if e < 0 {
				break
			}
			prefix = string(attrs[k+1 : k+e])
			k += e
		}
		if (j == 0 || isSpace(attrs[j-1])) && k+1 < len(attrs) && attrs[k] == '=' {
			if q := bytes.IndexByte(attrs[k+2:], attrs[k+1]); q >= 0 {
				out[prefix] = string(attrs[k+2 : k+2+q])
				i = k + 2 + q + 1
				continue
			}
		}
		i = j + 1
	}
	return out
}

// sameNamespaces checks that what the edit wrote means the same in the
// original: an unprefixed root in the same default namespace.
func sameNamespaces(o, e *document) error {
	if qualifiedName(o.bytesOf(o.root.start)) != o.root.name {
		return fmt.Errorf("%w: the original's root is prefixed", ErrNotAppend)
	}
	if namespaces(o.bytesOf(o.root.start))[""] != namespaces(e.bytesOf(e.root.start))[""] {
		return fmt.Errorf("%w: another default namespace", ErrNotAppend)
	}
	return nil
}

// checkPrefixes reports a prefix used in text (tag or attribute names) that
// the original's root does not declare with the URI the edit's root gives it.
func checkPrefixes(text []byte, o, e *document) error {
	ons := namespaces(o.bytesOf(o.root.start))
	ens := namespaces(e.bytesOf(e.root.start))
	z := sheetxml.New(bytes.NewReader(text))
	for {
		t, err := z.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %w", ErrNotAppend, err)
		}
		if t.Kind != sheetxml.Start && t.Kind != sheetxml.Empty {
			continue
		}
		names := [][]byte{[]byte(qualifiedName(t.Raw))}
		for _, f := range bytes.Fields(t.Attrs()) {
			if eq := bytes.IndexByte(f, '='); eq > 0 {
				names = append(names, f[:eq])
			}
		}
		for _, n := range names {
			i := bytes.IndexByte(n, ':')
			if i <= 0 {
				continue
			}
			p := string(n[:i])
			if p == "xmlns" || p == "xml" {
				continue
			}
			if uri, ok := ons[p]; !ok || uri != ens[p] {
				return fmt.Errorf("%w: prefix %s is not the original's", ErrNotAppend, p)
			}
		}
	}
}

// isSpace reports XML white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
