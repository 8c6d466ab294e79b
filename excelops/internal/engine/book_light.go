package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
)

// openLight opens b's package for the streaming readers (a light book: no
// excelize) through the open file, as the splice path does: nothing is read
// whole, so a read costs the same memory whatever the workbook weighs. The
// file stays open until b.close. A program that rewrites the file in place
// meanwhile (ignoring the lock file) can make the read fail as damaged, as
// reading it whole could.
func (s *Engine) openLight(b *Book) error {
	fh, st, err := s.Box.OpenRegular(b.Path)
	if err != nil {
		if failure.KindOf(err) != "" {
			return err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return FileNotFound(s.Box, b.Path)
		}
		return failure.New(failure.KindIO, "cannot open the workbook: "+err.Error(), err)
	}
	b.file = fh
	if st.Size() > s.Limits.MaxFileSize {
		return budget.TooLarge(fmt.Sprintf("the file is %d bytes, more than the limit of %d", st.Size(), s.Limits.MaxFileSize))
	}
	b.mode = st.Mode()
	b.id, _ = workspace.IDOf(st)
	p, err := s.OpenPackage(fh, st.Size(), filepath.Base(b.Path))
	if err != nil {
		return err
	}
	b.Zr, b.encrypted = p.Zr, p.Encrypted
	var total uint64
	for _, zf := range b.Zr.File {
		total += zf.UncompressedSize64
	}
	if total > uint64(s.Limits.UnzipSizeLimit) {
		return budget.TooLarge(fmt.Sprintf("its parts inflate to %d bytes, more than the unzip limit of %d (zip bomb?)", total, s.Limits.UnzipSizeLimit))
	}
	b.cost = int64(total) * ParsedBytesPerXMLByte
	id, known := b.lightKey()
	if known {
		if e := s.Light.Get(id); e != nil {
			b.Index, b.dates, b.sst = e.Index, e.Dates, e.Strings
			return nil
		}
	}
	if b.Index, err = opc.ReadIndex(b.Zr); err != nil {
		return err
	}
	if known {
		s.Light.PutIndex(b.Path, id, b.Index)
	}
	return nil
}
