// Package keepparts saves an edit made through excelize so that every part
// the edit did not change stays byte for byte as it was on disk.
//
// excelize writes back every part it parsed, re-serialised: the styles, the
// theme, relationships, content types, shared strings and every sheet an
// operation looked at, even when their content did not change. Package
// tells a real change from a re-serialisation by comparing with a fresh
// copy of the original saved with the same parts parsed (the caller's
// Reserialise): a part whose edited save equals that baseline was only
// re-serialised, and its original entry is copied raw instead; a list part
// the edit only appended to is the original bytes plus the new records
// (internal/xmlappend).
//
//	pkg, err := keepparts.Package(ctx, orig, edited, "xl/worksheets/sheet1.xml", reserialise)
//
// ARCHITECTURE.md at the repository root places it in the package map.
package keepparts

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/xmlappend"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// partCollector is an excelize.ZipWriter that keeps the saved parts in
// memory, in the order excelize writes them.
type partCollector struct {
	names []string
	parts map[string]*bytes.Buffer
}

// Create starts the part name.
func (c *partCollector) Create(name string) (io.Writer, error) {
	buf := &bytes.Buffer{}
	if _, dup := c.parts[name]; !dup {
		c.names = append(c.names, name)
	}
	c.parts[name] = buf
	return buf, nil
}

// AddFS is not used by excelize's own save.
func (c *partCollector) AddFS(fs.FS) error {
	return errors.New("partCollector: AddFS is not supported")
}

// Close ends the collection.
func (c *partCollector) Close() error { return nil }

// savedParts returns what saving f writes, part by part.
func savedParts(f *excelize.File) (*partCollector, error) {
	c := &partCollector{parts: map[string]*bytes.Buffer{}}
	prev := f.ZipWriter
	f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return c })
	defer f.SetZipWriter(prev)
	if _, err := f.WriteTo(io.Discard); err != nil {
		return nil, err
	}
	return c, nil
}

// BigSheetPart is the size from which the part of the sheet a call edits
// is taken as changed without a second parse.
const BigSheetPart = 1 << 20

// Reserialise returns what the named parts of the original look like
// re-serialised by excelize when nothing changed them (parsed as an edit
// would parse them, then saved); a part it leaves out, or a nil map, counts
// as changed.
type Reserialise func(names []string) (map[string][]byte, error)

// Package returns the zip to save: f's excelize save, with every part the
// edit did not change copied raw from the original package zr. sheetPart,
// the part of the sheet the call edits ("" for none), is taken as changed
// when it is big (BigSheetPart), without asking reserialise.
func Package(ctx context.Context, zr *zip.Reader, f *excelize.File, sheetPart string, reserialise Reserialise) ([]byte, error) {
	edited, err := savedParts(f)
	if err != nil {
		return nil, err
	}
	orig := map[string]*zip.File{}
	for _, zf := range zr.File {
		orig[strings.ToLower(zf.Name)] = zf
	}
	parts := map[string]splice.Part{}
	written := map[string]bool{}
	var changed []string // parts new or with bytes unlike the original's
	for _, name := range edited.names {
		zf := orig[strings.ToLower(name)]
		if zf != nil {
			written[zf.Name] = true
		}
		if zf == nil || !sameContent(zf, edited.parts[name].Bytes()) {
			changed = append(changed, name)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A big part of the sheet the call edits changed: parsing it again to
	// tell would double the cost of the edit.
	certain := sheetPart
	if zf := orig[strings.ToLower(certain)]; zf == nil || zf.UncompressedSize64 < BigSheetPart {
		certain = ""
	}
	base, err := reserialise(slices.DeleteFunc(slices.Clone(changed), func(n string) bool { return n == certain }))
	if err != nil {
		return nil, err
	}
	// A new part excelize makes up when it reads a missing one (an empty
	// shared string table) is left out, with the content types and
	// relationships that would name it kept as they were. Once the edit
	// adds a part of its own, every new part stays, and so do the content
	// types and relationships as the edit wrote them: they name it.
	var added []string // the new parts, made up or not
	realNew := false
	for _, name := range changed {
		if orig[strings.ToLower(name)] != nil {
			continue
		}
		added = append(added, name)
		again, ok := base[name]
		realNew = realNew || !ok || !bytes.Equal(again, edited.parts[name].Bytes())
	}
	for _, name := range changed {
		data := edited.parts[name].Bytes()
		zf := orig[strings.ToLower(name)]
		again, same := base[name]
		same = same && bytes.Equal(again, data) && !(realNew && namesAny(name, data, added))
		switch {
		case zf == nil && (realNew || !same):
			parts[name] = splice.Bytes(data)
		case zf != nil && !same:
			parts[zf.Name] = splice.Bytes(appendedOnly(zf, base[name], data))
		}
		// Otherwise it was only re-serialised (the original entry is
		// copied raw) or made up (left out, unless named below).
	}
	// A made-up part stays when the content types or a relationships part
	// the edit changed for its own reasons (a calculation chain dropped)
	// is written as the edit wrote it, naming the part too.
	for _, name := range added {
		if _, kept := parts[name]; kept {
			continue
		}
		for written, p := range parts {
			if b, ok := p.(splice.Bytes); ok && namesAny(written, b, []string{name}) {
				parts[name] = splice.Bytes(edited.parts[name].Bytes())
				break
			}
		}
	}
	for _, zf := range zr.File {
		if !written[zf.Name] {
			parts[zf.Name] = splice.Dropped{}
		}
	}
	var out bytes.Buffer
	if err := splice.WritePackage(&out, zr, parts); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Saved returns what saving f writes for each of the named parts (a
// Reserialise reads its fresh copy's parts with it).
func Saved(f *excelize.File, names []string) (map[string][]byte, error) {
	saved, err := savedParts(f)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(names))
	for _, name := range names {
		if buf, ok := saved.parts[name]; ok {
			out[name] = buf.Bytes()
		}
	}
	return out, nil
}

// appendedOnly returns data, the edit's save of the part zf, as the
// original bytes with the records the edit added appended, when baseline
// (the part re-serialised unchanged) shows the edit only added records to
// a list part (styles, shared strings, relationships, content types);
// otherwise data itself.
func appendedOnly(zf *zip.File, baseline, data []byte) []byte {
	if baseline == nil {
		return data
	}
	rc, err := zf.Open()
	if err != nil {
		return data
	}
	defer rc.Close()
	orig, err := io.ReadAll(io.LimitReader(rc, int64(zf.UncompressedSize64)+1))
	if err != nil {
		return data
	}
	merged, err := xmlappend.Merge(orig, baseline, data)
	if err != nil {
		return data
	}
	return merged
}

// sameContent reports whether the entry zf inflates to exactly data,
// reading no more than data's length plus one byte.
func sameContent(zf *zip.File, data []byte) bool {
	if zf.UncompressedSize64 != uint64(len(data)) {
		return false
	}
	rc, err := zf.Open()
	if err != nil {
		return false
	}
	defer rc.Close()
	got, err := io.ReadAll(io.LimitReader(rc, int64(len(data))+1))
	return err == nil && bytes.Equal(got, data)
}

// namesAny reports whether the part name, with content data, is the
// content types or a relationships part that names one of parts.
func namesAny(name string, data []byte, parts []string) bool {
	if !strings.EqualFold(name, "[Content_Types].xml") && !strings.HasSuffix(strings.ToLower(name), ".rels") {
		return false
	}
	for _, p := range parts {
		if bytes.Contains(data, []byte(path.Base(p)+`"`)) {
			return true
		}
	}
	return false
}
