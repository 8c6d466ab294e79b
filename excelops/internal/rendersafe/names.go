package rendersafe

import (
	"archive/zip"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// entry is one zip entry Sanitize keeps looking at.
type entry struct {
	f *zip.File
	// name is the part name: the entry's name with percent escapes
	// decoded (OPC part names are URIs), letter case kept.
	name string
	// key is name in lower case: OPC compares part names without case.
	key string
}

// index keeps the entries Sanitize will look at: within the size limits,
// with plain names, each part name once (percent escapes decoded, letter
// case ignored, as in OPC, so no two entries can stand for one part).
func (s *sanitizer) index(files []*zip.File) error {
	if len(files) > maxEntries {
		return fmt.Errorf("%w: %d zip entries, more than %d", ErrTooBig, len(files), maxEntries)
	}
	var total uint64
	for _, f := range files {
		if f.UncompressedSize64 > uint64(s.lim.MaxUnzipped) {
			return fmt.Errorf("%w: %s inflates to %d bytes, more than the unzip limit of %d (zip bomb?)", ErrTooBig, shown(f.Name), f.UncompressedSize64, s.lim.MaxUnzipped)
		}
		total += f.UncompressedSize64
	}
	if total > uint64(s.lim.MaxUnzipped) {
		return fmt.Errorf("%w: the parts inflate to %d bytes, more than the unzip limit of %d (zip bomb?)", ErrTooBig, total, s.lim.MaxUnzipped)
	}
	seen := map[string]bool{}
	odd := 0
	for _, f := range files {
		if strings.HasSuffix(f.Name, "/") {
			continue // a folder entry: OPC has none, nothing reads it
		}
		name, err := url.PathUnescape(f.Name)
		key := strings.ToLower(name)
		if err != nil || !plainName(f.Name) || !plainName(name) || seen[key] {
			odd++
			continue
		}
		seen[key] = true
		s.entries = append(s.entries, entry{f: f, name: name, key: key})
	}
	if odd > 0 {
		s.report[Omitted{Part: packagePart, What: "entries with unusual or repeated names"}] += odd
	}
	return nil
}

// plainName reports whether an entry name is an ordinary part name:
// printable, no backslash, not absolute, no empty, "." or ".." segment.
func plainName(name string) bool {
	if name == "" || len(name) > maxNameBytes || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if r == '\\' || !unicode.IsPrint(r) {
			return false
		}
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// partKey is the key of the part an internal relationship target names
// from the part source: resolved, percent escapes decoded, lower case.
func partKey(source, target string) string {
	if dec, err := url.PathUnescape(target); err == nil {
		target = dec
	}
	return strings.ToLower(resolve(source, target))
}

// isXMLPart reports whether a part (by key) is XML that rewritePart may
// read: only those lose attributes; another part whose relationships
// lost an entry is copied as it is (its relationships are gone anyway).
func isXMLPart(key string) bool {
	return strings.HasSuffix(key, ".xml") || strings.HasSuffix(key, ".vml")
}
