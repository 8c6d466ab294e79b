package engine

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// NewFileMode is the mode of a workbook this package creates.
const NewFileMode fs.FileMode = 0o644

// Book is one workbook opened for the length of one call.
type Book struct {
	Svc        *Engine
	f          *excelize.File
	Path       string // resolved real path
	mode       fs.FileMode
	Zr         *zip.Reader                       // the package as it was on disk (nil for a new workbook)
	Index      *opc.Index                        // sheets as workbook.xml lists them (nil until needed)
	sst        []string                          // shared strings as on disk, loaded by the first read
	sstChecked bool                              // guardParse checked the shared strings
	dates      *dates.Styles                     // date styles as on disk, loaded by the first read
	Extents    map[string]*sheetread.SheetExtent // sheets parsed for editing: their used range
	Scanned    map[string]sheetread.SheetExtent  // each extent as its scan found it: save leaves a sheet whose used range did not change as it was
	Formulas   sheetread.FormulaMode             // how this call's reads show formula cells
	Edits      *recalc.EditSet                   // what this call changed, when known (see refreshFormulaValues)
	tmpDir     string
	file       *os.File // the open workbook a light book reads through (book_light.go)
	Created    bool
	encrypted  bool   // encrypted with Excel's default password: reads, never saved
	target     string // the sheet the call edits ("" for none), whose big part a save takes as changed (see keptPackage)
	id         fileID // the version of the file f was parsed from (cache key)
	// unchecked says excelize made a worksheet in memory this call (a new
	// workbook, a new or copied sheet). excelize (v2.11) keeps such a
	// sheet parsed after a save, with the empty rows and cells the save
	// trims gone, and its later edits assume them there: a second edit of
	// the same *excelize.File would write duplicate rows and misplace
	// cells. So such a book is closed after its call, never cached
	// (TestCachedBookAfterNewSheet).
	unchecked bool
	cost      int64 // estimated heap of the parsed workbook (cache budget)
	// ctx is the call the book serves while one runs (nil in the cache):
	// formulas computed inside a tool body stop when it ends.
	ctx context.Context
}

// CallContext is the context of the call the book serves
// (context.Background outside a call).
func (b *Book) CallContext() context.Context {
	if b.ctx == nil {
		return context.Background()
	}
	return b.ctx
}

// Name is the file name reported in results.
func (b *Book) Name() string { return filepath.Base(b.Path) }

// Close releases everything the book holds; it is safe on a partly opened
// book and reports the first failure to remove a temporary file.
func (b *Book) Close() error {
	var err error
	if b.f != nil {
		err = b.f.Close()
	}
	if b.tmpDir != "" {
		if rerr := os.RemoveAll(b.tmpDir); err == nil {
			err = rerr
		}
	}
	if b.file != nil {
		_ = b.file.Close()
	}
	return err
}

// CheckExtension refuses files excelize cannot open as workbooks.
func CheckExtension(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".xlsm", ".xltx", ".xltm":
		return nil
	}
	return failure.New(failure.KindInvalidArgument, fmt.Sprintf("%q is not an .xlsx/.xlsm workbook", filepath.Base(path)), nil)
}

// OpenBook opens the workbook at the resolved path. When create is true a
// missing file becomes a new empty workbook (saved only if the call succeeds).
// When light is true excelize is not involved: only the package index is
// read, for tools that stream sheets themselves.
func (s *Engine) OpenBook(path string, create, light bool) (_ *Book, err error) {
	if err := CheckExtension(path); err != nil {
		return nil, err
	}
	b := &Book{Svc: s, Path: path, Extents: map[string]*sheetread.SheetExtent{}}
	defer func() {
		if err != nil {
			_ = b.Close()
		}
	}()
	opts := s.openOptions()
	if light && !create {
		return b, s.openLight(b)
	}
	raw, st, err := s.ReadRegular(path)
	if errors.Is(err, fs.ErrNotExist) && create {
		if b.tmpDir, err = os.MkdirTemp(s.TmpBase, "excelops-"); err != nil {
			return nil, failure.New(failure.KindIO, "cannot create a private temporary folder: "+err.Error(), err)
		}
		opts.TmpDir = b.tmpDir
		b.f, b.mode, b.Created, b.cost, b.unchecked = excelize.NewFile(opts), NewFileMode, true, newBookCost, true
		s.Opens.Add(1)
		return b, nil
	}
	if err != nil {
		if failure.KindOf(err) != "" {
			return nil, err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, FileNotFound(s.Box, path)
		}
		return nil, failure.New(failure.KindIO, "cannot open the workbook: "+err.Error(), err)
	}
	b.mode = st.Mode()
	b.id, _ = workspace.IDOf(st)
	return b, s.parseBook(b, raw, light, opts)
}

// OpenCopy opens a private in-memory copy of a workbook, the bytes raw,
// for a tool that changes the copy and never saves it over a workspace file
// (render_range). name is the workbook's file name, for messages.
func (s *Engine) OpenCopy(raw []byte, name string) (_ *Book, err error) {
	b := &Book{Svc: s, Path: name, mode: NewFileMode, Extents: map[string]*sheetread.SheetExtent{}}
	opts := s.openOptions()
	if err := s.parseBook(b, raw, false, opts); err != nil {
		_ = b.Close()
		return nil, err
	}
	return b, nil
}

// parseBook reads the package raw into b: the zip index, bounded against
// the unzip limits and the call's memory budget, and, unless light, the
// excelize model.
func (s *Engine) parseBook(b *Book, raw []byte, light bool, opts excelize.Options) (err error) {
	path := b.Path
	p, err := s.OpenPackage(bytes.NewReader(raw), int64(len(raw)), filepath.Base(path))
	if err != nil {
		return err
	}
	b.Zr, b.encrypted = p.Zr, p.Encrypted
	var total, held uint64
	spills := false
	for _, zf := range b.Zr.File {
		total += zf.UncompressedSize64
		if zf.UncompressedSize64 > uint64(s.Limits.UnzipXMLSizeLimit) {
			spills = true
		} else {
			held += zf.UncompressedSize64
		}
	}
	if total > uint64(s.Limits.UnzipSizeLimit) {
		return budget.TooLarge(fmt.Sprintf("its parts inflate to %d bytes, more than the unzip limit of %d (zip bomb?)", total, s.Limits.UnzipSizeLimit))
	}
	if !light {
		copied := int64(0)
		if p.rebuilt {
			copied = p.size // the package excelize reads is not raw
		}
		if err := s.Limits.Within("opening the workbook (the file plus the parts excelize keeps in memory)", int64(len(raw))+copied+int64(held)); err != nil {
			return err
		}
	}
	b.cost = int64(total) * ParsedBytesPerXMLByte
	if spills && !light {
		// excelize inflates big parts to temporary files: give it a
		// private folder, removed when the call ends.
		if b.tmpDir, err = os.MkdirTemp(s.TmpBase, "excelops-"); err != nil {
			return failure.New(failure.KindIO, "cannot create a private temporary folder: "+err.Error(), err)
		}
		opts.TmpDir = b.tmpDir
	}
	if light {
		b.Index, err = opc.ReadIndex(b.Zr)
		return err
	}
	pkg, err := p.bytes(raw)
	if err != nil {
		return err
	}
	f, err := excelize.OpenReader(bytes.NewReader(pkg), opts)
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		// excelize's own unzip limit sums the same sizes the check above
		// already bounded, so every error left here is damage.
		return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: cannot open %s: %v", filepath.Base(path), err), err)
	}
	b.f = f
	s.Opens.Add(1)
	return nil
}

// Sheet returns the exact name of the sheet the user means: name itself,
// a case-insensitive match, or the active sheet when name is empty.
func (b *Book) Sheet(name string) (string, error) {
	list, active := b.SheetList()
	if name == "" {
		return list[active], nil
	}
	for _, s := range list {
		if s == name {
			return s, nil
		}
	}
	for _, s := range list {
		if strings.EqualFold(s, name) {
			return s, nil
		}
	}
	return "", sheetNotFound(name, list, "")
}

// SheetList returns the sheet names in order and the active sheet's index.
func (b *Book) SheetList() ([]string, int) {
	if b.f != nil {
		return b.f.GetSheetList(), b.f.GetActiveSheetIndex()
	}
	names := make([]string, len(b.Index.Sheets))
	for i, s := range b.Index.Sheets {
		names[i] = s.Name
	}
	return names, b.Index.ActiveTab
}

// Part returns the zip entry of sheet as it is on disk, or nil. A book
// kept in the cache has dropped its package; it is read again from disk,
// which holds what the book last saved or was parsed from (the cache
// checked the file's identity before handing the book out).
func (b *Book) Part(sheet string) (*zip.File, error) {
	idx, err := b.packageIndex()
	if err != nil || idx == nil {
		return nil, err
	}
	for _, s := range b.Index.Sheets {
		if s.Name == sheet && s.Part != "" {
			return opc.FindPart(b.Zr, s.Part), nil
		}
	}
	return nil, nil
}

// packageIndex is the book's package as workbook.xml lists it, read from
// disk the first time it is asked for (nil for a book not yet saved).
func (b *Book) packageIndex() (*opc.Index, error) {
	if b.Zr == nil && !b.Created {
		raw, _, err := b.Svc.ReadRegular(b.Path)
		if err != nil {
			if failure.KindOf(err) != "" {
				return nil, err
			}
			return nil, failure.New(failure.KindIO, "cannot read the workbook: "+err.Error(), err)
		}
		p, err := b.Svc.OpenPackage(bytes.NewReader(raw), int64(len(raw)), b.Name())
		if err != nil {
			return nil, err
		}
		b.Zr = p.Zr
	}
	if b.Zr == nil {
		return nil, nil
	}
	if b.Index == nil {
		idx, err := opc.ReadIndex(b.Zr)
		if err != nil {
			return nil, err
		}
		b.Index = idx
	}
	return b.Index, nil
}

// LinkedWorkbooks lists the external workbooks the book's formulas and
// names may read ([1] first), as the links store them ("" for a link whose
// parts are missing).
func (b *Book) LinkedWorkbooks() ([]string, error) {
	idx, err := b.packageIndex()
	if err != nil || idx == nil {
		return nil, err
	}
	return idx.Links, nil
}

// Scan measures sheet as it is on disk (see scanSheet).
func (b *Book) Scan(sheet string) (sheetread.SheetExtent, error) {
	zf, err := b.Part(sheet)
	if err != nil || zf == nil {
		return sheetread.SheetExtent{Closed: true}, err
	}
	rc, err := zf.Open()
	if err != nil {
		return sheetread.SheetExtent{}, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	ext, err := sheetread.ScanSheet(b.Svc.Limits.NewRunBound(rc, fmt.Sprintf("sheet %q", sheet)), b.Svc.Limits, b.SharedStringCount)
	if err != nil {
		return ext, err
	}
	if !ext.Closed {
		return ext, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: the XML of sheet %q is truncated or broken after row %d", sheet, ext.MaxRow), nil)
	}
	return ext, nil
}

// Edit prepares sheet for a mutation: it resolves the name, refuses damaged
// or oversized sheets before excelize parses them, and starts tracking the
// sheet's used range so the saved <dimension> is right.
func (b *Book) Edit(name string) (string, *sheetread.SheetExtent, error) {
	sheet, err := b.Sheet(name)
	if err != nil {
		return "", nil, err
	}
	if ext, ok := b.Extents[sheet]; ok {
		return sheet, ext, nil
	}
	if err := b.requireWorksheet(sheet); err != nil {
		return "", nil, err
	}
	ext, err := b.Scan(sheet)
	if err != nil {
		return "", nil, err
	}
	if err := b.guardParse(sheet, ext); err != nil {
		return "", nil, err
	}
	// Parse the sheet now, so broken XML is reported as damage rather
	// than as the failure of whatever edit comes first.
	if _, err := b.f.GetCellValue(sheet, "A1"); err != nil {
		return "", nil, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: sheet %q cannot be parsed: %v", sheet, err), err)
	}
	b.Extents[sheet] = &ext
	if b.Scanned == nil {
		b.Scanned = map[string]sheetread.SheetExtent{}
	}
	b.Scanned[sheet] = ext
	return sheet, &ext, nil
}

// NewSheet adds an empty worksheet named name and returns its index. The
// book is then unchecked (see book.unchecked): not cached after its call.
func (b *Book) NewSheet(name string) (int, error) {
	idx, err := b.f.NewSheet(name)
	if err != nil {
		return 0, failure.New(failure.KindInvalidArgument, "cannot create sheet: "+err.Error(), err)
	}
	b.unchecked = true
	return idx, nil
}

// Track starts tracking a sheet created during this call.
func (b *Book) Track(sheet string) {
	b.Extents[sheet] = &sheetread.SheetExtent{Closed: true}
}

// save writes the workbook atomically over its path, after setting every
// edited sheet's <dimension> to the used range.
func (b *Book) save(ctx context.Context) error {
	if b.encrypted {
		return RefuseEncryptedWrite(b.Name())
	}
	for sheet, ext := range b.Extents {
		if _, err := b.Sheet(sheet); err != nil {
			continue // deleted or renamed during this call
		}
		if was, ok := b.Scanned[sheet]; ok && was == *ext {
			continue // its used range did not change: its <dimension> stays as the file has it
		}
		ref := "A1"
		if !ext.Empty() {
			ref = grid.RangeRef(ext.MinCol, ext.MinRow, ext.MaxCol, ext.MaxRow)
		}
		if err := b.f.SetSheetDimension(sheet, ref); err != nil {
			return err
		}
	}
	pkg, kept, err := b.keptPackage(ctx)
	if err != nil {
		return err
	}
	err = b.Svc.WriteAtomic(ctx, b.Path, b.mode, b.Svc.WrapSave, b.unchangedOnDisk, func(w io.Writer) error {
		if kept {
			_, err := w.Write(pkg)
			return err
		}
		_, err := b.f.WriteTo(w)
		return err
	})
	b.Svc.ObserveSave(err)
	return err
}

// settle prepares a book that succeeded for the cache: it drops what only
// described the file as it was when opened (the package bytes, the sheet
// index, shared strings) and the used ranges of sheets that no longer exist.
func (b *Book) settle() {
	b.Zr, b.Index, b.sst, b.dates, b.Created = nil, nil, nil, nil, false
	names := map[string]bool{}
	for _, n := range b.f.GetSheetList() {
		names[n] = true
	}
	for n := range b.Extents {
		if !names[n] {
			delete(b.Extents, n)
		}
	}
}

// unchangedOnDisk fails with KindConflict unless the file at b.path is still
// the version b was read from (device, inode, size, mtime and ctime), or,
// for a workbook this call creates, still does not exist. It runs right
// before the new version is renamed into place, under the path's locks:
// other registry-sidecar processes wait on the lock file, so a mismatch
// means another program wrote the file, and overwriting it would lose that
// write.
func (b *Book) unchangedOnDisk() error {
	id, ok := b.Svc.Box.StatID(b.Path)
	switch {
	case b.Created && !ok:
		if _, err := b.Svc.Box.Lstat(b.Path); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	case !b.Created && ok && id == b.id:
		return nil
	}
	return failure.New(failure.KindConflict, fmt.Sprintf("%s was changed on disk by another program while this call was editing it; nothing was written: read it again and retry", b.Name()), nil)
}

// openOptions are the options every excelize open of a workspace file
// takes: the unzip limits and the private temporary folder.
func (s *Engine) openOptions() excelize.Options {
	return excelize.Options{
		UnzipSizeLimit:    s.Limits.UnzipSizeLimit,
		UnzipXMLSizeLimit: s.Limits.UnzipXMLSizeLimit,
		TmpDir:            s.TmpBase,
	}
}
