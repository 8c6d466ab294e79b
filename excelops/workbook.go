package excelops

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
	"syscall"

	"github.com/xuri/excelize/v2"
)

// newFileMode is the mode of a workbook this package creates.
const newFileMode fs.FileMode = 0o644

// book is one workbook opened for the length of one call.
type book struct {
	svc     *Service
	f       *excelize.File
	path    string // resolved real path
	mode    fs.FileMode
	zr      *zip.Reader             // the package as it was on disk (nil for a new workbook)
	index   *pkgIndex               // sheets as workbook.xml lists them (nil until needed)
	sst     []string                // shared strings as on disk, loaded by the first read
	extents map[string]*sheetExtent // sheets parsed for editing: their used range
	tmpDir  string
	created bool
}

// name is the file name reported in results.
func (b *book) name() string { return filepath.Base(b.path) }

// close releases everything the book holds; it is safe on a partly opened book.
func (b *book) close() {
	if b.f != nil {
		_ = b.f.Close()
	}
	if b.tmpDir != "" {
		_ = os.RemoveAll(b.tmpDir)
	}
}

// checkExtension refuses files excelize cannot open as workbooks.
func checkExtension(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".xlsm", ".xltx", ".xltm":
		return nil
	}
	return newError(KindInvalidArgument, fmt.Sprintf("%q is not an .xlsx/.xlsm workbook", filepath.Base(path)), nil)
}

// openBook opens the workbook at the resolved path. When create is true a
// missing file becomes a new empty workbook (saved only if the call succeeds).
// When light is true excelize is not involved: only the package index is
// read, for tools that stream sheets themselves.
func (s *Service) openBook(path string, create, light bool) (_ *book, err error) {
	if err := checkExtension(path); err != nil {
		return nil, err
	}
	b := &book{svc: s, path: path, extents: map[string]*sheetExtent{}}
	defer func() {
		if err != nil {
			b.close()
		}
	}()
	opts := excelize.Options{
		UnzipSizeLimit:    s.limits.UnzipSizeLimit,
		UnzipXMLSizeLimit: s.limits.UnzipXMLSizeLimit,
		TmpDir:            s.tmpBase,
	}
	fh, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, fs.ErrNotExist) && create {
		if b.tmpDir, err = os.MkdirTemp(s.tmpBase, "excelops-"); err != nil {
			return nil, newError(KindIO, "cannot create a private temporary folder: "+err.Error(), err)
		}
		opts.TmpDir = b.tmpDir
		b.f, b.mode, b.created = excelize.NewFile(opts), newFileMode, true
		return b, nil
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, newError(KindNotFound, fmt.Sprintf("file not found: %s", filepath.Base(path)), nil)
		}
		if errors.Is(err, syscall.ELOOP) {
			return nil, refuse(filepath.Base(path), "it became a link")
		}
		return nil, newError(KindIO, "cannot open the workbook: "+err.Error(), err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, newError(KindIO, "cannot stat the workbook: "+err.Error(), err)
	}
	if !st.Mode().IsRegular() {
		return nil, newError(KindInvalidArgument, fmt.Sprintf("%q is not a regular file", filepath.Base(path)), nil)
	}
	if st.Size() > s.limits.MaxFileSize {
		return nil, limitErr(fmt.Sprintf("the file is %d bytes, more than the limit of %d", st.Size(), s.limits.MaxFileSize))
	}
	b.mode = st.Mode()
	raw := make([]byte, st.Size())
	if _, err := io.ReadFull(fh, raw); err != nil {
		return nil, newError(KindIO, "cannot read the workbook: "+err.Error(), err)
	}
	if b.zr, err = zip.NewReader(bytes.NewReader(raw), int64(len(raw))); err != nil {
		return nil, newError(KindDamaged, fmt.Sprintf("file is damaged: %s is not a valid xlsx (zip) package", filepath.Base(path)), err)
	}
	var total uint64
	spills := false
	for _, zf := range b.zr.File {
		total += zf.UncompressedSize64
		spills = spills || zf.UncompressedSize64 > uint64(s.limits.UnzipXMLSizeLimit)
	}
	if total > uint64(s.limits.UnzipSizeLimit) {
		return nil, limitErr(fmt.Sprintf("its parts inflate to %d bytes, more than the unzip limit of %d (zip bomb?)", total, s.limits.UnzipSizeLimit))
	}
	if spills && !light {
		// excelize inflates big parts to temporary files: give it a
		// private folder, removed when the call ends.
		if b.tmpDir, err = os.MkdirTemp(s.tmpBase, "excelops-"); err != nil {
			return nil, newError(KindIO, "cannot create a private temporary folder: "+err.Error(), err)
		}
		opts.TmpDir = b.tmpDir
	}
	if light {
		if b.index, err = sheetParts(b.zr); err != nil {
			return nil, err
		}
		return b, nil
	}
	f, err := excelize.OpenReader(bytes.NewReader(raw), opts)
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		if strings.Contains(err.Error(), "unzip size exceeds") {
			return nil, limitErr(err.Error())
		}
		return nil, newError(KindDamaged, fmt.Sprintf("file is damaged: cannot open %s: %v", filepath.Base(path), err), err)
	}
	b.f = f
	return b, nil
}

// sheet returns the exact name of the sheet the user means: name itself,
// a case-insensitive match, or the active sheet when name is empty.
func (b *book) sheet(name string) (string, error) {
	list, active := b.sheetList()
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
	return "", newError(KindSheetNotFound, fmt.Sprintf("Worksheet %s does not exist. Available sheets: %s", name, strings.Join(list, ", ")), nil)
}

// sheetList returns the sheet names in order and the active sheet's index.
func (b *book) sheetList() ([]string, int) {
	if b.f != nil {
		return b.f.GetSheetList(), b.f.GetActiveSheetIndex()
	}
	names := make([]string, len(b.index.sheets))
	for i, s := range b.index.sheets {
		names[i] = s.name
	}
	return names, b.index.activeTab
}

// part returns the zip entry of sheet as it is on disk, or nil.
func (b *book) part(sheet string) (*zip.File, error) {
	if b.zr == nil {
		return nil, nil
	}
	if b.index == nil {
		idx, err := sheetParts(b.zr)
		if err != nil {
			return nil, err
		}
		b.index = idx
	}
	for _, s := range b.index.sheets {
		if s.name == sheet && s.part != "" {
			return findPart(b.zr, s.part), nil
		}
	}
	return nil, nil
}

// scan measures sheet as it is on disk (see scanSheet).
func (b *book) scan(sheet string) (sheetExtent, error) {
	zf, err := b.part(sheet)
	if err != nil || zf == nil {
		return sheetExtent{closed: true}, err
	}
	rc, err := zf.Open()
	if err != nil {
		return sheetExtent{}, newError(KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	ext, err := scanSheet(rc, b.svc.limits)
	if err != nil {
		return ext, err
	}
	if !ext.closed {
		return ext, newError(KindDamaged, fmt.Sprintf("file is damaged: the XML of sheet %q is truncated or broken after row %d", sheet, ext.maxRow), nil)
	}
	return ext, nil
}

// edit prepares sheet for a mutation: it resolves the name, refuses damaged
// or oversized sheets before excelize parses them, and starts tracking the
// sheet's used range so the saved <dimension> is right.
func (b *book) edit(name string) (string, *sheetExtent, error) {
	sheet, err := b.sheet(name)
	if err != nil {
		return "", nil, err
	}
	if ext, ok := b.extents[sheet]; ok {
		return sheet, ext, nil
	}
	ext, err := b.scan(sheet)
	if err != nil {
		return "", nil, err
	}
	// Parse the sheet now, so broken XML is reported as damage rather
	// than as the failure of whatever edit comes first.
	if _, err := b.f.GetCellValue(sheet, "A1"); err != nil {
		return "", nil, newError(KindDamaged, fmt.Sprintf("file is damaged: sheet %q cannot be parsed: %v", sheet, err), err)
	}
	b.extents[sheet] = &ext
	return sheet, &ext, nil
}

// track starts tracking a sheet created during this call.
func (b *book) track(sheet string) *sheetExtent {
	ext := &sheetExtent{closed: true}
	b.extents[sheet] = ext
	return ext
}

// save writes the workbook atomically over its path, after setting every
// edited sheet's <dimension> to the used range.
func (b *book) save(ctx context.Context) error {
	for sheet, ext := range b.extents {
		if _, err := b.sheet(sheet); err != nil {
			continue // deleted or renamed during this call
		}
		ref := "A1"
		if !ext.empty() {
			ref = rangeRef(ext.minCol, ext.minRow, ext.maxCol, ext.maxRow)
		}
		if err := b.f.SetSheetDimension(sheet, ref); err != nil {
			return err
		}
	}
	return writeAtomic(ctx, b.path, b.mode, b.svc.wrapSave, func(w io.Writer) error {
		_, err := b.f.WriteTo(w)
		return err
	})
}

// mutateOpts tunes one mutation.
type mutateOpts struct {
	create bool // a missing file becomes a new workbook
	icon   bool // hold the icon-set lock from mutation through save
}

// mutate runs fn on the workbook at filePath under the file's exclusive lock
// and saves it atomically only if fn succeeded; on any failure the
// in-memory workbook is discarded and the error returned as is.
func (s *Service) mutate(ctx context.Context, filePath string, o mutateOpts, fn func(*book) (any, error)) (any, error) {
	path, err := s.box.resolve(filePath)
	if err != nil {
		return nil, err
	}
	unlock := s.locks.lockAll(lockSpec{path: path, write: true})
	defer unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := s.openBook(path, o.create, false)
	if err != nil {
		return nil, err
	}
	defer b.close()
	if o.icon {
		s.iconMu.Lock()
		defer s.iconMu.Unlock()
	}
	res, err := fn(b)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := b.save(ctx); err != nil {
		return nil, err
	}
	s.log.WithFields(map[string]any{"file": b.name()}).Debug("workbook saved")
	return res, nil
}

// read runs fn on the workbook at filePath under the file's shared lock;
// light skips excelize (see openBook).
func (s *Service) read(ctx context.Context, filePath string, light bool, fn func(*book) (any, error)) (any, error) {
	path, err := s.box.resolve(filePath)
	if err != nil {
		return nil, err
	}
	unlock := s.locks.lockAll(lockSpec{path: path})
	defer unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := s.openBook(path, false, light)
	if err != nil {
		return nil, err
	}
	defer b.close()
	return fn(b)
}
