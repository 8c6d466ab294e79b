package engine

import (
	"bytes"
	"context"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/keepparts"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// keptPackage returns the zip to save for b: b's excelize save, with every
// part the edit did not change copied raw from the file on disk
// (internal/keepparts). The part of b.target, the sheet the call edits, is
// taken as changed when it is big (keepparts.BigSheetPart). ok is false
// when the file on disk cannot serve as the original (a new workbook, one
// whose zip was repaired or decrypted to be read): the caller then writes
// excelize's save as it is.
func (b *Book) keptPackage(ctx context.Context) (pkg []byte, ok bool, err error) {
	if b.Created {
		return nil, false, nil
	}
	raw, _, err := b.Svc.ReadRegular(b.Path)
	if err != nil {
		return nil, false, nil // the save's identity check reports a file that moved
	}
	p, err := b.Svc.OpenPackage(bytes.NewReader(raw), int64(len(raw)), b.Name())
	if err != nil || p.rebuilt || p.Encrypted {
		return nil, false, nil
	}
	sheetPart, _ := b.f.SheetXMLPath(b.target)
	pkg, err = keepparts.Package(ctx, p.Zr, b.f, sheetPart, func(names []string) (map[string][]byte, error) {
		return b.Svc.reserialised(raw, names)
	})
	if err != nil {
		return nil, false, err
	}
	return pkg, true, nil
}

// reserialised opens a fresh copy of the package raw, parses the named
// parts as an edit would and returns what excelize's save writes for each:
// what those parts look like re-serialised when nothing changed them.
func (s *Engine) reserialised(raw []byte, names []string) (map[string][]byte, error) {
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
	saved, err := keepparts.Saved(f, names)
	if err != nil {
		return nil, nil
	}
	return saved, nil
}
