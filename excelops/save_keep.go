package excelops

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
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

// keptPackage returns the zip to save for b: b's excelize save, with every
// part the edit did not change copied raw from the file on disk. ok is
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
	base, err := b.svc.reserialised(raw, changed)
	if err != nil {
		return nil, false, err
	}
	var madeUp []string // parts excelize made up, left out of the save
	for _, name := range changed {
		data := edited.parts[name].Bytes()
		zf := orig[strings.ToLower(name)]
		again, same := base[name]
		same = same && bytes.Equal(again, data)
		switch {
		case zf == nil && same:
			// A part excelize makes up when it reads a missing one (an
			// empty shared string table): the original has none, and its
			// content types and relationships stay as they were, or lose
			// it below when the edit changed them.
			madeUp = append(madeUp, name)
		case zf == nil:
			parts[name] = splice.Bytes(data)
		case !same:
			parts[zf.Name] = splice.Bytes(data)
		}
		// Otherwise it was only re-serialised: the original entry is
		// copied raw.
	}
	for _, zf := range p.zr.File {
		if !written[zf.Name] {
			parts[zf.Name] = splice.Dropped{}
		}
	}
	unreference(parts, madeUp)
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
	f, err := excelize.OpenReader(bytes.NewReader(raw), excelize.Options{
		UnzipSizeLimit:    s.limits.UnzipSizeLimit,
		UnzipXMLSizeLimit: s.limits.UnzipXMLSizeLimit,
		TmpDir:            s.tmpBase,
	})
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

// unreference removes, from the content types and relationship parts the
// save writes anew (an edit that adds a part changes them), the entries
// naming a part left out of the save because excelize made it up (see
// keptPackage): a relationship to a missing part makes openpyxl refuse the
// file, and Excel repair it.
func unreference(parts map[string]splice.Part, dropped []string) {
	if len(dropped) == 0 {
		return
	}
	for name, p := range parts {
		data, ok := p.(splice.Bytes)
		if !ok || (name != "[Content_Types].xml" && !strings.HasSuffix(name, ".rels")) {
			continue
		}
		for _, d := range dropped {
			abs := regexp.QuoteMeta("/" + d)
			rel := abs // a relative target only from a part in the same folder
			if path.Dir(path.Dir(name)) == path.Dir(d) {
				rel = regexp.QuoteMeta(path.Base(d))
			}
			re := regexp.MustCompile(`<Override PartName="` + abs + `"[^>]*?(/>|></Override>)` +
				`|<Relationship [^>]*?Target="(` + abs + `|` + rel + `)"[^>]*?(/>|></Relationship>)`)
			data = re.ReplaceAll(data, nil)
		}
		parts[name] = data
	}
}
