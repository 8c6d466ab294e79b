package rendersafe

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strings"
)

// Namespaces of the package parts Sanitize writes again.
const (
	// relsNS is the namespace of relationship parts (*.rels).
	relsNS = "http://schemas.openxmlformats.org/package/2006/relationships"
	// typesNS is the namespace of [Content_Types].xml.
	typesNS = "http://schemas.openxmlformats.org/package/2006/content-types"
	// xmlHeader starts every part Sanitize writes from scratch.
	xmlHeader = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"
)

// rel is one relationship as parsed from a relationship part.
type rel struct {
	id, typ, target string
	// external: the target is outside the package (see relOf).
	external bool
}

// kind is what a relationship of some type brings into a rendering.
type kind struct {
	// what names an internal relationship of the kind in the report.
	what string
	// linked names an external one.
	linked string
	// drop: an internal relationship of the kind is removed too, with the
	// part it points to (another document, a data source or code).
	drop bool
	// quiet: a removal is not reported (a hyperlink's cell text still
	// renders; only its target is gone).
	quiet bool
}

// kinds are the relationship types Sanitize knows, by the last segment of
// the type URI, lower case. Every external relationship is removed; the
// kinds say which internal ones go too and how the report names them.
var kinds = map[string]kind{
	"image":                {what: "image", linked: "linked image"},
	"hyperlink":            {what: "hyperlink", linked: "hyperlink", quiet: true},
	"oleobject":            {what: "embedded OLE object", linked: "linked OLE object", drop: true},
	"package":              {what: "embedded document", linked: "linked document", drop: true},
	"externallink":         {what: "external workbook link", linked: "external workbook link", drop: true},
	"externallinkpath":     {what: "external workbook", linked: "external workbook"},
	"xlpathmissing":        {what: "external workbook", linked: "external workbook"},
	"xlstartup":            {what: "external workbook", linked: "external workbook"},
	"xlalternatestartup":   {what: "external workbook", linked: "external workbook"},
	"xllibrary":            {what: "external workbook", linked: "external workbook"},
	"connections":          {what: "data connections", linked: "data connections", drop: true},
	"querytable":           {what: "query table", linked: "query table", drop: true},
	"control":              {what: "ActiveX control", linked: "ActiveX control", drop: true},
	"activexcontrolbinary": {what: "ActiveX control", linked: "ActiveX control", drop: true},
	"vbaproject":           {what: "macros", linked: "macros", drop: true},
	"vbaprojectsignature":  {what: "macros", linked: "macros", drop: true},
	"video":                {what: "video", linked: "linked media"},
	"audio":                {what: "audio", linked: "linked media"},
	"media":                {what: "media", linked: "linked media"},
}

// kindOf returns the kind of a relationship type URI; an unknown type is
// reported as linked content when external and kept when internal.
func kindOf(typ string) kind {
	seg := strings.ToLower(typ[strings.LastIndexByte(typ, '/')+1:])
	if k, ok := kinds[seg]; ok {
		return k
	}
	return kind{what: "content", linked: "linked content"}
}

// parseRels reads a relationship part: the elements named Relationship
// right under the root, in any namespace (LibreOffice reads fewer, never
// more). Anything encoding/xml refuses is an error.
func parseRels(data []byte) ([]rel, error) {
	var rels []rel
	err := walkChildren(data, func(t xml.StartElement) {
		if t.Name.Local == "Relationship" {
			rels = append(rels, relOf(t.Attr))
		}
	})
	return rels, err
}

// relOf reads one relationship's attributes. It is external when its
// TargetMode (in any namespace and letter case) is anything but Internal,
// when Id, Type, Target or TargetMode is given twice (parsers disagree on
// which one counts), or when the target leaves the package (leavesPackage).
func relOf(attrs []xml.Attr) rel {
	var r rel
	seen := map[string]bool{}
	for _, a := range attrs {
		name := a.Name.Local
		if strings.EqualFold(name, "TargetMode") {
			name = "TargetMode"
		} else if a.Name.Space != "" {
			continue
		}
		switch name {
		case "Id", "Type", "Target", "TargetMode":
		default:
			continue
		}
		if seen[name] {
			r.external = true
		}
		seen[name] = true
		switch name {
		case "Id":
			r.id = a.Value
		case "Type":
			r.typ = a.Value
		case "Target":
			r.target = a.Value
		case "TargetMode":
			if strings.TrimSpace(a.Value) != "Internal" {
				r.external = true
			}
		}
	}
	if leavesPackage(r.target) {
		r.external = true
	}
	return r
}

// leavesPackage reports whether a target written as internal still names
// something outside the package: a scheme or a drive (any colon), a
// backslash (a Windows or network path) or a network path "//host".
func leavesPackage(target string) bool {
	return strings.ContainsAny(target, `:\`) || strings.HasPrefix(strings.TrimSpace(target), "//")
}

// writeRels is a relationship part holding rels, written from scratch.
func writeRels(rels []rel) []byte {
	var b bytes.Buffer
	b.WriteString(xmlHeader)
	b.WriteString(`<Relationships xmlns="` + relsNS + `">`)
	for _, r := range rels {
		b.WriteString(`<Relationship Id="`)
		escape(&b, r.id)
		b.WriteString(`" Type="`)
		escape(&b, r.typ)
		b.WriteString(`" Target="`)
		escape(&b, r.target)
		b.WriteString(`"/>`)
	}
	b.WriteString(`</Relationships>`)
	return b.Bytes()
}

// contentTypes is [Content_Types].xml as parsed: extension defaults and
// per-part overrides, each an attribute pair in order.
type contentTypes struct {
	defaults  [][2]string // Extension, ContentType
	overrides [][2]string // PartName, ContentType
}

// parseContentTypes reads [Content_Types].xml: its Default and Override
// elements right under the root.
func parseContentTypes(data []byte) (*contentTypes, error) {
	ct := &contentTypes{}
	err := walkChildren(data, func(t xml.StartElement) {
		switch t.Name.Local {
		case "Default":
			ct.defaults = append(ct.defaults, [2]string{attr(t.Attr, "Extension"), attr(t.Attr, "ContentType")})
		case "Override":
			ct.overrides = append(ct.overrides, [2]string{attr(t.Attr, "PartName"), attr(t.Attr, "ContentType")})
		}
	})
	return ct, err
}

// write is the content types written from scratch, without the overrides
// of parts gone reports true for.
func (ct *contentTypes) write(gone func(part string) bool) []byte {
	var b bytes.Buffer
	b.WriteString(xmlHeader)
	b.WriteString(`<Types xmlns="` + typesNS + `">`)
	for _, d := range ct.defaults {
		b.WriteString(`<Default Extension="`)
		escape(&b, d[0])
		b.WriteString(`" ContentType="`)
		escape(&b, d[1])
		b.WriteString(`"/>`)
	}
	for _, o := range ct.overrides {
		if gone(strings.TrimPrefix(o[0], "/")) {
			continue
		}
		b.WriteString(`<Override PartName="`)
		escape(&b, o[0])
		b.WriteString(`" ContentType="`)
		escape(&b, o[1])
		b.WriteString(`"/>`)
	}
	b.WriteString(`</Types>`)
	return b.Bytes()
}

// walkChildren parses data with encoding/xml (strict, UTF-8 only) and calls
// fn on every element right under the root.
func walkChildren(data []byte, fn func(xml.StartElement)) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if roots != 1 {
				return errors.New("not one root element")
			}
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 1 {
				roots++
			}
			if depth == 2 {
				fn(t)
			}
		case xml.EndElement:
			depth--
		}
	}
}

// attr is the value of the unprefixed attribute name, "" when absent.
func attr(attrs []xml.Attr, name string) string {
	for _, a := range attrs {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// escape writes s as an XML attribute value (quotes, markup and white
// space other than the space escaped; invalid UTF-8 replaced).
func escape(b *bytes.Buffer, s string) {
	_ = xml.EscapeText(b, []byte(s))
}

// sourceOf returns the part a relationship part describes ("" for the
// package's own _rels/.rels) and whether name is a relationship part at all
// (a file NAME.rels in a folder named _rels).
func sourceOf(name string) (string, bool) {
	dir, file := path.Split(name)
	if !strings.HasSuffix(strings.ToLower(file), ".rels") || !strings.EqualFold(path.Base(strings.TrimSuffix(dir, "/")), "_rels") {
		return "", false
	}
	parent := path.Dir(strings.TrimSuffix(dir, "/"))
	if parent == "." {
		parent = ""
	}
	return path.Join(parent, file[:len(file)-len(".rels")]), true
}

// resolve returns the package part an internal target names from the part
// source ("" for the package itself): relative to source's folder, or
// from the package root when it starts with "/".
func resolve(source, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(path.Clean(target), "/")
	}
	p := path.Join(path.Dir(source), target)
	return strings.TrimPrefix(p, "/")
}

// schemeOf names where a removed target pointed without repeating it: the
// URL's scheme ("http", "file"), "network path", "drive path", "path" for a
// plain path, "other" for anything else, "" when empty.
func schemeOf(target string) string {
	t := strings.TrimSpace(target)
	switch {
	case t == "":
		return ""
	case strings.HasPrefix(t, `\\`) || strings.HasPrefix(t, "//"):
		return "network path"
	}
	i := strings.IndexByte(t, ':')
	if i < 0 {
		return "path"
	}
	if i == 1 {
		return "drive path"
	}
	s := t[:i]
	if len(s) > maxSchemeLen {
		return "other"
	}
	for j, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "other"
		}
	}
	return strings.ToLower(s)
}
