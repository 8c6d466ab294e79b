package engine

import (
	"fmt"
	"io/fs"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// Reading a whole file of the workspace: only regular files, never more than
// the call may hold.

// ReadRegular reads the whole regular file at path (see sandbox.openRegular),
// refusing it when it is larger than max bytes or than the call's memory
// budget allows.
func (s *Engine) ReadRegular(path string) ([]byte, fs.FileInfo, error) {
	fh, st, err := s.Box.OpenRegular(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	if st.Size() > s.Limits.MaxFileSize {
		return nil, nil, budget.TooLarge(fmt.Sprintf("the file is %d bytes, more than the limit of %d", st.Size(), s.Limits.MaxFileSize))
	}
	if err := s.Limits.Within("reading the workbook file", st.Size()); err != nil {
		return nil, nil, err
	}
	raw := make([]byte, st.Size())
	if _, err := fh.ReadAt(raw, 0); err != nil {
		return nil, nil, failure.New(failure.KindIO, "cannot read the workbook: "+err.Error(), err)
	}
	return raw, st, nil
}
