package splicepath

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
)

// Book is one workbook opened for a splice edit: the package as on
// disk (read through the open file, never held whole in memory), its sheet
// index and, when an edit needs them, its styles.
type Book struct {
	svc    *engine.Engine
	path   string
	file   *os.File
	zr     *zip.Reader
	index  *opc.Index
	id     workspace.FileID
	mode   fs.FileMode
	styles *styleBook             // loaded by the first edit that needs styles
	parts  map[string]splice.Part // small parts rewritten besides the sheets (calcChain.xml)
	calc   bool                   // set fullCalcOnLoad: a formula value was computed
	writes *cellWrites            // what write_cells writes (nil for other edits)
	fit    *engine.ColFitter      // measures the columns write_cells widens (nil for other edits)
	scope  *formuladeps.Scope     // the tables and defined names formulas read, once read (see depScope)
	meta   *spillMeta             // the dynamic array cell metadata, once looked at (see spillMetadata)
}

// Name is the file name reported in results.
func (sb *Book) Name() string { return filepath.Base(sb.path) }

// FormulaScope returns what the formulas a splice edit writes may refer
// to, from the package index (workbook.xml) and the table parts.
func (sb *Book) FormulaScope() *recalc.FormulaScope {
	return recalc.PackageFormulaScope(sb.index, sb.zr)
}

// PlanFunc builds the plan of one cells edit and the tool's result; it
// runs under the workbook's locks with the sheet resolved.
type PlanFunc func(sb *Book, sheet string) (splice.Plan, any, error)

// Edit returns the splice path edit that plans with plan (Call.Splice).
func Edit(plan PlanFunc) engine.SpliceEdit {
	return func(ctx context.Context, e *engine.Engine, path, sheet string) (any, error) {
		return spliceOnce(ctx, e, path, sheet, plan)
	}
}

// spliceOnce is one attempt at a cells edit of sheetName through the splice
// path (see SpliceEdit). It checks that the file is still the version it
// read right before the rename (KindConflict otherwise).
func spliceOnce(ctx context.Context, s *engine.Engine, path, sheetName string, edit PlanFunc) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sb, err := openBook(s, path)
	if err != nil {
		return nil, err
	}
	defer sb.close()
	sheet, part, ok := sb.resolveSheet(sheetName)
	if !ok {
		return nil, engine.NoSplice("the sheet is missing or is not a worksheet")
	}
	plan, res, err := edit(sb, sheet)
	if err != nil {
		return nil, err
	}
	plan.MaxRow = min(s.Limits.MaxRows, grid.LastRow)
	plan.MaxCellText = s.Limits.MaxCellTextBytes
	// Damaged stays damaged: a cell pointing at a shared string that does
	// not exist fails the edit as it fails a read.
	plan.SharedStrings = sb.StreamBook().SharedStringCount
	// A shared string table bigger than one cell may be goes through the
	// excelize path, which bounds every shared string while it streams.
	if sst := opc.FindPart(sb.zr, "xl/sharedStrings.xml"); sst != nil && int64(sst.UncompressedSize64) > s.Limits.MaxCellTextBytes {
		return nil, engine.NoSplice("the shared string table is larger than one cell may be")
	}
	parts, err := sb.editParts(ctx, part, sheet, plan)
	if err != nil {
		return nil, err
	}
	defer releaseParts(parts)
	if err := sb.smallParts(parts); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	err = s.WriteAtomic(ctx, path, sb.mode, s.WrapSave, sb.unchangedOnDisk, func(w io.Writer) error {
		err := splice.WritePackage(w, sb.zr, parts)
		// Every entry is copied: let go of the old file before the rename,
		// so the rename never replaces a file this process holds open
		// (Windows refuses that where the file system has no POSIX rename
		// semantics: FAT, exFAT, network shares).
		_ = sb.file.Close()
		return err
	})
	if err != nil && failure.KindOf(err) != failure.KindConflict {
		if cerr := sb.unchangedOnDisk(); cerr != nil {
			err = cerr // rewritten in place while its entries were copied: a conflict, done again
		}
	}
	s.ObserveSave(err)
	if err != nil {
		return nil, err
	}
	s.Cache.Drop(path) // a parsed copy of the old version is of no use any more
	s.Log.WithFields(map[string]any{"file": sb.Name(), "path": "splice"}).Debug("workbook saved")
	return res, nil
}

// openBook opens the workbook at path for a splice edit; a missing file
// is engine.ErrNoSplice (the excelize path creates it or reports it).
func openBook(s *engine.Engine, path string) (_ *Book, err error) {
	if err := engine.CheckExtension(path); err != nil {
		return nil, err
	}
	if st, err := s.Box.Lstat(path); err != nil || !st.Mode().IsRegular() {
		return nil, engine.NoSplice("the file is missing or not a regular file") // missing, a link, a FIFO...: the excelize path says which
	}
	// openRegular's stat is of the open file, regular, and carries its
	// identity on every system (see sandbox.identifyOpen).
	fh, st, err := s.Box.OpenRegular(path)
	if err != nil {
		return nil, engine.NoSplice("the file cannot be opened") // missing, became a FIFO, unreadable: the excelize path says which
	}
	sb := &Book{svc: s, path: path, file: fh, parts: map[string]splice.Part{}}
	defer func() {
		if err != nil {
			sb.close()
		}
	}()
	if st.Size() > s.Limits.MaxFileSize {
		return nil, budget.TooLarge(fmt.Sprintf("the file is %d bytes, more than the limit of %d", st.Size(), s.Limits.MaxFileSize))
	}
	sb.mode = st.Mode()
	sb.id, _ = workspace.IDOf(st)
	// The package is read through the open file, so memory does not grow
	// with the workbook. A program that rewrites the file in place while
	// it is read is caught by the identity check before the rename (and a
	// read that fails meanwhile is reported as that conflict).
	p, err := s.OpenPackage(fh, st.Size(), filepath.Base(path))
	if err != nil {
		return nil, err
	}
	if p.Encrypted {
		return nil, engine.RefuseEncryptedWrite(filepath.Base(path))
	}
	sb.zr = p.Zr
	var total uint64
	for _, zf := range sb.zr.File {
		total += zf.UncompressedSize64
	}
	if total > uint64(s.Limits.UnzipSizeLimit) {
		return nil, budget.TooLarge(fmt.Sprintf("its parts inflate to %d bytes, more than the unzip limit of %d (zip bomb?)", total, s.Limits.UnzipSizeLimit))
	}
	if sb.index, err = opc.ReadIndex(sb.zr); err != nil {
		return nil, err
	}
	return sb, nil
}

// close releases the open file and the styles workbook.
func (sb *Book) close() {
	if sb.styles != nil {
		sb.styles.close()
	}
	if sb.fit != nil {
		sb.fit.Close()
	}
	_ = sb.file.Close()
}

// resolveSheet finds the sheet as book.sheet does (exact name, then
// case-insensitive, the active sheet when empty) and its worksheet part;
// ok is false when there is none.
func (sb *Book) resolveSheet(name string) (string, string, bool) {
	idx := sb.index
	pick := -1
	switch {
	case name == "":
		pick = idx.ActiveTab
	default:
		for i, s := range idx.Sheets {
			if s.Name == name {
				pick = i
				break
			}
		}
		if pick < 0 {
			for i, s := range idx.Sheets {
				if strings.EqualFold(s.Name, name) {
					pick = i
					break
				}
			}
		}
	}
	if pick < 0 || pick >= len(idx.Sheets) {
		return "", "", false
	}
	ps := idx.Sheets[pick]
	if ps.Part == "" || ps.Kind != opc.Worksheet || opc.FindPart(sb.zr, ps.Part) == nil {
		return "", "", false
	}
	return ps.Name, ps.Part, true
}

// unchangedOnDisk is book.unchangedOnDisk for a splice edit.
func (sb *Book) unchangedOnDisk() error {
	if id, ok := sb.svc.Box.StatID(sb.path); ok && id == sb.id {
		return nil
	}
	return failure.New(failure.KindConflict, fmt.Sprintf("%s was changed on disk by another program while this call was editing it; nothing was written: read it again and retry", sb.Name()), nil)
}

// smallParts adds the rewritten small parts (styles, workbook, those an
// edit put in sb.parts) to parts.
func (sb *Book) smallParts(parts map[string]splice.Part) error {
	for name, p := range sb.parts {
		parts[name] = p
	}
	if sb.styles != nil && sb.styles.changed() {
		data, err := sb.styles.bytes()
		if err != nil {
			return err
		}
		parts[opc.FindPart(sb.zr, sb.stylesPart()).Name] = splice.Bytes(data)
	}
	if sb.calc {
		wb := opc.FindPart(sb.zr, sb.workbookPart())
		if wb == nil {
			return failure.New(failure.KindDamaged, "file is damaged: workbook.xml is missing", nil)
		}
		data, err := opc.ReadPart(sb.zr, wb.Name)
		if err != nil {
			return err
		}
		if out, changed := setFullCalcOnLoad(data); changed {
			parts[wb.Name] = splice.Bytes(out)
		}
	}
	return nil
}

// readerWithContext stops a long read when ctx ends.
func readerWithContext(ctx context.Context, r io.Reader) io.Reader { return &ctxReader{ctx: ctx, r: r} }

// ctxReader is readerWithContext's reader.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
	n   int
}

// Read reads from r, checking ctx every few hundred reads.
func (c *ctxReader) Read(p []byte) (int, error) {
	if c.n++; c.n%256 == 0 {
		if err := c.ctx.Err(); err != nil {
			return 0, err
		}
	}
	return c.r.Read(p)
}

// StreamBook is a light book over the same package, for the streaming
// readers (auto_fit measures the sheet before the splice rewrites it).
func (sb *Book) StreamBook() *engine.Book {
	return &engine.Book{Svc: sb.svc, Path: sb.path, Zr: sb.zr, Index: sb.index, Extents: map[string]*sheetread.SheetExtent{}}
}
