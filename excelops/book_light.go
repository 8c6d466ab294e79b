package excelops

import (
	"errors"
	"fmt"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
	"io/fs"
	"path/filepath"
)

// openLight opens b's package for the streaming readers (a light book: no
// excelize) through the open file, as the splice path does: nothing is read
// whole, so a read costs the same memory whatever the workbook weighs. The
// file stays open until b.close. A program that rewrites the file in place
// meanwhile (ignoring the lock file) can make the read fail as damaged, as
// reading it whole could.
func (s *engine) openLight(b *book) error {
	fh, st, err := s.box.OpenRegular(b.path)
	if err != nil {
		if kindOf(err) != "" {
			return err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return fileNotFound(s.box, b.path)
		}
		return newError(KindIO, "cannot open the workbook: "+err.Error(), err)
	}
	b.file = fh
	if st.Size() > s.limits.MaxFileSize {
		return limitErr(fmt.Sprintf("the file is %d bytes, more than the limit of %d", st.Size(), s.limits.MaxFileSize))
	}
	b.mode = st.Mode()
	b.id, _ = workspace.IDOf(st)
	p, err := s.openPackage(fh, st.Size(), filepath.Base(b.path))
	if err != nil {
		return err
	}
	b.zr, b.encrypted = p.zr, p.encrypted
	var total uint64
	for _, zf := range b.zr.File {
		total += zf.UncompressedSize64
	}
	if total > uint64(s.limits.UnzipSizeLimit) {
		return limitErr(fmt.Sprintf("its parts inflate to %d bytes, more than the unzip limit of %d (zip bomb?)", total, s.limits.UnzipSizeLimit))
	}
	b.cost = int64(total) * parsedBytesPerXMLByte
	id, known := b.lightKey()
	if known {
		if e := s.light.Get(id); e != nil {
			b.index, b.dates, b.sst = e.Index, e.Dates, e.Strings
			return nil
		}
	}
	if b.index, err = opc.ReadIndex(b.zr); err != nil {
		return err
	}
	if known {
		s.light.PutIndex(b.path, id, b.index)
	}
	return nil
}
