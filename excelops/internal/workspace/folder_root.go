package workspace

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/atomicfile"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/filelock"
)

// The save and the lock for systems without *at calls (Windows, where
// Root.Replace and Root.Lock are these): the workbook's folder is
// opened as an *os.Root of its own beneath the workspace root
// (Root.OpenRoot), whose methods look up every name beneath that folder
// only, links followed only while they stay inside it. They build on every
// system, so the folder-swapper tests run them on Linux too.

// OpenFolderRoot opens the folder dir as an *os.Root beneath the workspace
// root. The handle it holds keeps naming that folder whatever is renamed
// around it, which is what the save and the lock hold on to.
func (s *Root) OpenFolderRoot(dir string) (*os.Root, error) {
	rel, err := s.Rel(dir)
	if err != nil {
		return nil, err
	}
	r, err := s.fs.OpenRoot(rel)
	if err != nil {
		return nil, s.rootErr(dir, err)
	}
	return r, nil
}

// ReplaceViaRoot writes what produce writes over path atomically (see
// atomicfile.ReplaceInRoot), in path's folder as opened through the root:
// the temporary file, the rename and the clean-up all stay in that folder.
func (s *Root) ReplaceViaRoot(ctx context.Context, path string, mode fs.FileMode, o atomicfile.Options, produce func(io.Writer) error) error {
	d, err := s.OpenFolderRoot(filepath.Dir(path))
	if err != nil {
		return &atomicfile.StepError{Step: atomicfile.StepCreate, Err: err}
	}
	defer d.Close()
	return atomicfile.ReplaceInRoot(ctx, d, filepath.Base(path), mode, o, produce)
}

// LockViaRoot takes the cross-process lock of the workbook at path (see
// filelock.AcquireInRoot) in its folder as opened through the root.
func (s *Root) LockViaRoot(ctx context.Context, path string) (*filelock.Lock, error) {
	d, err := s.OpenFolderRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return filelock.AcquireInRoot(ctx, d, filepath.Base(path))
}
