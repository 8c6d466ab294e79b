//go:build unix

package workspace

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/atomicfile"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/filelock"
)

// oNonblock opens workbooks without waiting (see openRegular).
const oNonblock = syscall.O_NONBLOCK

// identifyOpen returns st: on Unix a FileInfo carries the file's identity
// (Stat_t: device and inode), which idOf reads.
func (s *Root) identifyOpen(_ *os.File, st fs.FileInfo) fs.FileInfo { return st }

// identifyPath returns st (see identifyOpen).
func (s *Root) identifyPath(_ string, st fs.FileInfo) fs.FileInfo { return st }

// OpenDir opens the folder dir (the root itself or a folder below it)
// through the root. The descriptor it returns keeps naming that folder
// whatever is renamed around it, which is what the save and the lock hold on
// to.
func (s *Root) OpenDir(dir string) (*os.File, error) {
	rel, err := s.Rel(dir)
	if err != nil {
		return nil, err
	}
	d, err := s.fs.OpenFile(rel, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, s.rootErr(dir, err)
	}
	return d, nil
}

// Replace writes what produce writes over path atomically (see
// atomicfile.ReplaceIn), in path's folder as opened through the root: the
// temporary file, the rename and the folder sync all stay in that folder.
func (s *Root) Replace(ctx context.Context, path string, mode fs.FileMode, o atomicfile.Options, produce func(io.Writer) error) error {
	d, err := s.OpenDir(filepath.Dir(path))
	if err != nil {
		return &atomicfile.StepError{Step: atomicfile.StepCreate, Err: err}
	}
	defer d.Close()
	return atomicfile.ReplaceIn(ctx, d, filepath.Base(path), mode, o, produce)
}

// Lock takes the cross-process lock of the workbook at path (see
// filelock.AcquireIn) in its folder as opened through the root.
func (s *Root) Lock(ctx context.Context, path string) (*filelock.Lock, error) {
	d, err := s.OpenDir(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return filelock.AcquireIn(ctx, d, filepath.Base(path))
}
