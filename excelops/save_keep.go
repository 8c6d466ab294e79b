package excelops

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

// Saving an edit made through excelize so that every part the edit did not
// change stays byte for byte as it was on disk.
//
// excelize writes back every part it parsed, re-serialised: the styles, the
// theme, relationships, content types, shared strings and every sheet an
// operation looked at, even when their content did not change. keptPackage
// tells a real change from a re-serialisation by saving a fresh copy of the
// original with the same parts parsed: a part whose edited save equals
// that baseline was only re-serialised, and its original entry is copied
// raw instead.

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

// bigSheetPart is the size from which the part of the sheet a call edits
// is taken as changed without a second parse.
const bigSheetPart = 1 << 20

// keptPackage returns the zip to save for b: b's excelize save, with every
// part the edit did not change copied raw from the file on disk. The part
// of b.target, the sheet the call edits, is taken as changed when it is
// big (bigSheetPart). ok is
// false when the file on disk cannot serve as the original (a new
// workbook, one whose zip was repaired or decrypted to be read): the caller
// then writes excelize's save as it is.
func (b *book) keptPackage(ctx context.Context) (pkg []byte, ok bool, err error) {
	if b.created {
		return nil, false, nil
	}
	raw, _, err := b.svc.readRegular(b.path)
	if err != nil {
		return nil, false, nil // the save's identity check reports a file that moved
	}
	p, err := b.svc.openPackage(bytes.NewReader(raw), int64(len(raw)), b.name())
	if err != nil || p.rebuilt || p.encrypted {
		return nil, false, nil
	}
	edited, err := savedParts(b.f)
	if err != nil {
		return nil, false, err
	}
	orig := map[string]*zip.File{}
	for _, zf := range p.zr.File {
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
		return nil, false, err
	}
	// A big part of the sheet the call edits changed: parsing it again to
	// tell would double the cost of the edit.
	certain, _ := b.f.SheetXMLPath(b.target)
	if zf := orig[strings.ToLower(certain)]; zf == nil || zf.UncompressedSize64 < bigSheetPart {
		certain = ""
	}
	base, err := b.svc.reserialised(raw, slices.DeleteFunc(slices.Clone(changed), func(n string) bool { return n == certain }))
	if err != nil {
		return nil, false, err
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
	for _, zf := range p.zr.File {
		if !written[zf.Name] {
			parts[zf.Name] = splice.Dropped{}
		}
	}
	var out bytes.Buffer
	if err := splice.WritePackage(&out, p.zr, parts); err != nil {
		return nil, false, err
	}
	return out.Bytes(), true, nil
}

// reserialised opens a fresh copy of the package raw, parses the named
// parts as an edit would and returns what excelize's save writes for each:
// what those parts look like re-serialised when nothing changed them.
func (s *Service) reserialised(raw []byte, names []string) (map[string][]byte, error) {
	if len(names) == 0 {
		return nil, nil
	}
	f, err := excelize.OpenReader(bytes.NewReader(raw), s.openOptions())
	if err != nil {
		return nil, nil // the edit's own save stands
	}
	defer f.Close()
	for _, name := range names {
		if _, err := f.ParsePart(name); err != nil {
			return nil, nil
		}
	}
	saved, err := savedParts(f)
	if err != nil {
		return nil, nil
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
